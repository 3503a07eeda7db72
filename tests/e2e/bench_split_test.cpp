// The split of the first time estimate's error (bench/outer_region_split.hpp) on a crafted report and timeline:
// 12 steps of known lengths, two barrier slices a step (the period says 3), an estimate made when 8 were done,
// with and without the baseline windows' slices; the three terms add up to the error.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <optional>
#include <vector>

#include "outer_region_split.hpp"

namespace {

using augur::bench::estimate_split;
using augur::bench::EstimateSplit;
using nlohmann::json;

// Step k (1-based) is done at boundaries[k - 1] µs after the region's start (0): step 2 is the long stop
// (490 µs, the tool's work at the detection), steps 4, 7 and 10 are windows' steps (200-300 µs).
const std::vector<double> boundaries{100, 590, 690, 890, 990, 1090, 1390, 1490, 1590, 1790, 1890, 1990};

json slice(const char* name, double start, double duration, int thread) {
  return {{"name", name}, {"ph", "X"}, {"ts", start}, {"dur", duration}, {"pid", 1}, {"tid", thread}};
}

// The region (2000 µs) and each step's two barrier slices on the master (thread 2) and on thread 3; with
// `windows`, baseline slices on the tool's timeline (thread 1) at 700, 1100 and 1600 µs.
json timeline(bool windows) {
  json events = json::array();
  events.push_back(slice("parallel region 0x10", 0, 2000, 2));
  for (const double done : boundaries) {
    events.push_back(slice("barrier", done - 50, 10, 2));
    events.push_back(slice("barrier", done - 10, 10, 2));
    events.push_back(slice("barrier", done - 45, 5, 3));
    events.push_back(slice("barrier", done - 8, 6, 3));
  }
  if (windows)
    for (const double start : {700.0, 1100.0, 1600.0}) events.push_back(slice("baseline", start, 60, 1));
  events.push_back(slice("allocated", 600, 90, 1));
  return {{"traceEvents", events}};
}

// The estimate 1850 µs made at 8 of 12 steps; the region ran 2000 µs.
json report(long at = 8, double estimate = 0.00185) {
  return {{"regions",
           {{{"kind", "outer"}, {"id", 16}, {"length", 3}, {"expected_iterations", 12}, {"estimated_at_iteration", at},
             {"estimated_time_s", estimate}, {"elapsed_s", 0.002}}}}};
}

TEST(BenchSplit, TheStepsBeforeTheMarkOverWholeStretchesBetweenWindows) {
  // pace (1850 - 1490) / 4 = 90, later (1990 - 1490) / 4 = 125, tail 2000 - 1990 = 10; the windows at 700 and
  // 1100 hold steps 4-6 between them: (1100 - 700) / 3 µs a step.
  const std::optional<EstimateSplit> split = estimate_split(report(), timeline(true));
  ASSERT_TRUE(split.has_value());
  const double early = 400.0 / 3.0;
  EXPECT_NEAR(split->error, -0.075, 1e-12);
  EXPECT_NEAR(split->selection, 4.0 * (90.0 - early) / 2000.0, 1e-12);
  EXPECT_NEAR(split->drift, 4.0 * (early - 125.0) / 2000.0, 1e-12);
  EXPECT_NEAR(split->tail, -10.0 / 2000.0, 1e-12);
  EXPECT_NEAR(split->selection + split->drift + split->tail, split->error, 1e-12);
  EXPECT_EQ(split->stretches, 1);
}

TEST(BenchSplit, WithoutWindowsEveryStepSinceTheStop) {
  // The longest step before the mark is step 2: the six steps 3-8 took 1490 - 590 µs.
  const std::optional<EstimateSplit> split = estimate_split(report(), timeline(false));
  ASSERT_TRUE(split.has_value());
  EXPECT_NEAR(split->selection, 4.0 * (90.0 - 150.0) / 2000.0, 1e-12);
  EXPECT_NEAR(split->drift, 4.0 * (150.0 - 125.0) / 2000.0, 1e-12);
  EXPECT_NEAR(split->tail, -0.005, 1e-12);
  EXPECT_NEAR(split->selection + split->drift + split->tail, split->error, 1e-12);
  EXPECT_EQ(split->stretches, 0);
}

TEST(BenchSplit, AnEarlierEntrysSliceBeforeTheStepsShiftsNothing) {
  json trace = timeline(true);
  trace["traceEvents"].push_back(slice("barrier", 2, 3, 2));  // 25 slices for 12 steps: still 2 a step
  const std::optional<EstimateSplit> split = estimate_split(report(), trace);
  ASSERT_TRUE(split.has_value());
  EXPECT_NEAR(split->selection, 4.0 * (90.0 - 400.0 / 3.0) / 2000.0, 1e-12);
  EXPECT_NEAR(split->tail, -0.005, 1e-12);
}

TEST(BenchSplit, NoSplitWithoutWhatItNeeds) {
  EXPECT_FALSE(estimate_split(report(12), timeline(true)).has_value());  // made at the last step
  EXPECT_FALSE(estimate_split(report(1), timeline(true)).has_value());   // at the first step
  EXPECT_FALSE(estimate_split(report(2), timeline(true)).has_value());   // at the stop (step 2, the longest)
  EXPECT_FALSE(estimate_split(json::object(), timeline(true)).has_value());
  EXPECT_FALSE(estimate_split(report(), json::object()).has_value());
  json no_master = timeline(true);
  no_master["traceEvents"] = json::array({slice("parallel region 0x10", 0, 2000, 2)});
  EXPECT_FALSE(estimate_split(report(), no_master).has_value());
  json other_region = report();
  other_region["regions"][0]["id"] = 17;
  EXPECT_FALSE(estimate_split(other_region, timeline(true)).has_value());
  // A step with more slices than the others, or fewer barrier slices than steps: the boundaries cannot be placed.
  json extra = timeline(true);
  extra["traceEvents"].push_back(slice("barrier", 1200, 3, 2));
  extra["traceEvents"].push_back(slice("barrier", 1210, 3, 2));  // 26 slices for 12 steps of 2
  EXPECT_FALSE(estimate_split(report(), extra).has_value());
  json few = json::array({slice("parallel region 0x10", 0, 2000, 2)});
  for (int k = 0; k < 5; ++k) few.push_back(slice("barrier", 100.0 * k, 10, 2));
  EXPECT_FALSE(estimate_split(report(), json{{"traceEvents", few}}).has_value());
}

}  // namespace
