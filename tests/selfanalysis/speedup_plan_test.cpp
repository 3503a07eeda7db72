// The plan of augur speedup's runs: which runs, in what order, with which environment.
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "selfanalysis/speedup_experiment.hpp"

namespace augur::selfanalysis {
namespace {

std::string describe(const std::vector<PlannedRun>& plans) {
  std::string text;
  for (const PlannedRun& plan : plans) {
    text += std::string(run_kind_name(plan.kind)) + std::to_string(plan.processors) + "/" + std::to_string(plan.repetition) + " ";
  }
  return text;
}

TEST(SpeedupPlan, EachRepetitionTimesAndAnalyzesEveryCountThenSweeps) {
  EXPECT_EQ(describe(plan_experiment(2, 2, true)),
            "time1/0 analyze1/0 time2/0 analyze2/0 sweep2/0 time1/1 analyze1/1 time2/1 analyze2/1 sweep2/1 ");
  EXPECT_EQ(describe(plan_experiment(3, 1, false)), "time1/0 analyze1/0 time2/0 analyze2/0 time3/0 analyze3/0 ");
  EXPECT_TRUE(plan_experiment(4, 0, true).empty());
}

TEST(SpeedupPlan, TheEnvironmentSaysModeReportAndSweep) {
  RunSettings settings;
  settings.max_threads = 3;
  settings.wait_policy = "active";
  settings.baseline = "half";
  settings.sweep_every = 7;
  const auto as_map = [](const std::vector<std::pair<std::string, std::string>>& variables) {
    return std::map<std::string, std::string>(variables.begin(), variables.end());
  };
  const auto environment = as_map(run_environment({RunKind::time, 2, 0}, settings));
  EXPECT_EQ(environment.size(), 2u);
  EXPECT_EQ(environment.at("OMP_NUM_THREADS"), "2");
  EXPECT_EQ(environment.at("OMP_WAIT_POLICY"), "active");
  const auto timed = as_map(run_options({RunKind::time, 2, 0}, settings, "/tmp/r.json"));
  EXPECT_EQ(timed.at("mode"), "time");
  EXPECT_EQ(timed.at("report"), "/tmp/r.json");
  EXPECT_EQ(timed.at("summary"), "0");
  EXPECT_EQ(timed.at("baseline"), "half");
  EXPECT_EQ(timed.at("sweep"), "");
  EXPECT_EQ(timed.at("sweep_every"), "7");
  EXPECT_EQ(as_map(run_options({RunKind::analyze, 1, 0}, settings, "r")).at("mode"), "analyze");
  const auto swept = as_map(run_options({RunKind::sweep, 3, 0}, settings, "r"));
  EXPECT_EQ(swept.at("mode"), "analyze");
  EXPECT_EQ(swept.at("sweep"), "1,2,3");
  // No baseline given: none passed, so libaugur takes its own default (the registry's, the one default).
  settings.baseline.clear();
  EXPECT_EQ(as_map(run_options({RunKind::analyze, 2, 0}, settings, "r")).count("baseline"), 0u);
}

TEST(SpeedupPlan, RunsAreFiledByKind) {
  ExperimentInput input;
  ExperimentRun run;
  run.processors = 2;
  add_run(input, RunKind::time, run);
  add_run(input, RunKind::analyze, run);
  add_run(input, RunKind::analyze, run);
  add_run(input, RunKind::sweep, run);
  EXPECT_EQ(input.timed.size(), 1u);
  EXPECT_EQ(input.analyzed.size(), 2u);
  EXPECT_EQ(input.swept.size(), 1u);
}

TEST(SpeedupPlan, LastLinesOfAnErrorStream) {
  EXPECT_EQ(last_lines("a\nb\nc\n", 2), "b\nc\n");
  EXPECT_EQ(last_lines("a\nb\nc", 2), "b\nc");
  EXPECT_EQ(last_lines("a\nb\n", 5), "a\nb\n");
  EXPECT_EQ(last_lines("one line", 1), "one line");
  EXPECT_EQ(last_lines("", 3), "");
}

}  // namespace
}  // namespace augur::selfanalysis
