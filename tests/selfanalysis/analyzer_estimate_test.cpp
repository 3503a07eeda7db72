// Exact tests of the self-analysis engine on the simulated program of simulated_program.hpp (see
// analyzer_test.cpp): the execution time estimates, the sweep, self-tuning, misuse, regions and the
// notifications.
#include <gtest/gtest.h>

#include <vector>

#include "augur/selfanalysis.hpp"
#include "simulated_program.hpp"

namespace augur::selfanalysis {
namespace {

using simulated::amdahl_speedup;
using simulated::SimulatedProgram;
using simulated::SimulatedClock;
using simulated::SimulatedThreads;
using simulated::with_baseline;

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
