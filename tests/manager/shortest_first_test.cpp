// shortest-first on crafted reports, the allocations worked out by hand (docs/manager.md, "shortest-first"):
// processors one at a time to the largest gain in measured speedup times the rank in work left.
#include <gtest/gtest.h>

#include <vector>

#include "manager/policy.hpp"
#include "policy_support.hpp"

namespace augur::manager {
namespace {

using test::parameters_for;
using test::processors_of;

ApplicationReport application(std::uint64_t id, int allocation, std::vector<SpeedupEntry> speedups,
                              double predicted_time) {
  ApplicationReport report;
  report.id = id;
  report.name = "app" + std::to_string(id);
  report.allocation = allocation;
  report.speedups = std::move(speedups);
  report.predicted_time = predicted_time;
  return report;
}

constexpr SpeedupState pc = SpeedupState::calculated;

TEST(ShortestFirst, TheLeastWorkLeftWeighsMostAndGrowsAStepPastWhatItMeasured) {
  // A: S(2) = 1.8, 100 s to go on 2: W = 180 one-processor seconds; its curve 1, 1.8, then +0.8 a
  // processor past 2, up to 2 + step = 6. B: S(2) = 1.5, 400 s on 2: W = 600, +0.5 a processor past 2.
  // C has just arrived: nothing measured (linear, up to 1 + 4 = 5), its W taken as the mean, 390.
  // Ranks in work left: A 180 -> 3, C 390 -> 2, B 600 -> 1. A and B keep one processor each; then the
  // gains times the ranks: A 0.8 x 3 = 2.4 (five times, to its limit of 6), C 1 x 2 = 2, B 0.5 x 1 = 0.5:
  // A 6, C the last one, B 1.
  const std::vector<ApplicationReport> reports{application(1, 2, {{2, 1.8, pc}}, 100.0),
                                               application(2, 2, {{2, 1.5, pc}}, 400.0), application(3, 0, {}, 0.0)};
  const auto decision = decide(parameters_for(PolicyKind::shortest_first, 8), reports);
  EXPECT_EQ(processors_of(decision), (std::vector<int>{6, 1, 1}));
  EXPECT_EQ(decision[0].reason, "predicted speedup 5.00 with 6 (measured up to 2), 180 s of work left, weight 3 of 3");
  EXPECT_EQ(decision[1].reason, "predicted speedup 1.00 with 1 (measured up to 2), 600 s of work left, weight 1 of 3");
  EXPECT_EQ(decision[2].reason, "predicted speedup 1.00 with 1 (measured up to 1), its work unknown yet, weight 2 of 3");
  EXPECT_DOUBLE_EQ(decision[0].memory.work_left, 180.0);
  EXPECT_DOUBLE_EQ(decision[1].memory.work_left, 600.0);
  EXPECT_DOUBLE_EQ(decision[2].memory.work_left, 0.0);
}

TEST(ShortestFirst, KeepsTheLastWorkLeftWhileItsNewAllocationIsNotMeasured) {
  // Y: S(2) = 2, 100 s on 2: W = 200. X runs on 4 but measured only S(2) = 1.8: no prediction now, its
  // last W, 50, stands (without it X would count with the mean, 200, and rank after Y, which arrived first).
  // Ranks: X 2, Y 1. One each, then X 0.8 x 2 = 1.6 beats Y 1 x 1 twice: X 3, Y 1.
  std::vector<ApplicationReport> reports{application(1, 2, {{2, 2.0, pc}}, 100.0), application(2, 4, {{2, 1.8, pc}}, 0.0)};
  reports[1].memory.work_left = 50.0;
  const auto decision = decide(parameters_for(PolicyKind::shortest_first, 4), reports);
  EXPECT_EQ(processors_of(decision), (std::vector<int>{1, 3}));
  EXPECT_DOUBLE_EQ(decision[1].memory.work_left, 50.0);
  reports[1].memory.work_left = 0.0;  // forgotten: Y first on the tie, 1 x 2 = 2 > 0.8 x 1, twice
  EXPECT_EQ(processors_of(decide(parameters_for(PolicyKind::shortest_first, 4), reports)), (std::vector<int>{3, 1}));
}

TEST(ShortestFirst, NoProcessorWhereTheMeasuredSpeedupIsFlatAndNeverStopsARunningApplication) {
  // A's speedup is flat past 4 (S(4) = S(8) = 2): it takes 4 and no more, though 16 processors are free.
  // B's request is 2. Three running applications on a machine of 2: the earliest two keep one each.
  std::vector<ApplicationReport> reports{application(1, 8, {{4, 2.0, pc}, {8, 2.0, pc}}, 10.0), application(2, 0, {}, 0.0)};
  reports[1].max_processors = 2;
  EXPECT_EQ(processors_of(decide(parameters_for(PolicyKind::shortest_first, 20), reports)), (std::vector<int>{4, 2}));
  const std::vector<ApplicationReport> crowd{application(1, 1, {}, 0.0), application(2, 1, {}, 0.0), application(3, 1, {}, 0.0)};
  const auto decision = decide(parameters_for(PolicyKind::shortest_first, 2), crowd);
  EXPECT_EQ(processors_of(decision), (std::vector<int>{1, 1, 0}));
  EXPECT_EQ(decision[2].reason, "waits: every processor gains more elsewhere");
}

}  // namespace
}  // namespace augur::manager
