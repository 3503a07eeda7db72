// The check every Chrome trace augur writes must pass to show right in Perfetto: on each track (a pid and
// a tid) the complete slices ("ph": "X") nest properly, i.e. two slices of a track are either disjoint or
// one lies inside the other. Perfetto cannot draw partially overlapping slices on one track (it drops or
// truncates them). Header-only, for the unit tests of the writers and the e2e tests of the commands.
#pragma once

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace augur::test {

struct TraceSlice {
  double start = 0.0;  // µs
  double end = 0.0;
  std::string name;
};

// The complete slices of `trace` ({"traceEvents": [...]} or the bare array) by track.
inline std::map<std::pair<long long, long long>, std::vector<TraceSlice>> trace_slices_by_track(const nlohmann::json& trace) {
  const nlohmann::json& events = trace.is_object() ? trace.at("traceEvents") : trace;
  std::map<std::pair<long long, long long>, std::vector<TraceSlice>> tracks;
  for (const nlohmann::json& event : events) {
    if (event.value("ph", "") != "X") continue;
    const double start = event.at("ts").get<double>();
    const double duration = event.at("dur").get<double>();
    tracks[{event.at("pid").get<long long>(), event.at("tid").get<long long>()}].push_back(
        {start, start + duration, event.value("name", "")});
  }
  return tracks;
}

// One line per pair of partially overlapping slices (and per negative duration); empty when every track
// nests. Times are compared to a nanosecond, the resolution Perfetto keeps.
inline std::vector<std::string> trace_nesting_problems(const nlohmann::json& trace) {
  constexpr double resolution = 1e-3;  // µs
  std::vector<std::string> problems;
  for (auto& [track, slices] : trace_slices_by_track(trace)) {
    const std::string where = "pid " + std::to_string(track.first) + " tid " + std::to_string(track.second) + ": ";
    // By start; of two slices starting together the longer first (it encloses the other).
    std::stable_sort(slices.begin(), slices.end(), [](const TraceSlice& a, const TraceSlice& b) {
      return a.start != b.start ? a.start < b.start : a.end > b.end;
    });
    std::vector<const TraceSlice*> open;  // the slices enclosing the current one, outermost first
    for (const TraceSlice& slice : slices) {
      if (slice.end < slice.start - resolution) problems.push_back(where + "'" + slice.name + "' has a negative duration");
      while (!open.empty() && open.back()->end <= slice.start + resolution) open.pop_back();
      if (!open.empty() && slice.end > open.back()->end + resolution) {
        problems.push_back(where + "'" + slice.name + "' [" + std::to_string(slice.start) + ", " + std::to_string(slice.end) +
                           "] overlaps '" + open.back()->name + "' [" + std::to_string(open.back()->start) + ", " +
                           std::to_string(open.back()->end) + "] partially");
        continue;
      }
      open.push_back(&slice);
    }
  }
  return problems;
}

}  // namespace augur::test
