// The split of the first time estimate's error of one `augur run --json --trace` run (docs/self-analysis.md,
// "The first estimate's low bias"): with the estimate E made when i of the N steps were done, and the region's
// actual time, E - actual = (N - i)(pace - p_all) + (N - i)(p_all - p_later) - tail: selection (the pace of the
// clean stretches against the steps since the last long stop), drift (the steps after the mark against those
// before) and tail (the region after the last step's last barrier), as shares of the actual time; the three add
// up to the error. The step boundaries are the master's barrier slices (libgomp's wrappers and the OMPT tool's
// sync_region_wait both give them), every b-th, b = the region's slices over its N steps rounded down (not the
// period: libomp gives a reduction loop two slices, a `nowait` loop has none). p_all is taken over whole
// stretches when the timeline has the baseline windows' slices: from the first window that starts after the
// stop to the last that starts by the mark, the same mix of team and baseline steps as the pace's (with fewer
// than two such windows, every step since the stop, and `stretches` is 0). nullopt when the run does not allow
// the split (also when the slices left over beyond N steps' worth make one step's worth or more).
#pragma once

#include <algorithm>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "outer_region_report.hpp"

namespace augur::bench {

struct EstimateSplit {
  double error = 0.0, selection = 0.0, drift = 0.0, tail = 0.0;  // shares of the region's actual time
  int stretches = 0;  // the whole stretches "before" was taken over (0: every step since the stop)
};

// The start times (µs) of the timeline's baseline slices, in order: the starts of the baseline windows.
inline std::vector<double> window_starts(const json& events) {
  std::vector<double> starts;
  for (const json& event : events)
    if (event.is_object() && event.value("ph", std::string()) == "X" && event.value("name", std::string()) == "baseline")
      starts.push_back(event.value("ts", 0.0));
  std::sort(starts.begin(), starts.end());
  return starts;
}

// The region's slice (the longest entry of the report's outer region) and the master's barrier ends in it, µs.
inline bool region_barriers(const json& events, unsigned long long id, double& begin, double& end, std::vector<double>& ends) {
  char name[64];
  std::snprintf(name, sizeof name, "parallel region 0x%llx", id);
  begin = end = -1.0;
  long master = -1;
  for (const json& event : events) {
    if (!event.is_object() || event.value("ph", std::string()) != "X") continue;
    const std::string text = event.value("name", std::string());
    if (text == name && event.value("dur", 0.0) > end - begin) {
      begin = event.value("ts", 0.0);
      end = begin + event.value("dur", 0.0);
    }
    if (text == "barrier" && (master < 0 || event.value("tid", -1L) < master)) master = event.value("tid", -1L);
  }
  if (begin < 0.0 || master < 0) return false;
  for (const json& event : events) {
    if (!event.is_object() || event.value("name", std::string()) != "barrier" || event.value("tid", -1L) != master) continue;
    const double start = event.value("ts", 0.0);
    if (start >= begin && start <= end) ends.push_back(start + event.value("dur", 0.0));
  }
  std::sort(ends.begin(), ends.end());
  return true;
}

inline std::optional<EstimateSplit> estimate_split(const json& report, const json& trace) {
  const json* region = outer_region(report);
  if (region == nullptr || !trace.is_object() || !trace.contains("traceEvents")) return std::nullopt;
  const auto expected = number_at(*region, "expected_iterations");
  const auto at = number_at(*region, "estimated_at_iteration");
  const auto estimate = number_at(*region, "estimated_time_s");
  const auto elapsed = number_at(*region, "elapsed_s");
  const auto id = number_at(*region, "id");
  if (!expected || !at || !estimate || !elapsed || !id || *elapsed <= 0.0) return std::nullopt;
  double begin = 0.0, end = 0.0;
  std::vector<double> ends;
  if (!region_barriers(trace["traceEvents"], static_cast<unsigned long long>(*id), begin, end, ends)) return std::nullopt;
  const auto steps = static_cast<long>(*expected);
  const auto mark = static_cast<long>(*at);
  if (steps < 2 || static_cast<long>(ends.size()) < steps || mark < 2 || mark >= steps) return std::nullopt;
  const long per = static_cast<long>(ends.size()) / steps;  // barrier slices a step
  // Slices left over beyond N steps' worth are taken as an earlier entry's, before the first step; a whole
  // step's worth or more says the steps do not all have `per` of them, and the boundaries cannot be placed.
  if (static_cast<long>(ends.size()) - per * steps >= per) return std::nullopt;
  // boundary(k): k steps done, the end of step k's last barrier slice (where the tool counts k: its timeline's
  // slices start there), the groups of `per` aligned to the region's last slice; boundary(0) the region's start
  // when nothing comes before the first group.
  const auto boundary = [&](long k) {
    const long index = static_cast<long>(ends.size()) - 1 - per * (steps - k);
    return index >= 0 ? ends[static_cast<std::size_t>(index)] : begin;
  };
  const double t_mark = boundary(mark);
  const double actual = *elapsed * 1e6;
  const double pace = (*estimate * 1e6 - (t_mark - begin)) / static_cast<double>(steps - mark);
  const double later = (boundary(steps) - t_mark) / static_cast<double>(steps - mark);
  long stop = 1;  // the longest step before the mark (the tool's work at the detection)
  for (long k = 2; k <= mark; ++k)
    if (boundary(k) - boundary(k - 1) > boundary(stop) - boundary(stop - 1)) stop = k;
  if (mark - stop < 1) return std::nullopt;
  EstimateSplit split;
  double early = (t_mark - boundary(stop)) / static_cast<double>(mark - stop);
  std::vector<double> starts;  // the windows that start between the stop and the mark
  for (const double start : window_starts(trace["traceEvents"]))
    if (start > boundary(stop) && start <= t_mark) starts.push_back(start);
  if (starts.size() >= 2) {
    long between = 0;  // the steps from the first of those windows to the last
    for (long k = stop + 1; k <= mark; ++k) between += boundary(k) > starts.front() && boundary(k) <= starts.back() ? 1 : 0;
    if (between > 0) {
      early = (starts.back() - starts.front()) / static_cast<double>(between);
      split.stretches = static_cast<int>(starts.size()) - 1;
    }
  }
  split.error = *estimate / *elapsed - 1.0;
  split.selection = static_cast<double>(steps - mark) * (pace - early) / actual;
  split.drift = static_cast<double>(steps - mark) * (early - later) / actual;
  split.tail = -(begin + actual - boundary(steps)) / actual;
  return split;
}

}  // namespace augur::bench
