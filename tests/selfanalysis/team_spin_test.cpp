// Spins on flags in the one-run analysis (src/selfanalysis/team.*, team_report.cpp; the edge takes them out of
// the work, src/interpose/team_recorder.hpp): summed per step beside the work, their mean over the used steps in
// the summary, and `spin_time_s` in the report only where the runtime reports flushes.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "selfanalysis/team_report.hpp"

namespace {

using augur::selfanalysis::OuterRegionResult;
using augur::selfanalysis::summarize;
using augur::selfanalysis::TeamAnalysis;

// Ten steps of two threads: a pipelined loop where thread 1 spun 0.1 ms (its work 0.9 ms is what remains), then
// a `single` whose thread spun 0.05 ms; every eleventh step a slow one (an outlier, left out of the figures).
TeamAnalysis spinning_team() {
  TeamAnalysis team(8);
  for (int step = 0; step < 11; ++step) {
    const double work[] = {1.0e-3, 0.9e-3};
    const double spin[] = {0.0, step == 10 ? 5e-3 : 0.1e-3};
    team.episode(false, work, 2, spin);
    const double single[] = {0.2e-3, 0.0};
    const double single_spin[] = {0.05e-3, 0.0};
    team.episode(true, single, 2, single_spin);
    team.end_step(step == 10 ? 9e-3 : 1.3e-3, 0);
  }
  return team;
}

TEST(TeamSpin, SpinsAreSummedPerStepAndAveragedOverTheUsedSteps) {
  const TeamAnalysis team = spinning_team();
  ASSERT_EQ(team.steps(), 11);
  EXPECT_NEAR(team.step(0).spin, 0.15e-3, 1e-15);
  EXPECT_NEAR(team.step(10).spin, 5.05e-3, 1e-15);
  EXPECT_NEAR(team.step(0).one_thread(), 2.1e-3, 1e-15) << "the work is what the edge measured, the spins already out";
  const auto summary = summarize(team);
  ASSERT_EQ(summary.steps_used, 10) << "the slow step is an outlier";
  EXPECT_NEAR(summary.spin, 0.15e-3, 1e-15);
  // The load balance sees the spinning thread's 0.9 ms against the master's 1.2 ms.
  EXPECT_NEAR(summary.load_balance, (1.2e-3 + 0.9e-3) / (2 * 1.2e-3), 1e-12);
  // No spin given: none counted.
  TeamAnalysis plain(8);
  const double work[] = {1.0e-3, 0.9e-3};
  plain.episode(false, work, 2);
  plain.end_step(1.1e-3, 0);
  EXPECT_EQ(plain.step(0).spin, 0.0);
}

TEST(TeamSpin, TheReportGivesTheSpinOnlyWhereSpinsAreSeen) {
  OuterRegionResult outer;
  outer.summary = summarize(spinning_team());
  outer.sees_spins = true;
  outer.spin_source = "samples";
  const auto seen = nlohmann::json::parse(augur::selfanalysis::add_outer_regions(R"({"regions": []})", {outer}));
  EXPECT_NEAR(seen.at("regions").at(0).at("spin_time_s").get<double>(), 0.15e-3, 1e-15);
  EXPECT_EQ(seen.at("regions").at(0).at("spin_source"), "samples");
  outer.sees_spins = false;  // libgomp without spin loops in the program's code, or not allowed to sample
  const auto unseen = nlohmann::json::parse(augur::selfanalysis::add_outer_regions(R"({"regions": []})", {outer}));
  EXPECT_TRUE(unseen.at("regions").at(0).at("spin_time_s").is_null());
  EXPECT_TRUE(unseen.at("regions").at(0).at("spin_source").is_null());
  outer.sees_spins = true;
  outer.summary = summarize(TeamAnalysis(8));  // no step: no figures
  const auto empty = nlohmann::json::parse(augur::selfanalysis::add_outer_regions(R"({"regions": []})", {outer}));
  EXPECT_TRUE(empty.at("regions").at(0).at("spin_time_s").is_null());
}

}  // namespace
