// hesrpt-plan on crafted reports, the plans and weights worked out by hand (docs/manager.md, "hesrpt-plan"):
// the weights mu of the plan to the end (between two completions sum mu_j S_j(P_j) over the applications
// alive = their number), then the processors by sqrt(mu) x gain.
#include <gtest/gtest.h>

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

TEST(HesrptPlan, LinearJobsTheShorterOneFirstWithTheWeightsOfItsPlan) {
  // A and B linear (S(2) = 2 measured, extrapolated to 4 = 2 + step at most, the machine), W = 2 x 2 = 4
  // and 4 x 2 = 8. First weights rank / S(knee): A 2 / 4, B 1 / 4. Plan: one each, the two others to A
  // (0.5 x 1 > 0.25 x 1): A 3, B 1; A completes at 4/3, then B alone on 4. Backward: mu_B = 1 / S_B(4) =
  // 0.25; mu_A S_A(3) + mu_B S_B(1) = 2 -> mu_A = 1.75 / 3 = 0.583. The next rounds plan the same.
  const std::vector<ApplicationReport> reports{running(1, 2, 2.0, 2.0), running(2, 2, 2.0, 4.0)};
  const auto decision = decide(parameters_for(PolicyKind::hesrpt_plan, 4), reports);
  EXPECT_EQ(processors_of(decision), (std::vector<int>{3, 1}));
  EXPECT_EQ(decision[0].reason, "predicted speedup 3.00 with 3, 4 s of work left, weight 0.583");
  EXPECT_EQ(decision[1].reason, "predicted speedup 1.00 with 1, 8 s of work left, weight 0.25");
  EXPECT_DOUBLE_EQ(decision[0].memory.work_left, 4.0);
}

TEST(HesrptPlan, ThisQuantumsProcessorsGoByTheSquareRootOfThePlansWeights) {
  // A: S(2) = 1.3 (1, 1.3, 1.6, 1.9: +0.3 a processor), W = 3 x 1.3 = 3.9; B linear, W = 8 x 2 = 16.
  // The plan: first weights A 2 / S(1) (its knee is 1: no gain of 0.5), B 1 / 4. Plan: A 3 (0.3 x 2 >
  // 0.25), B 1; A completes at 3.9 / 1.6 = 2.44, B then alone on 4: mu_B = 0.25, mu_A = (2 - 0.25) / 1.6
  // = 1.09375; the next rounds plan the same. By mu x gain A would keep the processors that finish it
  // (0.3 x 1.094 = 0.328 > 0.25 x 1); by sqrt(mu) x gain, 0.3 x 1.046 = 0.314 < 0.5 x 1 = 0.5, B takes
  // both, then 0.314 < 0.5 again: A 1, B 3, as shortest-first's rank gives (A 0.3 x 2 = 0.6 < B 1 x 1).
  const std::vector<ApplicationReport> reports{running(1, 2, 1.3, 3.0), running(2, 2, 2.0, 8.0)};
  EXPECT_EQ(processors_of(decide(parameters_for(PolicyKind::shortest_first, 4), reports)), (std::vector<int>{1, 3}));
  const auto decision = decide(parameters_for(PolicyKind::hesrpt_plan, 4), reports);
  EXPECT_EQ(processors_of(decision), (std::vector<int>{1, 3}));
  EXPECT_EQ(decision[0].reason, "predicted speedup 1.00 with 1, 4 s of work left, weight 1.09");
  EXPECT_EQ(decision[1].reason, "predicted speedup 3.00 with 3, 16 s of work left, weight 0.25");
  // With A's gain 0.55 a processor (S(2) = 1.55, extrapolated: S(3) = 2.1, S(4) = 2.65): its knee is 4
  // (every processor gains 0.55 >= 0.5), first weights A 2 / 2.65 = 0.755, B 0.25; the plan gives A 3
  // (0.55 x 0.755 > 0.25), A completes at 3 x 1.55 / 2.1 = 2.21 s, mu_A = (2 - 0.25) / 2.1 = 0.833 (and
  // 0.55 x 0.833 > 0.25: the same plan again). Now sqrt(0.833) x 0.55 = 0.502 > 0.5: A
  // takes the first; S_A(3) - S_A(2) = 0.55 again, 0.502 > 0.5: A 3, B 1.
  const std::vector<ApplicationReport> steeper{running(1, 2, 1.55, 3.0), running(2, 2, 2.0, 8.0)};
  EXPECT_EQ(processors_of(decide(parameters_for(PolicyKind::hesrpt_plan, 4), steeper)), (std::vector<int>{3, 1}));
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
