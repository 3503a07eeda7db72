// The one-run analysis of one outer parallel region (src/selfanalysis/team.*): crafted barrier episodes with
// known work per thread in, exact T(1), f, load balance, communication efficiency, speedups and verdicts out.
#include "selfanalysis/team_report.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace {

using augur::selfanalysis::estimate_time;
using augur::selfanalysis::summarize;
using augur::selfanalysis::TeamAnalysis;
using augur::selfanalysis::TeamSummary;

// One time step of two threads: a loop where thread 0 works 1.0 ms and thread 1 0.8 ms, then a `single` run by
// thread 0 for 0.2 ms (thread 1 does nothing), in a step of 1.3 ms.
void balanced_step(TeamAnalysis& team, double elapsed = 1.3e-3, long switches = 0) {
  const double loop[] = {1.0e-3, 0.8e-3};
  const double single[] = {0.2e-3, 0.0};
  team.episode(false, loop, 2);
  team.episode(true, single, 2);
  team.end_step(elapsed, switches);
}

// A baseline step of the same program: the threads one after the other, each alone (a little faster).
void baseline_step(TeamAnalysis& team, double scale = 0.9) {
  const double loop[] = {1.0e-3 * scale, 0.8e-3 * scale};
  const double single[] = {0.2e-3, 0.0};
  team.episode(false, loop, 2);
  team.episode(true, single, 2);
  team.end_step(2.2e-3, 0, true);
}

TEST(TeamAnalysis, CraftedStepsGiveTheExactFigures) {
  TeamAnalysis team(8);
  for (int step = 0; step < 10; ++step) balanced_step(team);
  const TeamSummary summary = summarize(team);
  ASSERT_TRUE(summary.enough);
  EXPECT_FALSE(summary.baseline_measured);
  EXPECT_EQ(summary.team, 2);
  EXPECT_EQ(summary.steps, 10);
  EXPECT_EQ(summary.steps_used, 10);
  EXPECT_NEAR(summary.step_time, 1.3e-3, 1e-15);
  EXPECT_NEAR(summary.work_one_thread, 2.0e-3, 1e-15);  // 1.0 + 0.8 + 0.2
  EXPECT_NEAR(summary.one_thread, 2.0e-3, 1e-15);
  EXPECT_NEAR(summary.f, 0.1, 1e-12);                    // 0.2 / 2.0
  EXPECT_NEAR(summary.serial, 0.2e-3, 1e-15);
  EXPECT_NEAR(summary.parallel_max, 1.0e-3, 1e-15);
  EXPECT_NEAR(summary.overhead, 0.1e-3, 1e-15);          // 1.3 - 0.2 - 1.0
  // POP: thread 0 worked 1.2 ms, thread 1 0.8 ms: load balance 1.0 / 1.2; communication 1.2 / 1.3.
  EXPECT_NEAR(summary.load_balance, 2.0 / (2 * 1.2), 1e-12);
  EXPECT_NEAR(summary.communication, 1.2 / 1.3, 1e-12);
  EXPECT_NEAR(summary.speedup, 2.0 / 1.3, 1e-12);
  EXPECT_NEAR(summary.parallel_efficiency(), summary.load_balance * summary.communication, 1e-12);
  EXPECT_NEAR(summary.amdahl_factor(2), 1.0 / (0.1 + 0.9 / 2), 1e-12);
  // On 4 threads: T(2) x (0.2 + 1.0 x 2/4 + 0.1) / (0.2 + 1.0 + 0.1).
  EXPECT_NEAR(summary.predicted_time(4), 1.3e-3 * 0.8 / 1.3, 1e-15);
  EXPECT_NEAR(summary.predicted_time(1), 2.0e-3, 1e-15);
  EXPECT_NEAR(summary.predicted_speedup(2), summary.speedup, 1e-12);
  EXPECT_FALSE(summary.disturbed);
  EXPECT_NE(summary.verdict().find("measurement clean"), std::string::npos) << summary.verdict();
}

// After a `single nowait` the edges flag the next barrier's episode, a loop where both threads work: it stays
// parallel (NPB CG's sparse matrix-vector product came out serial, and S(2) about 1 instead of 1.9).
TEST(TeamAnalysis, AFlaggedEpisodeWhereEveryThreadWorksIsParallel) {
  TeamAnalysis team(8);
  for (int step = 0; step < 10; ++step) {
    const double loop[] = {1.0e-3, 0.9e-3};
    const double single[] = {0.2e-3, 0.04e-3};  // the others' share within a quarter: serial
    team.episode(true, loop, 2);
    team.episode(true, single, 2);
    team.end_step(1.3e-3, 0);
  }
  const TeamSummary summary = summarize(team);
  EXPECT_NEAR(summary.serial, 0.24e-3, 1e-15);
  EXPECT_NEAR(summary.parallel_max, 1.0e-3, 1e-15);
  EXPECT_NEAR(summary.work_one_thread, 2.14e-3, 1e-15);
  EXPECT_NEAR(summary.f, 0.24 / 2.14, 1e-12);
}

TEST(TeamAnalysis, BaselineStepsGiveTOne) {
  TeamAnalysis team(8);
  for (int step = 0; step < 10; ++step) balanced_step(team);
  baseline_step(team, 0.9);
  baseline_step(team, 0.8);
  baseline_step(team, 1.0);
  const TeamSummary summary = summarize(team);
  ASSERT_TRUE(summary.enough);
  EXPECT_TRUE(summary.baseline_measured);
  EXPECT_EQ(summary.baseline_steps, 3);
  EXPECT_EQ(summary.steps, 10);  // baseline steps are not steps on the team
  // The median of 1.8 x {0.9, 0.8, 1.0} + 0.2: 1.8 x 0.9 + 0.2 = 1.82 ms; the work on the team is still 2.0.
  EXPECT_NEAR(summary.one_thread, 1.82e-3, 1e-15);
  EXPECT_NEAR(summary.work_one_thread, 2.0e-3, 1e-15);
  EXPECT_NEAR(summary.speedup, 1.82 / 1.3, 1e-12);
  EXPECT_NEAR(summary.step_time, 1.3e-3, 1e-15);
}

TEST(TeamAnalysis, PreemptedStepsMakeTheVerdictDisturbedAndAreLeftOut) {
  TeamAnalysis team(8);
  for (int step = 0; step < 7; ++step) balanced_step(team);
  for (int step = 0; step < 3; ++step) balanced_step(team, 2.6e-3, 4);  // preempted: twice as long
  const TeamSummary summary = summarize(team);
  EXPECT_TRUE(summary.disturbed);
  EXPECT_EQ(summary.steps_preempted, 3);
  EXPECT_EQ(summary.switches, 12);
  EXPECT_EQ(summary.steps_used, 7);
  EXPECT_NEAR(summary.step_time, 1.3e-3, 1e-15);  // from the undisturbed steps
  const std::string verdict = summary.verdict();
  EXPECT_NE(verdict.find("measurement disturbed: 3 of 10 steps preempted"), std::string::npos) << verdict;
  EXPECT_NE(verdict.find("speedup 1.54"), std::string::npos) << verdict;
}

TEST(TeamAnalysis, TwoPreemptedStepsOfTenAreNotADisturbance) {
  TeamAnalysis team(8);
  for (int step = 0; step < 8; ++step) balanced_step(team);
  for (int step = 0; step < 2; ++step) balanced_step(team, 1.3e-3, 1);
  const TeamSummary summary = summarize(team);
  EXPECT_FALSE(summary.disturbed);  // 20% is the limit
  EXPECT_EQ(summary.steps_used, 8);
}

TEST(TeamAnalysis, ScatteredStepTimesAreADisturbance) {
  TeamAnalysis team(8);
  const double times[] = {1.0e-3, 2.0e-3, 1.3e-3, 3.0e-3, 1.1e-3, 2.5e-3, 1.6e-3, 1.2e-3};
  for (const double time : times) balanced_step(team, time);
  const TeamSummary summary = summarize(team);
  EXPECT_GT(summary.spread, 0.25);
  EXPECT_TRUE(summary.disturbed);
  EXPECT_NE(summary.verdict().find("the step times scatter"), std::string::npos) << summary.verdict();
}

TEST(TeamAnalysis, NoSpeedupFromFewerStepsThanTheMinimum) {
  TeamAnalysis team(8);
  for (int step = 0; step < 4; ++step) balanced_step(team);
  const TeamSummary summary = summarize(team);
  EXPECT_FALSE(summary.enough);
  EXPECT_EQ(summary.predicted_time(2), 0.0);
  EXPECT_EQ(summary.predicted_speedup(4), 0.0);
  EXPECT_NE(summary.verdict().find("no speedup: only 4 usable steps (at least 5 are needed for a speedup)"), std::string::npos)
      << summary.verdict();
}

TEST(TeamAnalysis, AStepWithAnUnknownWorkOrAnotherTeamIsDropped) {
  TeamAnalysis team(8);
  const double unknown[] = {1.0e-3, -1.0};
  team.episode(false, unknown, 2);
  team.end_step(1.3e-3, 0);
  EXPECT_EQ(team.steps(), 0);
  EXPECT_EQ(team.dropped_steps(), 1);
  balanced_step(team);
  EXPECT_EQ(team.steps(), 1);
  const double three[] = {1.0e-3, 1.0e-3, 1.0e-3};
  team.episode(false, three, 3);  // another team size than the first
  team.end_step(1.3e-3, 0);
  EXPECT_EQ(team.steps(), 1);
  const double too_many[9] = {};
  team.episode(false, too_many, 9);  // more threads than the engine holds
  team.end_step(1.3e-3, 0);
  EXPECT_EQ(team.steps(), 1);
  EXPECT_EQ(team.dropped_steps(), 3);
  // drop_step forgets the episodes since the last boundary.
  const double loop[] = {5.0, 5.0};
  team.episode(false, loop, 2);
  team.drop_step();
  balanced_step(team);
  EXPECT_NEAR(team.step(1).parallel_work, 1.8e-3, 1e-15);
}

TEST(TeamAnalysis, EstimateOfTheExecutionTime) {
  TeamAnalysis team(8);
  EXPECT_LT(estimate_time(team, 1.0, 100, 0.0), 0.0);  // no step yet
  const double steps[] = {1.0e-3, 3.0e-3, 2.0e-3};
  for (const double time : steps) balanced_step(team, time);
  // 0.5 s consumed, 100 steps of the median 2 ms to go.
  EXPECT_NEAR(estimate_time(team, 0.5, 100, 0.0), 0.7, 1e-12);
  EXPECT_LT(estimate_time(team, 0.5, 100, 0.1), 0.0);  // baseline steps expected, none measured
  baseline_step(team);                                  // 2.2 ms
  EXPECT_NEAR(estimate_time(team, 0.5, 100, 0.25), 0.5 + 100 * (0.75 * 2.0e-3 + 0.25 * 2.2e-3), 1e-12);
  EXPECT_LT(estimate_time(team, 0.5, -1, 0.0), 0.0);
}

TEST(LoopPace, ThePaceIsThatOfTheUndisturbedStretchesSinceTheLastDisturbedOne) {
  const augur::selfanalysis::TeamPolicy policy;
  TeamAnalysis team(8);
  augur::selfanalysis::LoopPace pace;
  EXPECT_LT(pace.seconds_per_step(), 0.0);
  pace.mark(1.0, 10, team, policy);  // the first mark opens a stretch
  EXPECT_TRUE(pace.marked());
  EXPECT_EQ(pace.clean_stretches(), 0);
  // A stretch of 25 iterations in 0.5 s whose 5 measured steps of 20 ms were all preempted (a co-located start).
  for (int step = 0; step < 5; ++step) balanced_step(team, 20e-3, 4);
  pace.mark(1.5, 35, team, policy);
  EXPECT_EQ(pace.clean_stretches(), 0);
  EXPECT_LT(pace.seconds_per_step(), 0.0);
  // Two clean stretches: 25 iterations in 0.1 s with measured steps of 4 ms (one of 5 preempted: within the
  // policy's 20%), then 20 iterations in 0.1 s with steps of 5 ms.
  for (int step = 0; step < 4; ++step) balanced_step(team, 4e-3);
  balanced_step(team, 4e-3, 1);
  pace.mark(1.6, 60, team, policy);
  for (int step = 0; step < 5; ++step) balanced_step(team, 5e-3);
  pace.mark(1.7, 80, team, policy);
  EXPECT_EQ(pace.clean_stretches(), 2);
  EXPECT_EQ(pace.clean_iterations(), 45);
  EXPECT_NEAR(pace.seconds_per_step(), 0.2 / 45.0, 1e-15);
  // A disturbed stretch (2 of 5 steps preempted) starts the count again; so does one with no measured step.
  for (int step = 0; step < 3; ++step) balanced_step(team, 5e-3);
  for (int step = 0; step < 2; ++step) balanced_step(team, 5e-3, 2);
  pace.mark(1.8, 100, team, policy);
  EXPECT_EQ(pace.clean_stretches(), 0);
  for (int step = 0; step < 5; ++step) balanced_step(team, 2.5e-3);
  pace.mark(1.85, 120, team, policy);
  EXPECT_NEAR(pace.seconds_per_step(), 0.05 / 20.0, 1e-15);
  pace.mark(1.9, 130, team, policy);
  EXPECT_EQ(pace.clean_stretches(), 0);
  // So does a stretch whose wall time is more than policy.pace_excess (1.25) times what its steps take at the
  // mean of its measured ones: 20 iterations of 2.5 ms steps in 0.1 s (the tool's own work outside the steps);
  // 20 of them in 0.06 s (under 1.25 times 0.05 s) is still clean.
  for (int step = 0; step < 5; ++step) balanced_step(team, 2.5e-3);
  pace.mark(2.0, 150, team, policy);
  EXPECT_EQ(pace.clean_stretches(), 0);
  for (int step = 0; step < 5; ++step) balanced_step(team, 2.5e-3);
  pace.mark(2.06, 170, team, policy);
  EXPECT_EQ(pace.clean_stretches(), 1);
  EXPECT_NEAR(pace.seconds_per_step(), 0.06 / 20.0, 1e-12);
  pace.reset();
  EXPECT_FALSE(pace.marked());
}

// A synthetic time loop of 200 steps, 2 ms each for the first 100 and 3 ms each after (the pace changes halfway),
// its pace marked at the start of each baseline window (iterations 10, 34, 58, ... 178); the estimate at every
// step boundary, as the edge makes it (src/interpose/outer_steps.cpp).
TEST(LoopEstimates, TheFirstEstimateIsKeptAndTheLatestIsReMadeAtEveryMark) {
  const augur::selfanalysis::TeamPolicy policy;
  TeamAnalysis team(8);
  augur::selfanalysis::LoopPace pace;
  augur::selfanalysis::LoopEstimates estimates;
  int fallbacks = 0;
  double now = 0.0;
  for (long begun = 1; begun <= 200; ++begun) {  // the boundary at which step `begun` begins
    const double step = begun <= 100 ? 2e-3 : 3e-3;
    now += step;
    balanced_step(team, step);
    const bool mark = begun >= 10 && (begun - 10) % 24 == 0;
    if (mark) pace.mark(now, begun, team, policy);
    estimates.at_boundary(pace, now, begun, 200, mark, [&] {
      ++fallbacks;
      return -1.0;
    });
  }
  // The first: at iteration 50, once a quarter of the loop went by with one undisturbed stretch (10 -> 34) of
  // 2 ms a step (two would be needed before): 0.100 s so far + 150 steps x 2 ms.
  ASSERT_TRUE(estimates.first().made());
  EXPECT_EQ(estimates.first().at_iteration, 50);
  EXPECT_NEAR(estimates.first().seconds, 0.100 + 150 * 2e-3, 1e-12);
  // Re-made at the marks 58, 82, 106, 130, 154 and 178 (not at the boundaries between them); the latest, at 178:
  // 0.434 s so far (100 x 2 ms + 78 x 3 ms) + 22 steps at the pace since the mark at 10, (0.434 - 0.020) / 168.
  EXPECT_EQ(estimates.count(), 7);
  EXPECT_EQ(estimates.latest().at_iteration, 178);
  EXPECT_NEAR(estimates.latest().seconds, 0.434 + 22 * (0.414 / 168), 1e-12);
  // The actual time is 0.5 s: the first estimate is 20% short, the latest 2.4%.
  EXPECT_NEAR(estimates.latest().seconds / 0.5 - 1.0, -0.0236, 1e-4);
  // The fallback was asked at every boundary before the first estimate (49 of them), never after.
  EXPECT_EQ(fallbacks, 49);
}

TEST(LoopEstimates, WhenThePaceHasNoUndisturbedStretchTheFallbackIsUsedAtTheMarks) {
  const augur::selfanalysis::TeamPolicy policy;
  TeamAnalysis team(8);
  augur::selfanalysis::LoopPace pace;
  augur::selfanalysis::LoopEstimates estimates;
  const auto medians = [] { return 0.75; };
  // No pace yet, no fallback either (it answers negative): nothing.
  estimates.at_boundary(pace, 0.1, 5, 100, false, [] { return -1.0; });
  EXPECT_FALSE(estimates.first().made());
  EXPECT_FALSE(estimates.latest().made());
  // The fallback's estimate when the pace gives none.
  estimates.at_boundary(pace, 0.2, 30, 100, false, medians);
  EXPECT_EQ(estimates.first().at_iteration, 30);
  EXPECT_DOUBLE_EQ(estimates.first().seconds, 0.75);
  // After the first estimate, a boundary that is no mark changes nothing.
  estimates.at_boundary(pace, 0.3, 31, 100, false, [] { return 0.9; });
  EXPECT_EQ(estimates.count(), 1);
  // One undisturbed stretch once a quarter of the loop went by: 20 steps of 4 ms in 0.08 s from iteration 40.
  pace.mark(0.4, 40, team, policy);
  for (int step = 0; step < 20; ++step) balanced_step(team, 4e-3);
  pace.mark(0.48, 60, team, policy);
  estimates.at_boundary(pace, 0.48, 60, 100, true, medians);
  EXPECT_EQ(estimates.latest().at_iteration, 60);
  EXPECT_NEAR(estimates.latest().seconds, 0.48 + 40 * 4e-3, 1e-12);
  // A preempted stretch: the pace has no undisturbed stretch again, the medians answer at the mark.
  for (int step = 0; step < 20; ++step) balanced_step(team, 4e-3, 3);
  pace.mark(0.56, 80, team, policy);
  EXPECT_EQ(pace.clean_stretches(), 0);
  estimates.at_boundary(pace, 0.56, 80, 100, true, medians);
  EXPECT_EQ(estimates.latest().at_iteration, 80);
  EXPECT_DOUBLE_EQ(estimates.latest().seconds, 0.75);
  EXPECT_EQ(estimates.first().at_iteration, 30);  // the first stays
  EXPECT_EQ(estimates.count(), 3);
  // More iterations than expected: no estimate from the pace.
  EXPECT_LT(augur::selfanalysis::pace_estimate(pace, 1.0, 120, 100, true), 0.0);
  estimates.reset();
  EXPECT_EQ(estimates.count(), 0);
}

// The report's outer region carries the first and the latest estimate, each with the share of the run it came at.
TEST(LoopEstimates, TheReportKeepsTheFirstAndTheLatestEstimate) {
  TeamAnalysis team(8);
  for (int step = 0; step < 10; ++step) balanced_step(team);
  augur::selfanalysis::OuterRegionResult outer;
  outer.id = 42;
  outer.length = 2;
  outer.iterations = 200;
  outer.expected_iterations = 200;
  outer.elapsed = 0.5;
  outer.first_estimate = {0.4, 50};
  outer.latest_estimate = {0.49, 178};
  outer.predict_up_to = 2;
  outer.summary = summarize(team);
  const auto json = nlohmann::json::parse(augur::selfanalysis::add_outer_regions(R"({"regions": []})", {outer}));
  const auto& region = json.at("regions").at(0);
  EXPECT_EQ(region.at("estimated_time_s"), 0.4);
  EXPECT_EQ(region.at("estimated_at_iteration"), 50);
  EXPECT_EQ(region.at("estimated_at_fraction"), 0.25);
  EXPECT_EQ(region.at("latest_estimated_time_s"), 0.49);
  EXPECT_EQ(region.at("latest_estimated_at_iteration"), 178);
  EXPECT_EQ(region.at("latest_estimated_at_fraction"), 0.89);
  const std::string summary = augur::selfanalysis::outer_summary(outer);
  EXPECT_NE(summary.find("estimated time 0.400 s (first, at iteration 50, 25% of the run), 0.490 s (latest, at iteration 178, 89%), "
                         "elapsed 0.500 s"),
            std::string::npos)
      << summary;
  // No estimate: nulls.
  outer.first_estimate = {};
  outer.latest_estimate = {};
  const auto none = nlohmann::json::parse(augur::selfanalysis::add_outer_regions(R"({"regions": []})", {outer}));
  for (const char* key : {"estimated_time_s", "estimated_at_fraction", "latest_estimated_time_s", "latest_estimated_at_iteration"}) {
    EXPECT_TRUE(none.at("regions").at(0).at(key).is_null()) << key;
  }
}

TEST(TeamPolicy, AStepIsPreemptedByMoreSwitchesThanOnePerTenMilliseconds) {
  const augur::selfanalysis::TeamPolicy policy;
  augur::selfanalysis::TeamStep step;
  step.elapsed = 1e-3;
  step.switches = 0;
  EXPECT_FALSE(policy.preempted(step));
  step.switches = 1;
  EXPECT_TRUE(policy.preempted(step));  // any one in a step under 10 ms
  step.elapsed = 24e-3;
  step.switches = 2;
  EXPECT_FALSE(policy.preempted(step));  // 2 in 24 ms: an idle machine's kernel threads
  step.switches = 3;
  EXPECT_TRUE(policy.preempted(step));
}

TEST(TeamAnalysis, TheToolsDelayIsOutOfTPButInTheEstimate) {
  // Steps of 1.3 ms of which the tool's time on the master made 0.1 ms: T(P) = 1.2 ms, S = T(1) / 1.2 ms;
  // the estimate of the execution time is of the run as it goes, with the tool: 1.3 ms a step.
  TeamAnalysis team(8);
  const double loop[] = {1.0e-3, 0.8e-3};
  const double single[] = {0.2e-3, 0.0};
  for (int step = 0; step < 10; ++step) {
    team.episode(false, loop, 2);
    team.episode(true, single, 2);
    team.end_step(1.3e-3, 0, false, 0.1e-3);
  }
  for (int step = 0; step < 3; ++step) baseline_step(team);  // T(1) = 0.9 + 0.72 + 0.2 ms
  const TeamSummary summary = summarize(team);
  ASSERT_TRUE(summary.enough);
  EXPECT_NEAR(summary.step_time, 1.2e-3, 1e-12);
  EXPECT_NEAR(summary.speedup, 1.82e-3 / 1.2e-3, 1e-9);
  EXPECT_NEAR(estimate_time(team, 0.5, 100, 0.0), 0.5 + 100 * 1.3e-3, 1e-12);
  // A delay of half the step or more is not believed: the wall time stands.
  TeamAnalysis other(8);
  for (int step = 0; step < 10; ++step) {
    other.episode(false, loop, 2);
    other.end_step(1.3e-3, 0, false, 0.7e-3);
  }
  EXPECT_NEAR(summarize(other).step_time, 1.3e-3, 1e-12);
}

}  // namespace
