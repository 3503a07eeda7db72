// rollout on crafted reports, its candidates and their rollouts worked out by hand (docs/manager.md,
// "rollout"): hesrpt-plan's allocation and it with one or two processors moved (rollout-wide: one, among
// eight donors and eight takers), each held for one quantum and then run to the end under hesrpt-plan's
// hand-out on a shrinking machine (C (k/n)^0.75 with k of the n present alive, rounded); the least sum of
// response times wins, hesrpt-plan's own on a tie.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "manager/simulate.hpp"
#include "manager/workload.hpp"
#include "policy_support.hpp"

namespace augur::manager {
namespace {

using test::parameters_for;
using test::processors_of;

ApplicationReport arriving(std::uint64_t id) {
  ApplicationReport report;
  report.id = id;
  report.name = "app" + std::to_string(id);
  return report;
}

ApplicationReport running(std::uint64_t id, int allocation, double speedup, double predicted_time) {
  ApplicationReport report = arriving(id);
  report.allocation = allocation;
  report.speedups = {{allocation, speedup, SpeedupState::calculated}};
  report.predicted_time = predicted_time;
  return report;
}

TEST(Rollout, ALongQuantumSharesWhatHesrptPlanWouldLeaveIdleAfterTheFirstCompletes) {
  // Two new applications, nothing measured (linear up to 1 + step = 5, the machine's 4), their work unknown
  // (1 each, the mean of none). hesrpt-plan: the earlier weighs more, the four to it: {4, 0}. Candidates:
  // the donor app1 (4), the taker app2 (0): {4, 0}, {3, 1}, {2, 2}. Held for the quantum of 10 s:
  // {4, 0}: app1 done at 1/4, app2 waits the quantum, then alone on the rollout's machine of 4 x 0.5^0.75 =
  // 2.38, 2 processors: 10 + 1/2; sum 10.75. {3, 1}: 1/3 + 1 = 1.33. {2, 2}: 1/2 + 1/2 = 1.
  const std::vector<ApplicationReport> reports{arriving(1), arriving(2)};
  PolicyParameters parameters = parameters_for(PolicyKind::hesrpt_plan, 4);
  parameters.quantum = 10.0;
  EXPECT_EQ(processors_of(decide(parameters, reports)), (std::vector<int>{4, 0}));
  parameters.policy = PolicyKind::rollout;
  const std::vector<Allocation> decision = decide(parameters, reports);
  EXPECT_EQ(processors_of(decision), (std::vector<int>{2, 2}));
  EXPECT_EQ(decision[0].reason,
            "speedup 2.00 with 2; rollout: hesrpt-plan's with 2 moved from app1 to app2 (of 3 candidates), sum of responses 1.0 s "
            "(hesrpt-plan's 10.8 s)");
}

TEST(Rollout, KeepsHesrptPlansAllocationOnATie) {
  // hesrpt_plan_test's linear pair: W 4 and 8 on S(P) = P, hesrpt-plan {3, 1} (its weights 0.556, 0.333).
  // Quantum 1, machine 4, every processor busy till app1 completes, then app2 alone on the rollout's 2:
  // {3, 1}: 1 and 7 left; base {3, 1}: app1 done at 1 + 1/3, app2 20/3 left on 2: 4/3 + 10/3; sum 6.
  // {2, 2}: 2 and 6 left, app1 done at 5/3, app2 16/3 left on 2: 5/3 + 8/3; sum 6. {1, 3}: 3 and 5 left,
  // app1 done at 2, app2 4 on 2: 2 + 2; sum 6. Three equal costs (within rounding): hesrpt-plan's stands.
  const std::vector<ApplicationReport> reports{running(1, 2, 2.0, 2.0), running(2, 2, 2.0, 4.0)};
  const std::vector<Allocation> decision = decide(parameters_for(PolicyKind::rollout, 4), reports);
  EXPECT_EQ(processors_of(decision), (std::vector<int>{3, 1}));
  EXPECT_EQ(decision[1].reason, "speedup 1.00 with 1; rollout: hesrpt-plan's (of 3 candidates), sum of responses 6.0 s (hesrpt-plan's 6.0 s)");
  EXPECT_DOUBLE_EQ(decision[0].memory.work_left, 4.0);
}

TEST(Rollout, NoWorseThanHesrptPlanOnABatchItsRolloutSimulatesExactly) {
  // The oracle gives the true work (4 and 8, linear): the first decision's rollouts are then the simulation's
  // own future. hesrpt-plan {4, 0}: a at 1, b waits the 10 s quantum, then the whole machine: 12; mean 6.5.
  // rollout: {4, 0} 1 + (10 + 8/2) = 15, {3, 1} 4/3 + 8 = 9.33, {2, 2} 2 + 4 = 6: a at 2, b at 4, mean 3.
  Workload workload;
  for (const auto& [name, work] : {std::pair{"a", 4.0}, std::pair{"b", 8.0}}) {
    WorkloadJob job;
    job.name = name;
    job.work = work;
    workload.jobs.push_back(job);  // Amdahl's f = 0: linear
  }
  SimulationOptions options;
  options.policy = parameters_for(PolicyKind::hesrpt_plan, 4);
  options.quantum = 10.0;
  options.oracle = true;
  const SimulationResult base = simulate(workload, options);
  EXPECT_NEAR(base.jobs[0].finish, 1.0, 1e-9);
  EXPECT_NEAR(base.jobs[1].finish, 12.0, 1e-9);
  options.policy.policy = PolicyKind::rollout;
  const SimulationResult improved = simulate(workload, options);
  EXPECT_NEAR(improved.jobs[0].finish, 2.0, 1e-9);
  EXPECT_NEAR(improved.jobs[1].finish, 4.0, 1e-9);
  EXPECT_LE(improved.mean_response_time, base.mean_response_time);
}

TEST(Rollout, RefusesAQuantumThatIsNotPositive) {
  PolicyParameters parameters = parameters_for(PolicyKind::rollout, 4);
  parameters.quantum = 0.0;
  EXPECT_EQ(validate_parameters(parameters), "quantum must be above 0");
  EXPECT_EQ(parse_policy("rollout"), PolicyKind::rollout);
  EXPECT_EQ(policy_name(PolicyKind::rollout), "rollout");
}

TEST(RolloutArrivals, ItsRolloutSharesTheWholeMachineWithTheArrivalsExpectedAtTheRateSeen) {
  // One linear application on 4 of 4 processors, 4 s predicted: W = 16, alone, so one candidate (hesrpt-plan's
  // 4). Clock: 6 arrivals from 0 to 10 s, 5 after the first in 10 s: one expected every 2 s, the first at 2 s
  // from now (the curve, limit, work 16 and weight of the one present). Quantum 1: 12 left at 1 s, 8 left at
  // 2 s when the newcomer arrives; the whole machine, one each, the two left by gain (equal: the earlier):
  // {3, 1}; the present completes at 2 + 8/3 = 4.67 s. rollout's own (no arrivals): 1 + 12/4 = 4 s.
  const std::vector<ApplicationReport> reports{running(1, 4, 4.0, 4.0)};
  PolicyParameters parameters = parameters_for(PolicyKind::rollout_arrivals, 4);
  parameters.clock = {10.0, 0.0, 6};
  const std::vector<Allocation> decision = decide(parameters, reports);
  EXPECT_EQ(processors_of(decision), (std::vector<int>{4}));
  EXPECT_EQ(decision[0].reason,
            "speedup 4.00 with 4; rollout, an arrival expected every 2.0 s: hesrpt-plan's (of 1 candidates), sum of responses 4.7 s "
            "(hesrpt-plan's 4.7 s)");
  parameters.policy = PolicyKind::rollout;
  EXPECT_EQ(decide(parameters, reports)[0].reason,
            "speedup 4.00 with 4; rollout: hesrpt-plan's (of 1 candidates), sum of responses 4.0 s (hesrpt-plan's 4.0 s)");
}

TEST(RolloutArrivals, IsRolloutBeforeTwoArrivals) {
  // No rate before a second arrival (nor with no time since the first): rollout's shrinking machine, its
  // decision and its reason word for word (the crafted state of the first test above).
  const std::vector<ApplicationReport> reports{arriving(1), arriving(2)};
  PolicyParameters parameters = parameters_for(PolicyKind::rollout, 4);
  parameters.quantum = 10.0;
  const std::vector<Allocation> expected = decide(parameters, reports);
  parameters.policy = PolicyKind::rollout_arrivals;
  for (const DecisionClock clock : {DecisionClock{5.0, 0.0, 1}, DecisionClock{0.0, 0.0, 2}}) {
    parameters.clock = clock;
    const std::vector<Allocation> decision = decide(parameters, reports);
    EXPECT_EQ(processors_of(decision), (std::vector<int>{2, 2}));
    EXPECT_EQ(decision[0].reason, expected[0].reason);
  }
  EXPECT_EQ(parse_policy("rollout-arrivals"), PolicyKind::rollout_arrivals);
}

TEST(RolloutWide, MovesOneProcessorAtATime) {
  // rollout's first state (above): hesrpt-plan {4, 0}, quantum 10 s. rollout-wide moves one processor only:
  // {4, 0} costs 10.75 (above), {3, 1}: app1 done at 1/3, app2 at 1/1; sum 1.33: {3, 1}, not rollout's
  // {2, 2} (a move of two).
  const std::vector<ApplicationReport> reports{arriving(1), arriving(2)};
  PolicyParameters parameters = parameters_for(PolicyKind::rollout_wide, 4);
  parameters.quantum = 10.0;
  const std::vector<Allocation> decision = decide(parameters, reports);
  EXPECT_EQ(processors_of(decision), (std::vector<int>{3, 1}));
  EXPECT_EQ(decision[1].reason,
            "speedup 1.00 with 1; rollout-wide: hesrpt-plan's with 1 moved from app1 to app2 (of 2 candidates), sum of responses 1.3 s "
            "(hesrpt-plan's 10.8 s)");
  EXPECT_EQ(parse_policy("rollout-wide"), PolicyKind::rollout_wide);
  EXPECT_EQ(policy_name(PolicyKind::rollout_wide), "rollout-wide");
}

TEST(RolloutWide, TriesEveryOneProcessorMoveAmongEightDonorsAndEightTakers) {
  // Twenty linear applications on 2 processors each (S(2) = 2 measured: each may grow to 2 + step = 6), 2 s
  // predicted (W = 4 each), on 70 processors: hesrpt-plan gives one each, then the other 50 by weight x gain,
  // the gains equal and the earlier weighing more (equal works: the rank breaks the tie), so the first ten up
  // to their limit 6 and the last ten keep 1: ten donors (> 1), ten takers (< 6), none both. rollout-wide:
  // the eight cheapest donors x the eight best takers, one processor each, 64 moves (65 candidates); rollout:
  // 3 x 3 pairs, one or two processors each (6 - 2 >= 1, 1 + 2 <= 6), 18 moves (19).
  std::vector<ApplicationReport> reports;
  for (std::uint64_t id = 1; id <= 20; ++id) reports.push_back(running(id, 2, 2.0, 2.0));
  PolicyParameters parameters = parameters_for(PolicyKind::hesrpt_plan, 70);
  std::vector<int> expected(20, 1);
  for (std::size_t index = 0; index < 10; ++index) expected[index] = 6;
  EXPECT_EQ(processors_of(decide(parameters, reports)), expected);
  parameters.policy = PolicyKind::rollout_wide;
  const std::string wide = decide(parameters, reports)[0].reason;
  EXPECT_NE(wide.find("(of 65 candidates)"), std::string::npos) << wide;
  parameters.policy = PolicyKind::rollout;
  const std::string narrow = decide(parameters, reports)[0].reason;
  EXPECT_NE(narrow.find("(of 19 candidates)"), std::string::npos) << narrow;
}

}  // namespace
}  // namespace augur::manager
