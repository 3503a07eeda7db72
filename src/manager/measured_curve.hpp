// Private to augur_manager: an application's speedup as far as it measured it, and its work left, as the
// policies that plan on measured speedups read them (shortest_first.cpp, knee_first.cpp).
#pragma once

#include <cstdio>
#include <iterator>
#include <map>
#include <span>
#include <string>
#include <vector>

#include "manager/policy.hpp"

namespace augur::manager {

// (1, 1) and the application's PC points on their upper concave hull, linear in between; past the largest
// measured P, the slope of the last segment (linear before any measurement).
class MeasuredCurve {
public:
  explicit MeasuredCurve(const ApplicationReport& report) {
    points_[1] = 1.0;
    for (const SpeedupEntry& entry : report.speedups) {
      if (entry.state == SpeedupState::calculated && entry.processors >= 2 && entry.speedup > 0.0) {
        points_[entry.processors] = entry.speedup;
      }
    }
    keep_upper_hull();
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
  // Keeps the points on the upper concave hull of (1, 1) and the measured points: one below the chord of
  // its neighbours on the hull goes (a speedup curve of a fixed amount of work is concave: a dip is the
  // noise of a measurement, which would otherwise make a gain out of nothing past it).
  void keep_upper_hull() {
    std::vector<std::pair<int, double>> hull;
    for (const auto& point : points_) {
      while (hull.size() >= 2) {
        const auto& a = hull[hull.size() - 2];
        const auto& b = hull.back();
        const double cross = (b.first - a.first) * (point.second - a.second) - (b.second - a.second) * (point.first - a.first);
        if (cross < 0.0) break;
        hull.pop_back();
      }
      hull.push_back(point);
    }
    points_ = std::map<int, double>(hull.begin(), hull.end());
  }

  std::map<int, double> points_;
};

// The work an application has left, in one-processor seconds: W = T(P) x S(P), its predicted time to the
// end at its allocation (cpus_prediction_time) times its speedup there; when it predicted none this time
// (its allocation changed since it measured), the last W it predicted (its policy memory); 0 when it never
// predicted one.
[[nodiscard]] inline double work_left(const ApplicationReport& report) {
  const std::optional<double> speedup = calculated_speedup(report, report.allocation);
  if (report.predicted_time > 0.0 && report.allocation > 0 && speedup) return report.predicted_time * *speedup;
  return report.memory.work_left;
}

// Each application's rank by `key` (its work left, ...): the number of applications with at least its key
// (itself included; on a tie the later one counts as having more): n for the least, 1 for the most. One
// whose key is unknown (0) counts with the mean of the others' keys.
[[nodiscard]] inline std::vector<double> rank_weights(const std::vector<double>& key) {
  double known_sum = 0.0;
  int known = 0;
  for (const double each : key) {
    if (each > 0.0) {
      known_sum += each;
      ++known;
    }
  }
  const double unknown = known > 0 ? known_sum / known : 1.0;
  const auto value = [&](std::size_t index) { return key[index] > 0.0 ? key[index] : unknown; };
  std::vector<double> weight(key.size(), 0.0);
  for (std::size_t index = 0; index < key.size(); ++index) {
    for (std::size_t other = 0; other < key.size(); ++other) {
      if (value(other) > value(index) || (value(other) == value(index) && other >= index)) weight[index] += 1.0;
    }
  }
  return weight;
}

// A running application is never stopped: one processor each (the earliest first if the machine shrank);
// returns the processors left.
[[nodiscard]] inline int one_each_running(std::span<const ApplicationReport> reports, std::vector<int>& processors, int cpus) {
  int free_processors = cpus;
  for (std::size_t index = 0; index < reports.size() && free_processors > 0; ++index) {
    if (reports[index].allocation <= 0) continue;
    processors[index] = 1;
    --free_processors;
  }
  return free_processors;
}

// A number for a reason in the log ("%.2f").
[[nodiscard]] inline std::string number_text(const char* format, double value) {
  char text[48];
  std::snprintf(text, sizeof text, format, value);
  return text;
}

}  // namespace augur::manager
