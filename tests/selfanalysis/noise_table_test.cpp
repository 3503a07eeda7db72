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
  // 17/15 / 5/3 - 1 = -32%; the windows' MAD is 0 (six of eight equal), so the 10% floor is the limit. T(B) stayed
  // 10 ms: the same weighting against the final T(B) is as far off, so the cause is the last windows.
  EXPECT_EQ(verdict.reasons[0],
            "the table's S(2) = 1.13 (history-weighted: it leans on the last windows) is 32.0% below the windows' median 1.67 "
            "(more than 10.0%): the last windows differ from the run's");
}

TEST(NoiseTableSpeedup, LastWindowsFivePercentSlowerStayClean) {
  double table = 0.0;
  const NoiseVerdict verdict = late_windows(1.05, table);
  // 0.6 x (0.6 x 5/3 + 0.4 x s) + 0.4 x s with s = 5/3 / 1.05: 0.36 x 5/3 + 0.64 x s, 4.2% below 5/3.
  EXPECT_NEAR(table, 0.36 * 5.0 / 3.0 + 0.64 * 5.0 / 3.0 / 1.05, 1e-9);
  EXPECT_FALSE(verdict.table_outside);
  EXPECT_FALSE(verdict.disturbed) << verdict.verdict;
}

// The T(B) moves from 10 to 13 ms in the first three baseline windows (all but the first slowed) and stays: the
// windows measured after that carry the table, which comes back to 13/6 within 10% of the windows' median, and
// the rule clears (the slowed baseline windows stay a reason of their own).
TEST(NoiseTableSpeedup, ClearsOnceTheWindowsAfterTheLastChangeOfTBCarryTheTable) {
  ScriptedRun run(ScriptedRun::config(6));
  run.slowed_baseline_windows = {1, 2, 3, 4, 5, 6, 7, 8, 9};
  run.analyzer.init_parallel_region(1, 2, -1);
  run.run_until_baseline_windows(10);
  const Region& region = *run.analyzer.current();
  EXPECT_NEAR(region.baseline_time, 0.013, 1e-12);  // the median of 10, 13 x 9
  const NoiseVerdict verdict = judge_noise(region, noise_thresholds(run.analyzer.config()), quiet_machine(), 2);
  EXPECT_NEAR(verdict.speedup.median, 13.0 / 6.0, 1e-9);
  EXPECT_NEAR(region.speedup(2), 13.0 / 6.0, 0.1 * 13.0 / 6.0);
  EXPECT_FALSE(verdict.table_outside) << verdict.verdict;
  EXPECT_TRUE(verdict.disturbed);  // 9 of 10 baseline windows slowed
}

// The table's weight comes from the run's --history: with w = 0 the table is the last window alone, and two last
// windows 12% slower put it 10.7% below the median (5/3 / 1.12 against 5/3), where the default w = 0.6 keeps it
// 6.9% below (0.36 + 0.64 / 1.12 - 1).
TEST(NoiseTableSpeedup, TheHistoryWeightIsTheRunsOwn) {
  for (const double history : {0.0, 0.6}) {
    Config config = ScriptedRun::config(6);
    config.history_weight = history;
    ScriptedRun run(config);
    run.late_from = 24;
    run.late_scale = 1.12;
    run.analyzer.init_parallel_region(1, 2, -1);
    run.run_until_baseline_windows(5);
    const Region& region = *run.analyzer.current();
    const NoiseVerdict verdict = judge_noise(region, noise_thresholds(run.analyzer.config()), quiet_machine(), 2);
    const double expected = history == 0.0 ? 5.0 / 3.0 / 1.12 : 5.0 / 3.0 * (0.36 + 0.64 / 1.12);
    EXPECT_NEAR(region.speedup(2), expected, 1e-9) << history;
    EXPECT_EQ(verdict.table_outside, history == 0.0) << history << ": " << verdict.verdict;
  }
}

}  // namespace
}  // namespace augur::selfanalysis
