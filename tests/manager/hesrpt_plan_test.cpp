// hesrpt-plan on crafted reports, the plans and weights worked out by hand (docs/manager.md, "hesrpt-plan"):
// the weights mu of the plan to the end (between two completions sum mu_j S_j(P_j) over the applications
// alive = their number; with k of the n present alive the plan's machine is C (k/n)^0.5, rounded, the rest
// left to the arrivals expected meanwhile), then the processors by mu^0.75 x gain.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "manager/policy.hpp"
#include "policy_support.hpp"

namespace augur::manager {
namespace {

using test::parameters_for;
using test::processors_of;

ApplicationReport running(std::uint64_t id, int allocation, double speedup, double predicted_time) {
  ApplicationReport report;
  report.id = id;
  report.name = "app" + std::to_string(id);
  report.allocation = allocation;
  report.speedups = {{allocation, speedup, SpeedupState::calculated}};
  report.predicted_time = predicted_time;
  return report;
}

// The processors of a decision and the reason of each, in order.
void expect_decision(const std::vector<Allocation>& decision, const std::vector<int>& processors, const std::vector<std::string>& reasons) {
  EXPECT_EQ(processors_of(decision), processors);
  ASSERT_EQ(decision.size(), reasons.size());
  for (std::size_t index = 0; index < reasons.size(); ++index) EXPECT_EQ(decision[index].reason, reasons[index]) << index;
}

TEST(HesrptPlan, LinearJobsTheShorterOneFirstWithTheWeightsOfItsPlan) {
  // A and B linear (S(2) = 2 measured, extrapolated to 4 = 2 + step at most, the machine), W = 2 x 2 = 4
  // and 4 x 2 = 8. First weights rank / S(knee): A 2 / 4, B 1 / 4. Plan: one each, the two others to A
  // (0.5 x 1 > 0.25 x 1): A 3, B 1; A completes at 4/3, then B alone, 1 of the 2 present: the plan's
  // machine is 4 x (1/2)^0.5 = 2.83, 3 processors (a batch plan would give B all 4). Backward: mu_B =
  // 1 / S_B(3) = 0.333; mu_A S_A(3) + mu_B S_B(1) = 2 -> mu_A = (2 - 0.333) / 3 = 0.556 (0.583 with B on 4).
  // The next rounds plan the same. This quantum: A 0.556^0.75 = 0.644 > B 0.333^0.75 = 0.439 a processor.
  const std::vector<ApplicationReport> reports{running(1, 2, 2.0, 2.0), running(2, 2, 2.0, 4.0)};
  const auto decision = decide(parameters_for(PolicyKind::hesrpt_plan, 4), reports);
  EXPECT_EQ(processors_of(decision), (std::vector<int>{3, 1}));
  EXPECT_EQ(decision[0].reason, "predicted speedup 3.00 with 3, 4 s of work left, weight 0.556");
  EXPECT_EQ(decision[1].reason, "predicted speedup 1.00 with 1, 8 s of work left, weight 0.333");
  EXPECT_DOUBLE_EQ(decision[0].memory.work_left, 4.0);
}

TEST(HesrptPlan, ThisQuantumsProcessorsGoByThePlansWeightsToThePowerThreeQuarters) {
  // A: S(2) = 1.3 (1, 1.3, 1.6, 1.9: +0.3 a processor), W = 3 x 1.3 = 3.9; B linear, W = 8 x 2 = 16.
  // First weights A 2 / S(1) (its knee is 1: no gain of 0.5), B 1 / 4. Round 0: A 3 (0.3 x 2 > 0.25), B 1;
  // A completes at 3.9 / 1.6 = 2.44, B then on the plan's machine of 3 (4 x 0.707, rounded): mu_B = 1/3,
  // mu_A = (2 - 1/3) / 1.6 = 1.042. Round 1: 0.3 x 1.042 = 0.3125 < 1/3: B takes the two (A 1, B 3), A
  // completes at 3.9, B alone on 3: mu_A = (2 - 1/3 x 3) / 1 = 1, averaged with 1.042; the rounds after
  // plan the same and mu_A tends to 1 (1.0001 after ten). This quantum: A 0.3 x 1.0001^0.75 = 0.300 < B
  // 1 x (1/3)^0.75 = 0.439 for each of the two: A 1, B 3, as shortest-first's rank gives (A 0.3 x 2 = 0.6
  // < B 1 x 1).
  const std::vector<ApplicationReport> reports{running(1, 2, 1.3, 3.0), running(2, 2, 2.0, 8.0)};
  EXPECT_EQ(processors_of(decide(parameters_for(PolicyKind::shortest_first, 4), reports)), (std::vector<int>{1, 3}));
  expect_decision(decide(parameters_for(PolicyKind::hesrpt_plan, 4), reports), {1, 3},
                  {"predicted speedup 1.00 with 1, 4 s of work left, weight 1", "predicted speedup 3.00 with 3, 16 s of work left, weight 0.333"});
  // With A's gain 0.55 a processor (S(2) = 1.55, extrapolated: S(3) = 2.1, S(4) = 2.65): its knee is 4
  // (every processor gains 0.55 >= 0.5), first weights A 2 / 2.65 = 0.755, B 0.25; the plan gives A 3
  // (0.55 x 0.755 > 0.25), A completes at 3 x 1.55 / 2.1 = 2.21 s, B on 3: mu_A = (2 - 1/3) / 2.1 = 0.794
  // (and 0.55 x 0.794 = 0.437 > 1/3: the same plan again). Now 0.794^0.75 x 0.55 = 0.462 > 0.439: A takes
  // the first; S_A(3) - S_A(2) = 0.55 again: A 3, B 1. By sqrt(mu) (0.891 x 0.55 = 0.490 < 0.577) B would
  // take them.
  const std::vector<ApplicationReport> steeper{running(1, 2, 1.55, 3.0), running(2, 2, 2.0, 8.0)};
  const auto steeper_decision = decide(parameters_for(PolicyKind::hesrpt_plan, 4), steeper);
  EXPECT_EQ(processors_of(steeper_decision), (std::vector<int>{3, 1}));
  EXPECT_EQ(steeper_decision[0].reason, "predicted speedup 2.10 with 3, 5 s of work left, weight 0.794");
}

TEST(HesrptPlan, ThePlansMachineShrinksAsThePresentComplete) {
  // Three linear applications (S(2) = 2 measured), W = 2, 4 and 6 on 9 processors. First weights rank / S(6)
  // (the knee, 2 + step): 3/6, 2/6, 1/6. Interval 1 (3 of 3 alive, machine 9): one each, the other six by
  // weight x 1 to A up to its limit of 6: A 6, B 2, C 1; A completes at 2/6 = 0.333 (B 4 - 0.667 = 3.333
  // left, C 6 - 0.333 = 5.667). Interval 2 (2 of 3: 9 x 0.816 = 7.35, 7 processors): B 6 (its limit), C 1;
  // B completes at 3.333 / 6 = 0.556 (C 5.111 left). Interval 3 (1 of 3: 9 x 0.577 = 5.2, 5): C 5.
  // Backward: mu_C = 1/5 = 0.2; mu_B = (2 - 0.2 x 1) / 6 = 0.3; mu_A = (3 - 0.3 x 2 - 0.2 x 1) / 6 = 0.367;
  // the next rounds plan the same. This quantum by mu^0.75: A 6, B 2, C 1.
  const std::vector<ApplicationReport> reports{running(1, 2, 2.0, 1.0), running(2, 2, 2.0, 2.0), running(3, 2, 2.0, 3.0)};
  expect_decision(decide(parameters_for(PolicyKind::hesrpt_plan, 9), reports), {6, 2, 1},
                  {"predicted speedup 6.00 with 6, 2 s of work left, weight 0.367", "predicted speedup 2.00 with 2, 4 s of work left, weight 0.3",
                   "predicted speedup 1.00 with 1, 6 s of work left, weight 0.2"});
}

TEST(HesrptPlan, ReadsTheMeasuredCurveOnItsUpperConcaveHull) {
  // S(2) = 1.2 and S(4) = 3.6 measured: (2, 1.2) lies under the chord from (1, 1) to (4, 3.6) and goes, so
  // S(3) = 1 + 2 x 2.6 / 3 = 2.73 (2.4 between the raw points). Alone on 3 processors: it takes the three,
  // its plan one interval on 3, mu = 1 / 2.733 = 0.366; W = 10 s x S(2) as reported, 1.2 = 12 s.
  ApplicationReport dipped = running(1, 2, 1.2, 10.0);
  dipped.speedups.push_back({4, 3.6, SpeedupState::calculated});
  expect_decision(decide(parameters_for(PolicyKind::hesrpt_plan, 3), std::vector{dipped}), {3},
                  {"predicted speedup 2.73 with 3, 12 s of work left, weight 0.366"});
}

TEST(HesrptPlan, NeverStopsARunningApplicationAndGivesNoProcessorThatGainsNothing) {
  // Three running on a machine of 2: the earliest two keep one each.
  const std::vector<ApplicationReport> crowd{running(1, 1, 1.0, 0.0), running(2, 1, 1.0, 0.0), running(3, 1, 1.0, 0.0)};
  const auto decision = decide(parameters_for(PolicyKind::hesrpt_plan, 2), crowd);
  EXPECT_EQ(processors_of(decision), (std::vector<int>{1, 1, 0}));
  EXPECT_EQ(decision[2].reason, "waits: every processor gains more elsewhere");
  // S(4) = S(8) = 2: flat past 4, so 4 and no more of the 20; B's request is 2.
  ApplicationReport flat = running(1, 8, 2.0, 10.0);
  flat.speedups.push_back({4, 2.0, SpeedupState::calculated});
  ApplicationReport small = running(2, 0, 1.0, 0.0);
  small.speedups.clear();
  small.max_processors = 2;
  EXPECT_EQ(processors_of(decide(parameters_for(PolicyKind::hesrpt_plan, 20), std::vector{flat, small})), (std::vector<int>{4, 2}));
}

}  // namespace
}  // namespace augur::manager
