// The tally of issue 16's goals under bench_outer_region's summary (outer_region_accuracy.cpp): how many programs
// met each goal, which missed and by how much, and beside each accuracy goal the same test on the machine's own
// noise (the reference against itself, the program's own pace), so that a reader sees the floor the goal is
// measured against. Pure: figures in, text out.
#pragma once

#include <cmath>
#include <cstdio>
#include <limits>
#include <string>
#include <vector>

namespace augur::bench {

// One program's figures against the goals; NaN: not measured (no one-run S(2), no estimate, no pace printed).
struct GoalFigures {
  std::string label;
  bool same_period = false;  // the same period in every run of the stability check
  double speedup_error = std::numeric_limits<double>::quiet_NaN();    // median one-run S(2) / median T(1)/T(2) - 1
  double reference_split = std::numeric_limits<double>::quiet_NaN();  // the second pairs' median / the first pairs' - 1
  double estimate_error = std::numeric_limits<double>::quiet_NaN();   // the first estimates' median error
  double pace_alone = std::numeric_limits<double>::quiet_NaN();       // the program's own pace alone on 2 threads, same point
  int disturbed_good = 0;  // disturbed runs within 15% or flagged
  int disturbed_runs = 0;
};

// "k of n" programs whose `value` is within `limit` (a NaN is a miss: nothing was measured), `goal`, then the misses.
template <class Value>
std::string within_text(const std::vector<GoalFigures>& programs, Value value, double limit, const char* unmeasured,
                        const char* goal) {
  int within = 0;
  int measured = 0;
  std::string misses;
  for (const GoalFigures& program : programs) {
    const double figure = value(program);
    measured += std::isnan(figure) ? 0 : 1;
    if (!std::isnan(figure) && std::fabs(figure) <= limit) {
      ++within;
      continue;
    }
    char text[32];
    if (std::isnan(figure)) {
      std::snprintf(text, sizeof text, "%s", unmeasured);
    } else {
      std::snprintf(text, sizeof text, "%+.2f%%", 100.0 * figure);  // a miss by 0.04 points still shows
    }
    misses += (misses.empty() ? "" : ", ") + program.label + " " + text;
  }
  std::string result = std::to_string(within) + " of " + std::to_string(programs.size());
  if (measured < static_cast<int>(programs.size())) result += ", " + std::to_string(measured) + " measured";
  return result + goal + (misses.empty() ? "" : "; off: " + misses);
}

// The tally, one line a goal.
inline std::string goals_text(const std::vector<GoalFigures>& programs) {
  int same = 0;
  int good = 0;
  int runs = 0;
  for (const GoalFigures& program : programs) {
    same += program.same_period ? 1 : 0;
    good += program.disturbed_good;
    runs += program.disturbed_runs;
  }
  std::string text = "== goals of issue 16 over " + std::to_string(programs.size()) + (programs.size() == 1 ? " program\n" : " programs\n");
  text += "  the same period in every run: " + std::to_string(same) + " of " + std::to_string(programs.size()) + " (goal: all)\n";
  text += "  one-run S(2) within 10% of T(1)/T(2): " +
          within_text(programs, [](const GoalFigures& p) { return p.speedup_error; }, 0.10, "none", " (goal: all)") + "\n";
  text += "    the machine's floor, the reference against itself (ref B/A) within 10%: " +
          within_text(programs, [](const GoalFigures& p) { return p.reference_split; }, 0.10, "none", "") + "\n";
  text += "  first time estimate within 5%: " +
          within_text(programs, [](const GoalFigures& p) { return p.estimate_error; }, 0.05, "none", " (goal: all)") + "\n";
  text += "    the program's floor, its own pace alone on 2 threads at the same point within 5%: " +
          within_text(programs, [](const GoalFigures& p) { return p.pace_alone; }, 0.05, "no pace", "") + "\n";
  text += "  disturbed runs within 15% or flagged: " + std::to_string(good) + " of " + std::to_string(runs) + " (goal: all)\n";
  return text;
}

}  // namespace augur::bench
