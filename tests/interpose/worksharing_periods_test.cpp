// The period of the worksharing constructs inside one parallel region (src/interpose/worksharing_periods.*):
// scripted detector answers and injected times in, the pattern, the time steps and the iteration times out.
#include "interpose/worksharing_periods.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "augur/dpd.hpp"

namespace {

using augur::interpose::ConstructEnd;
using augur::interpose::DetectingWorksharing;
using augur::interpose::WorksharingPeriods;

TEST(WorksharingPeriods, NothingOutsideARegionNorBeforeADetection) {
  WorksharingPeriods periods;
  periods.sample(10, ConstructEnd::Barrier, 2, 0.0, true, 1);  // outside a region: ignored
  EXPECT_EQ(periods.samples(), 0);
  periods.enter_region(7);
  periods.sample(10, ConstructEnd::Barrier, 2, 1.0, false, 0);
  EXPECT_EQ(periods.samples(), 1);
  EXPECT_FALSE(periods.found());
  EXPECT_EQ(periods.iterations(), 0);
  EXPECT_EQ(periods.median_time(), -1.0);
}

TEST(WorksharingPeriods, PeriodConstructsStepsAndTimes) {
  WorksharingPeriods periods;
  periods.enter_region(7);
  // Two time steps before the detection, then the detector marks 100 as the start of a period of 3.
  double now = 0.0;
  for (int step = 0; step < 2; ++step) {
    periods.sample(100, ConstructEnd::Barrier, 2, now += 1.0, false, 0);
    periods.sample(200, ConstructEnd::LoopEnd, 2, now += 1.0, false, 0);
    periods.sample(300, ConstructEnd::Barrier, 2, now += 1.0, false, 0);
  }
  // Steps of 3, 4, 5 and 6 seconds (the first construct's time is what counts).
  const std::vector<double> step_lengths = {3.0, 4.0, 5.0, 6.0};
  double start = 10.0;
  for (const double length : step_lengths) {
    periods.sample(100, ConstructEnd::Barrier, 2, start, true, 3);
    periods.sample(200, ConstructEnd::LoopEnd, 2, start + 0.5, false, 3);
    periods.sample(300, ConstructEnd::Barrier, 2, start + 1.0, false, 3);
    start += length;
  }
  periods.sample(100, ConstructEnd::Barrier, 2, start, true, 3);
  periods.leave_region();
  ASSERT_TRUE(periods.found());
  const auto& pattern = periods.pattern();
  EXPECT_EQ(pattern.region, 7u);
  EXPECT_EQ(pattern.length, 3);
  EXPECT_EQ(pattern.team_size, 2);
  ASSERT_EQ(pattern.constructs_known, 3);
  EXPECT_EQ(pattern.constructs[0], 100u);
  EXPECT_EQ(pattern.constructs[1], 200u);
  EXPECT_EQ(pattern.constructs[2], 300u);
  EXPECT_EQ(pattern.kinds[1], ConstructEnd::LoopEnd);
  EXPECT_EQ(periods.iterations(), 7);  // 100 ran 2 + 5 times
  ASSERT_EQ(periods.measured_iterations(), 4);
  EXPECT_DOUBLE_EQ(periods.time(0), 3.0);
  EXPECT_DOUBLE_EQ(periods.time(3), 6.0);
  EXPECT_DOUBLE_EQ(periods.median_time(), 4.5);
}

TEST(WorksharingPeriods, NoIterationTimedAcrossRegionsOrBrokenSteps) {
  WorksharingPeriods periods;
  periods.enter_region(7);
  periods.sample(1, ConstructEnd::Barrier, 4, 0.0, true, 2);
  periods.sample(2, ConstructEnd::Barrier, 4, 1.0, false, 2);
  periods.leave_region();
  periods.enter_region(7);
  periods.sample(1, ConstructEnd::Barrier, 4, 50.0, true, 2);  // a new region: not timed from 0.0
  EXPECT_EQ(periods.measured_iterations(), 0);
  periods.sample(2, ConstructEnd::Barrier, 4, 51.0, false, 2);
  periods.sample(3, ConstructEnd::Barrier, 4, 52.0, false, 2);  // an extra construct: 3 samples apart
  periods.sample(1, ConstructEnd::Barrier, 4, 53.0, true, 2);
  EXPECT_EQ(periods.measured_iterations(), 0);
  periods.sample(2, ConstructEnd::Barrier, 4, 54.0, false, 2);
  periods.sample(1, ConstructEnd::Barrier, 4, 55.0, true, 2);
  ASSERT_EQ(periods.measured_iterations(), 1);
  EXPECT_DOUBLE_EQ(periods.median_time(), 2.0);
}

TEST(WorksharingPeriods, ALongerPeriodReplacesAnInnerOneAndAShorterIsIgnored) {
  WorksharingPeriods periods;
  periods.enter_region(9);
  periods.sample(1, ConstructEnd::Barrier, 2, 0.0, true, 1);
  periods.sample(1, ConstructEnd::Barrier, 2, 1.0, true, 1);
  EXPECT_EQ(periods.measured_iterations(), 1);
  periods.sample(1, ConstructEnd::Barrier, 2, 2.0, true, 2);
  periods.sample(5, ConstructEnd::LoopEndNowait, 2, 3.0, false, 2);
  EXPECT_EQ(periods.pattern().length, 2);
  EXPECT_EQ(periods.measured_iterations(), 0);  // the inner period's times are dropped
  periods.sample(1, ConstructEnd::Barrier, 2, 4.0, true, 1);  // a shorter period: ignored
  EXPECT_EQ(periods.pattern().length, 2);
  EXPECT_EQ(periods.pattern().constructs[1], 5u);
}

TEST(DetectingWorksharing, RealDetectorFindsThePeriodOfATimeLoop) {
  // Per step: two static loops (barriers), a dynamic loop (loop_end) and a single (barrier): period 4.
  DetectingWorksharing<augur::dpd::Detector> engine(augur::dpd::Detector(32));
  engine.enter_region(0x400);
  engine.sample(0x10, ConstructEnd::Barrier, 2, 0.0);  // the initial single's barrier, once
  double now = 1.0;
  for (int step = 0; step < 100; ++step) {
    engine.sample(0x20, ConstructEnd::Barrier, 2, now);
    engine.sample(0x30, ConstructEnd::Barrier, 2, now + 0.1);
    engine.sample(0x40, ConstructEnd::LoopEnd, 2, now + 0.2);
    engine.sample(0x50, ConstructEnd::Barrier, 2, now + 0.3);
    now += 1.0;
  }
  engine.leave_region();
  const WorksharingPeriods& periods = engine.periods();
  ASSERT_TRUE(periods.found());
  EXPECT_EQ(periods.pattern().length, 4);
  EXPECT_EQ(periods.pattern().region, 0x400u);
  EXPECT_EQ(periods.iterations(), 100);
  EXPECT_GT(periods.measured_iterations(), 80);
  EXPECT_NEAR(periods.median_time(), 1.0, 1e-9);
  EXPECT_EQ(periods.samples(), 401);
}

}  // namespace

namespace {

using augur::interpose::StepMark;

// What each sample is for the time steps, and the iterations counted in the region of the period only (NPB runs
// one untimed warm-up step in a parallel region of its own, through the same worksharing constructs).
TEST(WorksharingPeriods, StepMarksAndIterationsOfTheRegionOfThePeriod) {
  WorksharingPeriods periods;
  periods.enter_region(5);  // the warm-up region: one step
  EXPECT_EQ(periods.sample(100, ConstructEnd::Barrier, 2, 0.1, false, 0), StepMark::None);
  EXPECT_EQ(periods.sample(200, ConstructEnd::Barrier, 2, 0.2, false, 0), StepMark::None);
  periods.leave_region();
  periods.enter_region(7);  // the time loop
  double now = 1.0;
  EXPECT_EQ(periods.sample(100, ConstructEnd::Barrier, 2, now, true, 2), StepMark::Start);
  EXPECT_EQ(periods.sample(200, ConstructEnd::Barrier, 2, now + 0.5, false, 2), StepMark::None);
  for (int step = 0; step < 3; ++step) {
    now += 2.0;
    EXPECT_EQ(periods.sample(100, ConstructEnd::Barrier, 2, now, true, 2), StepMark::Timed);
    EXPECT_DOUBLE_EQ(periods.last_time(), 2.0);
    EXPECT_EQ(periods.sample(200, ConstructEnd::Barrier, 2, now + 0.5, false, 2), StepMark::None);
  }
  periods.leave_region();
  EXPECT_EQ(periods.iterations(), 4);  // 100 ran 5 times, once in the warm-up region
  EXPECT_EQ(periods.measured_iterations(), 3);
  // A start in another region is not a step of the period's region.
  periods.enter_region(5);
  EXPECT_EQ(periods.sample(100, ConstructEnd::Barrier, 2, 20.0, true, 2), StepMark::None);
  EXPECT_EQ(periods.iterations(), 4);
}

// NPB runs one untimed warm-up step before its time loop. CG runs it in the loop's region, followed by other
// constructs (its vector's re-initialisation); LU in an earlier entry of the same region, the entries' own
// constructs between. The steps counted are those of the loop: the leading steps that did not hold the period's
// constructs are left out; an irregular step later on (an output step every 10) is still a step.
void step(WorksharingPeriods& periods, double& now, bool start, int period) {
  periods.sample(100, ConstructEnd::Barrier, 2, now += 1.0, start, period);
  periods.sample(200, ConstructEnd::Barrier, 2, now += 1.0, false, period);
  periods.sample(300, ConstructEnd::LoopEnd, 2, now += 1.0, false, period);
}

TEST(WorksharingPeriods, AWarmUpStepBeforeTheLoopIsNotCounted) {
  // CG: the warm-up step, two constructs of re-initialisation, then 15 steps (the period found at the 6th).
  WorksharingPeriods cg;
  double now = 0.0;
  cg.enter_region(7);
  step(cg, now, false, 0);
  cg.sample(400, ConstructEnd::Barrier, 2, now += 1.0, false, 0);
  cg.sample(500, ConstructEnd::Barrier, 2, now += 1.0, false, 0);
  for (int index = 0; index < 15; ++index) step(cg, now, index >= 5, index >= 5 ? 3 : 0);
  cg.leave_region();
  ASSERT_TRUE(cg.found());
  EXPECT_EQ(cg.iterations(), 15);  // 100 ran 16 times
  // LU: an entry with the warm-up step, then an entry with the 300 steps; each entry opens with one construct.
  WorksharingPeriods lu;
  now = 0.0;
  for (const int steps : {1, 300}) {
    lu.enter_region(9);
    lu.sample(50, ConstructEnd::Barrier, 2, now += 1.0, false, 0);
    for (int index = 0; index < steps; ++index) step(lu, now, steps > 1 && index >= 10, steps > 1 && index >= 10 ? 3 : 0);
    lu.leave_region();
  }
  EXPECT_EQ(lu.iterations(), 300);
  // Every 10th step writes its output (one construct more): all 40 steps count.
  WorksharingPeriods output;
  now = 0.0;
  output.enter_region(11);
  for (int index = 0; index < 40; ++index) {
    step(output, now, index >= 12, index >= 12 ? 3 : 0);
    if (index % 10 == 9) output.sample(600, ConstructEnd::Barrier, 2, now += 1.0, false, index >= 12 ? 3 : 0);
  }
  output.leave_region();
  EXPECT_EQ(output.iterations(), 40);
}

// NPB CG: the period starts in the step's inner loop (its construct 100 runs 3 times a period), which the warm-up
// step runs too; the step's construct 400 runs in the loop only. The steps are counted by 400, the step under
// way included.
TEST(WorksharingPeriods, AConstructOnlyTheLoopRunsCountsItsSteps) {
  WorksharingPeriods cg;
  double now = 0.0;
  cg.enter_region(7);
  const auto inner = [&](bool found) {
    for (int pass = 0; pass < 3; ++pass) cg.sample(100, ConstructEnd::Barrier, 2, now += 1.0, found && pass == 0, found ? 5 : 0);
  };
  inner(false);  // the warm-up: the inner loop, then its own construct
  cg.sample(300, ConstructEnd::Barrier, 2, now += 1.0, false, 0);
  for (int index = 0; index < 15; ++index) {
    const bool found = index >= 5;
    inner(found);
    cg.sample(400, ConstructEnd::Barrier, 2, now += 1.0, false, found ? 5 : 0);
    cg.sample(500, ConstructEnd::LoopEnd, 2, now += 1.0, false, found ? 5 : 0);
    if (index == 9) {
      EXPECT_EQ(cg.iterations(), 10);
    }
  }
  // At the start of a step (its first construct ran, 400 not yet): the step under way counts.
  cg.sample(100, ConstructEnd::Barrier, 2, now += 1.0, true, 5);
  EXPECT_EQ(cg.iterations(), 16);
  cg.leave_region();
  ASSERT_TRUE(cg.found());
  EXPECT_EQ(cg.iterations(), 15);  // 100 ran 49 times, 16 periods by itself; the 16th step never reached 400
}

// A time step whose first construct is in an inner loop (NPB LU's plane sweeps built with clang): the period
// holds the construct three times, and the time steps are its count divided by three.
TEST(WorksharingPeriods, AConstructOfAnInnerLoopCountsTheStepsOnce) {
  WorksharingPeriods periods;
  periods.enter_region(7);
  double now = 1.0;
  for (int step = 0; step < 50; ++step) {
    // The detector found the period (5) at step 10, and marks the first plane's construct as its start.
    const bool found = step >= 10;
    for (int plane = 0; plane < 3; ++plane) {
      const StepMark mark = periods.sample(0x20, ConstructEnd::Barrier, 2, now + 0.1 * plane, found && plane == 0, found ? 5 : 0);
      if (plane > 0 || !found) {
        EXPECT_EQ(mark, StepMark::None);
      }
    }
    periods.sample(0x30, ConstructEnd::Barrier, 2, now + 0.5, false, found ? 5 : 0);
    periods.sample(0x40, ConstructEnd::LoopEnd, 2, now + 0.6, false, found ? 5 : 0);
    if (step == 10) {
      EXPECT_EQ(periods.iterations(), 11);  // 33 of the construct, 3 a period
    }
    now += 1.0;
  }
  periods.leave_region();
  ASSERT_TRUE(periods.found());
  EXPECT_EQ(periods.pattern().length, 5);
  EXPECT_EQ(periods.iterations(), 50);
  EXPECT_EQ(periods.measured_iterations(), 39);
  EXPECT_NEAR(periods.median_time(), 1.0, 1e-9);
}

}  // namespace
