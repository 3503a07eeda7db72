// The manager's policies, decided on crafted reports and checked against allocations computed by hand.
#include <gtest/gtest.h>

#include <numeric>
#include <stdexcept>
#include <vector>

#include "manager/policy.hpp"
#include "policy_support.hpp"

namespace augur::manager {
namespace {

using test::parameters_for;
using test::processors_of;

ApplicationReport application(std::uint64_t id, int max_processors = 0, int allocation = 0) {
  ApplicationReport report;
  report.id = id;
  report.name = "app" + std::to_string(id);
  report.max_processors = max_processors;
  report.allocation = allocation;
  return report;
}

TEST(EqualShares, SplitsEvenlyAndGivesTheRemainderToTheEarliest) {
  const std::vector<int> caps{0, 0, 0};
  EXPECT_EQ(equal_shares(64, caps), (std::vector<int>{22, 21, 21}));  // 64 = 3 * 21 + 1
  EXPECT_EQ(equal_shares(63, caps), (std::vector<int>{21, 21, 21}));
}

TEST(EqualShares, GivesWhatACappedApplicationCannotUseToTheOthers) {
  // 64 among 4 is 16; the 4-processor job takes 4, then 60 among 3 is 20; the 18 takes 18, 42 among 2 is 21.
  const std::vector<int> caps{4, 0, 18, 30};
  EXPECT_EQ(equal_shares(64, caps), (std::vector<int>{4, 21, 18, 21}));
}

TEST(EqualShares, EveryCapBelowTheShareLeavesProcessorsFree) {
  const std::vector<int> caps{2, 3};
  EXPECT_EQ(equal_shares(16, caps), (std::vector<int>{2, 3}));
}

TEST(EqualShares, MoreApplicationsThanProcessorsTheEarliestGetOne) {
  const std::vector<int> caps{0, 0, 0, 0, 0};
  EXPECT_EQ(equal_shares(3, caps), (std::vector<int>{1, 1, 1, 0, 0}));
  EXPECT_TRUE(equal_shares(8, std::vector<int>{}).empty());
}

TEST(Equipartition, DecidesEqualSharesWithTheirReasons) {
  const std::vector<ApplicationReport> reports{application(7), application(3, 8), application(5)};
  const auto allocations = decide(parameters_for(PolicyKind::equipartition, 64), reports);
  // 64 among 3 is 21 (cap 8 < 21: it takes 8); 56 among 2 is 28 each.
  EXPECT_EQ(processors_of(allocations), (std::vector<int>{28, 8, 28}));
  EXPECT_EQ(allocations[0].id, 7U);
  EXPECT_EQ(allocations[1].id, 3U);
  EXPECT_EQ(allocations[0].reason, "equal share of 64 processors among 3 applications");
  EXPECT_EQ(allocations[1].reason, "its request of 8 (below the equal share of 64 processors among 3 applications)");
  EXPECT_EQ(allocations[0].memory.decisions, 1);
}

TEST(Equipartition, IgnoresSpeedupsAndPreemption) {
  std::vector<ApplicationReport> reports{application(1, 0, 32), application(2, 0, 32)};
  reports[0].speedups = {{32, 2.0, SpeedupState::calculated}};
  reports[1].speedups = {{32, 30.0, SpeedupState::calculated}};
  reports[1].preempted = true;
  EXPECT_EQ(processors_of(decide(parameters_for(PolicyKind::equipartition, 64), reports)), (std::vector<int>{32, 32}));
}

TEST(Equipartition, NeverHandsOutMoreThanTheMachine) {
  for (int cpus = 1; cpus <= 70; ++cpus) {
    for (std::uint64_t count = 1; count <= 9; ++count) {
      std::vector<ApplicationReport> reports;
      for (std::uint64_t id = 0; id < count; ++id) reports.push_back(application(id, static_cast<int>(id % 3) * 5));
      const auto shares = processors_of(decide(parameters_for(PolicyKind::equipartition, cpus), reports));
      const int total = std::accumulate(shares.begin(), shares.end(), 0);
      EXPECT_LE(total, cpus);
      // Brute force: no application could get one more without exceeding its cap, unless the machine is full.
      if (total < cpus) {
        for (std::size_t index = 0; index < shares.size(); ++index) {
          EXPECT_EQ(shares[index], reports[index].max_processors) << cpus << " " << count << " " << index;
        }
      }
      // Equal: two uncapped applications differ by at most one.
      for (std::size_t a = 0; a < shares.size(); ++a) {
        for (std::size_t b = 0; b < shares.size(); ++b) {
          if (reports[a].max_processors == 0 && reports[b].max_processors == 0) {
            EXPECT_LE(std::abs(shares[a] - shares[b]), 1);
          }
        }
      }
    }
  }
}

TEST(Fixed, FirstComeFirstServedAndLaterOnesWait) {
  PolicyParameters parameters = parameters_for(PolicyKind::fixed, 64);
  parameters.fixed_processors = 24;
  const std::vector<ApplicationReport> reports{application(1), application(2, 16), application(3), application(4, 4)};
  // 24 + 16 = 40; the third wants 24 of the 24 left: fits; the fourth waits (0 left).
  const auto allocations = decide(parameters, reports);
  EXPECT_EQ(processors_of(allocations), (std::vector<int>{24, 16, 24, 0}));
  EXPECT_EQ(allocations[3].reason, "waits for 4 free processors");
}

TEST(Fixed, AWaitingJobBlocksTheLaterOnes) {
  PolicyParameters parameters = parameters_for(PolicyKind::fixed, 32);
  const std::vector<ApplicationReport> reports{application(1, 20), application(2, 20), application(3, 4)};
  EXPECT_EQ(processors_of(decide(parameters, reports)), (std::vector<int>{20, 0, 0}));
}

TEST(Policies, NamesRoundTripAndBadParametersAreRefused) {
  for (const PolicyKind kind : all_policies()) EXPECT_EQ(parse_policy(policy_name(kind)), kind);
  EXPECT_FALSE(parse_policy("round-robin").has_value());
  PolicyParameters parameters = parameters_for(PolicyKind::equipartition, 0);
  EXPECT_EQ(validate_parameters(parameters), "cpus must be at least 1");
  EXPECT_THROW((void)decide(parameters, std::vector<ApplicationReport>{}), std::invalid_argument);
  parameters.cpus = 4;
  parameters.step = 0;
  EXPECT_EQ(validate_parameters(parameters), "step must be at least 1");
  parameters.step = 4;
  const std::vector<ApplicationReport> twins{application(1), application(1)};
  EXPECT_THROW((void)decide(parameters, twins), std::invalid_argument);
}

}  // namespace
}  // namespace augur::manager
