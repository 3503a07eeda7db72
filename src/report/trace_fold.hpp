// The events of a Chrome trace (augur run --trace, AUGUR_TRACE, augur sim --trace, augur actors simulate
// --trace) folded into what the report page draws: tracks, slices, what is not drawn. Folded either from a
// parsed document, or while the JSON is parsed (trace_folding_callback), each event dropped from the document
// once read, so that a trace of millions of events is never in memory as JSON (docs/report.md, "Traces").
// Pure: JSON values in, the folded trace out.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "view.hpp"

namespace augur::report {

struct TraceTrack {
  std::string pid, tid;  // as the events write them
  std::string name;      // thread_name, else "thread TID"
};

struct TraceSlice {
  std::size_t track = 0;
  double start = 0, end = 0;  // microseconds, as in the trace
  std::uint32_t name = 0, category = 0;  // indices into TraceData::strings
};

struct TraceData {
  std::vector<TraceTrack> tracks;
  std::map<std::pair<std::string, std::string>, std::size_t> track_index;  // (pid, tid) → index into tracks
  std::map<std::string, std::string> processes;                           // pid → process_name
  std::vector<TraceSlice> slices;
  std::vector<std::string> strings;  // the slices' names and categories, each once
  std::unordered_map<std::string, std::uint32_t> string_index;
  std::map<std::string, std::size_t> other;  // events not drawn, by what they are
  std::size_t unclosed = 0;                  // "B" events without their "E" (finish_trace counts them)
  std::map<std::size_t, std::vector<TraceSlice>> open;  // begun slices per track, while folding
  std::size_t events = 0;                    // events folded
  bool folded_while_parsing = false;         // the parser met the events (trace_folding_callback)

  [[nodiscard]] std::uint32_t intern(const std::string& text);
  [[nodiscard]] const std::string& text(std::uint32_t index) const { return strings[index]; }
};

// One event (a JSON object at `event.path()`): a duration ("X") slice, a begin ("B") and end ("E") pair,
// metadata ("M": thread and process names); the rest counted by what it is. A bad field is a
// core::InputError naming its path ("traceEvents[3].ts").
void fold_trace_event(TraceData& trace, const View& event);

// Every event of a parsed trace (object form {"traceEvents": [...]}, or the array form), then finish_trace.
void fold_trace_document(TraceData& trace, const View& document);

// After the last event: the slices begun and never ended are counted in `unclosed`.
void finish_trace(TraceData& trace);

// A callback for nlohmann's parser (ordered_json::parse(text, callback)) that folds each event of a trace
// into `trace` as soon as it is parsed and drops it from the document: the elements of the top-level member
// "traceEvents" when it is an array, or the elements of a top-level array whose first element is an object
// with "ph" (the array form). The document keeps its other members ("metadata"). Events are named by their
// path in `file`'s messages, as fold_trace_document names them. Both references must outlive the parse.
[[nodiscard]] nlohmann::ordered_json::parser_callback_t trace_folding_callback(TraceData& trace, const std::string& file);

}  // namespace augur::report
