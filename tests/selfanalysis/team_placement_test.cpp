// The team's placement in the one-run analysis (selfanalysis/team.hpp, TeamPlacement): steps counted from the
// cores the threads last ran on, and the report's `placement` object and summary line.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "selfanalysis/team_report.hpp"

namespace {

using augur::selfanalysis::OuterRegionResult;
using augur::selfanalysis::TeamPlacement;

TEST(TeamPlacement, CountsStepsWithEveryThreadOnOneCore) {
  TeamPlacement placement;
  EXPECT_EQ(placement.one_cpu_fraction(), -1.0);  // nothing counted
  const int packed[3] = {1, 1, 1};
  const int spread[3] = {0, 1, 1};
  const int unknown[3] = {1, -1, 1};
  placement.count(packed, 3);
  placement.count(spread, 3);
  placement.count(packed, 3);
  placement.count(unknown, 3);  // a core not known: the step is not counted
  placement.count(packed, 1);   // one thread: no placement to speak of
  EXPECT_EQ(placement.steps, 3);
  EXPECT_EQ(placement.one_cpu, 2);
  EXPECT_DOUBLE_EQ(placement.one_cpu_fraction(), 2.0 / 3.0);
}

TEST(TeamPlacement, TheReportAndTheSummaryCarryIt) {
  OuterRegionResult outer{.id = 7, .length = 3, .iterations = 100, .expected_iterations = -1, .elapsed = 0.1, .first_estimate = {},
                          .latest_estimate = {}, .predict_up_to = 2, .summary = {}, .placement = {}, .tool = {}};
  const int packed[2] = {1, 1};
  const int spread[2] = {1, 0};
  for (int step = 0; step < 3; ++step) outer.placement.count(packed, 2);
  outer.placement.count(spread, 2);
  const auto json = nlohmann::json::parse(augur::selfanalysis::add_outer_regions(R"({"regions": []})", {outer}));
  const auto& placement = json.at("regions").at(0).at("placement");
  EXPECT_EQ(placement.at("steps"), 4);
  EXPECT_EQ(placement.at("one_cpu_steps"), 3);
  EXPECT_EQ(placement.at("one_cpu_fraction"), 0.75);
  const std::string summary = augur::selfanalysis::outer_summary(outer);
  EXPECT_NE(summary.find("placement: the team on one core in 3 of 4 steps (75%)"), std::string::npos) << summary;
  // Nothing counted (a one-thread team, cores unknown): a null fraction and no summary line.
  const auto none = nlohmann::json::parse(augur::selfanalysis::add_outer_regions(R"({"regions": []})", {OuterRegionResult{}}));
  EXPECT_TRUE(none.at("regions").at(0).at("placement").at("one_cpu_fraction").is_null());
  EXPECT_EQ(augur::selfanalysis::outer_summary(OuterRegionResult{}).find("placement"), std::string::npos);
}

}  // namespace
