// The tally of issue 16's goals under bench_outer_region's summary (bench/outer_region_goals.hpp), on crafted
// figures: counts, the misses with their errors, an unmeasured figure counted as a miss, and the floors beside
// the goals.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "outer_region_goals.hpp"

namespace {

using augur::bench::GoalFigures;
using augur::bench::goals_text;

GoalFigures program(const char* label, double speedup, double split, double estimate, double pace, int good) {
  GoalFigures figures;
  figures.label = label;
  figures.same_period = true;
  figures.speedup_error = speedup;
  figures.reference_split = split;
  figures.estimate_error = estimate;
  figures.pace_alone = pace;
  figures.disturbed_good = good;
  figures.disturbed_runs = 5;
  return figures;
}

TEST(BenchGoals, CountsEachGoalAndNamesTheMisses) {
  std::vector<GoalFigures> programs{program("gcc a", 0.05, -0.02, 0.01, 0.00, 5),
                                    program("gcc b", 0.27, 0.099, -0.287, -0.272, 5),
                                    program("clang c", -0.10, 0.171, 0.049, std::nan(""), 4)};
  programs[1].same_period = false;
  EXPECT_EQ(goals_text(programs),
            "== goals of issue 16 over 3 programs\n"
            "  the same period in every run: 2 of 3 (goal: all)\n"
            "  one-run S(2) within 10% of T(1)/T(2): 2 of 3 (goal: all); off: gcc b +27.00%\n"
            "    the machine's floor, the reference against itself (ref B/A) within 10%: 2 of 3; off: clang c +17.10%\n"
            "  first time estimate within 5%: 2 of 3 (goal: all); off: gcc b -28.70%\n"
            "    the program's floor, its own pace alone on 2 threads at the same point within 5%: 1 of 3, 2 measured; "
            "off: gcc b -27.20%, clang c no pace\n"
            "  disturbed runs within 15% or flagged: 14 of 15 (goal: all)\n");
}

TEST(BenchGoals, AProgramWithoutASpeedupMissesTheGoal) {
  GoalFigures none = program("gcc d", std::nan(""), 0.0, std::nan(""), 0.0, 5);
  const std::string text = goals_text({none});
  EXPECT_EQ(text.rfind("== goals of issue 16 over 1 program\n", 0), 0U) << text;
  EXPECT_NE(text.find("one-run S(2) within 10% of T(1)/T(2): 0 of 1, 0 measured (goal: all); off: gcc d none"), std::string::npos) << text;
  EXPECT_NE(text.find("first time estimate within 5%: 0 of 1, 0 measured (goal: all); off: gcc d none"), std::string::npos) << text;
}

}  // namespace
