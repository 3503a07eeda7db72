#include "trace_fold.hpp"

#include <cmath>

#include "augur/core/diagnostics.hpp"
#include "report/svg.hpp"

namespace augur::report {
namespace {

// A pid or tid as text, numbers in full (two threads 12345 and 12346 stay two tracks).
std::string id_text(const View& event, const char* key) {
  if (const auto id = event.find(key); id && id->is_number()) return format_number(id->number(), 17);
  return event.text_or(key, "0");
}

std::size_t track_of(TraceData& trace, const View& event) {
  const std::string pid = id_text(event, "pid"), tid = id_text(event, "tid");
  const auto [found, added] = trace.track_index.try_emplace({pid, tid}, trace.tracks.size());
  if (added) trace.tracks.push_back({pid, tid, "thread " + tid});
  return found->second;
}

TraceSlice begun(TraceData& trace, const View& event, double start, double end) {
  return {track_of(trace, event), start, end, trace.intern(event.text_or("name", "?")), trace.intern(event.text_or("cat", ""))};
}

void expect_object(const View& event) {
  if (!event.is_object()) event.fail(event.path() + ": expected an object (a trace event)");
}

}  // namespace

std::uint32_t TraceData::intern(const std::string& text) {
  const auto [found, added] = string_index.try_emplace(text, static_cast<std::uint32_t>(strings.size()));
  if (added) strings.push_back(text);
  return found->second;
}

void fold_trace_event(TraceData& trace, const View& event) {
  expect_object(event);
  ++trace.events;
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
    if (!std::isfinite(start + duration)) event["dur"].fail(event.path() + ": ends past the largest number (ts + dur)");
    trace.slices.push_back(begun(trace, event, start, start + duration));
    return;
  }
  if (phase == "B") {
    const double start = event["ts"].number();
    TraceSlice slice = begun(trace, event, start, 0);
    trace.open[slice.track].push_back(slice);
    return;
  }
  if (phase == "E") {
    auto& stack = trace.open[track_of(trace, event)];
    if (stack.empty()) {
      ++trace.other["end events without a begin"];
      return;
    }
    TraceSlice slice = stack.back();
    stack.pop_back();
    slice.end = event["ts"].number();
    if (slice.end >= slice.start) trace.slices.push_back(slice);
    return;
  }
  const char* what = "other events";
  if (phase == "C") what = "counter values";
  if (phase == "i" || phase == "I") what = "instants";
  if (phase == "s" || phase == "t" || phase == "f") what = "flow events";
  ++trace.other[what];
}

void fold_trace_document(TraceData& trace, const View& document) {
  const View events = document.is_array() ? document : document["traceEvents"];
  for (std::size_t index = 0; index < events.size(); ++index) fold_trace_event(trace, events[index]);
  finish_trace(trace);
}

void finish_trace(TraceData& trace) {
  trace.unclosed = 0;
  for (const auto& [track, stack] : trace.open) trace.unclosed += stack.size();
}

nlohmann::ordered_json::parser_callback_t trace_folding_callback(TraceData& trace, const std::string& file) {
  using json = nlohmann::ordered_json;
  // The parser's depth: 0 the top-level value, 1 its members or elements, 2 theirs.
  struct State {
    bool top_is_array = false;
    bool decided = false;        // the top-level array's first element was met
    bool array_form = false;     // the top-level array holds events (its first element is an object with "ph")
    bool in_events = false;      // inside the top-level member "traceEvents", an array
    std::string top_key;         // the top-level member being parsed
    bool seen_events = false;    // the member "traceEvents" was met
    std::size_t index = 0;       // of the next event
  };
  auto state = std::make_shared<State>();
  return [&trace, &file, state](int depth, json::parse_event_t event, json& parsed) -> bool {
    State& s = *state;
    if (s.top_is_array && depth == 1 && !s.decided &&
        (event == json::parse_event_t::value || event == json::parse_event_t::object_end || event == json::parse_event_t::array_end)) {
      s.decided = true;
      s.array_form = event == json::parse_event_t::object_end && parsed.contains("ph");
      if (s.array_form) trace.folded_while_parsing = true;
    }
    const auto fold = [&](const char* prefix) {
      fold_trace_event(trace, View(parsed, file, prefix + std::string("[") + std::to_string(s.index++) + "]"));
      return false;  // dropped from the document
    };
    switch (event) {
      case json::parse_event_t::key:
        if (depth == 1 && !s.top_is_array) {
          s.top_key = parsed.get<std::string>();
          if (s.top_key == "traceEvents" && s.seen_events) throw core::InputError({file, 0, 0}, "traceEvents: given twice (a trace has one list of events)");
          s.seen_events = s.seen_events || s.top_key == "traceEvents";
        }
        return true;
      case json::parse_event_t::array_start:
        if (depth == 0) s.top_is_array = true;
        if (depth == 1 && !s.top_is_array && s.top_key == "traceEvents") {
          s.in_events = true;
          s.index = 0;
          trace.folded_while_parsing = true;
        }
        return true;
      case json::parse_event_t::array_end:
        if (depth == 1 && s.in_events) s.in_events = false;
        if (s.in_events && depth == 2) return fold("traceEvents");  // an array as an event: named as bad
        if (s.array_form && depth == 1) return fold("");
        return true;
      case json::parse_event_t::object_end:
        if (s.in_events && depth == 2) return fold("traceEvents");
        if (s.array_form && depth == 1) return fold("");
        return true;
      case json::parse_event_t::value:
        if (s.in_events && depth == 2) return fold("traceEvents");
        if (s.array_form && depth == 1) return fold("");
        return true;
      case json::parse_event_t::object_start:
        return true;
    }
    return true;
  };
}

}  // namespace augur::report
