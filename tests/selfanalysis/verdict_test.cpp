// The plain verdict on crafted figures and machine snapshots; every expected sentence and number is worked
// out by hand from the rules of docs/self-analysis.md, "The plain verdict".
#include "selfanalysis/verdict.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "augur/core/stats.hpp"

namespace augur::selfanalysis {
namespace {

using Lines = std::vector<std::string>;
using core::karp_flatt_fraction;

MachineContext machine(double load_start, double load_end, int processors, double steal, const std::string& policy) {
  MachineContext context;
  context.known = true;
  context.load_average_start = load_start;
  context.load_average_end = load_end;
  context.available_processors = processors;
  context.steal_fraction = steal;
  context.wait_policy = policy;
  return context;
}

TEST(PlainVerdict, MeasuredSpeedupOnAQuietMachine) {
  VerdictInput input;
  input.processors = 2;
  input.baseline = 1;
  input.speedup = 1.8;
  input.sequential_fraction = 0.1;
  input.judged = true;
  input.noise_verdict = "measurement clean: 5 baseline windows within 3%";
  input.machine_in_reasons = true;
  input.machine = machine(0.3, 0.5, 2, 0.01, "passive");
  const Verdict verdict = judge_verdict(input);
  EXPECT_EQ(verdict.lines, (Lines{"parallel efficiency on 2 threads: 0.90 = S(2) / 2 = 1.800 / 2",
                                  "sequential fraction f = 0.1000: Amdahl limit 1/f = 10.0, the speedup no thread count exceeds",
                                  "measurement clean: 5 baseline windows within 3%", "what to do: nothing about the measurement"}));
  EXPECT_DOUBLE_EQ(verdict.efficiency, 0.9);
  EXPECT_EQ(verdict.efficiency_source, "measured");
  EXPECT_DOUBLE_EQ(verdict.amdahl_limit, 10.0);
  EXPECT_FALSE(verdict.noisy);
  EXPECT_FALSE(verdict.amdahl_factor_only);
  EXPECT_TRUE(verdict.advice.empty());
}

TEST(PlainVerdict, BaselineEqualToPIsAmdahlsFactorNotAMeasuredSpeedup) {
  VerdictInput input;
  input.processors = 2;
  input.baseline = 2;
  input.speedup = 1.987;  // AF(2) for f = 0.0065: 1 / (0.0065 + 0.9935 / 2) = 1.98708
  input.sequential_fraction = 0.0065;
  const Verdict verdict = judge_verdict(input);
  EXPECT_TRUE(verdict.amdahl_factor_only);
  EXPECT_EQ(verdict.efficiency_source, "amdahl");
  EXPECT_DOUBLE_EQ(verdict.efficiency, 1.987 / 2);
  EXPECT_EQ(verdict.lines,
            (Lines{"S(2) = 1.987 is Amdahl's Factor AF(2) computed from f, not a measured speedup (the baseline is P = 2 "
                   "threads; a smaller --baseline measures one)",
                   "parallel efficiency on 2 threads: 0.99 by Amdahl's law (AF(2) / 2), not measured",
                   "sequential fraction f = 0.0065: Amdahl limit 1/f = 153.8, the speedup no thread count exceeds",
                   "noise: not judged (no noise verdict and no machine snapshot)", "what to do: nothing about the measurement"}));
}

TEST(PlainVerdict, SpinningOnAnOversubscribedMachineIsMeaninglessAndSaysWhatToDo) {
  VerdictInput input;
  input.processors = 2;
  input.speedup = 1.5;
  input.speedup_name = "TS";
  input.sequential_fraction = karp_flatt_fraction(1.5, 2);  // (1/1.5 - 1/2) / (1 - 1/2) = 1/3
  input.fraction_from_speedup = true;
  input.repetitions = 5;
  input.repetition_spread = 0.25;
  input.machine = machine(1.0, 7.2, 2, 0.0, "default");  // 7.2 > 2 + 0.5
  const Verdict verdict = judge_verdict(input);
  EXPECT_TRUE(verdict.noisy);
  EXPECT_EQ(verdict.lines,
            (Lines{"parallel efficiency on 2 threads: 0.75 = TS(2) / 2 = 1.500 / 2",
                   "sequential fraction f = 0.3333 (Karp-Flatt, from TS(2)): Amdahl limit 1/f = 3.0, the speedup no thread "
                   "count exceeds",
                   "measurement meaningless: the threads spin while they wait (OMP_WAIT_POLICY=unset) on an oversubscribed "
                   "machine (load 7.2 on 2 processors); the 5 repetitions of TS(2) spread 25% (max - min over the median, "
                   "above 10%)",
                   "what to do: set OMP_WAIT_POLICY=passive; rerun on an idle machine; use more repetitions (--repeat)"}));
  EXPECT_EQ(verdict.advice, (Lines{"set OMP_WAIT_POLICY=passive", "rerun on an idle machine", "use more repetitions (--repeat)"}));
}

TEST(PlainVerdict, OneThreadHasNoEfficiencyAndASmallFractionStaysVisible) {
  VerdictInput input;
  input.processors = 1;
  input.speedup = 1.0;
  input.efficiency = 1.0;
  input.sequential_fraction = 2.3e-5;  // "%.4f" would print 0.0000 beside 1/f = 43478.3
  const Verdict verdict = judge_verdict(input);
  ASSERT_GE(verdict.lines.size(), 2u);
  EXPECT_EQ(verdict.lines[0], "parallel efficiency on 1 thread: none to judge (S(1) = 1; run on more threads to measure one)");
  EXPECT_EQ(verdict.lines[1], "sequential fraction f = 0.000023: Amdahl limit 1/f = 43478.3, the speedup no thread count exceeds");
  EXPECT_DOUBLE_EQ(verdict.efficiency, -1.0);
}

// An outer region's f is measured (the time one thread works alone), so it stays below S(P) = 1; its limit is then
// not what bounds the run, and the line says so.
TEST(PlainVerdict, AMeasuredFractionBesideASpeedupBelowOneSaysItDoesNotExplainIt) {
  VerdictInput input;
  input.processors = 2;
  input.speedup = 0.66;
  input.efficiency = 0.33;
  input.sequential_fraction = 0.0001;
  const Verdict verdict = judge_verdict(input);
  ASSERT_GE(verdict.lines.size(), 2u);
  EXPECT_EQ(verdict.lines[1], "sequential fraction f = 0.00010: Amdahl limit 1/f = 10000.0 from the sequential part alone; but "
                              "S(2) = 0.660 < 1: the threads slow the program down, which the sequential part does not explain");
  EXPECT_DOUBLE_EQ(verdict.amdahl_limit, 10000.0);
}

// The noise verdict's reason that the table's S(P) is far from the windows' median: the advice is to read the
// median, not to rerun (the fallback when no other advice applies).
TEST(PlainVerdict, ATableFarFromTheWindowsSaysWhichFigureToRead) {
  VerdictInput input;
  input.processors = 2;
  input.speedup = 1.41;
  input.sequential_fraction = 0.05;
  input.judged = true;
  input.noise_verdict = "measurement disturbed: the table's S(2) = 1.41 ...";
  input.noise_reasons = {"the table's S(2) = 1.41 (history-weighted: it leans on the last windows) is 12.0% above the windows' "
                         "median 1.26 (more than 10.0%): the last windows differ from the run's"};
  input.table_outside = true;
  input.window_median = 1.26;
  const Verdict verdict = judge_verdict(input);
  EXPECT_TRUE(verdict.noisy);
  ASSERT_FALSE(verdict.lines.empty());
  EXPECT_EQ(verdict.lines[0], "parallel efficiency on 2 threads: 0.70 = S(2) / 2 = 1.410 / 2 (the table's S(2); over the windows "
                              "1.260 / 2 = 0.63)");
  EXPECT_EQ(verdict.advice, (Lines{"read S(2) over the windows (their median), not the table's S(2)"}));
}

TEST(PlainVerdict, PassiveWaitersOnABusyMachineAreOnlyNoisy) {
  VerdictInput input;
  input.processors = 4;
  input.speedup = 2.0;
  input.machine = machine(5.0, 3.0, 4, 0.0, "passive");  // 5.0 > 4.5
  const Verdict verdict = judge_verdict(input);
  ASSERT_EQ(verdict.lines.size(), 4u);
  EXPECT_EQ(verdict.lines[2], "measurement noisy: the machine is oversubscribed (load 5.0 on 4 processors)");
  EXPECT_EQ(verdict.lines[3], "what to do: rerun on an idle machine");
}

TEST(PlainVerdict, TheNoiseVerdictsReasonsGiveTheAdviceWithoutRepeatingTheMachine) {
  VerdictInput input;
  input.processors = 2;
  input.baseline = 1;
  input.speedup = 1.26;
  input.judged = true;
  input.noise_verdict = "measurement disturbed: 3 of 5 windows on 2 processors preempted";
  input.noise_reasons = {"3 of 5 windows on 2 processors preempted", "CPU steal 10% of the run"};
  input.machine_in_reasons = true;  // the steal is in the reasons already
  input.preempted_windows = 3;
  input.window_spread = 0.08;
  input.machine = machine(0.2, 0.4, 2, 0.10, "passive");
  const Verdict verdict = judge_verdict(input);
  EXPECT_TRUE(verdict.noisy);
  EXPECT_EQ(verdict.reasons, input.noise_reasons);
  EXPECT_EQ(verdict.lines,
            (Lines{"parallel efficiency on 2 threads: 0.63 = S(2) / 2 = 1.260 / 2", "sequential fraction f: unknown, so no Amdahl limit",
                   "measurement disturbed: 3 of 5 windows on 2 processors preempted; also CPU steal 10% of the run",
                   "what to do: rerun on a host without CPU steal (dedicated or bare metal); pin threads (OMP_PROC_BIND=true "
                   "OMP_PLACES=cores); use more iterations"}));
}

// An outer region's sentence joins every reason (TeamSummary::verdict): none is said again after "also".
TEST(PlainVerdict, AnOuterRegionsSentenceHasEveryReasonAlready) {
  VerdictInput input;
  input.processors = 2;
  input.speedup = 0.53;
  input.efficiency = 0.265;
  input.judged = true;
  input.noise_verdict = "measurement disturbed: 1426 of 3197 steps preempted; other processes used 1.86 processors beside the run";
  input.noise_reasons = {"1426 of 3197 steps preempted", "other processes used 1.86 processors beside the run"};
  input.machine_in_reasons = true;
  input.sentence_has_all_reasons = true;
  input.machine = machine(0.2, 0.4, 2, 0.0, "passive");
  const Verdict verdict = judge_verdict(input);
  EXPECT_TRUE(verdict.noisy);
  ASSERT_GE(verdict.lines.size(), 3u);
  EXPECT_EQ(verdict.lines[2], input.noise_verdict);
  input.sentence_has_all_reasons = false;  // a parallel-for region's sentence quotes the first: the second follows
  EXPECT_EQ(judge_verdict(input).lines[2], input.noise_verdict + "; also other processes used 1.86 processors beside the run");
}

// An outer region whose baseline windows disagreed (TeamSummary's imprecise reason) on a quiet machine: more
// iterations, not another machine.
TEST(PlainVerdict, AnOuterRegionThatDidNotFixItsSpeedupAsksForMoreIterations) {
  VerdictInput input;
  input.processors = 2;
  input.speedup = 0.42;
  input.judged = true;
  input.imprecise = true;
  input.window_spread = 0.02;
  input.noise_verdict = "measurement disturbed: the run does not fix S(2) within 15%: 0.42 ± 0.08 at two standard errors";
  input.noise_reasons = {"the run does not fix S(2) within 15%: 0.42 ± 0.08 at two standard errors"};
  input.machine_in_reasons = true;
  input.sentence_has_all_reasons = true;
  input.machine = machine(0.0, 0.1, 2, 0.0, "passive");
  const Verdict verdict = judge_verdict(input);
  EXPECT_TRUE(verdict.noisy);
  EXPECT_EQ(verdict.advice, std::vector<std::string>{"use more iterations"});
  input.imprecise = false;  // otherwise the same: the advice of a noisy measurement with no other fact
  EXPECT_EQ(judge_verdict(input).advice, std::vector<std::string>{"rerun on an idle machine"});
}

// The same read from a report (augur run --json): the region's reasons give the advice; a competitor's too, which
// the machine snapshot of a short run does not call oversubscribed; and augur speedup's analyzed runs' sentences.
TEST(PlainVerdict, AnOuterRegionsReasonsFromAReportAndFromTheSpeedupExperiment) {
  const std::string imprecise = "the run does not fix S(2) within 15%: 0.422 ± 0.081 at two standard errors";
  const std::string competed =
      "other processes used 0.41 processors beside the run (2 processors, a team of 2): they competed for the team's cores";
  Report report;
  report.machine = machine(0.3, 0.9, 2, 0.0, "passive");
  ReportRegion region;
  region.kind = "outer";
  region.team = 2;
  region.noise.present = true;
  region.noise.disturbed = true;
  region.noise.iteration_time_spread = 0.02;
  region.noise.reasons = {imprecise};
  region.noise.verdict = "measurement disturbed: " + imprecise;
  EXPECT_EQ(judge_verdict(verdict_input(region, report)).advice, Lines{"use more iterations"});
  region.noise.reasons = {competed};
  region.noise.verdict = "measurement disturbed: " + competed;
  EXPECT_EQ(judge_verdict(verdict_input(region, report)).advice, Lines{"rerun on an idle machine"});
  region.noise.reasons = {competed, imprecise};
  region.noise.verdict = "measurement disturbed: " + competed + "; " + imprecise;
  EXPECT_EQ(judge_verdict(verdict_input(region, report)).advice, (Lines{"rerun on an idle machine", "use more iterations"}));
  region.noise.disturbed = false;  // a clean one's reasons are not the verdict's: nothing to do
  EXPECT_TRUE(judge_verdict(verdict_input(region, report)).advice.empty());

  ExperimentResult result;
  ExperimentPoint two;
  two.processors = 2;
  two.traditional = two.traditional_min = two.traditional_max = 1.6;
  two.judged_runs = 2;
  two.disturbed_runs = 1;
  two.verdicts = {"measurement clean: 0 of 41 steps preempted", "measurement disturbed: " + imprecise};
  result.points = {two};
  EXPECT_EQ(judge_verdict(verdict_input(result, 1, MachineContext{})).advice, Lines{"use more iterations"});
}

TEST(PlainVerdict, ACleanNoiseVerdictOnAStealingHostAddsTheMachine) {
  VerdictInput input;
  input.processors = 2;
  input.speedup = 1.9;
  input.judged = true;
  input.noise_verdict = "measurement clean: 4 baseline windows within 2%";
  input.machine = machine(0.1, 0.1, 2, 0.20, "passive");  // a snapshot the noise verdict did not judge
  const Verdict verdict = judge_verdict(input);
  EXPECT_TRUE(verdict.noisy);
  ASSERT_EQ(verdict.lines.size(), 4u);
  EXPECT_EQ(verdict.lines[2], "measurement clean: 4 baseline windows within 2%; also CPU steal 20% of the run");
  EXPECT_EQ(verdict.lines[3], "what to do: rerun on a host without CPU steal (dedicated or bare metal)");
}

TEST(PlainVerdict, CleanWithoutANoiseVerdictNamesTheFactsItRestsOn) {
  VerdictInput input;
  input.processors = 4;
  input.speedup = 3.6;
  input.speedup_name = "TS";
  input.repetitions = 3;
  input.repetition_spread = 0.04;
  input.machine = machine(0.4, 0.2, 4, 0.0, "passive");
  const Verdict verdict = judge_verdict(input);
  EXPECT_FALSE(verdict.noisy);
  EXPECT_EQ(verdict.lines[2], "measurement clean: load 0.4 on 4 processors, 3 repetitions within 4%");
  EXPECT_EQ(verdict.lines[3], "what to do: nothing about the measurement");
}

TEST(PlainVerdict, AMeasuredEfficiencyAndNoSequentialPart) {
  VerdictInput input;
  input.processors = 4;
  input.speedup = 3.2;
  input.efficiency = 0.8123;
  input.sequential_fraction = 0.0;
  const Verdict verdict = judge_verdict(input);
  EXPECT_EQ(verdict.lines[0], "parallel efficiency on 4 threads: 0.81 (measured in the run)");
  EXPECT_EQ(verdict.lines[1], "sequential fraction f = 0.0000: no Amdahl limit");
  EXPECT_LT(verdict.amdahl_limit, 0.0);
}

TEST(PlainVerdict, NothingKnown) {
  VerdictInput input;
  input.processors = 4;
  const Verdict verdict = judge_verdict(input);
  EXPECT_EQ(verdict.lines, (Lines{"parallel efficiency on 4 threads: unknown (S(4) was not calculated)",
                                  "sequential fraction f: unknown, so no Amdahl limit",
                                  "noise: not judged (no noise verdict and no machine snapshot)", "what to do: nothing about the measurement"}));
  const nlohmann::ordered_json json = verdict_json(verdict);
  EXPECT_TRUE(json["efficiency"].is_null());
  EXPECT_TRUE(json["efficiency_source"].is_null());
  EXPECT_TRUE(json["f"].is_null());
  EXPECT_TRUE(json["amdahl_limit"].is_null());
  EXPECT_EQ(json["noisy"], false);
  EXPECT_EQ(json["lines"].size(), 4u);
}

TEST(PlainVerdict, JsonCarriesTheFigures) {
  VerdictInput input;
  input.processors = 2;
  input.speedup = 1.6;
  input.sequential_fraction = 0.25;
  const nlohmann::ordered_json json = verdict_json(judge_verdict(input));
  EXPECT_DOUBLE_EQ(json["efficiency"].get<double>(), 0.8);
  EXPECT_DOUBLE_EQ(json["f"].get<double>(), 0.25);
  EXPECT_DOUBLE_EQ(json["amdahl_limit"].get<double>(), 4.0);
  EXPECT_EQ(json["efficiency_source"], "measured");
}

TEST(PlainVerdict, OfTheSpeedupExperiment) {
  ExperimentResult result;
  ExperimentPoint one;
  one.processors = 1;
  one.traditional = one.traditional_min = one.traditional_max = 1.0;
  ExperimentPoint two;
  two.processors = 2;
  two.traditional = 1.6;
  two.traditional_min = 1.5;
  two.traditional_max = 1.8;  // (1.8 - 1.5) / 1.6 = 18.75%
  two.judged_runs = 5;
  two.disturbed_runs = 2;
  two.verdicts = {"measurement clean: 5 baseline windows within 2%",
                  "measurement disturbed: 3 of 5 windows on 2 processors preempted (2 involuntary context switches or more)",
                  "measurement disturbed: window times on 2 processors spread 9% (MAD/median, above 5%)"};
  result.points = {one, two};
  const Verdict verdict = judge_verdict(verdict_input(result, 5, MachineContext{}));
  EXPECT_EQ(verdict.lines,
            (Lines{"parallel efficiency on 2 threads: 0.80 = TS(2) / 2 = 1.600 / 2",
                   "sequential fraction f = 0.2500 (Karp-Flatt, from TS(2)): Amdahl limit 1/f = 4.0, the speedup no thread "
                   "count exceeds",
                   "measurement noisy: 2 of 5 analyzed runs disturbed (their noise verdicts: --json, points[].verdicts); the 5 "
                   "repetitions of TS(2) spread 19% (max - min over the median, above 10%)",
                   "what to do: pin threads (OMP_PROC_BIND=true OMP_PLACES=cores); use more repetitions (--repeat)"}));
}

// augur speedup on a program that two threads slow down (TS(2) 0.97, a loaded machine, 2026-11-28): Karp-Flatt's
// formula would read f = 1.06 and an "Amdahl limit" of 0.9; the line says why there is no f instead.
TEST(PlainVerdict, ASpeedupBelowOneHasNoSequentialFraction) {
  VerdictInput input;
  input.processors = 2;
  input.speedup = 0.97;
  input.speedup_name = "TS";
  input.sequential_fraction = karp_flatt_fraction(0.97, 2);
  input.fraction_from_speedup = input.sequential_fraction >= 0.0;
  const Verdict verdict = judge_verdict(input);
  ASSERT_GE(verdict.lines.size(), 2U);
  EXPECT_EQ(verdict.lines[1], "sequential fraction f: unknown (TS(2) = 0.970 < 1: the threads slow the program down, which no "
                              "sequential fraction explains), so no Amdahl limit");
  EXPECT_LT(verdict.amdahl_limit, 0.0);
}

}  // namespace
}  // namespace augur::selfanalysis
