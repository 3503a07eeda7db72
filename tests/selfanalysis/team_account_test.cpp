// Where an outer region's time went (TeamTimeAccount, the report's time_account; docs/self-analysis.md, "Where
// the region's time went"): crafted steps of every kind in, exact sums out; iterations x T(P) plus each kind's
// time beyond T(P) a step adds up to the region's time, written and read back.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <string>

#include "augur/core/diagnostics.hpp"
#include "augur/selfanalysis_report.hpp"
#include "selfanalysis/team_report.hpp"

namespace {

using augur::selfanalysis::OuterRegionResult;
using augur::selfanalysis::parse_report;
using augur::selfanalysis::ReportTimeAccount;
using augur::selfanalysis::summarize;
using augur::selfanalysis::TeamAnalysis;
using augur::selfanalysis::TeamSummary;

// A step of two threads (a loop of 0.5 + 0.5 ms of work) of `elapsed` seconds.
void step(TeamAnalysis& team, double elapsed, long switches = 0, bool baseline = false, double tool_delay = 0.0) {
  const double loop[] = {0.5e-3, 0.5e-3};
  team.episode(false, loop, 2);
  team.end_step(elapsed, switches, baseline, tool_delay);
}

// 10 steps on the team of 1.3 ms with 0.1 ms of the tool's delay in each (T(2) = 1.2 ms), 3 baseline steps of
// 2.2 ms, 2 steps of 5 ms preempted (3 involuntary switches each), one slow step of 2.0 ms (0.8 ms above the
// median, beyond the outlier floor of 0.5 ms: left out, not preempted).
TeamAnalysis every_kind() {
  TeamAnalysis team(2);
  for (int index = 0; index < 10; ++index) {
    step(team, 1.3e-3, 0, false, 0.1e-3);
    if (index == 3) step(team, 5e-3, 3);
    if (index == 6) step(team, 2.0e-3);
    if (index == 8) step(team, 5e-3, 3);
  }
  for (int index = 0; index < 3; ++index) step(team, 2.2e-3, 0, true);
  return team;
}

std::string report_with(const OuterRegionResult& outer) {
  return augur::selfanalysis::add_outer_regions(R"({"augur_report": 1, "mode": "analyze", "allocated_processors": 2, "regions": []})",
                                                {outer});
}

}  // namespace

TEST(TeamTimeAccount, EveryMeasuredStepIsCountedOnceByKind) {
  const TeamSummary summary = summarize(every_kind());
  ASSERT_TRUE(summary.enough);
  EXPECT_NEAR(summary.step_time, 1.2e-3, 1e-15);
  const auto& account = summary.account;
  EXPECT_EQ(account.used.steps, 10);
  EXPECT_NEAR(account.used.seconds, 13e-3, 1e-15);
  EXPECT_NEAR(account.used_tool_delay, 1e-3, 1e-15);
  EXPECT_EQ(account.baseline.steps, 3);
  EXPECT_NEAR(account.baseline.seconds, 6.6e-3, 1e-15);
  EXPECT_EQ(account.preempted.steps, 2);
  EXPECT_NEAR(account.preempted.seconds, 10e-3, 1e-15);
  EXPECT_EQ(account.left_out.steps, 1);
  EXPECT_NEAR(account.left_out.seconds, 2e-3, 1e-15);
  EXPECT_EQ(summary.steps_preempted, account.preempted.steps);
}

TEST(TeamTimeAccount, TheReportAddsTheStepsNotMeasuredAndSumsToTheRegionsTime) {
  OuterRegionResult outer;
  outer.id = 5;
  outer.length = 2;
  outer.iterations = 20;
  outer.elapsed = 40e-3;
  outer.summary = summarize(every_kind());
  const auto json = nlohmann::json::parse(report_with(outer));
  const auto& written = json.at("regions").at(0).at("time_account");
  EXPECT_EQ(written.at("iterations"), 20);
  EXPECT_EQ(written.at("not_measured").at("steps"), 4);  // 20 - (10 + 3 + 2 + 1)
  EXPECT_NEAR(written.at("not_measured").at("seconds").get<double>(), 40e-3 - 31.6e-3, 1e-15);
  EXPECT_NEAR(written.at("team_steps").at("tool_delay_s").get<double>(), 1e-3, 1e-15);

  const ReportTimeAccount account = parse_report(report_with(outer), "r.json").regions.at(0).time_account;
  ASSERT_TRUE(account.known);
  EXPECT_NEAR(account.iteration_time, 1.2e-3, 1e-15);
  // By hand: 20 x 1.2 = 24 ms; baseline 6.6 - 3.6 = +3.0; the tool +1.0; preempted 10 - 2.4 = +7.6; the slow step
  // 2.0 - 1.2 = +0.8; not measured 8.4 - 4.8 = +3.6: 40 ms.
  EXPECT_NEAR(account.beyond(account.baseline), 3.0e-3, 1e-12);
  EXPECT_NEAR(account.beyond(account.preempted), 7.6e-3, 1e-12);
  EXPECT_NEAR(account.beyond(account.left_out), 0.8e-3, 1e-12);
  EXPECT_NEAR(account.beyond(account.not_measured), 3.6e-3, 1e-12);
  EXPECT_NEAR(account.beyond(account.team), account.tool_delay, 1e-12);
  const double total = 20 * account.iteration_time + account.beyond(account.baseline) + account.tool_delay + account.beyond(account.preempted) +
                       account.beyond(account.left_out) + account.beyond(account.not_measured);
  EXPECT_NEAR(total, outer.elapsed, 1e-12);
}

// The steps of every entry against the time of the last, or more steps than the region counts (a period found in
// an inner loop, then replaced by a longer one): no account, rather than a row that takes up the difference.
TEST(TeamTimeAccount, NoAccountWhenTheStepsAndTheTimeAreNotOneRuns) {
  OuterRegionResult outer;
  outer.iterations = 20;
  outer.elapsed = 40e-3;
  outer.summary = summarize(every_kind());
  ASSERT_TRUE(nlohmann::json::parse(report_with(outer)).at("regions").at(0).at("time_account").is_object());
  outer.account_whole = false;
  EXPECT_TRUE(nlohmann::json::parse(report_with(outer)).at("regions").at(0).at("time_account").is_null());
  outer.account_whole = true;
  outer.iterations = 15;  // 16 steps measured
  EXPECT_TRUE(nlohmann::json::parse(report_with(outer)).at("regions").at(0).at("time_account").is_null());
  outer.iterations = 16;
  EXPECT_EQ(nlohmann::json::parse(report_with(outer)).at("regions").at(0).at("time_account").at("not_measured").at("steps"), 0);
}

TEST(TeamTimeAccount, NoAccountWithoutTPAndOlderReportsReadWithout) {
  OuterRegionResult outer;
  outer.id = 5;
  outer.iterations = 3;
  TeamAnalysis few(2);
  for (int index = 0; index < 3; ++index) step(few, 1e-3);
  outer.summary = summarize(few);  // fewer than the minimum of 5 steps: no T(P)
  const std::string text = report_with(outer);
  EXPECT_TRUE(nlohmann::json::parse(text).at("regions").at(0).at("time_account").is_null());
  EXPECT_FALSE(parse_report(text, "r.json").regions.at(0).time_account.known);
  auto older = nlohmann::json::parse(text);
  older["regions"][0].erase("time_account");
  EXPECT_FALSE(parse_report(older.dump(), "r.json").regions.at(0).time_account.known);
  auto bad = nlohmann::json::parse(report_with([] {
    OuterRegionResult full;
    full.iterations = 20;
    full.elapsed = 40e-3;
    full.summary = summarize(every_kind());
    return full;
  }()));
  bad["regions"][0]["time_account"].erase("baseline_steps");
  try {
    (void)parse_report(bad.dump(), "r.json");
    FAIL() << "expected an error";
  } catch (const augur::core::InputError& error) {
    EXPECT_NE(std::string(error.what()).find("regions[0].time_account: missing object 'baseline_steps'"), std::string::npos) << error.what();
  }
  bad["regions"][0]["time_account"]["baseline_steps"] = {{"steps", -1}, {"seconds", 0.0}};
  EXPECT_THROW((void)parse_report(bad.dump(), "r.json"), augur::core::InputError);
}

// Fewer clean steps than the minimum of 5: the figures come from every step, the preempted ones too, and a
// preempted step within the outlier limit is then a team step in the account, not a preempted one (the verdict
// still counts it preempted).
TEST(TeamTimeAccount, WithTooFewCleanStepsThePreemptedOnesUsedAreTeamSteps) {
  TeamAnalysis team(2);
  for (int index = 0; index < 3; ++index) step(team, 1.2e-3);
  for (int index = 0; index < 3; ++index) step(team, 1.3e-3, 2);  // preempted, near the others' time
  step(team, 9e-3, 2);                                             // preempted, beyond the limit
  const TeamSummary summary = summarize(team);
  ASSERT_TRUE(summary.enough);
  EXPECT_EQ(summary.steps_preempted, 4);
  EXPECT_EQ(summary.account.used.steps, 6);
  EXPECT_NEAR(summary.account.used.seconds, 7.5e-3, 1e-15);
  EXPECT_EQ(summary.account.preempted.steps, 1);
  EXPECT_NEAR(summary.account.preempted.seconds, 9e-3, 1e-15);
  EXPECT_EQ(summary.account.left_out.steps, 0);
  EXPECT_NEAR(summary.step_time, 1.25e-3, 1e-15);
}

// A team of one: T(P) is the step, no baseline; the account still adds up to the region's time.
TEST(TeamTimeAccount, ATeamOfOneAddsUp) {
  TeamAnalysis team(1);
  const double loop[] = {1e-3};
  for (int index = 0; index < 8; ++index) {
    team.episode(false, loop, 1);
    team.end_step(index == 5 ? 3e-3 : 1e-3, 0);
  }
  OuterRegionResult outer;
  outer.iterations = 10;
  outer.elapsed = 12e-3;
  outer.summary = summarize(team);
  ASSERT_TRUE(outer.summary.enough);
  EXPECT_EQ(outer.summary.team, 1);
  const ReportTimeAccount account = parse_report(report_with(outer), "r.json").regions.at(0).time_account;
  ASSERT_TRUE(account.known);
  EXPECT_NEAR(account.iteration_time, 1e-3, 1e-15);
  EXPECT_EQ(account.team.steps, 7);
  EXPECT_EQ(account.left_out.steps, 1);  // 3 ms: 2 ms beyond the median, past the outlier floor
  EXPECT_EQ(account.baseline.steps, 0);
  EXPECT_EQ(account.not_measured.steps, 2);
  EXPECT_NEAR(account.not_measured.seconds, 2e-3, 1e-12);
  EXPECT_NEAR(10 * account.iteration_time + account.beyond(account.left_out) + account.beyond(account.not_measured), outer.elapsed, 1e-12);
}

// Past the steps kept (TeamAnalysis::max_steps, the first ones measured), the steps are dropped and the account
// puts them with those not measured.
TEST(TeamTimeAccount, StepsPastTheOnesKeptAreNotMeasured) {
  TeamAnalysis team(2);
  const long extra = 100;
  for (long index = 0; index < TeamAnalysis::max_steps + extra; ++index) step(team, 1e-3);
  EXPECT_EQ(team.steps(), TeamAnalysis::max_steps);
  EXPECT_EQ(team.dropped_steps(), extra);
  OuterRegionResult outer;
  outer.iterations = TeamAnalysis::max_steps + extra;
  outer.elapsed = static_cast<double>(outer.iterations) * 1e-3;
  outer.summary = summarize(team);
  const auto written = nlohmann::json::parse(report_with(outer)).at("regions").at(0).at("time_account");
  EXPECT_EQ(written.at("team_steps").at("steps"), TeamAnalysis::max_steps);
  EXPECT_EQ(written.at("not_measured").at("steps"), extra);
  EXPECT_NEAR(written.at("not_measured").at("seconds").get<double>(), static_cast<double>(extra) * 1e-3, 1e-9);
}
