// The split of the first time estimate's error of one `augur run --json --trace` run (docs/self-analysis.md,
// "Where the one-run figures err"): with the estimate E made at iteration i of N and the actual time of the
// region, E - actual = (N - i)(pace - p_all) + (N - i)(p_all - p_later) - (tail - p_later): selection (the
// pace of the clean stretches against every step since the last long stop), drift (the steps after the mark
// against those before) and tail (the region after the last step's first construct), as shares of the actual
// time. The step boundaries come from the master's barrier slices, every period-th (libgomp's wrappers and the
// OMPT tool's sync_region_wait both give them); nullopt when the run does not allow the split.
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
};

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
  const auto period = number_at(*region, "length");
  const auto expected = number_at(*region, "expected_iterations");
  const auto at = number_at(*region, "estimated_at_iteration");
  const auto estimate = number_at(*region, "estimated_time_s");
  const auto elapsed = number_at(*region, "elapsed_s");
  const auto id = number_at(*region, "id");
  if (!period || !expected || !at || !estimate || !elapsed || !id || *period < 1 || *elapsed <= 0.0) return std::nullopt;
  double begin = 0.0, end = 0.0;
  std::vector<double> ends;
  if (!region_barriers(trace["traceEvents"], static_cast<unsigned long long>(*id), begin, end, ends)) return std::nullopt;
  const auto per = static_cast<long>(*period);
  const long n = static_cast<long>(ends.size()) / per;
  const auto steps = static_cast<long>(*expected);
  const auto mark = static_cast<long>(*at);
  const long shift = steps - n;  // boundaries before the trace's first complete step (a warm-up entry)
  // boundary(k): k steps begun, the end of step k's first construct, aligned so that the last is step N's.
  const auto boundary = [&](long k) { return ends[static_cast<std::size_t>(static_cast<long>(ends.size()) - per * n + per * (k - 1 - shift))]; };
  if (mark - 1 - shift < 2 || mark >= steps) return std::nullopt;
  const double t_mark = boundary(mark);
  const double pace = (*estimate * 1e6 - (t_mark - begin)) / static_cast<double>(steps - mark);
  const double later = (boundary(steps) - t_mark) / static_cast<double>(steps - mark);
  long stop = 1 + shift;  // the step after the longest gap before the mark (the tool's work at the detection)
  for (long k = 1 + shift; k < mark; ++k)
    if (boundary(k + 1) - boundary(k) > boundary(stop + 1) - boundary(stop)) stop = k;
  if (mark - stop - 1 < 1) return std::nullopt;
  const double early = (t_mark - boundary(stop + 1)) / static_cast<double>(mark - stop - 1);
  const double actual = *elapsed * 1e6;
  EstimateSplit split;
  split.error = *estimate / *elapsed - 1.0;
  split.selection = static_cast<double>(steps - mark) * (pace - early) / actual;
  split.drift = static_cast<double>(steps - mark) * (early - later) / actual;
  split.tail = -(end - boundary(steps) - later) / actual;
  return split;
}

}  // namespace augur::bench
