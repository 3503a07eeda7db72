// The bar chart and the Gantt chart of svg.hpp.
#include <algorithm>
#include <cmath>
#include <sstream>

#include "report/svg.hpp"
#include "svg_parts.hpp"

namespace augur::report {

using namespace parts;

std::string render_bars(const BarChart& chart) {
  Range range;
  range.add(0, false);
  for (const BarGroup& group : chart.groups) {
    for (double value : group.values) range.add(value, false);
  }
  std::vector<LegendItem> legend;
  for (std::size_t index = 0; index < chart.series.size(); ++index) {
    if (chart.series.size() > 1) legend.push_back({chart.series[index], color_of(static_cast<int>(index)), true, false});
  }
  const int legend_size = legend_height(legend, chart.width);
  const Frame frame{72, chart.title.empty() ? 12.0 : 30.0, chart.width - 18.0, chart.height - 48.0};
  const Range ys = padded(range, Axis{});
  const Scale y(ys.low, ys.high, frame.bottom, frame.top, false);
  std::ostringstream out;
  open_svg(out, chart.width, chart.height + legend_size, chart.title, "bars");
  write_y_axis(out, y, frame, chart.y_label, false);
  out << "<line x1=\"" << pixel(frame.left) << "\" y1=\"" << pixel(frame.bottom) << "\" x2=\"" << pixel(frame.right)
      << "\" y2=\"" << pixel(frame.bottom) << "\" stroke=\"#333\"/>";
  const double slot = (frame.right - frame.left) / static_cast<double>(std::max<std::size_t>(chart.groups.size(), 1));
  const std::size_t per_group = std::max<std::size_t>(chart.series.size(), 1);
  const double bar = std::min(40.0, slot * 0.8 / static_cast<double>(per_group));
  const std::size_t label_every = std::max<std::size_t>(1, static_cast<std::size_t>(std::ceil(40.0 / slot)));
  for (std::size_t group_index = 0; group_index < chart.groups.size(); ++group_index) {
    const BarGroup& group = chart.groups[group_index];
    const double centre = frame.left + slot * (static_cast<double>(group_index) + 0.5);
    const double first = centre - bar * static_cast<double>(group.values.size()) / 2;
    for (std::size_t index = 0; index < group.values.size(); ++index) {
      const double value = group.values[index];
      if (!finite(value)) continue;
      const double top = y(std::max(value, 0.0)), base = y(std::min(value, 0.0));
      out << "<rect class=\"bar\" x=\"" << pixel(first + bar * static_cast<double>(index)) << "\" y=\"" << pixel(top)
          << "\" width=\"" << pixel(bar * 0.92) << "\" height=\"" << pixel(std::max(base - top, 0.5)) << "\" fill=\""
          << color_of(static_cast<int>(index)) << "\"><title>" << escape_html(group.label)
          << (index < chart.series.size() ? " " + escape_html(chart.series[index]) : "") << ": "
          << format_number(value, 6) << "</title></rect>";
    }
    if (group_index % label_every == 0) {
      out << "<text class=\"tick\" x=\"" << pixel(centre) << "\" y=\"" << pixel(frame.bottom + 16)
          << "\" text-anchor=\"middle\">" << escape_html(group.label) << "</text>";
    }
  }
  write_legend(out, legend, chart.width, chart.height);
  out << "</svg>";
  return out.str();
}

std::string render_gantt(const Gantt& gantt) {
  std::vector<std::string> rows;
  Range range;
  range.add(0, false);
  std::size_t longest = 4;
  for (const GanttBar& bar : gantt.bars) {
    if (std::find(rows.begin(), rows.end(), bar.row) == rows.end()) rows.push_back(bar.row);
    longest = std::max(longest, std::min<std::size_t>(bar.row.size(), 28));
    range.add(bar.start, false);
    range.add(bar.end, false);
  }
  const double row_height = 22;
  const double left = 14 + 7.0 * static_cast<double>(longest);
  const double top = gantt.title.empty() ? 12 : 30;
  const double bottom = top + row_height * static_cast<double>(rows.size());
  const int height = static_cast<int>(bottom) + 44;
  const Frame frame{left, top, gantt.width - 18.0, bottom};
  const Range xs = padded(range, Axis{});
  const Scale x(xs.low, xs.high, frame.left, frame.right, false);
  std::ostringstream out;
  open_svg(out, gantt.width, height, gantt.title, "gantt");
  write_x_axis(out, x, frame, gantt.x_label, false);
  for (std::size_t index = 0; index < rows.size(); ++index) {
    const std::string& row = rows[index];
    const std::string shown_label = row.size() > 28 ? row.substr(0, 27) + "…" : row;
    out << "<text class=\"row-label\" x=\"" << pixel(left - 6) << "\" y=\""
        << pixel(top + row_height * (static_cast<double>(index) + 0.5) + 4) << "\" text-anchor=\"end\">"
        << escape_html(shown_label) << "</text>";
  }
  for (const GanttBar& bar : gantt.bars) {
    const auto row = static_cast<std::size_t>(std::find(rows.begin(), rows.end(), bar.row) - rows.begin());
    const double from = x(std::min(bar.start, bar.end)), to = x(std::max(bar.start, bar.end));
    out << "<rect class=\"bar\" x=\"" << pixel(from) << "\" y=\"" << pixel(top + row_height * static_cast<double>(row) + 3)
        << "\" width=\"" << pixel(std::max(to - from, 1.0)) << "\" height=\"" << pixel(row_height - 6) << "\" fill=\""
        << color_of(static_cast<int>(row)) << "\"><title>" << escape_html(bar.row) << ": " << format_number(bar.start, 6)
        << " – " << format_number(bar.end, 6) << (bar.note.empty() ? "" : " (" + escape_html(bar.note) + ")")
        << "</title></rect>";
  }
  out << "</svg>";
  return out.str();
}

}  // namespace augur::report
