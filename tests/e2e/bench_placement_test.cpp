// bench_outer_region's placement of both sides (bench/placement_rounds.hpp): the report's
// placement.one_cpu_fraction read in, the rounds whose sides got the same placement kept for the goal's
// comparison, the others left out.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "outer_region_report.hpp"
#include "placement_rounds.hpp"

namespace {

using augur::bench::PlacementRounds;
using augur::bench::read_report;
using augur::bench::RunReport;
using nlohmann::json;

RunReport outer_report(double speedup, const char* placement) {
  return read_report(json::parse(std::string(R"({"regions": [{"kind": "outer", "elapsed_s": 1.0, "speedup": [{"p": 2, "value": )") +
                                 std::to_string(speedup) + R"(, "iteration_time_s": 0.001}], "placement": )" + placement + "}]}"));
}

TEST(BenchPlacement, TheReportsFractionIsReadAndANullOneIsUnknown) {
  EXPECT_EQ(outer_report(1.5, R"({"steps": 4, "one_cpu_steps": 3, "one_cpu_fraction": 0.75})").one_core, 0.75);
  EXPECT_FALSE(outer_report(1.5, R"({"steps": 0, "one_cpu_steps": 0, "one_cpu_fraction": null})").one_core.has_value());
  EXPECT_FALSE(read_report(json::parse(R"({"regions": [{"kind": "outer", "elapsed_s": 1.0}]})")).one_core.has_value());
}

TEST(BenchPlacement, OnlyRoundsWithTheSamePlacementOnBothSidesAreCompared) {
  PlacementRounds rounds;
  // Packed on both sides: S(2) 0.55 against 2/4 = 0.5, and 0.60 against 3/5 = 0.6.
  rounds.add(outer_report(0.55, R"({"steps": 10, "one_cpu_steps": 10, "one_cpu_fraction": 1.0})"), 0.9, 2.0, 4.0);
  EXPECT_NE(rounds.last_text().find("team on one core in 100% of the augur run's steps, 90% of the polls alone on 2 threads (same placement)"),
            std::string::npos)
      << rounds.last_text();
  rounds.add(outer_report(0.60, R"({"steps": 10, "one_cpu_steps": 6, "one_cpu_fraction": 0.6})"), 0.5, 3.0, 5.0);
  // Packed under augur run, spread alone: left out.
  rounds.add(outer_report(0.55, R"({"steps": 10, "one_cpu_steps": 10, "one_cpu_fraction": 1.0})"), 0.1, 2.0, 1.0);
  EXPECT_NE(rounds.last_text().find("(different placements)"), std::string::npos) << rounds.last_text();
  // Unknown alone: left out, and not counted.
  rounds.add(outer_report(0.55, R"({"steps": 10, "one_cpu_steps": 10, "one_cpu_fraction": 1.0})"), -1.0, 2.0, 1.0);
  EXPECT_NE(rounds.last_text().find("unknown of the polls alone on 2 threads (unknown)"), std::string::npos) << rounds.last_text();
  // Medians over the two kept rounds: S(2) (0.55 + 0.60) / 2 = 0.575 against (0.5 + 0.6) / 2 = 0.55: +4.5%.
  const std::string summary = rounds.summary_text();
  EXPECT_NE(summary.find("packed (one core at half the steps or more) in 3 of 3 augur runs, 2 of 3 runs alone; in the 2 rounds with the "
                         "same placement on both sides, median one-run S(2) 0.575 against median T(1)/T(2) 0.550: +4.5%"),
            std::string::npos)
      << summary;
}

TEST(BenchPlacement, NoRoundWithTheSamePlacementSaysSo) {
  PlacementRounds rounds;
  EXPECT_EQ(rounds.summary_text(), "    placement: unknown on at least one side in every round\n");
  rounds.add(outer_report(0.55, R"({"steps": 10, "one_cpu_steps": 0, "one_cpu_fraction": 0.0})"), 1.0, 2.0, 4.0);
  EXPECT_NE(rounds.summary_text().find("in 0 of 1 augur runs, 1 of 1 runs alone; no round with the same placement on both sides"),
            std::string::npos)
      << rounds.summary_text();
}

}  // namespace
