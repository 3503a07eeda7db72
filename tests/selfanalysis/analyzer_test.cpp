// Exact tests of the self-analysis engine on a simulated program whose iteration time is
// T(p) = T1 x (f + (1 - f) / p): with that program the self-analyzer must find f, AF(B), the
// Amdahl speedup 1 / (f + (1 - f) / p) and the execution time exactly, whatever the baseline.
// This file: Amdahl's Factor, the baseline policy, the baseline and warm-up iterations, the speedups and
// their history weights (the estimates, the sweep, self-tuning, misuse and regions: analyzer_estimate_test.cpp).
#include <gtest/gtest.h>

#include <vector>

#include "augur/selfanalysis.hpp"
#include "simulated_program.hpp"

namespace augur::selfanalysis {
namespace {

using simulated::amdahl_speedup;
using simulated::SimulatedProgram;
using simulated::with_baseline;

TEST(AmdahlFactor, FollowsTheThesisFormula) {
  EXPECT_DOUBLE_EQ(amdahl_factor(0.1, 4), 1.0 / (0.1 + 0.9 / 4));
  EXPECT_DOUBLE_EQ(amdahl_factor(0.0, 4), 4.0);
  EXPECT_DOUBLE_EQ(amdahl_factor(1.0, 4), 1.0);
  EXPECT_DOUBLE_EQ(amdahl_factor(0.3, 1), 1.0);  // AF(1) = 1
}

TEST(BaselinePolicy, TheDefaultIsHalfTheAllocationAtMostFour) {
  const BaselinePolicy automatic;  // B = min(4, P/2), at least 1
  EXPECT_EQ(automatic.kind, BaselinePolicy::Kind::Automatic);
  const std::pair<int, int> expected[] = {{1, 1}, {2, 1}, {3, 1}, {4, 2}, {5, 2}, {6, 3}, {7, 3}, {8, 4}, {9, 4}, {48, 4}, {4096, 4}};
  for (const auto& [allocated, baseline] : expected) EXPECT_EQ(automatic.resolve(allocated), baseline) << "P = " << allocated;
  EXPECT_EQ(automatic.resolve(0), 1);
  EXPECT_EQ(automatic.describe(), "auto");
}

TEST(BaselinePolicy, ResolvesFixedHalfAndSmallAllocations) {
  const BaselinePolicy four{BaselinePolicy::Kind::Fixed, 4};
  EXPECT_EQ(four.resolve(16), 4);
  EXPECT_EQ(four.resolve(2), 2);  // B = P when P < B
  EXPECT_EQ(four.resolve(1), 1);
  BaselinePolicy half{BaselinePolicy::Kind::Half, 0};
  EXPECT_EQ(half.resolve(16), 8);
  EXPECT_EQ(half.resolve(5), 2);
  EXPECT_EQ(half.resolve(1), 1);
  EXPECT_EQ(half.describe(), "half");
  EXPECT_EQ(four.describe(), "4");
}

TEST(Analyzer, BaselineOneGivesTheTraditionalSpeedup) {
  SimulatedProgram program(with_baseline(1), 4);
  program.analyzer.init_parallel_region(7, 2, 100);
  program.run(20);
  const Region& region = program.region();
  EXPECT_EQ(region.baseline_processors, 1);
  EXPECT_TRUE(region.baseline_done);
  EXPECT_NEAR(region.baseline_time, program.iteration_time(1), 1e-15);
  EXPECT_NEAR(region.sequential_fraction(), 0.1, 1e-12);
  EXPECT_DOUBLE_EQ(region.amdahl_factor(), 1.0);
  ASSERT_EQ(region.stats(1)->state, SpeedupState::Calculated);
  EXPECT_DOUBLE_EQ(region.speedup(1), 1.0);
  ASSERT_EQ(region.stats(4)->state, SpeedupState::Calculated);
  EXPECT_NEAR(region.speedup(4), amdahl_speedup(0.1, 4), 1e-12);
  EXPECT_EQ(region.stats(2)->state, SpeedupState::NotCalculated);
  EXPECT_EQ(region.stats(3)->state, SpeedupState::NotCalculated);
}

TEST(Analyzer, BaselineFourIsNormalisedByAmdahlsFactor) {
  SimulatedProgram program(Config{}, 8);  // default baseline: min(4, 8/2) = 4
  program.f = 0.05;
  program.analyzer.init_parallel_region(1, 3, -1);
  program.run(30);
  const Region& region = program.region();
  EXPECT_EQ(region.baseline_processors, 4);
  EXPECT_NEAR(region.sequential_fraction(), 0.05, 1e-12);
  EXPECT_NEAR(region.amdahl_factor(), amdahl_speedup(0.05, 4), 1e-12);
  EXPECT_NEAR(region.speedup(4), amdahl_speedup(0.05, 4), 1e-12);  // S(B) = AF(B)
  EXPECT_NEAR(region.speedup(8), amdahl_speedup(0.05, 8), 1e-12);
}

TEST(Analyzer, BaselineHalfUsesHalfTheAllocation) {
  Config config;
  config.baseline.kind = BaselinePolicy::Kind::Half;
  SimulatedProgram program(config, 6);
  program.analyzer.init_parallel_region(1, 1, -1);
  program.run(20);
  EXPECT_EQ(program.region().baseline_processors, 3);
  EXPECT_NEAR(program.region().speedup(6), amdahl_speedup(0.1, 6), 1e-12);
}

TEST(Analyzer, BaselineLargerThanTheAllocationUsesTheAllocation) {
  SimulatedProgram program(with_baseline(4), 2);  // B = 4 > P = 2
  program.analyzer.init_parallel_region(1, 1, -1);
  program.run(12);
  const Region& region = program.region();
  EXPECT_EQ(region.baseline_processors, 2);
  EXPECT_TRUE(program.threads.calls.empty()) << "B = P: the thread count never needs to change";
  EXPECT_NEAR(region.speedup(2), amdahl_speedup(0.1, 2), 1e-12);
  // Only the warm-up iteration is discarded.
  EXPECT_EQ(region.iterations_discarded, 1);
}

TEST(Analyzer, SetsTheBaselineThreadsAndRestoresTheAllocation) {
  SimulatedProgram program(with_baseline(1), 4);
  program.analyzer.init_parallel_region(1, 1, -1);
  program.run(10);
  EXPECT_EQ(program.threads.calls, (std::vector<int>{1, 4}));
  // Ending during the baseline gives the processors back.
  SimulatedProgram early(with_baseline(1), 4);
  early.analyzer.init_parallel_region(1, 1, -1);
  early.run(2);
  early.analyzer.end_parallel_region();
  EXPECT_EQ(early.threads.calls, (std::vector<int>{1, 4}));
  EXPECT_EQ(early.threads.active, 4);
}

TEST(Analyzer, DiscardsTheWarmUpAndTheIterationAfterAChange) {
  Config config = with_baseline(1);
  config.baseline_iterations = 3;
  config.measure_iterations = 2;
  SimulatedProgram program(config, 4);
  program.analyzer.init_parallel_region(1, 1, -1);
  program.run(1);  // the warm-up runs on the allocation, unmeasured
  EXPECT_EQ(program.threads.active, 4);
  EXPECT_EQ(program.region().iterations_discarded, 1);
  program.run(4);  // the first on 1 processor is discarded (a change), then 3 baseline iterations
  EXPECT_TRUE(program.region().baseline_done);
  EXPECT_EQ(program.region().iterations_discarded, 2);
  program.run(3);  // first on 4 processors discarded, then a window of 2
  EXPECT_EQ(program.region().iterations_discarded, 3);
  EXPECT_EQ(program.region().stats(4)->windows, 1);
  EXPECT_EQ(program.region().iterations_closed, 8);
}

TEST(Analyzer, LongerWarmUpDelaysTheBaseline) {
  Config config = with_baseline(1);
  config.warmup_iterations = 10;
  SimulatedProgram program(config, 4);
  program.analyzer.init_parallel_region(1, 1, -1);
  program.run(10);
  EXPECT_EQ(program.region().iterations_discarded, 10);
  EXPECT_TRUE(program.threads.calls.empty()) << "the warm-up runs on the allocation";
  EXPECT_EQ(program.region().baseline_count, 0);
  program.run(8);  // 1 discarded at the change, 3 baseline, 1 discarded, 3 measured
  EXPECT_NEAR(program.region().speedup(4), amdahl_speedup(0.1, 4), 1e-12);

  config.warmup_iterations = 0;
  SimulatedProgram immediate(config, 1);
  immediate.analyzer.init_parallel_region(1, 1, -1);
  immediate.run(3);
  EXPECT_TRUE(immediate.region().baseline_done) << "no warm-up, B = P: the first 3 iterations are the baseline";
  EXPECT_EQ(immediate.region().iterations_discarded, 0);
}

TEST(Analyzer, DiscardsAnIterationDuringWhichTheAllocationChanged) {
  SimulatedProgram program(with_baseline(1), 4);
  program.analyzer.init_parallel_region(1, 1, -1);
  program.run(10);
  const long discarded = program.region().iterations_discarded;
  const long windows = program.region().stats(4)->windows;
  // The scheduler takes two processors away in the middle of an iteration.
  program.analyzer.open_iteration();
  program.clock.advance(0.001, 4);
  program.threads.allocated = 2;
  program.analyzer.close_iteration();
  EXPECT_EQ(program.region().iterations_discarded, discarded + 1);
  EXPECT_EQ(program.region().stats(4)->windows, windows);
  // The next iteration runs on the new allocation and is discarded as the first after the change.
  program.run(1);
  EXPECT_EQ(program.threads.active, 2);
  EXPECT_EQ(program.region().iterations_discarded, discarded + 2);
  program.run(3);
  EXPECT_NEAR(program.region().speedup(2), amdahl_speedup(0.1, 2), 1e-12);
}

TEST(Analyzer, DiscardsAnIterationDuringWhichTheProgramWasStopped) {
  SimulatedProgram program(with_baseline(1), 2);
  program.analyzer.init_parallel_region(1, 1, -1);
  program.run(10);
  const long discarded = program.region().iterations_discarded;
  const double speedup = program.region().speedup(2);
  program.analyzer.open_iteration();
  program.clock.advance(5.0, 0);  // stopped for 5 s
  program.threads.stopped = true;
  program.analyzer.close_iteration();
  EXPECT_EQ(program.region().iterations_discarded, discarded + 1);
  program.run(6);
  EXPECT_NEAR(program.region().speedup(2), speedup, 1e-12) << "the stopped iteration must not count";
}

TEST(Analyzer, SpeedupOnTheBaselineCountStaysAmdahlsFactor) {
  Config config = with_baseline(4);  // B = 4 > P = 2: the baseline runs on P
  config.measure_iterations = 1;
  SimulatedProgram program(config, 2);
  program.analyzer.init_parallel_region(1, 1, -1);
  program.run(4);
  const double factor = program.region().amdahl_factor();
  EXPECT_NEAR(program.region().speedup(2), factor, 1e-12);
  program.serial_iteration *= 1.5;  // later iterations slow down: T(2) changes, S(B) does not
  program.run(5);
  EXPECT_NEAR(program.region().speedup(2), amdahl_factor(program.region().sequential_fraction(), 2), 1e-12);
  EXPECT_EQ(program.region().stats(2)->windows, 1);
  EXPECT_NEAR(program.region().stats(2)->iteration_time, program.iteration_time(2), 1e-12);

  // f changes (more sequential code): S(B) follows AF(B) and equals it at the end.
  program.f = 0.3;
  program.run(5);
  program.analyzer.end_parallel_region();
  EXPECT_DOUBLE_EQ(program.region().speedup(2), program.region().amdahl_factor());

  SimulatedProgram single(with_baseline(1), 1);
  single.analyzer.init_parallel_region(1, 1, -1);
  single.run(4);
  single.serial_iteration *= 0.5;
  single.run(10);
  EXPECT_DOUBLE_EQ(single.region().speedup(1), 1.0) << "S(1) = 1 with B = P = 1";
}

TEST(Analyzer, AppliesTheHistoryWeights) {
  Config config = with_baseline(1);
  config.measure_iterations = 1;
  config.history_weight = 0.6;
  SimulatedProgram program(config, 2);
  program.analyzer.init_parallel_region(1, 1, -1);
  program.run(7);  // warm-up, 1 discarded, 3 baseline, 1 discarded after the change, 1 window on 2 processors
  const double first = program.region().speedup(2);
  EXPECT_NEAR(first, amdahl_speedup(0.1, 2), 1e-12);
  // The program slows down: every iteration now takes 1.5 times as long.
  const double t_baseline = program.region().baseline_time;
  program.serial_iteration *= 1.5;
  program.run(1);
  const double measured = t_baseline / program.iteration_time(2) * program.region().amdahl_factor();
  EXPECT_NEAR(program.region().speedup(2), 0.6 * first + 0.4 * measured, 1e-12);
  program.run(1);
  EXPECT_NEAR(program.region().speedup(2), 0.6 * (0.6 * first + 0.4 * measured) + 0.4 * measured, 1e-12);
  EXPECT_EQ(program.region().stats(2)->windows, 3);
}

TEST(Analyzer, MeanSpeedupAveragesEveryMeasuredIteration) {
  Config config = with_baseline(1);
  config.measure_iterations = 1;
  SimulatedProgram program(config, 2);
  program.analyzer.init_parallel_region(1, 1, -1);
  program.run(7);  // warm-up, 1 discarded, 3 baseline, 1 discarded, 1 measured on 2 processors
  const double fast = program.iteration_time(2);
  program.serial_iteration *= 1.5;
  program.run(2);
  const double slow = program.iteration_time(2);
  const Region& region = program.region();
  EXPECT_EQ(region.stats(2)->iterations, 3);
  EXPECT_NEAR(region.mean_speedup(2), region.baseline_time / ((fast + 2 * slow) / 3), 1e-12);
  EXPECT_DOUBLE_EQ(region.mean_speedup(1), 1.0);
  EXPECT_EQ(region.mean_speedup(3), 0.0);
}

TEST(Analyzer, ConfigurableHistoryWeight) {
  Config config = with_baseline(1);
  config.measure_iterations = 1;
  config.history_weight = 0.0;  // keep only the newest value
  SimulatedProgram program(config, 2);
  program.analyzer.init_parallel_region(1, 1, -1);
  program.run(7);
  const double t_baseline = program.region().baseline_time;
  program.serial_iteration *= 2.0;
  program.run(1);
  EXPECT_NEAR(program.region().speedup(2), t_baseline / program.iteration_time(2), 1e-12);
}

}  // namespace
}  // namespace augur::selfanalysis
