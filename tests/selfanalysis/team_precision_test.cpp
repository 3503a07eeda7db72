// The precision of the one-run S(P) (src/selfanalysis/team_precision.cpp): crafted steps whose baseline
// windows and stretches of team steps have known means and spreads; the standard errors worked out by hand.
#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>
#include <string>

#include "selfanalysis/team_report.hpp"

namespace {

using augur::selfanalysis::OuterRegionResult;
using augur::selfanalysis::summarize;
using augur::selfanalysis::TeamAnalysis;
using augur::selfanalysis::TeamPolicy;
using augur::selfanalysis::TeamSummary;

// A step of two threads whose work adds up to `one_thread` seconds, in `elapsed` seconds (a baseline step: the
// threads one after the other).
void step(TeamAnalysis& team, double one_thread, double elapsed, bool baseline, long switches = 0) {
  const double work[] = {one_thread / 2, one_thread / 2};
  team.episode(false, work, 2);
  team.end_step(elapsed, switches, baseline);
}

void stretch(TeamAnalysis& team, double elapsed, int steps = 4) {
  for (int index = 0; index < steps; ++index) step(team, 8e-3, elapsed, false);
}

// Blocks of 4 steps: the crafted stretches of 4 are not short.
TeamPolicy small_blocks() {
  TeamPolicy policy;
  policy.precision_block = 4;
  return policy;
}

void window(TeamAnalysis& team, double one_thread) {
  for (int index = 0; index < 3; ++index) step(team, one_thread, 2 * one_thread, true);
}

// Five stretches of four team steps (5.0, 5.0, 5.4, 5.4, 5.0 ms) between four baseline windows of three steps
// (10, 12, 10, 12 ms): T(1) = 11 ms (the median of the twelve), T(2) = (12 x 5.0 + 8 x 5.4) / 20 = 5.16 ms.
TEST(SpeedupPrecision, WindowsAndStretchesGiveTheStandardErrorsOfTheirMeans) {
  TeamAnalysis team(4);
  const double stretches[] = {5.0e-3, 5.0e-3, 5.4e-3, 5.4e-3, 5.0e-3};
  const double windows[] = {10e-3, 12e-3, 10e-3, 12e-3};
  for (int index = 0; index < 5; ++index) {
    stretch(team, stretches[index]);
    if (index < 4) window(team, windows[index]);
  }
  const TeamSummary summary = summarize(team, small_blocks());
  ASSERT_TRUE(summary.enough);
  ASSERT_TRUE(summary.baseline_measured);
  EXPECT_NEAR(summary.one_thread, 11e-3, 1e-15);
  EXPECT_NEAR(summary.step_time, 5.16e-3, 1e-15);
  EXPECT_EQ(summary.precision.windows, 4);
  EXPECT_EQ(summary.precision.blocks, 5);
  // Windows: mean 11, deviations +-1: s = sqrt(4 / 3), its mean's standard error s / sqrt(4).
  const double one_thread_error = std::sqrt(4.0 / 3.0) / 2.0 / 11.0;
  // Stretches: mean 5.16, deviations -0.16 (three) and +0.24 (two): s^2 = (3 x 0.0256 + 2 x 0.0576) / 4.
  const double step_time_error = std::sqrt((3 * 0.0256 + 2 * 0.0576) / 4.0) / std::sqrt(5.0) / 5.16;
  EXPECT_NEAR(summary.precision.one_thread_error, one_thread_error, 1e-12);
  EXPECT_NEAR(summary.precision.step_time_error, step_time_error, 1e-12);
  const double relative = std::sqrt(one_thread_error * one_thread_error + step_time_error * step_time_error);
  EXPECT_NEAR(summary.precision.relative_error, relative, 1e-12);
  EXPECT_NEAR(summary.speedup_error(), 2.0 * (11.0 / 5.16) * relative, 1e-12);
  // 2.13 +- 0.24 in the verdict, and in the report's noise.
  const std::string verdict = summary.verdict();
  EXPECT_NE(verdict.find("speedup 2.13 ± 0.24 (two standard errors within this run; "), std::string::npos) << verdict;
  OuterRegionResult outer;
  outer.summary = summary;
  outer.predict_up_to = 2;
  const auto json = nlohmann::json::parse(augur::selfanalysis::add_outer_regions(R"({"regions": []})", {outer}));
  const auto& noise = json.at("regions").at(0).at("noise");
  EXPECT_NEAR(noise.at("speedup_error").get<double>(), summary.speedup_error(), 1e-12);
  EXPECT_EQ(noise.at("precision").at("baseline_windows"), 4);
  EXPECT_EQ(noise.at("precision").at("team_blocks"), 5);
  EXPECT_NEAR(noise.at("precision").at("one_thread_relative_error").get<double>(), one_thread_error, 1e-12);
}

// The same steps as T(1) and T(P): a preempted baseline step (switches) is out of its window's median as it is
// out of T(1), an outlier team step (20 ms among 5 ms ones) out of its stretch's mean as out of T(P); and a
// stretch shorter than half a block joins the block before it.
TEST(SpeedupPrecision, ItUsesTheStepsOfTOneAndTPAndJoinsShortStretches) {
  TeamAnalysis team(4);
  const double windows[] = {10e-3, 12e-3, 10e-3};
  for (int index = 0; index < 3; ++index) {
    stretch(team, 5e-3, 3);
    step(team, 8e-3, 20e-3, false);  // an outlier
    if (index == 1) step(team, 8e-3, 5e-3, false);
    step(team, 50e-3, 100e-3, true, 50);  // preempted: 50 switches in 0.1 s
    window(team, windows[index]);
  }
  stretch(team, 5.4e-3, 4);
  stretch(team, 5.4e-3, 1);  // no window between: the same stretch of 5
  const TeamSummary summary = summarize(team, small_blocks());
  ASSERT_TRUE(summary.enough);
  EXPECT_EQ(summary.steps_used, 3 * 3 + 1 + 5);
  EXPECT_NEAR(summary.one_thread, 10e-3, 1e-15);  // the median of the nine clean baseline steps
  EXPECT_EQ(summary.precision.windows, 3);
  // Stretches of 3, 4, 3 and 5 used steps; blocks of 4: a stretch of 1 would join, these all stay.
  EXPECT_EQ(summary.precision.blocks, 4);
  const double blocks[] = {5e-3, 5e-3, 5e-3, 5.4e-3};  // the 20 ms steps left out of their stretch
  double mean = 0.0;
  for (const double block : blocks) mean += block / 4;
  double squares = 0.0;
  for (const double block : blocks) squares += (block - mean) * (block - mean);
  EXPECT_NEAR(summary.precision.step_time_error, std::sqrt(squares / 3) / 2 / mean, 1e-12);
  EXPECT_NEAR(summary.precision.one_thread_error, std::sqrt((2 * (32.0 / 3 - 10) * (32.0 / 3 - 10) + (12 - 32.0 / 3) * (12 - 32.0 / 3)) / 2) /
                                                      std::sqrt(3.0) / (32.0 / 3),
              1e-12);
  // With blocks of 20 (the default) every stretch here is shorter than half a block: they join into one block of
  // 15 steps, fewer than 3 blocks, and 15 used steps make no 3 blocks of 20: 3 blocks of 5 consecutive used steps
  // instead, whose means are 5, 5 and 5.4 ms.
  const TeamSummary joined = summarize(team);
  EXPECT_EQ(joined.precision.blocks, 3);
  const double joined_mean = (5.0 + 5.0 + 5.4) / 3;
  const double joined_squares = 2 * (5.0 - joined_mean) * (5.0 - joined_mean) + (5.4 - joined_mean) * (5.4 - joined_mean);
  EXPECT_NEAR(joined.precision.step_time_error, std::sqrt(joined_squares / 2) / std::sqrt(3.0) / joined_mean, 1e-12);
  EXPECT_GT(joined.speedup_error(), 0.0);
  // 2 x 6.8% of S(2): within the 15% that the run must fix it to, so clean.
  EXPECT_LT(joined.speedup_error(), 0.15 * joined.speedup);
  EXPECT_FALSE(joined.disturbed) << joined.verdict();
  // Fewer than 15 used steps make no 3 blocks of 5: no ±.
  TeamAnalysis short_run(4);
  for (int index = 0; index < 3; ++index) {
    stretch(short_run, 5e-3, 4);
    window(short_run, windows[index]);
  }
  stretch(short_run, 5e-3, 2);
  const TeamSummary few = summarize(short_run);
  ASSERT_TRUE(few.enough);
  EXPECT_EQ(few.steps_used, 14);
  EXPECT_LT(few.precision.blocks, 3);
  EXPECT_LT(few.speedup_error(), 0.0);
}

// Baseline windows that disagree (T(1) 2.8, 3.8 and 3.8 ms a step, as clang cg_steps' in a run of 60 steps on the
// test machine, 2026-11-28): S(P) is not fixed within 15% by the run: the measurement is disturbed, and says why.
TEST(SpeedupPrecision, WindowsThatDisagreeMakeItDisturbed) {
  TeamAnalysis team(4);
  const double windows[] = {2.8e-3, 3.8e-3, 3.8e-3};
  for (int index = 0; index < 3; ++index) {
    window(team, windows[index]);
    stretch(team, 9e-3, 12);
  }
  TeamPolicy policy;
  policy.quiet_machine = true;  // nothing else ran: the rule does not need a competitor
  const TeamSummary summary = summarize(team, policy);
  ASSERT_TRUE(summary.enough);
  EXPECT_EQ(summary.precision.windows, 3);
  EXPECT_EQ(summary.precision.blocks, 3);  // the three stretches of 12
  EXPECT_NEAR(summary.precision.step_time_error, 0.0, 1e-12);
  // Windows: mean 3.4667, deviations -0.6667, +0.3333 (twice): s = sqrt(0.6667 / 2), over sqrt(3) and the mean.
  const double mean = (2.8 + 3.8 + 3.8) / 3;
  const double one_thread_error = std::sqrt((2.0 / 3 * 2.0 / 3 + 2 * 1.0 / 3 * 1.0 / 3) / 2) / std::sqrt(3.0) / mean;
  EXPECT_NEAR(summary.precision.one_thread_error, one_thread_error, 1e-9);
  EXPECT_NEAR(summary.speedup, 3.8 / 9.0, 1e-12);  // the median window's
  EXPECT_NEAR(summary.speedup_error(), 2 * summary.speedup * one_thread_error, 1e-9);  // 19% of S(2)
  EXPECT_TRUE(summary.disturbed);
  const std::string verdict = summary.verdict();
  EXPECT_EQ(verdict.rfind("measurement disturbed: the run does not fix S(2) within 15%: 0.422 ± 0.081 at two standard errors "
                          "(its 3 baseline windows' T(1) 2.80 to 3.80 ms a step, ±19%; its 3 blocks of team steps' T(2), ±0%): "
                          "more iterations give more windows and blocks",
                          0),
            0u)
      << verdict;
  // The same windows within 15% (3.6, 3.8, 3.8 ms: ±4%): clean.
  TeamAnalysis close(4);
  const double agreeing[] = {3.6e-3, 3.8e-3, 3.8e-3};
  for (int index = 0; index < 3; ++index) {
    window(close, agreeing[index]);
    stretch(close, 9e-3, 12);
  }
  const TeamSummary clean = summarize(close, policy);
  EXPECT_GT(clean.speedup_error(), 0.0);
  EXPECT_FALSE(clean.disturbed) << clean.verdict();
}

// One window: its steps are one moment of the machine, not a sample of the run: the precision is unknown.
TEST(SpeedupPrecision, OneWindowLeavesItUnknown) {
  TeamAnalysis team(4);
  window(team, 10e-3);
  for (int index = 0; index < 6; ++index) stretch(team, 5e-3);
  const TeamSummary summary = summarize(team);
  ASSERT_TRUE(summary.enough);
  EXPECT_EQ(summary.precision.windows, 1);
  EXPECT_EQ(summary.precision.blocks, 3);  // one stretch of 24 steps: 3 blocks of 8 (too few for blocks of 20)
  EXPECT_LT(summary.precision.one_thread_error, 0.0);
  EXPECT_LT(summary.speedup_error(), 0.0);
  EXPECT_EQ(summary.verdict().find("±"), std::string::npos) << summary.verdict();
  OuterRegionResult outer;
  outer.summary = summary;
  const auto json = nlohmann::json::parse(augur::selfanalysis::add_outer_regions(R"({"regions": []})", {outer}));
  EXPECT_TRUE(json.at("regions").at(0).at("noise").at("speedup_error").is_null());
}

// No baseline steps (T(1) the work added up): 65 team steps of 1 ms in blocks of 20 (the last one takes the five
// left over): the blocks' own T(1)/T(P) are 2.0, 2.2 and 2.0.
TEST(SpeedupPrecision, WithoutWindowsTheBlocksOwnSpeedupsGiveIt) {
  TeamAnalysis team(4);
  for (int index = 0; index < 65; ++index) step(team, index >= 20 && index < 40 ? 2.2e-3 : 2.0e-3, 1e-3, false);
  const TeamSummary summary = summarize(team);
  ASSERT_TRUE(summary.enough);
  ASSERT_FALSE(summary.baseline_measured);
  EXPECT_EQ(summary.precision.windows, 0);
  EXPECT_EQ(summary.precision.blocks, 3);
  const double mean = (2.0 + 2.2 + 2.0) / 3;
  const double deviation = std::sqrt((2 * (2.0 - mean) * (2.0 - mean) + (2.2 - mean) * (2.2 - mean)) / 2.0);
  EXPECT_NEAR(summary.precision.relative_error, deviation / std::sqrt(3.0) / mean, 1e-12);
  EXPECT_NEAR(summary.speedup, (45 * 2.0 + 20 * 2.2) / 65, 1e-12);
  EXPECT_NEAR(summary.speedup_error(), 2.0 * summary.speedup * deviation / std::sqrt(3.0) / mean, 1e-12);
}

}  // namespace
