// The page of a Chrome trace (augur run --trace, AUGUR_TRACE, augur sim --trace, augur actors simulate
// --trace): the slices as a timeline (timeline.hpp), the time per category and per track.
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>
#include <set>

#include "builders.hpp"
#include "report/svg.hpp"
#include "report/timeline.hpp"
#include "trace_fold.hpp"

namespace augur::report {
namespace {

// The unit of the time axis for a span of `microseconds`: its name and how many microseconds it holds.
std::pair<const char*, double> unit_of(double microseconds) {
  if (microseconds >= 1e6) return {"s", 1e6};
  if (microseconds >= 1e3) return {"ms", 1e3};
  return {"µs", 1};
}

// The colour of each slice: its category; the phases of a run (category "phase") by their name; a trace of
// at most 8 slice names and a category per track (a simulator's tasks on its resources) by the name.
bool colour_by_name(const TraceData& trace) {
  std::set<std::uint32_t> names;
  std::map<std::uint32_t, std::set<std::size_t>> tracks_of_category;
  for (const TraceSlice& slice : trace.slices) {
    if (trace.text(slice.category) != "phase") names.insert(slice.name);
    tracks_of_category[slice.category].insert(slice.track);
  }
  const bool category_is_track = std::all_of(tracks_of_category.begin(), tracks_of_category.end(),
                                             [](const auto& entry) { return entry.second.size() == 1; });
  return names.size() <= 8 && (category_is_track || tracks_of_category.size() <= 1);
}

std::string colour_key(const TraceData& trace, const TraceSlice& slice, bool by_name) {
  const std::string& name = trace.text(slice.name);
  const std::string& category = trace.text(slice.category);
  if (category == "phase") return "phase " + name;
  return by_name || category.empty() ? name : category;
}

std::string track_label(const TraceData& trace, const TraceTrack& track, bool processes) {
  if (!processes) return track.name;
  const auto process = trace.processes.find(track.pid);
  return (process != trace.processes.end() ? process->second : "process " + track.pid) + ": " + track.name;
}

// The tracks in the order the viewers show them: their labels, and each track's place among them.
struct TrackOrder {
  std::vector<std::string> labels;
  std::vector<std::size_t> position;  // trace.tracks[i] is labels[position[i]]
};

void add_tables(Section& section, const TraceData& trace, const TrackOrder& order, double unit, const char* unit_name) {
  const std::vector<std::string>& labels = order.labels;
  std::map<std::string, std::pair<std::size_t, double>> categories;  // category → slices, total time
  std::vector<std::pair<std::size_t, double>> tracks(labels.size());  // slices, busy time
  std::vector<double> open_until(labels.size(), -INFINITY);
  std::vector<const TraceSlice*> ordered;
  for (const TraceSlice& slice : trace.slices) ordered.push_back(&slice);
  std::stable_sort(ordered.begin(), ordered.end(), [](const TraceSlice* a, const TraceSlice* b) { return a->start < b->start; });
  for (const TraceSlice* slice : ordered) {
    const std::string& name = trace.text(slice->category);
    auto& category = categories[name.empty() ? "-" : name];
    ++category.first;
    category.second += slice->end - slice->start;
    const std::size_t at = order.position[slice->track];
    auto& track = tracks[at];
    ++track.first;
    // The busy time of a track: the union of its slices.
    const double from = std::max(slice->start, open_until[at]);
    if (slice->end > from) track.second += slice->end - from;
    open_until[at] = std::max(open_until[at], slice->end);
  }
  const std::string unit_text = std::string(" (") + unit_name + ")";
  Table per_category{"Time per category (slices nested in others counted too)", {"category", "slices", "time" + unit_text}, {}};
  for (const auto& [name, totals] : categories) {
    per_category.rows.push_back({text_cell(name), number_cell(static_cast<double>(totals.first)), number_cell(totals.second / unit, 5)});
  }
  section.table(std::move(per_category));
  Table per_track{"Tracks: slices, and the time covered by at least one", {"track", "slices", "busy" + unit_text}, {}};
  for (std::size_t index = 0; index < tracks.size(); ++index) {
    per_track.rows.push_back({text_cell(labels[index]), number_cell(static_cast<double>(tracks[index].first)),
                              number_cell(tracks[index].second / unit, 5)});
  }
  section.table(std::move(per_track));
}

// The tracks' labels in the order the viewers show them (by process and thread, numbers by value).
TrackOrder order_tracks(const TraceData& trace) {
  std::vector<std::size_t> order(trace.tracks.size());
  for (std::size_t index = 0; index < order.size(); ++index) order[index] = index;
  const auto number = [](const std::string& text) {
    char* end = nullptr;
    const double value = std::strtod(text.c_str(), &end);
    return end != text.c_str() && *end == '\0' && !std::isnan(value) ? value : INFINITY;
  };
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    const TraceTrack &x = trace.tracks[a], &y = trace.tracks[b];
    return std::make_pair(number(x.pid), number(x.tid)) < std::make_pair(number(y.pid), number(y.tid));
  });
  std::set<std::string> pids;
  for (const TraceTrack& track : trace.tracks) pids.insert(track.pid);
  std::vector<std::size_t> position(order.size());
  std::vector<std::string> labels(order.size());
  for (std::size_t index = 0; index < order.size(); ++index) {
    position[order[index]] = index;
    labels[index] = track_label(trace, trace.tracks[order[index]], pids.size() > 1);
  }
  return {std::move(labels), std::move(position)};
}

}  // namespace

void add_trace(Part& part, const View& document, const TraceData* folded) {
  TraceData read;
  if (folded == nullptr) fold_trace_document(read, document);
  const TraceData& trace = folded != nullptr ? *folded : read;
  const TrackOrder order = order_tracks(trace);
  const std::vector<std::string>& labels = order.labels;
  double first = INFINITY, last = -INFINITY;
  for (const TraceSlice& slice : trace.slices) {
    first = std::min(first, slice.start);
    last = std::max(last, slice.end);
  }
  const double span = trace.slices.empty() ? 0 : last - first;
  const auto [unit_name, unit] = unit_of(span);
  std::string what = std::to_string(trace.slices.size()) + " slices on " + std::to_string(labels.size()) +
                     (labels.size() == 1 ? " track" : " tracks") + " over " + format_number(span / unit, 4) + " " + unit_name;
  if (trace.processes.size() == 1) what = trace.processes.begin()->second + ": " + what;
  part.summary("trace of " + what);
  std::string skipped;
  for (const auto& [name, count] : trace.other) skipped += (skipped.empty() ? "" : ", ") + std::to_string(count) + " " + name;
  if (trace.unclosed > 0) skipped += (skipped.empty() ? "" : ", ") + std::to_string(trace.unclosed) + " slices begun and never ended";
  if (!skipped.empty()) part.summary("not drawn: " + skipped);
  if (const auto meta = document.is_object() ? document.find("metadata") : std::nullopt) {
    if (const auto recorder = meta->find("augur_trace"); recorder && recorder->maybe("dropped").value_or(0) > 0) {
      part.summary("the recorder dropped " + recorder->text_or("dropped", "?") + " events (its buffers were full): the timeline is incomplete");
    }
  }
  Section& section = part.section("Timeline");
  TimelineChart chart{"Timeline", std::string("time since the first slice (") + unit_name + ")", labels, {}};
  const bool by_name = colour_by_name(trace);
  chart.slices.reserve(trace.slices.size());
  for (const TraceSlice& slice : trace.slices) {
    chart.slices.push_back({order.position[slice.track], (slice.start - first) / unit, (slice.end - first) / unit, trace.text(slice.name),
                            colour_key(trace, slice, by_name)});
  }
  if (chart.slices.empty()) {
    section.paragraph("The trace has no slices to draw.");
  } else {
    section.svg(render_timeline(chart));
  }
  add_tables(section, trace, order, unit, unit_name);
}

}  // namespace augur::report
