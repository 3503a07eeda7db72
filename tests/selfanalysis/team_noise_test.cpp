// The noise verdict of the one-run analysis counts only what another process caused (src/selfanalysis/team.*,
// docs/self-analysis.md, "The verdict"): crafted steps with their involuntary switches, placement and CPU
// shortfall in, exact counts and verdicts out.
#include "selfanalysis/team.hpp"

#include <gtest/gtest.h>

#include <string>

namespace {

using augur::selfanalysis::summarize;
using augur::selfanalysis::TeamAnalysis;
using augur::selfanalysis::TeamPolicy;
using augur::selfanalysis::TeamStep;
using augur::selfanalysis::TeamSummary;

constexpr double us = 1e-6;

// A step of two threads, each working half of `elapsed` (one after the other on one core, or at once).
void step(TeamAnalysis& team, double elapsed, long switches, double shortfall, bool one_cpu, bool baseline = false) {
  const double work[] = {elapsed / 2, elapsed / 2};
  team.episode(false, work, 2);
  team.end_step(elapsed, switches, baseline, 0.0, shortfall, one_cpu);
}

TeamStep crafted(double elapsed, long switches, double shortfall, bool one_cpu, bool baseline = false) {
  TeamStep step;
  step.baseline = baseline;
  step.elapsed = elapsed;
  step.switches = switches;
  step.cpu_shortfall = shortfall;
  step.one_cpu = one_cpu;
  return step;
}

void expect_verdict_begins(const TeamSummary& summary, const std::string& beginning) {
  const std::string verdict = summary.verdict();
  EXPECT_EQ(verdict.rfind(beginning, 0), 0u) << verdict;
}

TEST(TeamNoise, TheRuleOnOneStep) {
  const TeamPolicy policy;
  // No switch, spread: not preempted.
  EXPECT_FALSE(policy.switched(crafted(25 * us, 0, 20 * us, false)));
  EXPECT_FALSE(policy.preempted(crafted(25 * us, 0, 20 * us, false)));
  // No switch, but on one CPU another process had 20 of its 25 us (a thread woken at a barrier while the
  // competitor ran waited for it without being switched out): preempted.
  EXPECT_TRUE(policy.foreign_time(crafted(25 * us, 0, 20 * us, true)));
  EXPECT_TRUE(policy.preempted(crafted(25 * us, 0, 20 * us, true)));
  EXPECT_FALSE(policy.switched_in_team(crafted(25 * us, 0, 20 * us, true)));
  // A short step on one core: the floor of 5 us (10% would be 2.5 us).
  EXPECT_TRUE(policy.switched_in_team(crafted(25 * us, 2, 4.9 * us, true)));
  EXPECT_FALSE(policy.preempted(crafted(25 * us, 2, 4.9 * us, true, true)));  // a baseline step's own switches
  EXPECT_TRUE(policy.preempted(crafted(25 * us, 2, 4.9 * us, true)));  // a packed parallel step's: preempted still
  EXPECT_TRUE(policy.preempted(crafted(25 * us, 2, 5.1 * us, true)));
  EXPECT_TRUE(policy.preempted(crafted(25 * us, 0, 5.1 * us, true)));
  // A long one: 10% of it (1 ms step: 100 us), and one switch per 10 ms allowed (none here: 1 ms).
  EXPECT_TRUE(policy.switched_in_team(crafted(1e-3, 1, 99 * us, true)));
  EXPECT_TRUE(policy.preempted(crafted(1e-3, 1, 101 * us, true)));
  EXPECT_FALSE(policy.switched(crafted(25e-3, 2, 20e-3, false)));  // 2 switches in 25 ms: an idle machine's
  // Spread over cores, or the CPU time not read: every switch is another process's, as before.
  EXPECT_TRUE(policy.preempted(crafted(25 * us, 1, 0.0, false)));
  EXPECT_TRUE(policy.preempted(crafted(25 * us, 1, -1.0, true)));
}

// gcc/clang outer_race packed on one vCPU: every step switches between the team's two threads. Nobody else may
// run, or another process may hold the other core and be why the team is packed: the switches count, and the
// verdict says which steps were on one core.
TEST(TeamNoise, APackedTeamsSwitchesCountAsPreemptionAndAreNamed) {
  TeamAnalysis team(2);
  for (int index = 0; index < 100; ++index) step(team, 25 * us, 2, 0.5 * us, true);
  const TeamSummary summary = summarize(team);
  EXPECT_EQ(summary.steps, 100);
  EXPECT_EQ(summary.steps_preempted, 100);
  EXPECT_EQ(summary.steps_switched_in_team, 100);
  EXPECT_EQ(summary.switches, 200);
  EXPECT_DOUBLE_EQ(summary.preempted_time_share, 1.0);
  EXPECT_TRUE(summary.disturbed);
  const std::string verdict = summary.verdict();
  EXPECT_EQ(verdict.rfind("measurement disturbed: 100 of 100 steps preempted, 100% of the measured time (", 0), 0u) << verdict;
  EXPECT_NE(verdict.find("wall time), 100 of them on one core, where the switches may be the team's own: spread the threads"), std::string::npos)
      << verdict;
}

// The same switches on a team spread over two cores: the team's threads cannot switch each other out there.
TEST(TeamNoise, TheSameSwitchesOnASpreadTeamAreAnotherProcesss) {
  TeamAnalysis team(2);
  for (int index = 0; index < 100; ++index) step(team, 25 * us, 2, 0.5 * us, false);
  const TeamSummary summary = summarize(team);
  EXPECT_EQ(summary.steps_preempted, 100);
  EXPECT_EQ(summary.steps_switched_in_team, 0);
  EXPECT_TRUE(summary.disturbed);
}

// A competitor on the team's core: its time slices (3 ms) fall into 10 of 100 short steps, fewer than 20% of
// the steps but 30.25 ms of the 32.5 ms measured (93%).
TEST(TeamNoise, ACompetitorsTimeSlicesInFewStepsAreADisturbance) {
  TeamAnalysis team(2);
  for (int index = 0; index < 90; ++index) step(team, 25 * us, 0, 0.5 * us, true);
  for (int index = 0; index < 5; ++index) step(team, 3025 * us, 3, 3000 * us, true);
  for (int index = 0; index < 5; ++index) step(team, 3025 * us, 0, 3000 * us, true);  // no switch: woken behind it
  const TeamSummary summary = summarize(team);
  EXPECT_EQ(summary.steps_preempted, 10);
  EXPECT_EQ(summary.steps_switched_in_team, 0);
  EXPECT_NEAR(summary.preempted_time_share, 30.25 / 32.5, 1e-12);
  EXPECT_TRUE(summary.disturbed);
  EXPECT_EQ(summary.steps_used, 90);  // the figures from the undisturbed steps
  EXPECT_NEAR(summary.step_time, 25 * us, 1e-15);
  const std::string verdict = summary.verdict();
  EXPECT_EQ(verdict.rfind("measurement disturbed: 10 of 100 steps preempted, 93% of the measured time (", 0), 0u) << verdict;
}

// On a quiet machine (nothing else ran beside the run: MachineContext::quiet) no other process packed the team:
// a packed parallel step's own switches are not preemption; another process's time on its core still is.
TEST(TeamNoise, OnAQuietMachineAPackedTeamsOwnSwitchesAreNotPreemption) {
  TeamPolicy quiet;
  quiet.quiet_machine = true;
  quiet.other_cpu_load = 0.02;
  EXPECT_FALSE(quiet.preempted(crafted(25 * us, 2, 4.9 * us, true)));   // own switches, on one core
  EXPECT_TRUE(quiet.preempted(crafted(25 * us, 2, 5.1 * us, true)));    // another process's time on it
  EXPECT_TRUE(quiet.preempted(crafted(25 * us, 0, 20 * us, true)));
  // Spread, switched: out of the figures (a moment on one core), but summarize() does not count it as preempted.
  EXPECT_TRUE(quiet.preempted(crafted(25 * us, 1, 0.0, false)));
  EXPECT_TRUE(quiet.preempted(crafted(25 * us, 1, -1.0, true)));        // CPU time not read
  TeamAnalysis team(2);
  for (int index = 0; index < 60; ++index) step(team, 25 * us, 2, 0.5 * us, true);  // packed, own switches
  for (int index = 0; index < 36; ++index) step(team, 25 * us, 0, 0.0, false);
  for (int index = 0; index < 4; ++index) step(team, 25 * us, 1, 0.0, false);  // spread, switched: 4%
  step(team, 25 * us, 0, 20 * us, true);  // foreign time on one core: preempted on any machine
  const TeamSummary loud = summarize(team);
  EXPECT_EQ(loud.steps_preempted, 65);
  EXPECT_TRUE(loud.disturbed);
  const TeamSummary summary = summarize(team, quiet);
  EXPECT_EQ(summary.steps_preempted, 1);
  EXPECT_EQ(summary.steps_switched_in_team, 64);
  EXPECT_TRUE(summary.quiet_machine);
  EXPECT_FALSE(summary.disturbed);
  EXPECT_EQ(summary.steps_used, 96) << "the 4 spread steps that switched and the foreign one are left out";
  expect_verdict_begins(summary, "measurement clean: 1 of 101 steps preempted, 64 more with the team's own switches, "
                                 "step times within 0%, no other process beside the run (0.02 processors); speedup ");
}

// Step times that scatter on a quiet machine are the program's own (a packed step takes twice a spread one):
// a reason, not a disturbance. With another process beside the run they are one.
TEST(TeamNoise, OnAQuietMachineScatterIsNotADisturbance) {
  TeamAnalysis team(2);
  for (int index = 0; index < 50; ++index) step(team, 20 * us, 0, 0.0, false);
  for (int index = 0; index < 50; ++index) step(team, 40 * us, 0, 0.0, true);
  // Median 30 us, every step 10 us from it: spread 1.4826 x 10 / 30 = 0.49 > 0.25.
  const TeamSummary loud = summarize(team);
  EXPECT_NEAR(loud.spread, 1.4826 / 3.0, 1e-12);
  EXPECT_TRUE(loud.disturbed);
  TeamPolicy quiet;
  quiet.quiet_machine = true;
  quiet.other_cpu_load = 0.04;
  const TeamSummary summary = summarize(team, quiet);
  EXPECT_FALSE(summary.disturbed);
  ASSERT_EQ(summary.reasons.size(), 1u);
  EXPECT_EQ(summary.reasons[0], "the step times scatter (relative spread 0.49 > 0.25) with no other process beside the run "
                                "(other processes used 0.04 processors): the program's own variation, not a disturbance");
  expect_verdict_begins(summary, "measurement clean: 0 of 100 steps preempted, step times within 49%, no other process beside the "
                                 "run (0.04 processors); speedup ");
}

// A competitor that preempted too few steps to pass the step rule still competed over the run: the machine's
// reading (MachineContext::competed_reason, set by the edge) makes the measurement disturbed.
TEST(TeamNoise, OtherProcessesCompetingOverTheRunAreADisturbance) {
  TeamAnalysis team(2);
  for (int index = 0; index < 90; ++index) step(team, 20 * us, 0, 0.0, false);
  for (int index = 0; index < 10; ++index) step(team, 30 * us, 1, 0.0, false);  // 10% preempted: under the 20%
  const TeamSummary steps_only = summarize(team);
  EXPECT_EQ(steps_only.steps_preempted, 10);
  EXPECT_FALSE(steps_only.disturbed);
  TeamPolicy policy;
  policy.other_cpu_load = 0.34;
  policy.competed_reason = "other processes used 0.34 processors beside the run (2 processors, a team of 2): they competed for "
                           "the team's cores";
  const TeamSummary summary = summarize(team, policy);
  EXPECT_TRUE(summary.disturbed);
  ASSERT_EQ(summary.reasons.size(), 1u);
  EXPECT_EQ(summary.reasons[0], policy.competed_reason);
  expect_verdict_begins(summary, "measurement disturbed: other processes used 0.34 processors beside the run (2 processors, a "
                                 "team of 2): they competed for the team's cores; speedup ");
  EXPECT_EQ(summary.steps_used, 90) << "the figures still come from the steps not preempted";
}

// Baseline steps take turns on one core: their own switches keep them in T(1).
TEST(TeamNoise, BaselineStepsWithTheTeamsOwnSwitchesGiveTOne) {
  TeamAnalysis team(2);
  for (int index = 0; index < 3; ++index) step(team, 40 * us, 3, 1 * us, true, true);
  step(team, 4000 * us, 3, 3000 * us, true, true);  // one preempted by another process: left out
  for (int index = 0; index < 10; ++index) step(team, 25 * us, 0, 0.0, false);
  const TeamSummary summary = summarize(team);
  EXPECT_TRUE(summary.baseline_measured);
  EXPECT_NEAR(summary.one_thread, 40 * us, 1e-15);  // the median of the three undisturbed baseline steps
}

}  // namespace
