// PDPA on crafted sequences of reports: each step feeds the allocations of the last decision back with the
// speedups the applications measured there, and checks the states and allocations worked out by hand
// (target efficiency 0.7, low efficiency 0.5, step 4).
#include <gtest/gtest.h>

#include <map>
#include <vector>

#include "manager/policy.hpp"
#include "policy_support.hpp"

namespace augur::manager {
namespace {

using test::parameters_for;
using test::processors_of;

// An application of the sequence: its true speedups, the allocation and memory of the last decision.
struct Runner {
  ApplicationReport report;
  std::map<int, double> curve;  // the speedups it measures, by P
};

PolicyParameters pdpa(int cpus) {
  PolicyParameters parameters;
  parameters.policy = PolicyKind::pdpa;
  parameters.cpus = cpus;
  return parameters;
}

Runner runner(std::uint64_t id, std::map<int, double> curve, int max_processors = 0) {
  Runner result;
  result.report.id = id;
  result.report.name = "app" + std::to_string(id);
  result.report.max_processors = max_processors;
  result.curve = std::move(curve);
  return result;
}

// One quantum: each application has measured its speedup with its allocation (if its curve has it), then
// the manager decides; the runners take their new allocations and memories.
std::vector<Allocation> step(const PolicyParameters& parameters, std::vector<Runner>& runners) {
  std::vector<ApplicationReport> reports;
  for (Runner& each : runners) {
    const int processors = each.report.allocation;
    if (processors > 0 && each.curve.contains(processors)) {
      bool known = false;
      for (const SpeedupEntry& entry : each.report.speedups) known = known || entry.processors == processors;
      if (!known) each.report.speedups.push_back({processors, each.curve.at(processors), SpeedupState::calculated});
    }
    reports.push_back(each.report);
  }
  std::vector<Allocation> allocations = decide(parameters, reports);
  for (std::size_t index = 0; index < runners.size(); ++index) {
    EXPECT_EQ(allocations[index].id, runners[index].report.id);
    runners[index].report.allocation = allocations[index].processors;
    runners[index].report.memory = allocations[index].memory;
  }
  return allocations;
}

std::vector<PdpaPhase> phases_of(const std::vector<Allocation>& allocations) {
  std::vector<PdpaPhase> result;
  for (const Allocation& allocation : allocations) result.push_back(allocation.memory.phase);
  return result;
}

using enum PdpaPhase;

TEST(Pdpa, AScalableAndAPoorApplicationReachTheirStates) {
  // A scales (E(16) = 0.875, E(20) = 0.8, E(24) = 0.67); B does not (E(16) = 0.25, E(12) = 0.3,
  // E(8) = 0.4, E(4) = 0.6).
  std::vector<Runner> runners{runner(1, {{16, 14.0}, {20, 16.0}, {24, 16.08}}),
                              runner(2, {{16, 4.0}, {12, 3.6}, {8, 3.2}, {4, 2.4}})};
  const PolicyParameters parameters = pdpa(32);
  auto decision = step(parameters, runners);  // both arrive: the equal share of 32 among 2
  EXPECT_EQ(processors_of(decision), (std::vector<int>{16, 16}));
  EXPECT_EQ(phases_of(decision), (std::vector<PdpaPhase>{no_reference, no_reference}));
  EXPECT_EQ(decision[0].reason, "starts with 16, no reference yet");

  decision = step(parameters, runners);  // A 0.875 >= 0.7 grows to 20 with the 4 B frees (0.25 < 0.5)
  EXPECT_EQ(processors_of(decision), (std::vector<int>{20, 12}));
  EXPECT_EQ(phases_of(decision), (std::vector<PdpaPhase>{increasing, decreasing}));
  EXPECT_EQ(decision[0].reason, "efficiency 0.88 with 16 >= target 0.70: grows to 20");
  EXPECT_EQ(decision[1].reason, "efficiency 0.25 with 16 < low 0.50: shrinks to 12");

  decision = step(parameters, runners);  // A 0.8 grows again, B 0.3 shrinks again
  EXPECT_EQ(processors_of(decision), (std::vector<int>{24, 8}));

  decision = step(parameters, runners);  // A 0.67 < 0.7: back to 20, stable; B 0.4 shrinks to 4
  EXPECT_EQ(processors_of(decision), (std::vector<int>{20, 4}));
  EXPECT_EQ(phases_of(decision), (std::vector<PdpaPhase>{stable, decreasing}));
  EXPECT_EQ(decision[0].reason, "efficiency 0.67 with 24 < target: back to 20, stable");

  decision = step(parameters, runners);  // B 0.6 >= 0.5: stable; 8 processors stay free
  EXPECT_EQ(processors_of(decision), (std::vector<int>{20, 4}));
  EXPECT_EQ(phases_of(decision), (std::vector<PdpaPhase>{stable, stable}));

  // A third application arrives: the equal share of 32 among 3 is 10, but only 8 are free.
  runners.push_back(runner(3, {{8, 7.0}}));
  decision = step(parameters, runners);
  EXPECT_EQ(processors_of(decision), (std::vector<int>{20, 4, 8}));
  EXPECT_EQ(decision[2].reason, "starts with 8, no reference yet");
  EXPECT_EQ(decision[2].memory.decisions, 1);
  EXPECT_EQ(decision[0].memory.decisions, 6);
}

TEST(Pdpa, WaitsForTheSpeedupOfItsNewAllocationAndIgnoresAPreemptedIteration) {
  std::vector<Runner> runners{runner(1, {{8, 7.6}})};  // nothing measured with 12
  const PolicyParameters parameters = pdpa(16);
  runners[0].report.allocation = 8;  // running, no reference yet
  auto decision = step(parameters, runners);
  EXPECT_EQ(processors_of(decision), (std::vector<int>{12}));
  decision = step(parameters, runners);  // S(12) not calculated: keeps 12, still increasing
  EXPECT_EQ(processors_of(decision), (std::vector<int>{12}));
  EXPECT_EQ(phases_of(decision), (std::vector<PdpaPhase>{increasing}));
  EXPECT_EQ(decision[0].reason, "waits for its speedup with 12 processors");
  runners[0].report.speedups.push_back({12, 2.0, SpeedupState::calculated});
  runners[0].report.preempted = true;  // measured while stopped: void
  decision = step(parameters, runners);
  EXPECT_EQ(processors_of(decision), (std::vector<int>{12}));
  EXPECT_EQ(decision[0].reason, "preempted: keeps 12 until it measures again");
  runners[0].report.preempted = false;  // now E(12) = 0.17 < 0.7: back to 8
  decision = step(parameters, runners);
  EXPECT_EQ(processors_of(decision), (std::vector<int>{8}));
  EXPECT_EQ(phases_of(decision), (std::vector<PdpaPhase>{stable}));
}

TEST(Pdpa, StopsAtItsLimitAndAtOneProcessor) {
  std::vector<Runner> runners{runner(1, {{6, 6.0}}, 6), runner(2, {{2, 0.9}, {1, 1.0}})};
  runners[0].report.allocation = 6;
  runners[1].report.allocation = 2;
  const PolicyParameters parameters = pdpa(16);
  auto decision = step(parameters, runners);
  // The first at its request of 6; the second E(2) = 0.45 < 0.5 shrinks by the step, but not below one.
  EXPECT_EQ(processors_of(decision), (std::vector<int>{6, 1}));
  EXPECT_EQ(decision[0].reason, "efficiency 1.00 with 6 >= target: stable at its limit of 6");
  EXPECT_EQ(phases_of(decision), (std::vector<PdpaPhase>{stable, decreasing}));
  decision = step(parameters, runners);  // E(1) = 1 >= 0.5: stable at one
  EXPECT_EQ(processors_of(decision), (std::vector<int>{6, 1}));
  EXPECT_EQ(phases_of(decision), (std::vector<PdpaPhase>{stable, stable}));
}

TEST(Pdpa, ANewApplicationWaitsWhenNoProcessorIsFree) {
  std::vector<Runner> runners{runner(1, {{16, 12.0}}), runner(2, {})};
  runners[0].report.allocation = 16;
  runners[0].report.memory.phase = stable;
  const auto decision = step(pdpa(16), runners);
  EXPECT_EQ(processors_of(decision), (std::vector<int>{16, 0}));
  EXPECT_EQ(decision[1].reason, "waits: no free processors");
}

TEST(Pdpa, ANewApplicationStartsOnlyWhenTheRunningAllocationsAreStableOrOnePerformsBadly) {
  // The paper's multiprogramming rule: free processors are not enough while an allocation is still moving.
  // A grows (E(8) = 0.95 >= 0.7: increasing, 12), 20 of 32 are free, and yet C waits.
  std::vector<Runner> runners{runner(1, {{8, 7.6}, {12, 9.0}}), runner(2, {{4, 3.6}})};
  runners[0].report.allocation = 8;
  runners[1].report.allocation = 4;
  runners[1].report.memory.phase = stable;
  const PolicyParameters parameters = pdpa(32);
  runners.push_back(runner(3, {}));
  auto decision = step(parameters, runners);
  EXPECT_EQ(processors_of(decision), (std::vector<int>{12, 4, 0}));
  EXPECT_EQ(decision[2].reason, "waits: the running allocations are not stable yet");
  // E(12) = 0.75 >= 0.7: A grows again, to 16; C still waits.
  decision = step(parameters, runners);
  EXPECT_EQ(processors_of(decision), (std::vector<int>{16, 4, 0}));
  // S(16) not calculated: A keeps 16 and stays increasing; C waits.
  decision = step(parameters, runners);
  EXPECT_EQ(processors_of(decision), (std::vector<int>{16, 4, 0}));
  // E(16) = 0.5 < 0.7: A goes back to 12, stable; every allocation is stable: C starts with the equal
  // share 32 / 3 = 10 (the 16 free allow it).
  runners[0].curve[16] = 8.0;
  decision = step(parameters, runners);
  EXPECT_EQ(processors_of(decision), (std::vector<int>{12, 4, 10}));
  EXPECT_EQ(decision[2].reason, "starts with 10, no reference yet");
}

TEST(Pdpa, AnApplicationPerformingBadlyLetsANewOneStart) {
  // A measures E(16) = 0.25 < 0.5: it shrinks to 12 (decreasing), which admits C although B still grows.
  std::vector<Runner> runners{runner(1, {{16, 4.0}}), runner(2, {{8, 8.0}}), runner(3, {})};
  runners[0].report.allocation = 16;
  runners[1].report.allocation = 8;
  const auto decision = step(pdpa(32), runners);
  EXPECT_EQ(phases_of(decision), (std::vector<PdpaPhase>{decreasing, increasing, no_reference}));
  // C starts with min(32 / 3, free) = 10 of the 12 free (32 - 12 - 8); B's growth to 12 gets the 2 left.
  EXPECT_EQ(processors_of(decision), (std::vector<int>{12, 10, 10}));
  EXPECT_EQ(decision[1].reason, "efficiency 1.00 with 8 >= target 0.70: grows to 12 (only 10: no more free processors)");
}

TEST(Pdpa, AMachineSmallerThanTheAllocationsCutsThemToEqualShares) {
  std::vector<Runner> runners{runner(1, {}), runner(2, {})};
  runners[0].report.allocation = 24;
  runners[1].report.allocation = 4;
  const auto decision = step(pdpa(16), runners);
  EXPECT_EQ(processors_of(decision), (std::vector<int>{12, 4}));
}

}  // namespace
}  // namespace augur::manager

namespace augur::manager {
namespace {

TEST(PdpaLend, LendsWhatPdpaLeavesFreeToTheStableOnesUntilSomeoneArrives) {
  std::vector<Runner> runners{runner(1, {{20, 16.0}}), runner(2, {{4, 2.4}})};
  runners[0].report.allocation = 20;
  runners[0].report.memory.phase = PdpaPhase::stable;
  runners[1].report.allocation = 4;
  runners[1].report.memory.phase = PdpaPhase::stable;
  PolicyParameters parameters = pdpa(32);
  parameters.policy = PolicyKind::pdpa_lend;
  auto decision = step(parameters, runners);  // PDPA keeps 20 and 4; the 8 free lent 4 and 4
  EXPECT_EQ(processors_of(decision), (std::vector<int>{24, 8}));
  EXPECT_EQ(decision[0].memory.lent, 4);
  EXPECT_EQ(decision[0].reason, "efficiency 0.80 with 20: stable (+4 lent while nobody waits)");
  decision = step(parameters, runners);  // the same again: PDPA decides on 20 and 4, not on 24 and 8
  EXPECT_EQ(processors_of(decision), (std::vector<int>{24, 8}));
  runners.push_back(runner(3, {}));  // an arrival: the loans come back, it starts with the 8 free
  decision = step(parameters, runners);
  EXPECT_EQ(processors_of(decision), (std::vector<int>{20, 4, 8}));
  EXPECT_EQ(decision[0].memory.lent, 0);
}

TEST(MultiprogrammingLevel, TheLaterApplicationsWaitExceptUnderPdpa) {
  std::vector<ApplicationReport> reports(3);
  for (std::uint64_t id = 0; id < 3; ++id) reports[id].id = id;
  PolicyParameters parameters = pdpa(64);
  parameters.multiprogramming_level = 2;
  parameters.policy = PolicyKind::equipartition;
  const auto allocations = decide(parameters, reports);
  EXPECT_EQ(processors_of(allocations), (std::vector<int>{32, 32, 0}));
  EXPECT_EQ(allocations[2].reason, "waits: multiprogramming level 2 reached");
  parameters.policy = PolicyKind::pdpa;  // PDPA sets its own: all three start with 64 / 3
  EXPECT_EQ(processors_of(decide(parameters, reports)), (std::vector<int>{21, 21, 21}));
}

}  // namespace
}  // namespace augur::manager
