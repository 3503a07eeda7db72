// Which slow steps of the one-run analysis are outliers (TeamPolicy::outlier_floor, docs/self-analysis.md,
// "Which steps count"): a step slower than the median by a wake-up on a halted core is the program's own time and
// counts in T(P) and in the estimate; a step slower by another process's time slice does not.
#include "selfanalysis/team.hpp"

#include <gtest/gtest.h>

namespace {

using augur::selfanalysis::estimate_time;
using augur::selfanalysis::summarize;
using augur::selfanalysis::TeamAnalysis;
using augur::selfanalysis::TeamPolicy;

// A step of two threads of `elapsed` seconds: a loop of 10 + 10 us of work, no serial part.
void step(TeamAnalysis& team, double elapsed) {
  const double loop[] = {10e-6, 10e-6};
  team.episode(false, loop, 2);
  team.end_step(elapsed, 0);
}

// 90 steps of 25 us and 10 of 115 us (a thread slept at a barrier and was woken 90 us later), then one step of
// 3 ms (preempted by another process, without a switch counted).
TeamAnalysis wake_up_steps() {
  TeamAnalysis team(2);
  for (int index = 0; index < 100; ++index) step(team, index % 10 == 9 ? 115e-6 : 25e-6);
  step(team, 3e-3);
  for (int index = 0; index < 3; ++index) {
    const double loop[] = {10e-6, 10e-6};
    team.episode(false, loop, 2);
    team.end_step(20e-6, 0, true);  // baseline: the threads one after the other
  }
  return team;
}

}  // namespace

TEST(TeamOutliers, TheProgramsOwnSlowStepsCountAndATimeSliceDoesNot) {
  const TeamAnalysis team = wake_up_steps();
  const auto summary = summarize(team);
  ASSERT_TRUE(summary.enough);
  // The median is 25 us and the MAD 0: 3 MADs would keep only the 25 us steps (T(P) 25 us, S 0.8). The floor of
  // 0.5 ms keeps the wake-ups: T(P) = (90 x 25 + 10 x 115) / 100 = 34 us; the 3 ms step is left out.
  EXPECT_EQ(summary.steps_used, 100);
  EXPECT_NEAR(summary.step_time, 34e-6, 1e-15);
  EXPECT_NEAR(summary.speedup, 20e-6 / 34e-6, 1e-9);
  // The estimate of 1000 more steps from 0.1 s consumed: the same mean, not the median.
  EXPECT_NEAR(estimate_time(team, 0.1, 1000, 0.0), 0.1 + 1000 * 34e-6, 1e-12);
}

TEST(TeamOutliers, WithNoFloorThreeMadsLeaveOutEveryWakeUp) {
  const TeamAnalysis team = wake_up_steps();
  TeamPolicy policy;
  policy.outlier_floor = 0.0;
  const auto summary = summarize(team, policy);
  // The MAD of the steps is 0, so no limit is drawn and every step counts, the 3 ms one too.
  EXPECT_EQ(summary.steps_used, 101);
  EXPECT_NEAR(summary.step_time, (90 * 25e-6 + 10 * 115e-6 + 3e-3) / 101, 1e-15);
  // With a spread, 3 MADs cut at the median's neighbourhood: steps of 24, 25 and 26 us and the wake-ups.
  TeamAnalysis spread(2);
  for (int index = 0; index < 99; ++index) step(spread, index % 10 == 9 ? 115e-6 : (24 + index % 3) * 1e-6);
  for (int index = 0; index < 3; ++index) {
    const double loop[] = {10e-6, 10e-6};
    spread.episode(false, loop, 2);
    spread.end_step(20e-6, 0, true);
  }
  const auto trimmed = summarize(spread, policy);
  EXPECT_EQ(trimmed.steps_used, 90);  // the 9 wake-ups left out
  EXPECT_NEAR(trimmed.step_time, 25e-6, 1e-12);
  const auto kept = summarize(spread);  // the default floor keeps them
  EXPECT_EQ(kept.steps_used, 99);
}
