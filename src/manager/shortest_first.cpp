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
#include <cstdio>
#include <map>

#include "policies.hpp"

namespace augur::manager {

namespace {

// An application's speedup as far as it measured it: (1, 1) and its PC points, linear in between; past the
// largest measured P, the slope of the last segment (linear before any measurement).
class MeasuredCurve {
public:
  explicit MeasuredCurve(const ApplicationReport& report) {
    points_[1] = 1.0;
    for (const SpeedupEntry& entry : report.speedups) {
      if (entry.state == SpeedupState::calculated && entry.processors >= 2 && entry.speedup > 0.0) {
        points_[entry.processors] = entry.speedup;
      }
    }
  }

  [[nodiscard]] int largest_measured() const { return points_.rbegin()->first; }

  [[nodiscard]] double at(int processors) const {
    if (processors <= 0) return 0.0;
    const auto above = points_.lower_bound(processors);
    if (above != points_.end() && above->first == processors) return above->second;
    if (above == points_.end()) {  // past the largest measured P
      const auto last = std::prev(points_.end());
      if (last == points_.begin()) return static_cast<double>(processors);
      const auto before = std::prev(last);
      const double slope = (last->second - before->second) / (last->first - before->first);
      return last->second + slope * (processors - last->first);
    }
    const auto below = std::prev(above);
    return below->second + (above->second - below->second) * (processors - below->first) / (above->first - below->first);
  }

private:
  std::map<int, double> points_;
};

// The work an application has left, in one-processor seconds: W = T(P) x S(P), its predicted time to the
// end at its allocation (cpus_prediction_time) times its speedup there; when it predicted none this time
// (its allocation changed since it measured), the last W it predicted; 0 when it never predicted one.
double work_left(const ApplicationReport& report) {
  const std::optional<double> speedup = calculated_speedup(report, report.allocation);
  if (report.predicted_time > 0.0 && report.allocation > 0 && speedup) return report.predicted_time * *speedup;
  return report.memory.work_left;
}

// Each application's rank in work left: the number of applications with at least its work left (itself
// included; on a tie the later one counts as having more): n for the least work, 1 for the most. One that
// has not predicted its work yet (0) counts with the mean of the others' work.
std::vector<double> rank_weights(const std::vector<double>& left) {
  double known_sum = 0.0;
  int known = 0;
  for (const double each : left) {
    if (each > 0.0) {
      known_sum += each;
      ++known;
    }
  }
  const double unknown = known > 0 ? known_sum / known : 1.0;
  const auto work = [&](std::size_t index) { return left[index] > 0.0 ? left[index] : unknown; };
  std::vector<double> weight(left.size(), 0.0);
  for (std::size_t index = 0; index < left.size(); ++index) {
    for (std::size_t other = 0; other < left.size(); ++other) {
      if (work(other) > work(index) || (work(other) == work(index) && other >= index)) weight[index] += 1.0;
    }
  }
  return weight;
}

std::string number_text(const char* format, double value) {
  char text[48];
  std::snprintf(text, sizeof text, format, value);
  return text;
}

}  // namespace

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
  int free_processors = parameters.cpus;
  for (std::size_t index = 0; index < count && free_processors > 0; ++index) {
    if (reports[index].allocation <= 0) continue;
    processors[index] = 1;
    --free_processors;
  }
  hand_out_one_at_a_time(processors, free_processors, [&](std::size_t index, int now) -> std::optional<double> {
    if (now >= limits[index]) return std::nullopt;
    const double gain = curves[index].at(now + 1) - curves[index].at(now);
    if (gain <= parameters.minimum_gain) return std::nullopt;
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
