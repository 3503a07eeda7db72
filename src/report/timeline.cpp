#include "report/timeline.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <tuple>

#include "report/svg.hpp"
#include "svg_parts.hpp"

namespace augur::report {
namespace {

using namespace parts;

constexpr double row_height = 16;  // one nesting level of a track
constexpr double track_gap = 4;
constexpr double bar_height = 12;
constexpr std::size_t label_characters = 28;

// A slice with its place: track, depth, key.
struct Placed {
  std::size_t track;
  int depth;
  std::size_t key;
  double start, end;
  const std::string* name;
};

// The key's index in `keys`, added when new; past `max_keys` keys, the index of "other".
std::size_t key_index(std::vector<std::string>& keys, const std::string& key, std::size_t max_keys) {
  const auto found = std::find(keys.begin(), keys.end(), key);
  if (found != keys.end()) return static_cast<std::size_t>(found - keys.begin());
  if (keys.size() < max_keys) {
    keys.push_back(key);
    return keys.size() - 1;
  }
  if (keys.size() == max_keys) keys.push_back("other");
  return max_keys;
}

// The slices of each drawn track with their depths, and the counts of what is not drawn.
std::vector<Placed> place(const TimelineChart& chart, TimelineLayout& layout) {
  const std::size_t tracks = std::min(chart.tracks.size(), chart.max_tracks);
  layout.hidden_tracks = chart.tracks.size() - tracks;
  layout.depths.assign(tracks, 1);
  std::vector<std::size_t> drawn;  // indices of the slices on drawn tracks
  for (std::size_t index = 0; index < chart.slices.size(); ++index) {
    const TimelineSlice& slice = chart.slices[index];
    if (!finite(slice.start) || !finite(slice.end) || slice.end < slice.start) continue;
    if (slice.track >= tracks) {
      ++layout.on_hidden_tracks;
      continue;
    }
    drawn.push_back(index);
  }
  // By start, the longer first on a tie (a parent before its children); the legend's keys in that order.
  std::stable_sort(drawn.begin(), drawn.end(), [&](std::size_t a, std::size_t b) {
    const TimelineSlice &x = chart.slices[a], &y = chart.slices[b];
    return x.start != y.start ? x.start < y.start : x.end > y.end;
  });
  std::vector<std::size_t> keys(chart.slices.size());
  for (const std::size_t index : drawn) keys[index] = key_index(layout.keys, chart.slices[index].key, chart.max_keys);
  std::vector<std::vector<double>> open(tracks);  // per track, the ends of the slices that enclose the current start
  std::vector<Placed> placed;
  for (const std::size_t index : drawn) {
    const TimelineSlice& slice = chart.slices[index];
    std::vector<double>& enclosing = open[slice.track];
    // Ended by the start, to rounding: a slice that begins as the last one ends (ts + dur of the one before,
    // summed in floating point) stays on its row.
    while (!enclosing.empty() && enclosing.back() <= slice.start + 1e-9 * std::max(std::fabs(slice.start), std::fabs(enclosing.back()))) {
      enclosing.pop_back();
    }
    const int depth = static_cast<int>(enclosing.size());
    enclosing.push_back(slice.end);
    if (depth >= chart.max_depth) {
      ++layout.deep;
      continue;
    }
    layout.depths[slice.track] = std::max(layout.depths[slice.track], depth + 1);
    placed.push_back({slice.track, depth, keys[index], slice.start, slice.end, &slice.name});
  }
  return placed;
}

// The bars of the placed slices (sorted by track, depth, key, start) when slices of one row and key at most
// `gap` apart are merged; gap < 0: none merged.
std::vector<TimelineBar> merge(const std::vector<Placed>& placed, double gap) {
  std::vector<TimelineBar> bars;
  for (const Placed& slice : placed) {
    if (gap >= 0 && !bars.empty()) {
      TimelineBar& last = bars.back();
      if (last.track == slice.track && last.depth == slice.depth && last.key == slice.key && slice.start - last.end <= gap) {
        last.end = std::max(last.end, slice.end);
        ++last.slices;
        last.busy += slice.end - slice.start;
        continue;
      }
    }
    bars.push_back({slice.track, slice.depth, slice.start, slice.end, slice.key, 1, slice.end - slice.start, *slice.name});
  }
  return bars;
}

double left_of(const TimelineChart& chart) {
  std::size_t longest = 4;
  for (const std::string& track : chart.tracks) longest = std::max(longest, std::min(track.size(), label_characters));
  return 14 + 7.0 * static_cast<double>(longest);
}

std::string duration_text(double start, double end) {
  return format_number(start, 6) + " – " + format_number(end, 6) + " (" + format_number(end - start, 4) + ")";
}

void write_bars(std::ostringstream& out, const TimelineLayout& layout, const std::vector<double>& track_tops, const Scale& x) {
  for (const TimelineBar& bar : layout.bars) {
    const double from = x(bar.start), to = x(bar.end);
    const double y = track_tops[bar.track] + row_height * bar.depth + (row_height - bar_height) / 2;
    const std::string& key = layout.keys[bar.key];
    out << "<rect class=\"slice" << (bar.slices > 1 ? " merged" : "") << "\" x=\"" << pixel(from) << "\" y=\"" << pixel(y)
        << "\" width=\"" << pixel(std::max(to - from, 0.5)) << "\" height=\"" << pixel(bar_height) << "\" fill=\""
        << color_of(static_cast<int>(bar.key)) << "\"><title>";
    if (bar.slices == 1) {
      out << escape_html(bar.name) << " (" << escape_html(key) << "): " << duration_text(bar.start, bar.end);
    } else {
      out << bar.slices << " slices of " << escape_html(key) << ", the first " << escape_html(bar.name) << ": "
          << duration_text(bar.start, bar.end) << ", busy " << format_number(bar.busy, 4);
    }
    out << "</title></rect>";
  }
}

// "1 slice", "2 slices".
std::string counted(std::size_t number, const std::string& thing) {
  return std::to_string(number) + " " + thing + (number == 1 ? "" : "s");
}

std::vector<std::string> notes_of(const TimelineChart& chart, const TimelineLayout& layout) {
  std::vector<std::string> notes;
  if (layout.merge_gap > 0) {
    notes.push_back(counted(layout.drawn, "slice") + " drawn as " + counted(layout.bars.size(), "bar") +
                    ": on each row, slices of one colour at most " + format_number(layout.merge_gap, 3) +
                    " apart are one bar (its tooltip counts them)");
  }
  if (layout.deep > 0) {
    notes.push_back(counted(layout.deep, "slice") + " nested deeper than " + std::to_string(chart.max_depth) + " levels not drawn");
  }
  if (layout.hidden_tracks > 0) {
    notes.push_back(counted(layout.hidden_tracks, "more track") + " (" + counted(layout.on_hidden_tracks, "slice") +
                    ") not drawn: the chart shows the first " + std::to_string(chart.max_tracks));
  }
  return notes;
}

}  // namespace

TimelineLayout lay_out_timeline(const TimelineChart& chart) {
  TimelineLayout layout;
  std::vector<Placed> placed = place(chart, layout);
  layout.drawn = placed.size();
  std::sort(placed.begin(), placed.end(), [](const Placed& a, const Placed& b) {
    return std::tie(a.track, a.depth, a.key, a.start) < std::tie(b.track, b.depth, b.key, b.start);
  });
  layout.bars = merge(placed, -1);
  if (layout.bars.size() > chart.max_bars && !placed.empty()) {
    double first = placed.front().start, last = placed.front().end;
    for (const Placed& slice : placed) {
      first = std::min(first, slice.start);
      last = std::max(last, slice.end);
    }
    const double span = std::max(last - first, 1e-300);
    const double plot_pixels = std::max(chart.width - 18 - left_of(chart), 1.0);
    double gap = span / plot_pixels;
    for (;;) {
      layout.bars = merge(placed, gap);
      layout.merge_gap = gap;
      if (layout.bars.size() <= chart.max_bars || gap >= span) break;
      gap *= 2;
    }
  }
  std::stable_sort(layout.bars.begin(), layout.bars.end(), [](const TimelineBar& a, const TimelineBar& b) {
    return std::tie(a.track, a.depth, a.start) < std::tie(b.track, b.depth, b.start);
  });
  return layout;
}

std::string render_timeline(const TimelineChart& chart) {
  const TimelineLayout layout = lay_out_timeline(chart);
  const double left = left_of(chart);
  const double top = chart.title.empty() ? 12 : 30;
  std::vector<double> track_tops;
  double bottom = top;
  for (const int depth : layout.depths) {
    track_tops.push_back(bottom);
    bottom += row_height * depth + track_gap;
  }
  Range range;
  for (const TimelineBar& bar : layout.bars) {
    range.add(bar.start, false);
    range.add(bar.end, false);
  }
  const Frame frame{left, top, chart.width - 18.0, bottom};
  const Range xs = padded(range, Axis{});
  const Scale x(xs.low, xs.high, frame.left, frame.right, false);
  std::vector<LegendItem> legend;
  for (std::size_t index = 0; index < layout.keys.size(); ++index) {
    legend.push_back({layout.keys[index], color_of(static_cast<int>(index)), true, false, false, true});
  }
  const std::vector<std::string> notes = notes_of(chart, layout);
  const int axis_height = 44;
  const int legend_top = static_cast<int>(bottom) + axis_height;
  const int legend_size = legend_height(legend, chart.width);
  const int height = legend_top + legend_size + 16 * static_cast<int>(notes.size()) + 4;
  std::ostringstream out;
  open_svg(out, chart.width, height, chart.title, "timeline");
  for (std::size_t track = 0; track < layout.depths.size(); ++track) {
    const double height_of_track = row_height * layout.depths[track];
    if (track % 2 == 1) {
      out << "<rect class=\"track-band\" x=\"" << pixel(frame.left) << "\" y=\"" << pixel(track_tops[track]) << "\" width=\""
          << pixel(frame.right - frame.left) << "\" height=\"" << pixel(height_of_track) << "\" fill=\"#f3f3f3\"/>";
    }
    const std::string& name = chart.tracks[track];
    std::string label = name;
    if (name.size() > label_characters) {
      std::size_t cut = label_characters - 1;
      while (cut > 0 && (static_cast<unsigned char>(name[cut]) & 0xC0) == 0x80) --cut;  // not inside a UTF-8 character
      label = name.substr(0, cut) + "…";
    }
    out << "<text class=\"row-label\" x=\"" << pixel(left - 6) << "\" y=\"" << pixel(track_tops[track] + row_height / 2 + 4)
        << "\" text-anchor=\"end\"><title>" << escape_html(name) << "</title>" << escape_html(label) << "</text>";
  }
  write_x_axis(out, x, frame, chart.x_label, false);
  write_bars(out, layout, track_tops, x);
  write_legend(out, legend, chart.width, legend_top);
  for (std::size_t index = 0; index < notes.size(); ++index) {
    out << "<text class=\"note\" x=\"10\" y=\"" << legend_top + legend_size + 12 + 16 * static_cast<int>(index) << "\">"
        << escape_html(notes[index]) << "</text>";
  }
  out << "</svg>";
  return out.str();
}

}  // namespace augur::report
