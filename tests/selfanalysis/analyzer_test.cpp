// Exact tests of the self-analysis engine on a simulated program whose iteration time is
// T(p) = T1 x (f + (1 - f) / p): with that program the self-analyzer must find f, AF(B), the
// Amdahl speedup 1 / (f + (1 - f) / p) and the execution time exactly, whatever the baseline.
#include <gtest/gtest.h>

#include <vector>

#include "augur/selfanalysis.hpp"

namespace augur::selfanalysis {
namespace {

class SimulatedClock final : public Clock {
public:
  double wall_seconds() override { return now; }
  double process_cpu_seconds() override { return cpu; }
  // Advances the time by `seconds` during which `busy` processors compute.
  void advance(double seconds, int busy) {
    now += seconds;
    cpu += seconds * busy;
  }
  double now = 0.0;
  double cpu = 0.0;
};

class SimulatedThreads final : public ThreadControl {
public:
  explicit SimulatedThreads(int processors) : allocated(processors), active(processors) {}
  int allocated_processors() override { return allocated; }
  void set_active_threads(int threads) override {
    active = threads;
    calls.push_back(threads);
  }
  bool stopped_since_last_call() override {
    const bool was = stopped;
    stopped = false;
    return was;
  }
  int allocated;
  int active;
  bool stopped = false;
  std::vector<int> calls;
};

double amdahl_speedup(double f, int p) { return 1.0 / (f + (1.0 - f) / p); }

// An iterative program: per iteration two parallel loops and a sequential part in between.
struct SimulatedProgram {
  double serial_iteration = 0.010;  // T1, seconds
  double f = 0.1;
  SimulatedClock clock;
  SimulatedThreads threads;
  Analyzer analyzer;

  SimulatedProgram(Config config, int processors, int max_processors = 8)
      : threads(processors), analyzer(std::move(config), clock, threads, max_processors) {}

  [[nodiscard]] double iteration_time(int p) const { return serial_iteration * (f + (1.0 - f) / p); }

  void iteration() {
    ASSERT_EQ(analyzer.open_iteration(), Misuse::None);
    const int p = threads.active;
    const double parallel = serial_iteration * (1.0 - f) / p;
    const double sequential = serial_iteration * f;
    ASSERT_EQ(analyzer.init_par(), Misuse::None);
    clock.advance(parallel / 2, p);
    ASSERT_EQ(analyzer.end_par(), Misuse::None);
    clock.advance(sequential, 1);
    ASSERT_EQ(analyzer.init_par(), Misuse::None);
    clock.advance(parallel / 2, p);
    ASSERT_EQ(analyzer.end_par(), Misuse::None);
    ASSERT_EQ(analyzer.close_iteration(), Misuse::None);
  }

  void run(int iterations) {
    for (int i = 0; i < iterations; ++i) iteration();
  }

  [[nodiscard]] const Region& region() const { return *analyzer.current(); }
};

Config with_baseline(int processors) {
  Config config;
  config.baseline = {BaselinePolicy::Kind::Fixed, processors};
  return config;
}

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

TEST(Analyzer, EstimatesTheExecutionTimeExactly) {
  Config config = with_baseline(1);
  config.baseline_every = 0;  // every iteration after the estimate on 4 processors
  SimulatedProgram program(config, 4);
  program.analyzer.init_parallel_region(1, 2, 50);
  const double start = program.clock.now;
  program.run(50);
  program.analyzer.end_parallel_region();
  const Region& region = program.region();
  ASSERT_GE(region.first_estimate, 0.0);
  EXPECT_EQ(region.first_estimate_processors, 4);
  EXPECT_EQ(region.first_estimate_iteration, 9);  // warm-up, 1 after the change, 3 baseline, 1 after the change, 3 measured
  EXPECT_NEAR(region.elapsed, program.clock.now - start, 1e-12);
  // Every iteration after the estimate ran at T(4): the estimate is the elapsed time.
  EXPECT_NEAR(region.first_estimate, region.elapsed, 1e-9);
  // At the end nothing remains: ExTime = ConsumedTime.
  EXPECT_NEAR(program.analyzer.estimated_time(region, 4, program.clock.now), region.elapsed, 1e-12);
}

TEST(Analyzer, EstimateFollowsFigure48MidRun) {
  SimulatedProgram program(with_baseline(1), 4);
  program.analyzer.init_parallel_region(1, 2, 100);
  const double start = program.clock.now;
  program.run(20);
  const Region& region = program.region();
  const double consumed = program.clock.now - start;
  // Figure 4.8, with the share of the remaining iterations that re-measure the baseline (3 of every 20 + 3) on B.
  const double share = 3.0 / 23.0;
  const double on_p = region.amdahl_factor() * region.baseline_time / region.speedup(4);
  const double expected = consumed + ((1.0 - share) * on_p + share * region.baseline_time) * 80;
  EXPECT_NEAR(program.analyzer.estimated_time(region, 4, program.clock.now), expected, 1e-12);
  EXPECT_NEAR(program.analyzer.estimated_time(region, 1, program.clock.now), consumed + 80 * program.iteration_time(1), 1e-12);
  EXPECT_LT(program.analyzer.estimated_time(region, 2, program.clock.now), 0.0) << "S(2) unknown";
}

TEST(Analyzer, NoEstimateWithoutTheIterationCount) {
  SimulatedProgram program(with_baseline(1), 2);
  program.analyzer.init_parallel_region(1, 1, -1);
  program.run(20);
  EXPECT_LT(program.analyzer.estimated_time(program.region(), 2, program.clock.now), 0.0);
  EXPECT_LT(program.region().first_estimate, 0.0);
}

TEST(Analyzer, SweepMeasuresEveryProcessorCountInOneRun) {
  Config config = with_baseline(1);
  config.sweep = {1, 2, 3, 4};
  config.sweep_every = 4;
  SimulatedProgram program(config, 4);
  program.analyzer.init_parallel_region(1, 1, -1);
  program.run(4 + 4 * 4 + 5);
  const Region& region = program.region();
  EXPECT_TRUE(region.swept);
  for (int p = 1; p <= 4; ++p) {
    ASSERT_EQ(region.stats(p)->state, SpeedupState::Calculated) << "p = " << p;
    EXPECT_NEAR(region.speedup(p), amdahl_speedup(0.1, p), 1e-12) << "p = " << p;
  }
  EXPECT_EQ(program.threads.active, 4) << "after the sweep the program gets its allocation back";
}

TEST(Analyzer, SelfTuningIsBusyCpuOverWallTime) {
  Config config = with_baseline(1);
  config.self_tuning_interval = 0.0;
  SimulatedProgram program(config, 4);
  program.analyzer.init_parallel_region(1, 1, -1);
  program.run(20);
  const double f = 0.1;
  // One processor is busy during the sequential part and p during the parallel loops:
  // ST'(p) = (f + (1 - f)) / (f + (1 - f) / p), which is the Amdahl speedup here.
  EXPECT_NEAR(program.region().stats(4)->self_tuning_speedup(), amdahl_speedup(f, 4), 1e-12);
  EXPECT_NEAR(program.region().stats(1)->self_tuning_speedup(), 1.0, 1e-12);
}

TEST(Analyzer, SelfTuningSeesIdleProcessors) {
  Config config = with_baseline(1);
  config.self_tuning_interval = 0.0;
  SimulatedClock clock;
  SimulatedThreads threads(4);
  Analyzer analyzer(config, clock, threads, 4);
  analyzer.init_parallel_region(1, 1, -1);
  for (int i = 0; i < 12; ++i) {
    analyzer.open_iteration();
    analyzer.init_par();
    // Load imbalance: only half of the active threads work.
    clock.advance(0.01, std::max(1, threads.active / 2));
    analyzer.end_par();
    analyzer.close_iteration();
  }
  EXPECT_NEAR(analyzer.current()->stats(4)->self_tuning_speedup(), 2.0, 1e-12);
}

TEST(Analyzer, UnmarkedParallelLoopsLeaveFUnknown) {
  SimulatedClock clock;
  SimulatedThreads threads(4);
  Analyzer analyzer(with_baseline(4), clock, threads, 4);
  analyzer.init_parallel_region(1, 1, -1);
  for (int i = 0; i < 10; ++i) {
    analyzer.open_iteration();
    clock.advance(0.01, threads.active);
    analyzer.close_iteration();
  }
  EXPECT_LT(analyzer.current()->sequential_fraction(), 0.0);
  EXPECT_DOUBLE_EQ(analyzer.current()->amdahl_factor(), 4.0);  // f taken as 0
}

TEST(Analyzer, ReportsMisuse) {
  SimulatedClock clock;
  SimulatedThreads threads(2);
  Analyzer analyzer(Config{}, clock, threads, 2);
  EXPECT_EQ(analyzer.open_iteration(), Misuse::NoRegion);
  EXPECT_EQ(analyzer.end_parallel_region(), Misuse::NoRegion);
  analyzer.init_parallel_region(1, 1, 10);
  EXPECT_EQ(analyzer.close_iteration(), Misuse::IterationNotOpen);
  EXPECT_EQ(analyzer.init_par(), Misuse::IterationNotOpen);
  EXPECT_EQ(analyzer.open_iteration(), Misuse::None);
  EXPECT_EQ(analyzer.end_par(), Misuse::ParNotOpen);
  EXPECT_EQ(analyzer.init_par(), Misuse::None);
  EXPECT_EQ(analyzer.init_par(), Misuse::ParAlreadyOpen);
  EXPECT_EQ(analyzer.open_iteration(), Misuse::IterationAlreadyOpen);
  EXPECT_EQ(analyzer.current()->iterations_discarded, 1);
  EXPECT_EQ(analyzer.end_parallel_region(), Misuse::None);
  EXPECT_EQ(analyzer.open_iteration(), Misuse::NoRegion);
}

TEST(Analyzer, TimingOnlyCountsIterationsAndLeavesTheThreadsAlone) {
  Config config = with_baseline(1);
  config.analyze = false;
  SimulatedProgram program(config, 4);
  program.analyzer.init_parallel_region(1, 2, 20);
  const double start = program.clock.now;
  program.run(20);
  EXPECT_EQ(program.analyzer.end_parallel_region(), Misuse::None);
  const Region& region = program.region();
  EXPECT_EQ(region.iterations_closed, 20);
  EXPECT_EQ(region.iterations_discarded, 0);
  EXPECT_NEAR(region.elapsed, program.clock.now - start, 1e-12);
  EXPECT_TRUE(program.threads.calls.empty());
  EXPECT_FALSE(region.baseline_done);
  EXPECT_EQ(region.stats(4)->state, SpeedupState::NotCalculated);
}

TEST(Analyzer, RegionsAreIdentifiedByIprAndLength) {
  SimulatedProgram program(with_baseline(1), 2);
  program.analyzer.init_parallel_region(1, 2, -1);
  program.run(3);
  program.analyzer.end_parallel_region();
  program.analyzer.init_parallel_region(1, 3, -1);  // same ipr, other length: another region
  program.run(2);
  program.analyzer.end_parallel_region();
  program.analyzer.init_parallel_region(1, 2, -1);  // resumes the first
  program.run(2);
  ASSERT_EQ(program.analyzer.regions().size(), 2u);
  EXPECT_EQ(program.analyzer.regions()[0].iterations_closed, 5);
  EXPECT_EQ(program.analyzer.regions()[1].iterations_closed, 2);
}

TEST(Analyzer, ARegionEnteredManyTimesKeepsItsMeasurements) {
  // A nested iterative region (the thesis' hydro2d): entered 20 times, 4 iterations each.
  SimulatedProgram program(with_baseline(1), 4);
  for (int entry = 0; entry < 20; ++entry) {
    program.analyzer.init_parallel_region(3, 2, 4);
    program.run(4);
    program.analyzer.end_parallel_region();
  }
  const Region& region = program.region();
  EXPECT_EQ(region.entries, 20);
  EXPECT_EQ(region.iterations_closed, 80);
  EXPECT_EQ(region.iterations_discarded, 3) << "warm-up and the two changes of processors only";
  ASSERT_EQ(region.stats(4)->state, SpeedupState::Calculated);
  EXPECT_NEAR(region.speedup(4), amdahl_speedup(0.1, 4), 1e-12);
}

TEST(Analyzer, StartingTheRunningRegionAgainChangesNothing) {
  SimulatedProgram program(with_baseline(1), 2);
  for (int i = 0; i < 12; ++i) {
    program.analyzer.init_parallel_region(1, 1, 12);  // called at every iteration
    program.iteration();
  }
  EXPECT_EQ(program.region().entries, 1);
  EXPECT_EQ(program.region().iterations_discarded, 3);
  EXPECT_EQ(program.region().stats(2)->state, SpeedupState::Calculated);
}

TEST(Analyzer, EstimatesTheTimeOfTheCurrentEntry) {
  Config config = with_baseline(1);
  config.baseline_every = 0;  // Figure 4.8 as it stands: every remaining iteration on P
  SimulatedProgram program(config, 4);
  program.analyzer.init_parallel_region(1, 1, 30);
  program.run(30);
  program.analyzer.end_parallel_region();
  program.clock.advance(1.0, 1);  // other code
  program.analyzer.init_parallel_region(1, 1, 10);
  const double entered = program.clock.now;
  program.run(4);
  const Region& region = program.region();
  EXPECT_EQ(region.entry_iterations_closed, 4);
  EXPECT_NEAR(program.analyzer.estimated_time(region, 4, program.clock.now),
              (program.clock.now - entered) + 6 * program.iteration_time(4), 1e-12);
}

TEST(Analyzer, SelfTuningSamplesStayInTheirRegion) {
  Config config = with_baseline(1);
  config.warmup_iterations = 0;
  config.self_tuning_interval = 1.0;  // long samples: they would span both regions
  SimulatedProgram program(config, 4);
  for (int round = 0; round < 40; ++round) {
    program.f = 0.1;
    program.analyzer.init_parallel_region(1, 1, -1);  // no end_parallel_region between regions
    program.run(3);
    program.f = 0.5;
    program.analyzer.init_parallel_region(2, 1, -1);
    program.run(3);
  }
  // Each sample closes within one visit of a region, or is dropped.
  for (const Region& region : program.analyzer.regions()) {
    EXPECT_EQ(region.stats(4)->self_tuning_wall, 0.0) << "region " << region.ipr;
  }
}

TEST(Analyzer, NotifiesEachNewSpeedup) {
  struct Seen {
    std::vector<int> processors;
    std::vector<double> speedups;
  } seen;
  SimulatedProgram program(with_baseline(1), 2);
  program.analyzer.set_listener(
      [](const SpeedupEvent& event, void* data) {
        auto* record = static_cast<Seen*>(data);
        record->processors.push_back(event.processors);
        record->speedups.push_back(event.speedup);
      },
      &seen);
  program.analyzer.init_parallel_region(1, 1, 40);
  program.run(12);  // warm-up, 1 discarded, 3 baseline, 1 discarded, 2 windows of 3
  EXPECT_EQ(seen.processors, (std::vector<int>{1, 2, 2}));
  EXPECT_DOUBLE_EQ(seen.speedups[0], 1.0);
}

TEST(Analyzer, GrowsItsTablesWhenTheAllocationExceedsThem) {
  SimulatedProgram program(with_baseline(1), 4, /*max_processors=*/2);
  program.analyzer.init_parallel_region(1, 1, -1);
  program.run(12);
  ASSERT_NE(program.region().stats(4), nullptr);
  EXPECT_NEAR(program.region().speedup(4), amdahl_speedup(0.1, 4), 1e-12);
}

}  // namespace
}  // namespace augur::selfanalysis
