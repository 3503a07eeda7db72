// The report written by libaugur, read back by the commands, and the validation table built from it.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <utility>
#include <vector>
#include <nlohmann/json.hpp>

#include "augur/core/diagnostics.hpp"
#include "augur/selfanalysis_report.hpp"
#include "selfanalysis/speedup_experiment.hpp"
#include "selfanalysis/team_report.hpp"

namespace augur::selfanalysis {
namespace {

class FixedClock final : public Clock {
public:
  double wall_seconds() override { return now; }
  double process_cpu_seconds() override { return cpu; }
  double now = 0.0;
  double cpu = 0.0;
};

class FixedThreads final : public ThreadControl {
public:
  int allocated_processors() override { return 2; }
  void set_active_threads(int threads) override { active = threads; }
  bool stopped_since_last_call() override { return false; }
  int active = 2;
};

// A run of 30 iterations of a region whose iteration takes 10 ms on 1 thread and 6 ms on 2.
std::vector<Region> measured_regions(RunContext& context) {
  FixedClock clock;
  FixedThreads threads;
  Config config;
  config.baseline = {BaselinePolicy::Kind::Fixed, 1};
  config.self_tuning_interval = 0.0;
  context.mode = "analyze";
  context.allocated_processors = 2;
  context.available_processors = 2;
  context.config = config;
  Analyzer analyzer(config, clock, threads, 2);
  analyzer.init_parallel_region(5, 2, 30);
  for (int i = 0; i < 30; ++i) {
    analyzer.open_iteration();
    const double parallel = threads.active == 1 ? 0.009 : 0.005;
    analyzer.init_par();
    clock.now += parallel;
    clock.cpu += 0.009;
    analyzer.end_par();
    clock.now += 0.001;
    clock.cpu += 0.001;
    analyzer.close_iteration();
  }
  analyzer.end_parallel_region();
  return analyzer.regions();
}

TEST(Report, RoundTripsThroughJson) {
  RunContext context;
  const std::vector<Region> regions = measured_regions(context);
  const std::string text = render_report(context, regions);
  const Report report = parse_report(text, "report.json");
  EXPECT_EQ(report.mode, "analyze");
  ASSERT_EQ(report.regions.size(), 1u);
  const ReportRegion& region = report.regions[0];
  EXPECT_EQ(region.id, 5u);
  EXPECT_EQ(region.length, 2);
  EXPECT_EQ(region.iterations, 30);
  EXPECT_EQ(region.expected_iterations, 30);
  EXPECT_EQ(region.baseline, 1);
  EXPECT_NEAR(region.baseline_time, 0.010, 1e-12);
  ASSERT_NE(region.point(2), nullptr);
  EXPECT_TRUE(region.point(2)->calculated);
  EXPECT_NEAR(region.point(2)->speedup, 0.010 / 0.006, 1e-9);
  EXPECT_NEAR(region.point(2)->self_tuning, 0.010 / 0.006, 1e-9);
  EXPECT_NEAR(region.elapsed, regions[0].elapsed, 1e-12);
  EXPECT_GT(region.estimated_time, 0.0);

  const auto json = nlohmann::json::parse(text);
  EXPECT_EQ(json["regions"][0]["speedup"][0]["state"], "PC");
  EXPECT_EQ(json["config"]["baseline"], "1");
  EXPECT_TRUE(json["regions"][0].contains("f"));
  EXPECT_TRUE(json["regions"][0].contains("af"));
}

TEST(Report, SummaryNamesTheSpeedups) {
  RunContext context;
  const std::vector<Region> regions = measured_regions(context);
  const std::string summary = render_summary(context, regions);
  EXPECT_NE(summary.find("augur: region 5 (2 loops): 30 iterations"), std::string::npos) << summary;
  EXPECT_NE(summary.find("S(2)=1.667 PC"), std::string::npos) << summary;
  EXPECT_NE(summary.find("estimated time on 2 processors"), std::string::npos) << summary;
}

TEST(Report, MalformedJsonNamesLineAndColumn) {
  try {
    (void)parse_report("{\n  \"augur_report\": 1,\n  \"mode\": ]\n}", "bad.json");
    FAIL() << "expected an error";
  } catch (const core::InputError& error) {
    EXPECT_EQ(error.location().file, "bad.json");
    EXPECT_EQ(error.location().line, 3);
    EXPECT_EQ(error.location().column, 11);
    EXPECT_EQ(std::string(error.what()).rfind("bad.json:3:11: ", 0), 0u) << error.what();
  }
}

TEST(Report, MissingFieldsAreNamed) {
  try {
    (void)parse_report(R"({"augur_report": 1, "mode": "analyze", "allocated_processors": 2, "regions": [{"id": 1}]})", "r.json");
    FAIL() << "expected an error";
  } catch (const core::InputError& error) {
    EXPECT_NE(std::string(error.what()).find("regions[0]: missing field 'length'"), std::string::npos) << error.what();
  }
  EXPECT_THROW((void)parse_report(R"({"augur_report": 9, "mode": "time", "allocated_processors": 1, "regions": []})", "r.json"),
               core::InputError);
  EXPECT_THROW((void)parse_report("[1, 2]", "r.json"), core::InputError);
}

// An outer region's placement (augur run's table prints it): read when present, 0 when absent (reports written
// before it), refused when it counts more steps on one core than steps.
std::string outer_report(const std::string& placement) {
  return R"({"augur_report": 1, "mode": "analyze", "allocated_processors": 2, "regions": [{"kind": "outer", "id": 1,
    "length": 4, "iterations": 300, "elapsed_s": 0.1, "discarded_iterations": 0, "speedup": [], "team": 2,
    "measured_iterations": 250, "efficiency": {"parallel": 0.9, "load_balance": 0.95, "communication": 0.947})" +
         placement + "}]}";
}

TEST(Report, ReadsAnOuterRegionsPlacement) {
  const Report packed = parse_report(outer_report(R"(, "placement": {"steps": 240, "one_cpu_steps": 216, "one_cpu_fraction": 0.9})"), "r.json");
  EXPECT_EQ(packed.regions.at(0).placement_steps, 240);
  EXPECT_EQ(packed.regions.at(0).placement_one_cpu, 216);
  const Report older = parse_report(outer_report(""), "r.json");
  EXPECT_EQ(older.regions.at(0).placement_steps, 0);
  EXPECT_EQ(older.regions.at(0).placement_one_cpu, 0);
  const Report unknown = parse_report(outer_report(R"(, "placement": {"steps": 0, "one_cpu_steps": 0, "one_cpu_fraction": null})"), "r.json");
  EXPECT_EQ(unknown.regions.at(0).placement_steps, 0);
  try {
    (void)parse_report(outer_report(R"(, "placement": {"steps": 3, "one_cpu_steps": 4})"), "r.json");
    FAIL() << "expected an error";
  } catch (const core::InputError& error) {
    EXPECT_NE(std::string(error.what()).find("regions[0].placement: one_cpu_steps must be between 0 and steps"), std::string::npos)
        << error.what();
  }
  EXPECT_THROW((void)parse_report(outer_report(R"(, "placement": 3)"), "r.json"), core::InputError);
}

// Whether the baseline steps stopped (threads waiting on each other inside a construct): read when present,
// false when absent (reports written before it), refused when not a boolean; written by render_outer.
TEST(Report, ReadsWhetherAnOuterRegionsBaselineStopped) {
  EXPECT_TRUE(parse_report(outer_report(R"(, "baseline_stopped": true)"), "r.json").regions.at(0).baseline_stopped);
  EXPECT_FALSE(parse_report(outer_report(R"(, "baseline_stopped": false)"), "r.json").regions.at(0).baseline_stopped);
  EXPECT_FALSE(parse_report(outer_report(""), "r.json").regions.at(0).baseline_stopped);
  EXPECT_THROW((void)parse_report(outer_report(R"(, "baseline_stopped": 1)"), "r.json"), core::InputError);
  augur::selfanalysis::OuterRegionResult outer;
  outer.id = 7;
  outer.length = 8;
  outer.iterations = 300;
  outer.baseline_stopped = true;
  const auto written = nlohmann::json::parse(augur::selfanalysis::add_outer_regions(R"({"regions": []})", {outer}));
  EXPECT_EQ(written.at("regions").at(0).at("baseline_stopped"), true);
  outer.baseline_stopped = false;
  const auto again = nlohmann::json::parse(augur::selfanalysis::add_outer_regions(R"({"regions": []})", {outer}));
  EXPECT_EQ(again.at("regions").at(0).at("baseline_stopped"), false);
}

// Found by fuzz/report_fuzz.cpp: a number beyond double's range escaped as nlohmann's out_of_range.
TEST(Report, ANumberBeyondRangeIsAnInputError) {
  try {
    (void)parse_report(R"({"augur_report": 1e999, "mode": "time"})", "big.json");
    FAIL() << "expected an error";
  } catch (const core::InputError& error) {
    EXPECT_EQ(std::string(error.what()), "big.json: not a JSON augur report: number overflow parsing '1e999'");
  }
}

// Found by fuzz/report_fuzz.cpp: a float in an integer field was converted with undefined behaviour (1e308
// to int) or truncated (2.5 to 2).
TEST(Report, AnIntegerFieldTakesOnlyAWholeNumberInRange) {
  const std::string int_range = "from -2147483648 to 2147483647";
  for (const auto& [text, message] : std::vector<std::pair<std::string, std::string>>{
           {R"({"augur_report": 1e308})", "r.json: report: field 'augur_report' is not a whole number " + int_range},
           {R"({"augur_report": 1, "mode": "time", "allocated_processors": 2.5, "regions": []})",
            "r.json: report: field 'allocated_processors' is not a whole number " + int_range},
           {R"({"augur_report": 1, "mode": "time", "allocated_processors": 4294967296, "regions": []})",
            "r.json: report: field 'allocated_processors' is not a whole number " + int_range},
           {R"({"augur_report": 1, "mode": "time", "allocated_processors": 1, "regions": [{"id": -1}]})",
            "r.json: regions[0]: field 'id' is not a whole number from 0 to 18446744073709551615"}}) {
    try {
      (void)parse_report(text, "r.json");
      ADD_FAILURE() << "expected an error: " << text;
    } catch (const core::InputError& error) {
      EXPECT_EQ(std::string(error.what()), message);
    }
  }
}

ExperimentRun timed_run(int p, double wall, double region_time) {
  ExperimentRun run;
  run.processors = p;
  run.wall_seconds = wall;
  run.report.mode = "time";
  ReportRegion region;
  region.id = 1;
  region.length = 3;
  region.elapsed = region_time;
  run.report.regions.push_back(region);
  return run;
}

ExperimentRun analyzed_run(int p, double wall, std::vector<std::pair<int, double>> speedups, double tuning) {
  ExperimentRun run = timed_run(p, wall, wall * 0.9);
  run.report.mode = "analyze";
  ReportRegion& region = run.report.regions[0];
  region.baseline = 1;
  for (const auto& [processors, value] : speedups) {
    ReportPoint point;
    point.processors = processors;
    point.calculated = true;
    point.speedup = value;
    point.self_tuning = processors == p ? tuning : 0.0;
    region.points.push_back(point);
  }
  region.estimated_time = wall * 0.8;
  region.estimate_processors = p;
  return run;
}

TEST(Experiment, BuildsTheValidationTableFromMedians) {
  ExperimentInput input;
  int repetition = 0;
  for (double noise : {0.0, 0.1, -0.05}) {
    input.timed.push_back(timed_run(1, 2.0 + noise, 1.8 + noise));
    input.timed.push_back(timed_run(2, 1.1 + noise, 0.9 + noise));
    input.timed[input.timed.size() - 2].repetition = repetition;
    input.timed.back().repetition = repetition++;
    input.analyzed.push_back(analyzed_run(1, 2.02 + noise, {{1, 1.0}}, 1.0));
    input.analyzed.push_back(analyzed_run(2, 1.12 + noise, {{1, 1.0}, {2, 1.9 + noise}}, 1.95));
  }
  input.swept.push_back(analyzed_run(2, 1.5, {{1, 1.0}, {2, 1.7}}, 1.9));
  const ExperimentResult result = summarize_experiment(input);
  EXPECT_EQ(result.region_id, 1u);
  EXPECT_EQ(result.region_length, 3);
  ASSERT_EQ(result.points.size(), 2u);
  EXPECT_DOUBLE_EQ(result.points[0].traditional, 1.0);
  EXPECT_DOUBLE_EQ(result.points[1].traditional, 1.8 / 0.9);
  EXPECT_DOUBLE_EQ(result.points[1].self_analyzer, 1.9);
  EXPECT_DOUBLE_EQ(result.points[1].self_analyzer_min, 1.85);
  EXPECT_DOUBLE_EQ(result.points[1].self_analyzer_max, 2.0);
  // TS of each repetition from its own pair of runs: 1.8/0.9, 1.9/1.0, 1.75/0.85.
  EXPECT_DOUBLE_EQ(result.points[1].traditional_min, 1.9 / 1.0);
  EXPECT_DOUBLE_EQ(result.points[1].traditional_max, 1.75 / 0.85);
  EXPECT_DOUBLE_EQ(result.points[1].self_analyzer_one, 1.7);
  EXPECT_DOUBLE_EQ(result.points[1].self_tuning, 1.95);
  EXPECT_DOUBLE_EQ(result.points[0].time, 2.0);
  EXPECT_DOUBLE_EQ(result.points[1].overhead, 1.12 / 1.1);
  EXPECT_DOUBLE_EQ(result.overhead, (2.02 + 1.12) / (2.0 + 1.1));
  EXPECT_FALSE(result.notes.empty());
}

TEST(Experiment, CountsTheDisturbedRunsPerPointAndSaysSoInOneLine) {
  ExperimentInput input;
  input.timed.push_back(timed_run(1, 2.0, 1.8));
  input.timed.push_back(timed_run(2, 1.1, 0.9));
  const char* clean = "measurement clean: 5 baseline windows within 2%";
  const char* disturbed = "measurement disturbed: 3 of 5 baseline windows slowed";
  for (const char* verdict : {clean, disturbed, disturbed}) {
    input.analyzed.push_back(analyzed_run(2, 1.12, {{1, 1.0}, {2, 1.9}}, 1.95));
    ReportNoise& noise = input.analyzed.back().report.regions[0].noise;
    noise.present = true;
    noise.verdict = verdict;
    noise.disturbed = verdict == disturbed;
  }
  input.analyzed.push_back(analyzed_run(1, 2.02, {{1, 1.0}}, 1.0));  // an old report: no verdict
  const ExperimentResult result = summarize_experiment(input);
  ASSERT_EQ(result.points.size(), 2u);
  EXPECT_EQ(result.points[0].judged_runs, 0);
  EXPECT_EQ(result.points[1].judged_runs, 3);
  EXPECT_EQ(result.points[1].disturbed_runs, 2);
  EXPECT_EQ(result.points[1].verdicts, (std::vector<std::string>{clean, disturbed, disturbed}));
  EXPECT_EQ(result.noise_verdict, std::string("noise: 2 of 3 analyzed runs disturbed (p=2: 2 of 3); trust their SA(N) less; "
                                              "first: ") + disturbed);
}

TEST(Experiment, NoNoiseLineWithoutVerdicts) {
  ExperimentInput input;
  input.timed.push_back(timed_run(1, 2.0, 1.8));
  input.analyzed.push_back(analyzed_run(1, 2.02, {{1, 1.0}}, 1.0));
  EXPECT_EQ(summarize_experiment(input).noise_verdict, "");
  input.analyzed.back().report.regions[0].noise.present = true;
  EXPECT_EQ(summarize_experiment(input).noise_verdict.rfind("noise: all 1 analyzed runs measured clean", 0), 0u);
}

TEST(Experiment, FailsWithoutARegion) {
  ExperimentInput input;
  input.analyzed.push_back(ExperimentRun{});
  EXPECT_THROW((void)summarize_experiment(input), std::runtime_error);
  input.analyzed[0] = analyzed_run(1, 1.0, {{1, 1.0}}, 1.0);
  input.choose_region = true;
  input.region_id = 42;
  EXPECT_THROW((void)summarize_experiment(input), std::runtime_error);
}

TEST(Experiment, UnknownValuesStayUnknown) {
  ExperimentInput input;
  input.analyzed.push_back(analyzed_run(2, 1.0, {}, 0.0));
  const ExperimentResult result = summarize_experiment(input);
  ASSERT_EQ(result.points.size(), 1u);
  EXPECT_TRUE(std::isnan(result.points[0].traditional));
  EXPECT_TRUE(std::isnan(result.points[0].self_analyzer));
  EXPECT_TRUE(std::isnan(result.points[0].self_tuning));
}

}  // namespace
}  // namespace augur::selfanalysis
