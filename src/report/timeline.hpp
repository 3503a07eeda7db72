// The timeline chart of the report page (docs/report.md, "Traces"): the slices of a Chrome trace (augur run
// --trace, AUGUR_TRACE, augur sim --trace) as bars on tracks, nested slices on the rows below their parent,
// coloured by a key (a category, a phase, a task) named in the legend, and bounded in size: past
// `max_bars` slices, the slices of one row and colour that lie close together are drawn as one bar, and a
// note under the chart says so. Pure: the chart in, SVG text out.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace augur::report {

struct TimelineSlice {
  std::size_t track = 0;     // index into TimelineChart::tracks
  double start = 0, end = 0;  // in the chart's unit (x_label says which)
  std::string name;          // shown on hover
  std::string key;           // the colour: slices of one key share it, named in the legend
};

struct TimelineChart {
  std::string title;
  std::string x_label;
  std::vector<std::string> tracks;  // top to bottom
  std::vector<TimelineSlice> slices;
  std::size_t max_bars = 2000;   // past this many slices, close slices are merged into one bar
  std::size_t max_tracks = 48;   // tracks beyond are not drawn (the note counts their slices)
  int max_depth = 8;             // slices nested deeper are not drawn (counted)
  std::size_t max_keys = 12;     // colours; the slices of later keys are drawn as "other"
  int width = 960;
};

struct TimelineBar {
  std::size_t track = 0;
  int depth = 0;  // nesting level on its track (0: outermost)
  double start = 0, end = 0;
  std::size_t key = 0;     // index into TimelineLayout::keys
  std::size_t slices = 1;  // how many slices it stands for
  double busy = 0;         // their summed durations
  std::string name;        // the slice's name (of the first, when merged)
};

struct TimelineLayout {
  std::vector<std::string> keys;   // the legend, in the order the keys first appear (by time)
  std::vector<int> depths;         // rows of each drawn track (at least 1)
  std::vector<TimelineBar> bars;   // by track, depth, start
  double merge_gap = 0;            // 0: one bar per slice; else slices of one row and key at most this far apart are one bar
  std::size_t drawn = 0;           // slices the bars stand for
  std::size_t deep = 0;            // slices nested deeper than max_depth, not drawn
  std::size_t hidden_tracks = 0;   // tracks beyond max_tracks
  std::size_t on_hidden_tracks = 0;  // and their slices, not drawn
};

// Nesting: on each track the slices sorted by start (the longer first on a tie); a slice's depth is the number
// of earlier slices still open at its start (a slice that overlaps its parent without nesting goes one row
// below it). Merging, when more than max_bars slices are drawn: the gap starts at the time one pixel of the
// plot spans and doubles until the bars are at most max_bars (or the gap spans the whole trace).
[[nodiscard]] TimelineLayout lay_out_timeline(const TimelineChart& chart);

// The chart as one <svg class="chart timeline"> element: a bar (<rect class="slice">) per bar of the layout,
// the track names on the left, a time axis, the legend, and notes on what was merged or left out.
[[nodiscard]] std::string render_timeline(const TimelineChart& chart);

}  // namespace augur::report
