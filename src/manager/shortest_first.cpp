// shortest-first, augur's own policy: processors one at a time to the application where the next one adds
// the most speedup, S(P+1) - S(P), weighed by its rank in work left: the application with the least work
// left (W, one-processor seconds) weighs n, the one with the most weighs 1. It is the shape of heSRPT's
// optimal allocation for jobs of known sizes on sublinear speedups (Berg, Vesilo, Harchol-Balter 2020: the
// shares depend on the jobs' order by size, and the shorter ones get more), with each application's own
// measured speedups in place of one speedup function: a processor goes where it is used well and to the
// applications that will finish first. S comes from the speedups the application measured (PC),
// interpolated linearly through S(1) = 1 and extrapolated at most `step` processors past the largest one
// measured; W from its predicted time (cpus_prediction_time). Docs: manager.md.
#include <algorithm>

#include "measured_curve.hpp"
#include "policies.hpp"

namespace augur::manager {

std::vector<Allocation> decide_shortest_first(const PolicyParameters& parameters,
                                              std::span<const ApplicationReport> reports) {
  const std::size_t count = reports.size();
  std::vector<MeasuredCurve> curves;
  std::vector<double> left(count, 0.0);
  std::vector<int> limits(count, 0);
  for (std::size_t index = 0; index < count; ++index) {
    const ApplicationReport& report = reports[index];
    curves.emplace_back(report);
    left[index] = work_left(report);
    const int request = report.max_processors > 0 ? std::min(report.max_processors, parameters.cpus) : parameters.cpus;
    limits[index] = std::min(request, curves[index].largest_measured() + parameters.step);
  }
  const std::vector<double> weight = rank_weights(left);
  // A running application is never stopped: one processor each first, the earliest if the machine shrank.
  std::vector<int> processors(count, 0);
  int free_processors = one_each_running(reports, processors, parameters.cpus);
  hand_out_one_at_a_time(processors, free_processors, [&](std::size_t index, int now) -> std::optional<double> {
    if (now >= limits[index]) return std::nullopt;
    const double gain = curves[index].at(now + 1) - curves[index].at(now);
    if (now > 0 && gain <= parameters.minimum_gain) return std::nullopt;  // a first one whatever the gain (never idle)
    return gain * weight[index];
  });
  std::vector<Allocation> allocations;
  for (std::size_t index = 0; index < count; ++index) {
    const ApplicationReport& report = reports[index];
    std::string reason;
    if (processors[index] == 0) {
      reason = "waits: every processor gains more elsewhere";
    } else {
      reason = "predicted speedup " + number_text("%.2f", curves[index].at(processors[index])) + " with " +
               std::to_string(processors[index]) + " (measured up to " + std::to_string(curves[index].largest_measured()) +
               "), " + (left[index] > 0.0 ? number_text("%.0f", left[index]) + " s of work left" : "its work unknown yet") +
               ", weight " + number_text("%.0f", weight[index]) + " of " + std::to_string(count);
    }
    Allocation allocation = next_allocation(report, processors[index], report.memory.phase, std::move(reason));
    allocation.memory.work_left = left[index];
    allocations.push_back(std::move(allocation));
  }
  return allocations;
}

}  // namespace augur::manager
