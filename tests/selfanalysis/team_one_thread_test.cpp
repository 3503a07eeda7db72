// The one-run analysis of a team of one thread (src/selfanalysis/team.*): T(1) is the measured step, not the
// work added up, so S(1) = 1; crafted episodes in, exact figures out.
#include <gtest/gtest.h>

#include <string>

#include "selfanalysis/team.hpp"

namespace {

using augur::selfanalysis::summarize;
using augur::selfanalysis::TeamAnalysis;
using augur::selfanalysis::TeamSummary;

// A team of one thread: T(1) is the measured step (S(1) = 1), the work added up beside it; the model still
// predicts other thread counts from the work profile, and the verdict gives no speedup to measure.
TEST(TeamAnalysis, OnOneThreadTOneIsTheMeasuredStep) {
  TeamAnalysis team(8);
  for (int step = 0; step < 10; ++step) {
    const double loop[] = {1.0e-3};
    const double single[] = {0.2e-3};
    team.episode(false, loop, 1);
    team.episode(true, single, 1);
    team.end_step(1.3e-3, 0);
  }
  const TeamSummary summary = summarize(team);
  ASSERT_TRUE(summary.enough);
  EXPECT_EQ(summary.team, 1);
  EXPECT_NEAR(summary.one_thread, 1.3e-3, 1e-15);
  EXPECT_NEAR(summary.work_one_thread, 1.2e-3, 1e-15);
  EXPECT_NEAR(summary.speedup, 1.0, 1e-12);
  EXPECT_NEAR(summary.f, 0.2 / 1.2, 1e-12);
  EXPECT_NEAR(summary.communication, 1.2 / 1.3, 1e-12);
  EXPECT_NEAR(summary.predicted_time(1), 1.3e-3, 1e-15);
  // On 2 threads: T(1) x (0.2 + 1.0 / 2 + 0.1) / (0.2 + 1.0 + 0.1).
  EXPECT_NEAR(summary.predicted_time(2), 0.8e-3, 1e-15);
  EXPECT_NEAR(summary.predicted_speedup(2), 1.3 / 0.8, 1e-12);
  const std::string verdict = summary.verdict();
  EXPECT_NE(verdict.find("from 10 steps (one thread: no speedup to measure)"), std::string::npos) << verdict;
  EXPECT_EQ(verdict.find("speedup 1"), std::string::npos) << verdict;
}

}  // namespace
