// The noise verdict's check of the table's S(P) against the windows (src/selfanalysis/noise.cpp,
// judge_table_speedup): the history-weighted S(P) leans on the last windows; when they differ from the run's,
// the verdict says so. Scripted runs (scripted_run.hpp), expectations worked out by hand.
#include <gtest/gtest.h>

#include <string>

#include "augur/selfanalysis.hpp"
#include "augur/selfanalysis_noise.hpp"
#include "scripted_run.hpp"

namespace augur::selfanalysis {
namespace {

using test::quiet_machine;
using test::ScriptedRun;

// Baseline windows B every 6 measured iterations: B, 2 windows on 2, B, ... B: 5 baseline windows, 8 windows on 2
// of 3 iterations each (T(1) = 10 ms, T(2) = 6 ms: S = 5/3). The first iteration on 2 after each B is not measured,
// so the windows on 2 are its iterations 3-5, 6-8, 10-12, 13-15, 17-19, 20-22, 24-26 and 27-29: from the 24th on,
// the last two windows run `late_scale` slower.
NoiseVerdict late_windows(double late_scale, double& table) {
  ScriptedRun run(ScriptedRun::config(6));
  run.late_from = 24;
  run.late_scale = late_scale;
  run.analyzer.init_parallel_region(1, 2, -1);
  run.run_until_baseline_windows(5);
  table = run.analyzer.current()->speedup(2);
  return judge_noise(*run.analyzer.current(), NoiseThresholds{}, quiet_machine(), 2);
}

TEST(NoiseTableSpeedup, TwoSlowLastWindowsPullTheTableAwayFromTheWindowsAndTheVerdictSaysSo) {
  double table = 0.0;
  const NoiseVerdict verdict = late_windows(2.0, table);
  // Six windows at 10/6, two at 10/12: S = 0.6 x 5/3 + 0.4 x 5/6 = 4/3, then 0.6 x 4/3 + 0.4 x 5/6 = 17/15.
  EXPECT_NEAR(table, 17.0 / 15.0, 1e-9);
  EXPECT_NEAR(verdict.speedup.median, 5.0 / 3.0, 1e-9);
  EXPECT_TRUE(verdict.table_outside);
  EXPECT_TRUE(verdict.disturbed);
  ASSERT_EQ(verdict.reasons.size(), 1u) << verdict.verdict;
  // 17/15 / 5/3 - 1 = -32%; the windows' MAD is 0 (six of eight equal), so the 10% floor is the limit.
  EXPECT_EQ(verdict.reasons[0],
            "the table's S(2) = 1.13 (weighted toward the last windows, each against the T(B) of its time) is 32% below the "
            "windows' median 1.67 against the final T(B) (more than 10%): the windows do not agree on one S(2)");
}

TEST(NoiseTableSpeedup, LastWindowsFivePercentSlowerStayClean) {
  double table = 0.0;
  const NoiseVerdict verdict = late_windows(1.05, table);
  // 0.6 x (0.6 x 5/3 + 0.4 x s) + 0.4 x s with s = 5/3 / 1.05: 0.36 x 5/3 + 0.64 x s, 4.2% below 5/3.
  EXPECT_NEAR(table, 0.36 * 5.0 / 3.0 + 0.64 * 5.0 / 3.0 / 1.05, 1e-9);
  EXPECT_FALSE(verdict.table_outside);
  EXPECT_FALSE(verdict.disturbed) << verdict.verdict;
}

}  // namespace
}  // namespace augur::selfanalysis
