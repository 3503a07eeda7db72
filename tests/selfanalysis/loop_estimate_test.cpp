// The estimate from the means of the steps, deferred off the master's path (selfanalysis::DeferredEstimate,
// LoopEstimates::defer and resolve), the evidence the first estimate waits for (FirstEstimate), and the report
// of the tool's own time (ToolTime); docs/self-analysis.md, "The tool's time on the master".
#include <gtest/gtest.h>

#include <cmath>
#include <utility>

#include <nlohmann/json.hpp>

#include "selfanalysis/team_report.hpp"

namespace {

using augur::selfanalysis::DeferredEstimate;
using augur::selfanalysis::LoopEstimates;
using augur::selfanalysis::LoopPace;
using augur::selfanalysis::TeamAnalysis;

// One step of a team of two: a loop both work in, `elapsed` seconds.
void step(TeamAnalysis& team, double elapsed) {
  const double loop[] = {elapsed * 0.5, elapsed * 0.4};
  team.episode(false, loop, 2);
  team.end_step(elapsed, 0);
}

// Made at iteration 30 from the 20 steps of 2 ms measured then, resolved after 20 more of 5 ms: the estimate is
// the one of the 20 first steps, 0.1 s consumed + 70 steps x 2 ms = 0.24 s (from all 40 it would be 0.1 + 70 x
// 3.5 ms = 0.345 s).
TEST(DeferredEstimate, ResolvesFromTheStepsMeasuredWhenItWasMade) {
  TeamAnalysis team(2);
  LoopPace pace;  // never marked: no pace estimate, the fallback answers
  LoopEstimates estimates;
  for (int index = 0; index < 20; ++index) step(team, 2e-3);
  int asked = 0;
  const auto fallback = [&] {
    ++asked;
    return DeferredEstimate{team.steps(), 0.1, 70, 0.0};
  };
  estimates.at_boundary(pace, 0.1, 30, 100, false, fallback);
  EXPECT_EQ(asked, 1);
  EXPECT_EQ(estimates.count(), 1);
  EXPECT_TRUE(estimates.first_made());
  EXPECT_FALSE(estimates.first().made());  // its seconds wait for resolve()
  EXPECT_EQ(estimates.first().at_iteration, 30);
  // Made: a boundary that is no mark asks nothing more.
  estimates.at_boundary(pace, 0.11, 31, 100, false, fallback);
  EXPECT_EQ(asked, 1);
  for (int index = 0; index < 20; ++index) step(team, 5e-3);
  estimates.resolve(team);
  ASSERT_TRUE(estimates.first().made());
  EXPECT_NEAR(estimates.first().seconds, 0.1 + 70 * 2e-3, 1e-12);
  EXPECT_EQ(estimates.latest().at_iteration, 30);
  EXPECT_NEAR(estimates.latest().seconds, 0.1 + 70 * 2e-3, 1e-12);
  // The same as computed at once from those 20 steps; all 40 would give another.
  EXPECT_DOUBLE_EQ(estimates.first().seconds, augur::selfanalysis::estimate_time_from(team, 20, 0.1, 70, 0.0));
  EXPECT_NEAR(augur::selfanalysis::estimate_time(team, 0.1, 70, 0.0), 0.1 + 70 * 3.5e-3, 1e-12);
}

// A later estimate from the pace replaces the deferred latest one; the deferred first stays, and resolves.
TEST(DeferredEstimate, ALaterEstimateReplacesTheDeferredLatestOne) {
  TeamAnalysis team(2);
  LoopPace pace;
  LoopEstimates estimates;
  for (int index = 0; index < 10; ++index) step(team, 4e-3);
  estimates.at_boundary(pace, 0.05, 25, 100, false, [&] { return DeferredEstimate{team.steps(), 0.05, 75, 0.0}; });
  const augur::selfanalysis::TeamPolicy policy;
  pace.mark(0.05, 25, team, policy);
  for (int index = 0; index < 10; ++index) step(team, 4e-3);
  pace.mark(0.09, 35, team, policy);  // one undisturbed stretch of 10 steps in 40 ms, a quarter gone: the pace answers
  estimates.at_boundary(pace, 0.09, 35, 100, true, [] { return DeferredEstimate{}; });
  EXPECT_EQ(estimates.count(), 2);
  ASSERT_TRUE(estimates.latest().made());
  EXPECT_NEAR(estimates.latest().seconds, 0.09 + 65 * 4e-3, 1e-12);
  estimates.resolve(team);
  EXPECT_NEAR(estimates.first().seconds, 0.05 + 75 * 4e-3, 1e-12);
  EXPECT_EQ(estimates.first().at_iteration, 25);
  EXPECT_NEAR(estimates.latest().seconds, 0.09 + 65 * 4e-3, 1e-12);  // not the deferred one's
  EXPECT_EQ(estimates.latest().at_iteration, 35);
}

// A fallback whose evidence does not suffice (steps < 0) makes no estimate.
TEST(DeferredEstimate, NoEstimateWhenTheEvidenceDoesNotSuffice) {
  TeamAnalysis team(2);
  LoopPace pace;
  LoopEstimates estimates;
  estimates.at_boundary(pace, 0.1, 30, 100, false, [] { return DeferredEstimate{}; });
  EXPECT_EQ(estimates.count(), 0);
  EXPECT_FALSE(estimates.first_made());
  estimates.resolve(team);
  EXPECT_FALSE(estimates.first().made());
  EXPECT_FALSE(estimates.latest().made());
}

// The first estimate from the means waits for 20 steps on the team whose mean is known within 2.5%
// (TeamPolicy::first_estimate_steps, first_estimate_error). A loop of 60 steps whose times run 10 at 0.9 ms,
// then 10 at 1.1 ms, and again (60 ms in all): 10 steps would extrapolate 0.9 ms a step, 10% short; the first
// 20 have the mean 1.0 ms, and their relative standard error is 0.1026 / sqrt(20) = 2.29%: the estimate is
// made at iteration 20, 20 ms + 40 x 1.0 ms = 60 ms, the loop's time.
TEST(FirstEstimate, WaitsForTwentyStepsWhereTenMislead) {
  constexpr long expected = 60;
  TeamAnalysis team(2);
  LoopPace pace;  // never marked: the fallback answers
  LoopEstimates estimates;
  augur::selfanalysis::StepTimeSums sums;
  double consumed = 0.0;
  for (long iteration = 1; iteration <= expected; ++iteration) {
    const double elapsed = ((iteration - 1) / 10) % 2 == 0 ? 0.9e-3 : 1.1e-3;
    step(team, elapsed);
    sums.add(elapsed);
    consumed += elapsed;
    estimates.at_boundary(pace, consumed, iteration, expected, false, [&] {
      if (iteration * 4 < expected || !augur::selfanalysis::first_estimate_ready(sums, iteration, expected)) return DeferredEstimate{};
      return DeferredEstimate{team.steps(), consumed, expected - iteration, 0.0};
    });
  }
  estimates.resolve(team);
  ASSERT_TRUE(estimates.first().made());
  EXPECT_EQ(estimates.first().at_iteration, 20);
  EXPECT_NEAR(estimates.first().seconds, 0.060, 1e-12);
  EXPECT_NEAR(consumed, 0.060, 1e-12);
  // From the first 10 steps (the quarter is at 15): 9 ms + 50 x 0.9 ms = 54 ms, 10% short of the goal of 5%.
  EXPECT_NEAR(augur::selfanalysis::estimate_time_from(team, 10, 0.009, 50, 0.0), 0.054, 1e-12);
}

TEST(FirstEstimate, TheStandardErrorOfTheMean) {
  augur::selfanalysis::StepTimeSums sums;
  EXPECT_TRUE(std::isinf(sums.relative_standard_error()));
  sums.add(1.0);
  EXPECT_TRUE(std::isinf(sums.relative_standard_error()));  // one step: no spread known
  sums.add(3.0);
  // Mean 2, sample deviation sqrt(2), over sqrt(2) steps: 1, over the mean: 0.5.
  EXPECT_EQ(sums.count(), 2);
  EXPECT_NEAR(sums.mean(), 2.0, 1e-15);
  EXPECT_NEAR(sums.relative_standard_error(), 0.5, 1e-12);
}

// A wide spread waits until half the loop went by; a short loop waits for a third of its steps.
TEST(FirstEstimate, AWideSpreadWaitsForHalfTheLoopAShortLoopForAThird) {
  using augur::selfanalysis::first_estimate_ready;
  augur::selfanalysis::StepTimeSums wide;
  for (int index = 0; index < 40; ++index) wide.add(index % 2 == 0 ? 0.5e-3 : 1.5e-3);  // s/mean 0.51: 8.1% at 40 steps
  EXPECT_FALSE(first_estimate_ready(wide, 40, 100));
  EXPECT_FALSE(first_estimate_ready(wide, 49, 100));
  EXPECT_TRUE(first_estimate_ready(wide, 50, 100));
  augur::selfanalysis::StepTimeSums even;
  for (int index = 0; index < 9; ++index) even.add(1e-3);
  EXPECT_FALSE(first_estimate_ready(even, 12, 30));  // 9 steps of a loop of 30: a third is 10
  even.add(1e-3);
  EXPECT_TRUE(first_estimate_ready(even, 13, 30));
  EXPECT_FALSE(first_estimate_ready(even, 13, 100));  // a loop of 100: 20 steps
  augur::selfanalysis::StepTimeSums few;
  for (int index = 0; index < 4; ++index) few.add(1e-3);
  EXPECT_FALSE(first_estimate_ready(few, 6, 12));  // never fewer than min_steps (5)
  few.add(1e-3);
  EXPECT_TRUE(first_estimate_ready(few, 7, 12));
}

// A loop of 2000 steps whose pace is marked every 20 steps from iteration 10, each stretch's steps taking
// `first` then `second` seconds in turn; returns the iteration the first estimate was made at and its seconds.
std::pair<long, double> first_estimate_of(double first, double second) {
  TeamAnalysis team(2);
  LoopPace pace;
  LoopEstimates estimates;
  double now = 0.0;
  for (long begun = 1; begun <= 2000 && !estimates.first_made(); ++begun) {
    const double elapsed = begun <= 10 || ((begun - 11) / 20) % 2 == 0 ? first : second;
    now += elapsed;
    step(team, elapsed);
    const bool mark = begun >= 10 && (begun - 10) % 20 == 0;
    if (mark) pace.mark(now, begun, team, {});
    estimates.at_boundary(pace, now, begun, 2000, mark, [] { return -1.0; });
  }
  return {estimates.first().at_iteration, estimates.first().seconds};
}

// The first estimate from the pace waits for five stretches (TeamPolicy::min_steps) whose paces give their mean
// within 2.5% (the standard error over the mean, TeamPolicy::first_estimate_error), or a quarter of the loop.
TEST(FirstEstimate, ThePaceWaitsUntilItsMeanIsKnownWithinTwoAndAHalfPercent) {
  // A steady pace: five stretches (iteration 110): 0.22 s + 1890 steps of 2 ms.
  const auto steady = first_estimate_of(2e-3, 2e-3);
  EXPECT_EQ(steady.first, 110);
  EXPECT_NEAR(steady.second, 0.22 + 1890 * 2e-3, 1e-9);
  // Stretches of 2.0 and 2.4 ms steps in turn: s / mean over sqrt(n) is 2.52% after 14 stretches, 2.44% after
  // 15 (iteration 310): 10 x 2 ms + 8 x 20 x 2.0 ms + 7 x 20 x 2.4 ms = 0.676 s, then 1690 steps at the
  // stretches' pace, 0.656 s over 300 steps.
  const auto alternating = first_estimate_of(2e-3, 2.4e-3);
  EXPECT_EQ(alternating.first, 310);
  EXPECT_NEAR(alternating.second, 0.676 + 1690 * (0.656 / 300), 1e-9);
  // 1 and 3 ms in turn: not within 2.5% before the quarter (iteration 500), where one stretch suffices.
  EXPECT_EQ(first_estimate_of(1e-3, 3e-3).first, 500);
}

}  // namespace

namespace {

// The report's tool_time: the sums as given, and the master's time in the tool per barrier in microseconds:
// (0.003 + 0.0015) s over 3000 barriers = 1.5 us.
TEST(ToolTime, TheReportCarriesTheToolsOwnTime) {
  augur::selfanalysis::OuterRegionResult outer;
  outer.tool = {.barriers = 3000, .boundaries = 1000, .arrival_seconds = 0.003, .bookkeeping_seconds = 0.0015,
                .boundary_seconds = 0.001, .courtesy_waits = 1200, .courtesy_ran_out = 300, .courtesy_seconds = 0.0024};
  const auto json = nlohmann::json::parse(augur::selfanalysis::add_outer_regions(R"({"regions": []})", {outer}));
  const auto& tool = json.at("regions").at(0).at("tool_time");
  EXPECT_EQ(tool.at("barriers"), 3000);
  EXPECT_EQ(tool.at("step_boundaries"), 1000);
  EXPECT_EQ(tool.at("master_arrival_s"), 0.003);
  EXPECT_EQ(tool.at("master_bookkeeping_s"), 0.0015);
  EXPECT_EQ(tool.at("master_boundary_s"), 0.001);
  EXPECT_NEAR(tool.at("master_per_barrier_us").get<double>(), 1.5, 1e-9);
  EXPECT_EQ(tool.at("courtesy_waits"), 1200);
  EXPECT_EQ(tool.at("courtesy_ran_out"), 300);
  EXPECT_EQ(tool.at("courtesy_s"), 0.0024);
  // No barrier: no per-barrier figure.
  const auto none = nlohmann::json::parse(augur::selfanalysis::add_outer_regions(R"({"regions": []})", {augur::selfanalysis::OuterRegionResult{}}));
  EXPECT_TRUE(none.at("regions").at(0).at("tool_time").at("master_per_barrier_us").is_null());
}

}  // namespace
