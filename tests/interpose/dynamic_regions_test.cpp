// The logic of thesis Figure 4.11 (src/interpose/dynamic_regions.*): scripted detector answers in,
// the exact sequence of static-instrumentation calls out.
#include "interpose/dynamic_regions.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "augur/dpd.hpp"

namespace {

using augur::interpose::DetectingRegions;
using augur::interpose::DynamicRegions;

class RecordingListener final : public augur::interpose::RegionListener {
public:
  void init_parallel_region(std::uint64_t ipr, int length, long iterations) override {
    calls.push_back("init(" + std::to_string(ipr) + "," + std::to_string(length) + "," + std::to_string(iterations) + ")");
  }
  void open_iteration() override { calls.emplace_back("open"); }
  void init_par() override { calls.emplace_back("["); }
  void end_par() override { calls.emplace_back("]"); }
  void close_iteration() override { calls.emplace_back("close"); }
  void end_parallel_region() override { calls.emplace_back("end"); }
  std::string joined() const {
    std::string out;
    for (const std::string& call : calls) out += (out.empty() ? "" : " ") + call;
    return out;
  }
  std::vector<std::string> calls;
};

// One scripted sample: the loop's address and the detector's answer.
struct Sample {
  std::uint64_t loop;
  bool start;
  int period;
};

std::string run(const std::vector<Sample>& samples, long expected = -1, bool finish = true) {
  RecordingListener listener;
  DynamicRegions regions(listener, expected);
  for (const Sample& sample : samples) {
    regions.before_region(sample.loop, sample.start, sample.period);
    regions.after_region();
  }
  if (finish) regions.finish();
  return listener.joined();
}

TEST(DynamicRegions, NothingBeforeTheFirstDetection) {
  EXPECT_EQ(run({{1, false, 0}, {2, false, 0}, {1, false, 0}}), "");
}

TEST(DynamicRegions, FirstDetectionInitialisesAndOpens) {
  // Period 2 detected at loop 1: init(1, 2, -1), open; every loop bracketed. The iteration stays open
  // after its 2 loops (the sequential code after them belongs to it) and nothing starts it again:
  // finish() ends the region, which discards it.
  EXPECT_EQ(run({{1, false, 0}, {2, false, 0}, {1, true, 2}, {2, false, 2}}),
            "init(1,2,-1) open [ ] [ ] end");
}

TEST(DynamicRegions, SameRegionOpensNewIterations) {
  // Each iteration closes at the next start of the region, just before the next one opens.
  EXPECT_EQ(run({{1, true, 2}, {2, false, 2}, {1, true, 2}, {2, false, 2}, {1, true, 2}, {2, false, 2}}),
            "init(1,2,-1) open [ ] [ ] close open [ ] [ ] close open [ ] [ ] end");
}

TEST(DynamicRegions, LongerRegionReplacesTheCurrentOne) {
  // Period 1 on loop 5, then the detector finds period 3 starting at loop 7 in the middle of an
  // iteration... here at a boundary of the period-1 region, which therefore breaks first (its last
  // iteration discarded by end).
  EXPECT_EQ(run({{5, true, 1}, {5, true, 1}, {7, true, 3}, {8, false, 3}, {9, false, 3}}),
            "init(5,1,-1) open [ ] close open [ ] end init(7,3,-1) open [ ] [ ] [ ] end");
}

TEST(DynamicRegions, LongerRegionReplacesInsideAnIteration) {
  // Inside an open iteration of (1, 3) the detector reports (2, 6): the open iteration is left to the
  // engine's end_parallel_region (it discards it) and the longer region starts at once.
  EXPECT_EQ(run({{1, true, 3}, {2, false, 3}, {3, true, 6}, {4, false, 6}}),
            "init(1,3,-1) open [ ] [ ] end init(3,6,-1) open [ ] [ ] end");
}

TEST(DynamicRegions, ShorterPeriodInsideTheRegionIsIgnored) {
  // An inner period (length 1 < 3) reported mid-iteration changes nothing.
  EXPECT_EQ(run({{1, true, 3}, {2, true, 1}, {2, true, 1}, {1, true, 3}, {2, false, 3}, {3, false, 3}}),
            "init(1,3,-1) open [ ] [ ] [ ] close open [ ] [ ] [ ] end");
}

TEST(DynamicRegions, BrokenPeriodEndsTheRegion) {
  // After two iterations of (1, 2) the program leaves its loop: loop 9 at the boundary ends the region
  // before it runs; later loops are not bracketed. The last iteration is not closed: its time would
  // include the code after the time loop; end discards it.
  EXPECT_EQ(run({{1, true, 2}, {2, false, 2}, {1, true, 2}, {2, false, 2}, {9, false, 0}, {9, false, 0}}),
            "init(1,2,-1) open [ ] [ ] close open [ ] [ ] end");
}

TEST(DynamicRegions, BoundaryWithoutTheDetectorsStartEndsTheRegion) {
  // Loop 1 comes back at the boundary but the detector lost the period: the region ends (it is not
  // reopened on the address alone), and starts again (a new entry) at the next detection.
  RecordingListener listener;
  DynamicRegions regions(listener);
  const std::vector<Sample> samples = {{1, true, 2}, {2, false, 2}, {1, false, 0}, {2, false, 0}, {1, true, 2}, {2, false, 2}};
  for (const Sample& sample : samples) {
    regions.before_region(sample.loop, sample.start, sample.period);
    regions.after_region();
  }
  regions.finish();
  EXPECT_EQ(listener.joined(), "init(1,2,-1) open [ ] [ ] end init(1,2,-1) open [ ] [ ] end");
  ASSERT_EQ(regions.region_count(), 1);
  EXPECT_EQ(regions.region(0).entries, 2);
  EXPECT_EQ(regions.region(0).iterations_completed, 2);  // both ran their loops
  EXPECT_EQ(regions.region(0).iterations_closed, 0);     // each was the last of its entry: discarded
  EXPECT_EQ(regions.breaks(), 1);
}

TEST(DynamicRegions, EarlyStartOfTheSameRegionReopens) {
  // The detector marks loop 1 as a start after one loop of a 2-loop iteration: as in the figure,
  // open_iteration again, without close (the engine discards the partial iteration).
  EXPECT_EQ(run({{1, true, 2}, {1, true, 2}, {2, false, 2}}), "init(1,2,-1) open [ ] open [ ] [ ] end");
  // The same after complete iterations: the complete one closes at the next start, the partial one
  // is discarded by the open that follows it.
  EXPECT_EQ(run({{1, true, 2}, {2, false, 2}, {1, true, 2}, {1, true, 2}, {2, false, 2}, {1, true, 2}, {2, false, 2}}),
            "init(1,2,-1) open [ ] [ ] close open [ ] open [ ] [ ] close open [ ] [ ] end");
}

TEST(DynamicRegions, FinishClosesAnOpenLoopAndRegion) {
  RecordingListener listener;
  DynamicRegions regions(listener);
  regions.before_region(1, true, 2);  // the program exits inside the parallel region (exit() in it)
  regions.finish();
  EXPECT_EQ(listener.joined(), "init(1,2,-1) open [ ] end");
  regions.finish();  // twice: nothing more
  EXPECT_EQ(listener.joined(), "init(1,2,-1) open [ ] end");
}

TEST(DynamicRegions, IterationsToRunSubtractTheOnesBeforeDetection) {
  // 10 iterations expected; loop 1 ran 3 times before the detection: 7 remain.
  EXPECT_EQ(run({{1, false, 0}, {2, false, 0}, {1, false, 0}, {2, false, 0}, {1, false, 0}, {2, false, 0}, {1, true, 2}, {2, false, 2}}, 10),
            "init(1,2,7) open [ ] [ ] end");
}

TEST(DynamicRegions, RecordsTheLoopsOfTheFirstIteration) {
  RecordingListener listener;
  DynamicRegions regions(listener);
  const std::vector<Sample> samples = {{4, false, 0}, {7, true, 3}, {8, false, 3}, {9, false, 3}, {7, true, 3}, {8, false, 3}, {9, false, 3}};
  for (const Sample& sample : samples) {
    regions.before_region(sample.loop, sample.start, sample.period);
    regions.after_region();
  }
  EXPECT_TRUE(regions.in_region());
  EXPECT_TRUE(regions.in_iteration());  // the second iteration is open until the next start or the end
  EXPECT_TRUE(regions.iteration_complete());
  regions.finish();
  ASSERT_EQ(regions.region_count(), 1);
  const auto& region = regions.region(0);
  EXPECT_EQ(region.ipr, 7u);
  EXPECT_EQ(region.length, 3);
  ASSERT_EQ(region.loops_known, 3);
  EXPECT_EQ(region.loops[0], 7u);
  EXPECT_EQ(region.loops[1], 8u);
  EXPECT_EQ(region.loops[2], 9u);
  EXPECT_EQ(region.iterations_opened, 2);
  EXPECT_EQ(region.iterations_completed, 2);
  EXPECT_EQ(region.iterations_closed, 1);  // the second was still open at finish(): discarded
  EXPECT_EQ(regions.samples(), 7);
  EXPECT_EQ(regions.detections(), 2);
  EXPECT_EQ(regions.distinct_loops(), 4);
}

TEST(DynamicRegions, InIterationFromOpenToTheNextStartOrTheBreak) {
  // The preload and the OMPT tool read in_iteration() right after before_region, to start the region
  // on the engine's thread count (the baseline's B) or on the program's.
  RecordingListener listener;
  DynamicRegions regions(listener);
  regions.before_region(1, false, 0);
  EXPECT_FALSE(regions.in_iteration());  // before the detection: the program's count
  regions.after_region();
  regions.before_region(1, true, 1);
  EXPECT_TRUE(regions.in_iteration());
  EXPECT_FALSE(regions.iteration_complete());
  regions.after_region();
  EXPECT_TRUE(regions.in_iteration());  // the sequential code after the last loop is in the iteration
  EXPECT_TRUE(regions.iteration_complete());
  regions.before_region(1, true, 1);    // the next start: close, open
  EXPECT_TRUE(regions.in_iteration());
  EXPECT_FALSE(regions.iteration_complete());
  regions.after_region();
  regions.before_region(2, false, 0);   // the break: the region ends before loop 2 runs, which runs on
  EXPECT_FALSE(regions.in_iteration()); // the program's count
  EXPECT_FALSE(regions.in_region());
  regions.after_region();
  EXPECT_EQ(listener.joined(), "init(1,1,-1) open [ ] close open [ ] end");
}

// An engine on a scripted clock: what the self-analysis engine would measure of each iteration.
class TimingListener final : public augur::interpose::RegionListener {
public:
  double now = 0.0;
  void init_parallel_region(std::uint64_t, int, long) override {}
  void open_iteration() override {
    opened_at = now;
    parallel = 0.0;
  }
  void init_par() override { par_at = now; }
  void end_par() override { parallel += now - par_at; }
  void close_iteration() override {
    durations.push_back(now - opened_at);
    sequential.push_back(now - opened_at - parallel);
  }
  void end_parallel_region() override { ++ends; }
  double opened_at = 0.0;
  double par_at = 0.0;
  double parallel = 0.0;
  std::vector<double> durations;
  std::vector<double> sequential;
  int ends = 0;
};

TEST(DynamicRegions, SequentialGapAfterTheLastLoopIsInsideTheIteration) {
  // A swim-like time step: loop 1 (2 units), sequential code (1), loops 2 and 3 (2 each), then the
  // sequential code after the last loop (5: swim's periodic copies and diagnose) before the next step
  // starts loop 1 again. Every closed iteration must span the whole step, 12 units, 6 of them
  // sequential, as the static instrumentation measures it; closing after loop 3 gave 7 and 1.
  TimingListener listener;
  DynamicRegions regions(listener);
  const int steps = 6;
  for (int step = 0; step < steps; ++step) {
    regions.before_region(1, true, 3);
    listener.now += 2.0;
    regions.after_region();
    listener.now += 1.0;
    regions.before_region(2, false, 3);
    listener.now += 2.0;
    regions.after_region();
    regions.before_region(3, false, 3);
    listener.now += 2.0;
    regions.after_region();
    EXPECT_TRUE(regions.in_iteration()) << "step " << step;  // the gap is measured
    listener.now += 5.0;
  }
  listener.now += 100.0;  // after the time loop: post-processing, output
  regions.finish();
  // Each iteration closes at the next start; the last one, open during the post-processing, is
  // discarded by the region's end rather than closed with 105 units in it.
  ASSERT_EQ(listener.durations.size(), static_cast<std::size_t>(steps - 1));
  for (std::size_t index = 0; index < listener.durations.size(); ++index) {
    EXPECT_DOUBLE_EQ(listener.durations[index], 12.0) << "iteration " << index;
    EXPECT_DOUBLE_EQ(listener.sequential[index], 6.0) << "iteration " << index;
  }
  EXPECT_EQ(listener.ends, 1);
  EXPECT_EQ(regions.region(0).iterations_completed, steps);
  EXPECT_EQ(regions.region(0).iterations_closed, steps - 1);
}

// An engine that, like the self-analysis engine, chooses the thread count at each open_iteration:
// one warm-up iteration on the allocation P, then baseline iterations on B, then P.
class ThreadsListener final : public augur::interpose::RegionListener {
public:
  ThreadsListener(int allocation, int baseline, int baseline_iterations)
      : allocation_(allocation), baseline_(baseline), baseline_iterations_(baseline_iterations) {}
  void init_parallel_region(std::uint64_t, int, long) override {}
  void open_iteration() override {
    ++opened;
    active = opened >= 2 && opened <= 1 + baseline_iterations_ ? baseline_ : allocation_;
  }
  void init_par() override { loops.push_back({opened, active}); }
  void end_par() override {}
  void close_iteration() override {}
  void end_parallel_region() override { active = allocation_; }
  int opened = 0;
  int active = 0;
  struct Loop {
    int iteration;
    int threads;  // the count the engine had chosen when the loop started
  };
  std::vector<Loop> loops;

private:
  int allocation_;
  int baseline_;
  int baseline_iterations_;
};

TEST(DynamicRegions, EveryLoopRunsOnTheCountChosenForItsOwnIteration) {
  // The preload passes, for each region, the engine's count while in_iteration() and the program's
  // otherwise (gomp_wrappers.cpp; the OMPT tool likewise through the ICV). The iteration that ends
  // with a sequential gap is closed, and the next opened (the engine choosing its count), before the
  // next first loop starts: so each loop runs on the count of its own iteration, the first loop of
  // the first iteration after the baseline on P, and the loop after the break on P.
  const int allocation = 2;
  ThreadsListener listener(allocation, 1, 3);
  DynamicRegions regions(listener);
  std::vector<int> passed;  // the count each region was started on
  const auto region = [&](std::uint64_t loop, bool start, int period) {
    regions.before_region(loop, start, period);
    passed.push_back(regions.in_iteration() ? listener.active : allocation);
    regions.after_region();
  };
  region(1, false, 0);
  region(2, false, 0);
  for (int step = 0; step < 7; ++step) {
    region(1, true, 2);
    region(2, false, 2);
  }
  region(9, false, 0);  // after the time loop
  regions.finish();
  // 2 loops before the detection, 7 iterations of 2 loops, 1 after.
  ASSERT_EQ(passed.size(), 17u);
  const std::vector<int> expected = {2, 2,  2, 2,  1, 1,  1, 1,  1, 1,  2, 2,  2, 2,  2, 2,  2};
  EXPECT_EQ(passed, expected);
  ASSERT_EQ(listener.loops.size(), 14u);
  for (std::size_t index = 0; index < listener.loops.size(); ++index) {
    EXPECT_EQ(listener.loops[index].iteration, static_cast<int>(index / 2) + 1) << "loop " << index;
  }
}

// With the real detector: a stencil-like stream (an aperiodic prefix of initialisation loops, then
// 3 loops per time step, then a final loop) gives one region of period 3, ended when the loop ends.
TEST(DetectingRegions, RealDetectorOnAStencilStream) {
  RecordingListener listener;
  DetectingRegions<augur::dpd::Detector> engine(listener, augur::dpd::Detector(16));
  const std::uint64_t prefix[] = {100, 101, 102, 103};
  for (std::uint64_t loop : prefix) {
    engine.before_region(loop);
    engine.after_region();
  }
  for (int step = 0; step < 40; ++step) {
    for (std::uint64_t loop : {10u, 20u, 30u}) {
      engine.before_region(loop);
      engine.after_region();
    }
  }
  engine.before_region(200);
  // Loop 200 broke the period: the region ended before it ran, so it is not bracketed.
  EXPECT_FALSE(engine.regions().in_region());
  EXPECT_EQ(engine.regions().breaks(), 1);
  const std::size_t calls_before_200 = listener.calls.size();
  engine.after_region();
  EXPECT_EQ(listener.calls.size(), calls_before_200);  // no "]" for loop 200
  engine.finish();
  const DynamicRegions& regions = engine.regions();
  ASSERT_EQ(regions.region_count(), 1);
  EXPECT_EQ(regions.region(0).length, 3);
  EXPECT_GT(regions.region(0).iterations_closed, 30);
  // The last iteration, open when loop 200 broke the period, is discarded by the region's end.
  EXPECT_EQ(regions.region(0).iterations_closed, regions.region(0).iterations_completed - 1);
  EXPECT_EQ(listener.calls.back(), "end");
  // Every closed iteration has exactly three bracketed loops, and closes just before the next opens
  // (at the next start, its first loop not yet started).
  int loops = 0;
  for (std::size_t index = 0; index < listener.calls.size(); ++index) {
    const std::string& call = listener.calls[index];
    if (call == "open") loops = 0;
    if (call == "[") ++loops;
    if (call == "close") {
      EXPECT_EQ(loops, 3);
      ASSERT_LT(index + 1, listener.calls.size());
      EXPECT_EQ(listener.calls[index + 1], "open");
    }
  }
}

}  // namespace
