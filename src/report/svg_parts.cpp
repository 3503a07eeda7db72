// The pieces the charts share (svg_parts.hpp): the palette, pixel text, padded ranges, ticks, the legend,
// the frame of a plot and its axes.
#include "svg_parts.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

namespace augur::report {
namespace parts {

// Okabe and Ito's palette: told apart by readers with any colour vision.
constexpr const char* palette[] = {"#0072B2", "#D55E00", "#009E73", "#CC79A7",
                                   "#E69F00", "#56B4E9", "#000000", "#F0E442"};
constexpr int palette_size = static_cast<int>(sizeof(palette) / sizeof(palette[0]));

const char* color_of(int index) {
  return palette[((index % palette_size) + palette_size) % palette_size];
}

std::string pixel(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f", value);
  return text;
}

bool finite(double value) {
  return std::isfinite(value);
}

Range padded(Range range, const Axis& axis) {
  if (range.empty()) range = axis.logarithmic ? Range{1, 10} : Range{0, 1};
  if (axis.logarithmic) {
    if (range.low == range.high) {
      range.low /= 2;
      range.high *= 2;
    } else {
      const double factor = std::pow(range.high / range.low, 0.04);
      range.low /= factor;
      range.high *= factor;
    }
  } else if (range.low == range.high) {
    const double half = range.low == 0 ? 1 : std::fabs(range.low) * 0.1;
    range.low -= half;
    range.high += half;
  } else {
    const double pad = (range.high - range.low) * 0.04;
    // A range of positive values near zero starts at zero (speedups, times, rates).
    const bool from_zero = range.low >= 0 && range.low < (range.high - range.low) * 0.35;
    range.low = from_zero ? 0 : range.low - pad;
    range.high += pad;
  }
  if (axis.minimum && (!axis.logarithmic || *axis.minimum > 0)) range.low = *axis.minimum;
  if (axis.maximum) range.high = *axis.maximum;
  if (range.high <= range.low) range.high = range.low + (axis.logarithmic ? range.low : 1);
  return range;
}

std::vector<double> ticks_of(const Scale& scale, bool integer) {
  std::vector<double> ticks = scale.logarithmic() ? log_ticks(scale.low(), scale.high()) : linear_ticks(scale.low(), scale.high());
  return integer ? integer_ticks(std::move(ticks), scale.low(), scale.high()) : ticks;
}

// The legend under the plot, wrapped to the width; returns its height.
int legend_height(const std::vector<LegendItem>& items, int width) {
  if (items.empty()) return 0;
  int rows = 1, x = 0;
  for (const LegendItem& item : items) {
    const int item_width = 34 + 7 * static_cast<int>(std::min<std::size_t>(item.name.size(), 60));
    if (x > 0 && x + item_width > width - 20) {
      ++rows;
      x = 0;
    }
    x += item_width;
  }
  return rows * 18 + 6;
}

void write_legend(std::ostringstream& out, const std::vector<LegendItem>& items, int width, int top) {
  if (items.empty()) return;
  out << "<g class=\"legend\">";
  int x = 10, y = top + 12;
  for (const LegendItem& item : items) {
    const std::string name = item.name.size() > 60 ? item.name.substr(0, 59) + "…" : item.name;
    const int item_width = 34 + 7 * static_cast<int>(std::min<std::size_t>(item.name.size(), 60));
    if (x > 10 && x + item_width > width - 10) {
      x = 10;
      y += 18;
    }
    if (item.point) {
      out << "<circle cx=\"" << x + 11 << "\" cy=\"" << y - 3 << "\" r=\"3.5\" fill=\"" << item.color << "\"/>";
    } else if (item.shade) {
      out << "<rect x=\"" << x << "\" y=\"" << y - 8 << "\" width=\"22\" height=\"10\" fill=\"" << item.color
          << (item.solid ? "\"/>" : "\" fill-opacity=\"0.25\"/>");
    } else {
      out << "<line x1=\"" << x << "\" y1=\"" << y - 3 << "\" x2=\"" << x + 22 << "\" y2=\"" << y - 3
          << "\" stroke=\"" << item.color << "\" stroke-width=\"2\"" << (item.dashed ? " stroke-dasharray=\"5,3\"" : "")
          << "/>";
    }
    out << "<text x=\"" << x + 27 << "\" y=\"" << y << "\">" << escape_html(name) << "</text>";
    x += item_width;
  }
  out << "</g>";
}

void open_svg(std::ostringstream& out, int width, int height, const std::string& title, const char* kind) {
  out << "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart " << kind << "\" width=\"" << width
      << "\" height=\"" << height << "\" viewBox=\"0 0 " << width << ' ' << height << "\" role=\"img\">";
  out << "<title>" << escape_html(title) << "</title>";
  out << "<rect class=\"background\" width=\"" << width << "\" height=\"" << height << "\" fill=\"#fff\"/>";
  if (!title.empty()) {
    out << "<text class=\"chart-title\" x=\"" << width / 2 << "\" y=\"18\" text-anchor=\"middle\">"
        << escape_html(title) << "</text>";
  }
}

void write_x_axis(std::ostringstream& out, const Scale& x, const Frame& frame, const std::string& label, bool integer) {
  out << "<g class=\"axis x\">";
  out << "<line x1=\"" << pixel(frame.left) << "\" y1=\"" << pixel(frame.bottom) << "\" x2=\"" << pixel(frame.right)
      << "\" y2=\"" << pixel(frame.bottom) << "\" stroke=\"#333\"/>";
  for (double tick : ticks_of(x, integer)) {
    const double at = x(tick);
    out << "<line class=\"grid\" x1=\"" << pixel(at) << "\" y1=\"" << pixel(frame.top) << "\" x2=\"" << pixel(at)
        << "\" y2=\"" << pixel(frame.bottom + 4) << "\" stroke=\"#ddd\"/>";
    out << "<text class=\"tick\" x=\"" << pixel(at) << "\" y=\"" << pixel(frame.bottom + 16)
        << "\" text-anchor=\"middle\">" << format_number(tick) << "</text>";
  }
  out << "<text class=\"axis-label\" x=\"" << pixel((frame.left + frame.right) / 2) << "\" y=\""
      << pixel(frame.bottom + 34) << "\" text-anchor=\"middle\">" << escape_html(label) << "</text></g>";
}

void write_y_axis(std::ostringstream& out, const Scale& y, const Frame& frame, const std::string& label, bool integer) {
  out << "<g class=\"axis y\">";
  out << "<line x1=\"" << pixel(frame.left) << "\" y1=\"" << pixel(frame.top) << "\" x2=\"" << pixel(frame.left)
      << "\" y2=\"" << pixel(frame.bottom) << "\" stroke=\"#333\"/>";
  for (double tick : ticks_of(y, integer)) {
    const double at = y(tick);
    out << "<line class=\"grid\" x1=\"" << pixel(frame.left - 4) << "\" y1=\"" << pixel(at) << "\" x2=\""
        << pixel(frame.right) << "\" y2=\"" << pixel(at) << "\" stroke=\"#ddd\"/>";
    out << "<text class=\"tick\" x=\"" << pixel(frame.left - 7) << "\" y=\"" << pixel(at + 4)
        << "\" text-anchor=\"end\">" << format_number(tick) << "</text>";
  }
  const double middle = (frame.top + frame.bottom) / 2;
  out << "<text class=\"axis-label\" x=\"14\" y=\"" << pixel(middle) << "\" text-anchor=\"middle\" transform=\"rotate(-90 14 "
      << pixel(middle) << ")\">" << escape_html(label) << "</text></g>";
}

}  // namespace parts

}  // namespace augur::report
