// The noise verdict on scripted runs: a clock whose iterations are slowed in chosen baseline windows, and
// an interference source (the clock's involuntary switches) that counts preemptions where the test says.
// Exact expectations: the windows counted, the median baseline, the verdict and its sentence.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>
#include <nlohmann/json.hpp>

#include "augur/selfanalysis.hpp"
#include "augur/selfanalysis_noise.hpp"
#include "augur/selfanalysis_report.hpp"
#include "core/table.hpp"
#include "scripted_run.hpp"

namespace augur::selfanalysis {
namespace {

using test::quiet_machine;
using test::ScriptedRun;

// The context of a report of `run` analysed on 2 of 2 processors, on the quiet machine.
RunContext analyzed_on_two(const ScriptedRun& run) {
  RunContext context;
  context.mode = "analyze";
  context.allocated_processors = 2;
  context.available_processors = 2;
  context.config = run.analyzer.config();
  context.machine = quiet_machine();
  return context;
}

TEST(NoiseStatistics, OrderStatisticIntervalMedianAndMad) {
  std::vector<double> values;
  for (int i = 20; i >= 1; --i) values.push_back(i);
  const WindowStats stats = window_stats(values);
  EXPECT_EQ(stats.count, 20u);
  EXPECT_DOUBLE_EQ(stats.median, 10.5);
  // n = 20: P(Binomial(20, 1/2) <= 5) = 2.07% <= 2.5% < P(X <= 6): the interval is [x(6), x(15)].
  EXPECT_DOUBLE_EQ(stats.low, 6.0);
  EXPECT_DOUBLE_EQ(stats.high, 15.0);
  EXPECT_DOUBLE_EQ(stats.spread, 5.0 / 10.5);  // deviations 0.5, 0.5, 1.5, ...: median 5
  const WindowStats five = window_stats({3.0, 1.0, 2.0, 5.0, 4.0});
  EXPECT_DOUBLE_EQ(five.low, 1.0);  // fewer than 6: the extremes
  EXPECT_DOUBLE_EQ(five.high, 5.0);
  EXPECT_DOUBLE_EQ(five.median, 3.0);
  EXPECT_EQ(window_stats({}).count, 0u);
}

TEST(NoiseVerdict, BaselineIsRemeasuredEveryBaselineEveryIterations) {
  ScriptedRun run(ScriptedRun::config(6));
  run.analyzer.init_parallel_region(1, 2, -1);
  run.run_until_baseline_windows(3);
  // Warm-up on 2, baseline on 1, then per cycle: 6 measured on 2 (plus the discarded first), 3 on 1.
  EXPECT_EQ(run.threads.calls, (std::vector<int>{1, 2, 1, 2, 1}));
  EXPECT_EQ(run.analyzer.current()->iterations_closed, 1 + 4 + 2 * (7 + 4));
  EXPECT_EQ(run.analyzer.current()->baseline_windows.means.size(), 3u);
}

TEST(NoiseVerdict, ZeroBaselineEveryMeasuresTheBaselineOnce) {
  ScriptedRun run(ScriptedRun::config(0));
  run.analyzer.init_parallel_region(1, 2, -1);
  for (int i = 0; i < 100; ++i) run.iteration();
  EXPECT_EQ(run.threads.calls, (std::vector<int>{1, 2}));
  EXPECT_EQ(run.analyzer.current()->baseline_windows.total, 1);
}

TEST(NoiseVerdict, NoRemeasurementWithoutRoomForAWindow) {
  ScriptedRun run(ScriptedRun::config(6));
  // 1 warm-up + 4 baseline + 7 on 2 = 12: a re-measurement (1 + 3) does not fit in 15.
  run.analyzer.init_parallel_region(1, 2, 15);
  for (int i = 0; i < 15; ++i) run.iteration();
  EXPECT_EQ(run.threads.calls, (std::vector<int>{1, 2}));
}

TEST(NoiseVerdict, CleanRunIsNotDisturbed) {
  ScriptedRun run(ScriptedRun::config(6));
  run.analyzer.init_parallel_region(1, 2, -1);
  run.run_until_baseline_windows(5);
  const Region& region = *run.analyzer.current();
  EXPECT_NEAR(region.baseline_time, 0.010, 1e-15);
  const NoiseVerdict verdict = judge_noise(region, NoiseThresholds{}, quiet_machine(), 2);
  EXPECT_TRUE(verdict.judged);
  EXPECT_FALSE(verdict.disturbed);
  EXPECT_EQ(verdict.reasons, std::vector<std::string>{});
  EXPECT_EQ(verdict.baseline_windows, 5u);
  EXPECT_EQ(verdict.disturbed_baseline_windows, 0);
  EXPECT_NEAR(verdict.baseline_spread, 0.0, 1e-12);
  EXPECT_EQ(verdict.spread_processors, 2);
  EXPECT_EQ(verdict.measured_windows, 8);
  EXPECT_NEAR(verdict.iteration_time_spread, 0.0, 1e-12);
  EXPECT_EQ(verdict.involuntary_switches, 0);
  EXPECT_NEAR(verdict.speedup.median, 10.0 / 6.0, 1e-9);
  EXPECT_NEAR(verdict.speedup.low, 10.0 / 6.0, 1e-9);
  EXPECT_NEAR(verdict.speedup.high, 10.0 / 6.0, 1e-9);
  EXPECT_EQ(verdict.verdict,
            "measurement clean: 5 baseline windows within 0%, window times spread 0%; S(2) over the windows = 1.67 "
            "(median, 95% interval 1.67-1.67, 8 windows)");
}

TEST(NoiseVerdict, ThreeOfFiveBaselineWindowsSlowedAndPreempted) {
  ScriptedRun run(ScriptedRun::config(6));
  run.slowed_baseline_windows = {1, 3, 4};
  run.preempted_baseline_windows = {1, 3, 4};
  run.analyzer.init_parallel_region(1, 2, -1);
  run.run_until_baseline_windows(5);
  const Region& region = *run.analyzer.current();
  // Windows 10, 13, 10, 13, 13 ms: the median is a slowed one.
  EXPECT_NEAR(region.baseline_time, 0.013, 1e-12);
  const NoiseVerdict verdict = judge_noise(region, NoiseThresholds{}, quiet_machine(), 2);
  EXPECT_TRUE(verdict.disturbed);
  EXPECT_FALSE(verdict.meaningless);
  EXPECT_EQ(verdict.baseline_windows, 5u);
  EXPECT_EQ(verdict.slowed_baseline_windows, 3);
  EXPECT_EQ(verdict.preempted_baseline_windows, 3);
  EXPECT_EQ(verdict.disturbed_baseline_windows, 3);
  EXPECT_EQ(verdict.involuntary_switches, 3 * 3 * 5);  // 3 windows of 3 iterations, 5 each
  EXPECT_NEAR(verdict.baseline_spread, 3.0 / 13.0, 1e-9);  // (max - min) / T(B)
  ASSERT_EQ(verdict.reasons.size(), 2u);
  EXPECT_EQ(verdict.verdict.rfind("measurement disturbed: 3 of 5 baseline windows slowed or preempted", 0), 0u)
      << verdict.verdict;
  // The windows against the final T(B) = 13 ms: 13 / 6 each. The table's S(2) weighed windows measured against the
  // T(B) of their time (10 ms at first), so it is more than 10% below.
  EXPECT_NEAR(verdict.speedup.median, 13.0 / 6.0, 1e-9);
  EXPECT_TRUE(verdict.table_outside);
  EXPECT_LT(region.speedup(2), 0.9 * 13.0 / 6.0);
  EXPECT_EQ(verdict.reasons[1].rfind("the table's S(2) = " + core::format_value("%.2f", region.speedup(2)) +
                                         " (history-weighted: it leans on the last windows) is ", 0),
            0u)
      << verdict.reasons[1];
  // Every window on 2 took 6 ms: against the final T(B) they agree, so the cause is the earlier T(B)s.
  EXPECT_NE(verdict.reasons[1].find("% below the windows' median 2.17 (more than 10.0%): its windows were measured against "
                                    "earlier T(B)s than the final one"),
            std::string::npos)
      << verdict.reasons[1];
}

TEST(NoiseVerdict, MedianBaselineResistsTwoSlowWindowsButTheVerdictSaysSo) {
  ScriptedRun run(ScriptedRun::config(6));
  run.slowed_baseline_windows = {1, 4};  // the last window is slow: T(B) is not the last window
  run.analyzer.init_parallel_region(1, 2, -1);
  run.run_until_baseline_windows(5);
  const Region& region = *run.analyzer.current();
  EXPECT_NEAR(region.baseline_time, 0.010, 1e-12);  // 10, 13, 10, 10, 13: median 10
  const NoiseVerdict verdict = judge_noise(region, NoiseThresholds{}, quiet_machine(), 2);
  EXPECT_TRUE(verdict.disturbed);
  EXPECT_EQ(verdict.slowed_baseline_windows, 2);
  EXPECT_EQ(verdict.preempted_baseline_windows, 0);
  EXPECT_EQ(verdict.verdict.rfind("measurement disturbed: 2 of 5 baseline windows slowed (", 0), 0u) << verdict.verdict;
  // The window speedups are judged against the median T(B) = 10 ms.
  EXPECT_NEAR(verdict.speedup.median, 10.0 / 6.0, 1e-9);
}

TEST(NoiseVerdict, OneSlowWindowOfFiveIsWithinTheFraction) {
  ScriptedRun run(ScriptedRun::config(6));
  run.slowed_baseline_windows = {2};
  run.analyzer.init_parallel_region(1, 2, -1);
  run.run_until_baseline_windows(5);
  const NoiseVerdict verdict = judge_noise(*run.analyzer.current(), NoiseThresholds{}, quiet_machine(), 2);
  EXPECT_EQ(verdict.slowed_baseline_windows, 1);
  EXPECT_FALSE(verdict.disturbed) << "1 of 5 is not more than 20%";
}

TEST(NoiseVerdict, SpreadOfWindowTimesIsDisturbed) {
  ScriptedRun run(ScriptedRun::config(6));
  run.window_noise = 1.0;  // every other iteration on 2 processors twice as long: windows 8 and 10 ms
  run.analyzer.init_parallel_region(1, 2, -1);
  run.run_until_baseline_windows(5);
  const NoiseVerdict verdict = judge_noise(*run.analyzer.current(), NoiseThresholds{}, quiet_machine(), 2);
  EXPECT_TRUE(verdict.disturbed);
  EXPECT_GT(verdict.iteration_time_spread, 0.05);
  ASSERT_EQ(verdict.reasons.size(), 1u);
  EXPECT_EQ(verdict.reasons[0].rfind("window times on 2 processors spread ", 0), 0u) << verdict.reasons[0];
  EXPECT_LT(verdict.speedup.low, verdict.speedup.high);
}

TEST(NoiseVerdict, SpinningOnAnOversubscribedMachineIsMeaningless) {
  ScriptedRun run(ScriptedRun::config(6));
  run.analyzer.init_parallel_region(1, 2, -1);
  run.run_until_baseline_windows(2);
  MachineContext machine = quiet_machine();
  machine.load_average_end = 3.5;
  machine.wait_policy = "default";
  const NoiseVerdict spinning = judge_noise(*run.analyzer.current(), NoiseThresholds{}, machine, 2);
  EXPECT_TRUE(spinning.meaningless);
  EXPECT_TRUE(spinning.disturbed);
  EXPECT_EQ(spinning.verdict,
            "measurement meaningless: OMP_WAIT_POLICY=unset (libgomp spins) on an oversubscribed machine (load 3.5 on 2 "
            "processors): spinning threads steal the cores the working ones need; rerun with OMP_WAIT_POLICY=passive");
  machine.wait_policy = "passive";
  const NoiseVerdict passive = judge_noise(*run.analyzer.current(), NoiseThresholds{}, machine, 2);
  EXPECT_FALSE(passive.meaningless);
  EXPECT_TRUE(passive.disturbed);
  EXPECT_EQ(passive.reasons, std::vector<std::string>{"the machine is oversubscribed (load 3.5 on 2 processors)"});
  machine.load_average_end = 2.5;  // the program's 2 threads and a little more: not oversubscribed
  machine.wait_policy = "active";
  EXPECT_FALSE(judge_noise(*run.analyzer.current(), NoiseThresholds{}, machine, 2).disturbed) << "not oversubscribed";
  machine.load_average_start = 2.6;
  EXPECT_TRUE(judge_noise(*run.analyzer.current(), NoiseThresholds{}, machine, 2).meaningless) << "the start counts too";
}

// The load average is a mean over the last minute: after the program's own previous run it reads high on a
// machine that nothing else uses. What other processes used beside the run decides when it is known.
TEST(NoiseVerdict, TheLoadOfOtherProcessesOverridesTheLoadAverage) {
  MachineContext machine = quiet_machine();
  machine.load_average_start = 3.5;  // above 2 + 0.5
  EXPECT_TRUE(machine.oversubscribed()) << "not measured: the load average decides";
  EXPECT_FALSE(machine.quiet());
  machine.other_cpu_load = 0.3;
  EXPECT_FALSE(machine.oversubscribed()) << "others used 0.3 of a processor: the load was the program's own";
  EXPECT_FALSE(machine.quiet());
  machine.other_cpu_load = 0.5;
  EXPECT_FALSE(machine.oversubscribed());
  machine.other_cpu_load = 0.51;
  EXPECT_TRUE(machine.oversubscribed());
  machine.load_average_start = 0.1;
  EXPECT_FALSE(machine.oversubscribed()) << "both must say so";
  {  // 0.51 processors beside a team of 2 on 2: competition, a reason of its own when not oversubscribed
    ScriptedRun competed(ScriptedRun::config(6));
    competed.analyzer.init_parallel_region(1, 2, -1);
    competed.run_until_baseline_windows(2);
    const NoiseVerdict verdict = judge_noise(*competed.analyzer.current(), NoiseThresholds{}, machine, 2);
    EXPECT_TRUE(verdict.disturbed);
    EXPECT_EQ(verdict.reasons, std::vector<std::string>{machine.competed_reason(2)});
    EXPECT_FALSE(judge_noise(*competed.analyzer.current(), NoiseThresholds{}, machine, 1).disturbed) << "a team of 1 left one free";
  }
  machine.other_cpu_load = 0.1;
  EXPECT_TRUE(machine.quiet());
  machine.other_cpu_load = 0.11;
  EXPECT_FALSE(machine.quiet());
  machine.known = false;
  machine.other_cpu_load = 0.0;
  EXPECT_FALSE(machine.quiet());
  // The report keeps it and reads it back.
  ScriptedRun run(ScriptedRun::config(6));
  run.analyzer.init_parallel_region(1, 2, -1);
  run.run_until_baseline_windows(2);
  run.analyzer.finish();
  RunContext context = analyzed_on_two(run);
  context.machine.load_average_end = 3.0;
  context.machine.other_cpu_load = 0.25;
  const std::string text = render_report(context, run.analyzer.regions());
  const auto json = nlohmann::json::parse(text);
  EXPECT_DOUBLE_EQ(json["machine"]["other_cpu_load"].get<double>(), 0.25);
  EXPECT_EQ(json["machine"]["oversubscribed"], false);
  const Report report = parse_report(text, "r.json");
  EXPECT_DOUBLE_EQ(report.machine.other_cpu_load, 0.25);
  EXPECT_FALSE(report.machine.oversubscribed());
  context.machine.other_cpu_load = -1.0;
  EXPECT_TRUE(nlohmann::json::parse(render_report(context, run.analyzer.regions()))["machine"]["other_cpu_load"].is_null());
}

TEST(NoiseVerdict, NoVerdictBeforeTheBaseline) {
  ScriptedRun run(ScriptedRun::config(6));
  run.analyzer.init_parallel_region(1, 2, -1);
  run.iteration();
  EXPECT_FALSE(judge_noise(*run.analyzer.current(), NoiseThresholds{}, quiet_machine(), 2).judged);
}

TEST(NoiseReport, FieldsAreWrittenAndReadBack) {
  ScriptedRun run(ScriptedRun::config(6));
  run.slowed_baseline_windows = {1, 3, 4};
  run.analyzer.init_parallel_region(1, 2, -1);
  run.run_until_baseline_windows(5);
  run.analyzer.finish();
  RunContext context = analyzed_on_two(run);
  const std::string text = render_report(context, run.analyzer.regions());
  const auto json = nlohmann::json::parse(text);
  EXPECT_EQ(json["machine"]["wait_policy"], "passive");
  EXPECT_EQ(json["machine"]["oversubscribed"], false);
  EXPECT_EQ(json["config"]["baseline_every"], 6);
  const auto& noise = json["regions"][0]["noise"];
  EXPECT_EQ(noise["disturbed"], true);
  EXPECT_EQ(noise["baseline_windows"], 5);
  EXPECT_EQ(noise["disturbed_baseline_windows"], 3);
  const Report report = parse_report(text, "r.json");
  ASSERT_EQ(report.regions.size(), 1u);
  const ReportNoise& read = report.regions[0].noise;
  EXPECT_TRUE(read.present);
  EXPECT_TRUE(read.disturbed);
  EXPECT_EQ(read.baseline_windows, 5);
  EXPECT_EQ(read.disturbed_baseline_windows, 3);
  EXPECT_EQ(read.verdict.rfind("measurement disturbed: 3 of 5", 0), 0u);
  EXPECT_TRUE(report.machine.known);
  EXPECT_NEAR(report.machine.load_average_end, 1.9, 1e-12);
  const ReportPoint* two = report.regions[0].point(2);
  ASSERT_NE(two, nullptr);
  ASSERT_TRUE(two->has_interval);
  EXPECT_LE(two->interval_low, two->median_speedup);
  EXPECT_LE(two->median_speedup, two->interval_high);
  EXPECT_FALSE(report.regions[0].point(1)->has_interval) << "S(B) = AF(B) has no interval";
  // The summary ends the region with the verdict.
  const std::string summary = render_summary(context, run.analyzer.regions());
  EXPECT_NE(summary.find("\naugur:   measurement disturbed: 3 of 5 baseline windows slowed"), std::string::npos) << summary;
}

TEST(NoiseReport, ReportsWithoutTheNoiseFieldsStillParse) {
  const std::string old = R"({"augur_report": 1, "mode": "analyze", "allocated_processors": 2, "regions": [
    {"id": 1, "length": 2, "iterations": 9, "elapsed_s": 0.1, "discarded_iterations": 2,
     "speedup": [{"p": 2, "value": 1.5, "state": "PC"}]}]})";
  const Report report = parse_report(old, "old.json");
  EXPECT_FALSE(report.machine.known);
  EXPECT_FALSE(report.regions[0].noise.present);
  EXPECT_FALSE(report.regions[0].points[0].has_interval);
}

TEST(NoiseReport, BadIntervalIsNamed) {
  const std::string bad = R"({"augur_report": 1, "mode": "analyze", "allocated_processors": 2, "regions": [
    {"id": 1, "length": 2, "iterations": 9, "elapsed_s": 0.1, "discarded_iterations": 2,
     "speedup": [{"p": 2, "value": 1.5, "state": "PC", "interval": [1.0]}]}]})";
  try {
    (void)parse_report(bad, "bad.json");
    FAIL() << "accepted";
  } catch (const std::exception& error) {
    EXPECT_NE(std::string(error.what()).find("regions[0].speedup[0]: field 'interval' is not an array of two numbers"),
              std::string::npos)
        << error.what();
  }
}

}  // namespace
}  // namespace augur::selfanalysis
