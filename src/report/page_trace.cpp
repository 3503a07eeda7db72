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

namespace augur::report {
namespace {

struct Track {
  std::string pid, tid;  // as the events write them
  std::string name;      // thread_name, else "thread TID"
};

struct Slice {
  std::size_t track;
  double start, end;  // microseconds, as in the trace
  std::string name, category;
};

struct Trace {
  std::vector<Track> tracks;
  std::map<std::pair<std::string, std::string>, std::size_t> track_index;  // (pid, tid) → index into tracks
  std::map<std::string, std::string> processes;  // pid → process_name
  std::vector<Slice> slices;
  std::map<std::string, std::size_t> other;  // events not drawn, by what they are
  std::size_t unclosed = 0;                  // "B" events without their "E"
};

// A pid or tid as text, numbers in full (two threads 12345 and 12346 stay two tracks).
std::string id_text(const View& event, const char* key) {
  if (const auto id = event.find(key); id && id->is_number()) return format_number(id->number(), 17);
  return event.text_or(key, "0");
}

std::size_t track_of(Trace& trace, const View& event) {
  const std::string pid = id_text(event, "pid"), tid = id_text(event, "tid");
  const auto [found, added] = trace.track_index.try_emplace({pid, tid}, trace.tracks.size());
  if (added) trace.tracks.push_back({pid, tid, "thread " + tid});
  return found->second;
}

// A duration ("X") slice, a begin ("B") and end ("E") pair, metadata ("M"); the rest is counted.
void read_event(Trace& trace, const View& event, std::map<std::size_t, std::vector<Slice>>& open) {
  const std::string phase = event.text_or("ph", "");
  if (phase == "M") {
    const std::string what = event.text_or("name", "");
    const auto args = event.find("args");
    const std::string name = args && args->is_object() ? args->text_or("name", "") : "";
    if (what == "thread_name" && !name.empty()) trace.tracks[track_of(trace, event)].name = name;
    if (what == "process_name" && !name.empty()) trace.processes[id_text(event, "pid")] = name;
    return;
  }
  if (phase == "X") {
    const double start = event["ts"].number();
    const double duration = event.maybe("dur").value_or(0);
    if (!(duration >= 0)) event["dur"].fail(event.path() + ".dur: a negative duration");
    trace.slices.push_back({track_of(trace, event), start, start + duration, event.text_or("name", "?"), event.text_or("cat", "")});
    return;
  }
  if (phase == "B") {
    open[track_of(trace, event)].push_back({track_of(trace, event), event["ts"].number(), 0, event.text_or("name", "?"), event.text_or("cat", "")});
    return;
  }
  if (phase == "E") {
    auto& stack = open[track_of(trace, event)];
    if (stack.empty()) {
      ++trace.other["end events without a begin"];
      return;
    }
    Slice slice = stack.back();
    stack.pop_back();
    slice.end = event["ts"].number();
    if (slice.end >= slice.start) trace.slices.push_back(std::move(slice));
    return;
  }
  const char* what = "other events";
  if (phase == "C") what = "counter values";
  if (phase == "i" || phase == "I") what = "instants";
  if (phase == "s" || phase == "t" || phase == "f") what = "flow events";
  ++trace.other[what];
}

Trace read_trace(const View& document) {
  const View events = document.is_array() ? document : document["traceEvents"];
  Trace trace;
  std::map<std::size_t, std::vector<Slice>> open;
  for (std::size_t index = 0; index < events.size(); ++index) {
    const View event = events[index];
    if (!event.is_object()) event.fail(event.path() + ": expected an object (a trace event)");
    read_event(trace, event, open);
  }
  for (const auto& [track, stack] : open) trace.unclosed += stack.size();
  return trace;
}

// The unit of the time axis for a span of `microseconds`: its name and how many microseconds it holds.
std::pair<const char*, double> unit_of(double microseconds) {
  if (microseconds >= 1e6) return {"s", 1e6};
  if (microseconds >= 1e3) return {"ms", 1e3};
  return {"µs", 1};
}

// The colour of each slice: its category; the phases of a run (category "phase") by their name; a trace of
// at most 8 slice names and a category per track (a simulator's tasks on its resources) by the name.
std::vector<std::string> color_keys(const Trace& trace) {
  std::set<std::string> names;
  std::map<std::string, std::set<std::size_t>> tracks_of_category;
  for (const Slice& slice : trace.slices) {
    if (slice.category != "phase") names.insert(slice.name);
    tracks_of_category[slice.category].insert(slice.track);
  }
  const bool category_is_track = std::all_of(tracks_of_category.begin(), tracks_of_category.end(),
                                             [](const auto& entry) { return entry.second.size() == 1; });
  const bool by_name = names.size() <= 8 && (category_is_track || tracks_of_category.size() <= 1);
  std::vector<std::string> keys;
  for (const Slice& slice : trace.slices) {
    if (slice.category == "phase") {
      keys.push_back("phase " + slice.name);
    } else {
      keys.push_back(by_name || slice.category.empty() ? slice.name : slice.category);
    }
  }
  return keys;
}

std::string track_label(const Trace& trace, const Track& track, bool processes) {
  if (!processes) return track.name;
  const auto process = trace.processes.find(track.pid);
  return (process != trace.processes.end() ? process->second : "process " + track.pid) + ": " + track.name;
}

// `slices` with their tracks numbered as `labels`.
void add_tables(Section& section, const std::vector<Slice>& slices, const std::vector<std::string>& labels, double unit,
                const char* unit_name) {
  std::map<std::string, std::pair<std::size_t, double>> categories;  // category → slices, total time
  std::vector<std::pair<std::size_t, double>> tracks(labels.size());  // slices, busy time
  std::vector<double> open_until(labels.size(), -INFINITY);
  std::vector<const Slice*> ordered;
  for (const Slice& slice : slices) ordered.push_back(&slice);
  std::stable_sort(ordered.begin(), ordered.end(), [](const Slice* a, const Slice* b) { return a->start < b->start; });
  for (const Slice* slice : ordered) {
    auto& category = categories[slice->category.empty() ? "-" : slice->category];
    ++category.first;
    category.second += slice->end - slice->start;
    auto& track = tracks[slice->track];
    ++track.first;
    // The busy time of a track: the union of its slices.
    const double from = std::max(slice->start, open_until[slice->track]);
    if (slice->end > from) track.second += slice->end - from;
    open_until[slice->track] = std::max(open_until[slice->track], slice->end);
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

// The tracks' labels in the order the viewers show them (by process and thread, numbers by value); the
// slices' tracks renumbered to that order.
std::vector<std::string> order_tracks(Trace& trace) {
  std::vector<std::size_t> order(trace.tracks.size());
  for (std::size_t index = 0; index < order.size(); ++index) order[index] = index;
  const auto number = [](const std::string& text) {
    char* end = nullptr;
    const double value = std::strtod(text.c_str(), &end);
    return end != text.c_str() && *end == '\0' && !std::isnan(value) ? value : INFINITY;
  };
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    const Track &x = trace.tracks[a], &y = trace.tracks[b];
    return std::make_pair(number(x.pid), number(x.tid)) < std::make_pair(number(y.pid), number(y.tid));
  });
  std::set<std::string> pids;
  for (const Track& track : trace.tracks) pids.insert(track.pid);
  std::vector<std::size_t> position(order.size());
  std::vector<std::string> labels(order.size());
  for (std::size_t index = 0; index < order.size(); ++index) {
    position[order[index]] = index;
    labels[index] = track_label(trace, trace.tracks[order[index]], pids.size() > 1);
  }
  for (Slice& slice : trace.slices) slice.track = position[slice.track];
  return labels;
}

}  // namespace

void add_trace(Part& part, const View& document) {
  Trace trace = read_trace(document);
  const std::vector<std::string> labels = order_tracks(trace);
  double first = INFINITY, last = -INFINITY;
  for (const Slice& slice : trace.slices) {
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
  const std::vector<std::string> keys = color_keys(trace);
  for (std::size_t index = 0; index < trace.slices.size(); ++index) {
    const Slice& slice = trace.slices[index];
    chart.slices.push_back({slice.track, (slice.start - first) / unit, (slice.end - first) / unit, slice.name, keys[index]});
  }
  if (chart.slices.empty()) {
    section.paragraph("The trace has no slices to draw.");
  } else {
    section.svg(render_timeline(chart));
  }
  add_tables(section, trace.slices, labels, unit, unit_name);
}

}  // namespace augur::report
