// The logic of thesis Figure 4.11 (src/interpose/dynamic_regions.*): scripted detector answers in,
// the exact sequence of static-instrumentation calls out.
#include "dynamic_regions.hpp"

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
  // Period 2 detected at loop 1: init(1, 2, -1), open; every loop bracketed; close after 2 loops.
  EXPECT_EQ(run({{1, false, 0}, {2, false, 0}, {1, true, 2}, {2, false, 2}}),
            "init(1,2,-1) open [ ] [ ] close end");
}

TEST(DynamicRegions, SameRegionOpensNewIterations) {
  EXPECT_EQ(run({{1, true, 2}, {2, false, 2}, {1, true, 2}, {2, false, 2}, {1, true, 2}, {2, false, 2}}),
            "init(1,2,-1) open [ ] [ ] close open [ ] [ ] close open [ ] [ ] close end");
}

TEST(DynamicRegions, LongerRegionReplacesTheCurrentOne) {
  // Period 1 on loop 5, then the detector finds period 3 starting at loop 7 in the middle of an
  // iteration... here at a boundary of the period-1 region, which therefore breaks first.
  EXPECT_EQ(run({{5, true, 1}, {5, true, 1}, {7, true, 3}, {8, false, 3}, {9, false, 3}}),
            "init(5,1,-1) open [ ] close open [ ] close end init(7,3,-1) open [ ] [ ] [ ] close end");
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
            "init(1,3,-1) open [ ] [ ] [ ] close open [ ] [ ] [ ] close end");
}

TEST(DynamicRegions, BrokenPeriodEndsTheRegion) {
  // After two iterations of (1, 2) the program leaves its loop: loop 9 at the boundary ends the region;
  // later loops are not bracketed.
  EXPECT_EQ(run({{1, true, 2}, {2, false, 2}, {1, true, 2}, {2, false, 2}, {9, false, 0}, {9, false, 0}}),
            "init(1,2,-1) open [ ] [ ] close open [ ] [ ] close end");
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
  EXPECT_EQ(listener.joined(), "init(1,2,-1) open [ ] [ ] close end init(1,2,-1) open [ ] [ ] close end");
  ASSERT_EQ(regions.region_count(), 1);
  EXPECT_EQ(regions.region(0).entries, 2);
  EXPECT_EQ(regions.region(0).iterations_closed, 2);
  EXPECT_EQ(regions.breaks(), 1);
}

TEST(DynamicRegions, EarlyStartOfTheSameRegionReopens) {
  // The detector marks loop 1 as a start after one loop of a 2-loop iteration: as in the figure,
  // open_iteration again (the engine discards the partial iteration).
  EXPECT_EQ(run({{1, true, 2}, {1, true, 2}, {2, false, 2}}), "init(1,2,-1) open [ ] open [ ] [ ] close end");
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
            "init(1,2,7) open [ ] [ ] close end");
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
  EXPECT_FALSE(regions.in_iteration());
  regions.finish();
  ASSERT_EQ(regions.region_count(), 1);
  const auto& region = regions.region(0);
  EXPECT_EQ(region.ipr, 7u);
  EXPECT_EQ(region.length, 3);
  ASSERT_EQ(region.loops_known, 3);
  EXPECT_EQ(region.loops[0], 7u);
  EXPECT_EQ(region.loops[1], 8u);
  EXPECT_EQ(region.loops[2], 9u);
  EXPECT_EQ(region.iterations_closed, 2);
  EXPECT_EQ(regions.samples(), 7);
  EXPECT_EQ(regions.detections(), 2);
  EXPECT_EQ(regions.distinct_loops(), 4);
}

TEST(DynamicRegions, InIterationOnlyBetweenOpenAndClose) {
  RecordingListener listener;
  DynamicRegions regions(listener);
  regions.before_region(1, false, 0);
  EXPECT_FALSE(regions.in_iteration());
  regions.after_region();
  regions.before_region(1, true, 1);
  EXPECT_TRUE(regions.in_iteration());
  regions.after_region();
  EXPECT_FALSE(regions.in_iteration());
}

// With the real detector: a stencil-like stream (an aperiodic prefix of initialisation loops, then
// 3 loops per time step, then a final loop) gives one region of period 3, closed when the loop ends.
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
  engine.after_region();
  engine.finish();
  const DynamicRegions& regions = engine.regions();
  ASSERT_EQ(regions.region_count(), 1);
  EXPECT_EQ(regions.region(0).length, 3);
  EXPECT_GT(regions.region(0).iterations_closed, 30);
  EXPECT_EQ(listener.calls.back(), "end");
  // Every iteration has exactly three bracketed loops.
  int loops = 0;
  for (const std::string& call : listener.calls) {
    if (call == "open") loops = 0;
    if (call == "[") ++loops;
    if (call == "close") {
      EXPECT_EQ(loops, 3);
    }
  }
}

}  // namespace
