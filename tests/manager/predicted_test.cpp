// Equal efficiency and marginal gain on crafted reports, against allocations worked out by hand from
// Amdahl's law (S(P) = 1 / (f + (1 - f) / P)).
#include <gtest/gtest.h>

#include <vector>

#include "manager/policy.hpp"
#include "policy_support.hpp"

namespace augur::manager {
namespace {

using test::parameters_for;
using test::processors_of;

ApplicationReport measured(std::uint64_t id, double serial_fraction, int allocation, int max_processors = 0) {
  ApplicationReport report;
  report.id = id;
  report.allocation = allocation;
  report.max_processors = max_processors;
  report.speedups.push_back({2, amdahl_speedup(serial_fraction, 2), SpeedupState::calculated});
  return report;
}

TEST(AmdahlFit, RecoversTheSerialFractionAndIgnoresWhatIsNotCalculated) {
  ApplicationReport report;
  for (const int processors : {1, 2, 4, 8, 16}) {
    report.speedups.push_back({processors, amdahl_speedup(0.125, processors), SpeedupState::calculated});
  }
  report.speedups.push_back({32, 99.0, SpeedupState::not_calculated});
  ASSERT_TRUE(fitted_serial_fraction(report).has_value());
  EXPECT_NEAR(*fitted_serial_fraction(report), 0.125, 1e-12);
  EXPECT_DOUBLE_EQ(amdahl_speedup(0.5, 2), 4.0 / 3.0);
  EXPECT_FALSE(fitted_serial_fraction(ApplicationReport{}).has_value());
  // Speedups above linear give f < 0, clamped to 0.
  ApplicationReport superlinear;
  superlinear.speedups.push_back({4, 5.0, SpeedupState::calculated});
  EXPECT_EQ(fitted_serial_fraction(superlinear), 0.0);
}

TEST(EqualEfficiency, GivesEachProcessorWhereTheEfficiencyStaysHighest) {
  // A, f = 0.12: E(P) = 1 / (0.12 P + 0.88): E(2) = 0.893, E(3) = 0.806, E(4) = 0.735, E(5) = 0.676,
  // E(6) = 0.625, E(7) = 0.581. B, f = 0.35: E(P) = 1 / (0.35 P + 0.65): E(2) = 0.741, E(3) = 0.588.
  // One each, then in order of efficiency: A2, A3, B2, A4, A5, A6, B3, A7.
  const std::vector<ApplicationReport> reports{measured(1, 0.12, 5), measured(2, 0.35, 5)};
  const auto allocations = decide(parameters_for(PolicyKind::equal_efficiency, 9), reports);
  EXPECT_EQ(processors_of(allocations), (std::vector<int>{6, 3}));
  EXPECT_EQ(allocations[1].reason, "equal efficiency: predicted efficiency 0.59 (fitted f = 0.350)");
  EXPECT_EQ(processors_of(decide(parameters_for(PolicyKind::equal_efficiency, 10), reports)), (std::vector<int>{7, 3}));
  EXPECT_EQ(processors_of(decide(parameters_for(PolicyKind::equal_efficiency, 5), reports)), (std::vector<int>{3, 2}));
}

TEST(EqualEfficiency, AnApplicationWithoutMeasurementsIsTakenAsLinear) {
  ApplicationReport fresh;
  fresh.id = 9;
  fresh.max_processors = 3;
  const std::vector<ApplicationReport> reports{measured(1, 0.5, 4), fresh};
  const auto allocations = decide(parameters_for(PolicyKind::equal_efficiency, 6), reports);
  EXPECT_EQ(processors_of(allocations), (std::vector<int>{3, 3}));  // the linear one to its request first
  EXPECT_EQ(allocations[1].reason, "equal efficiency: predicted efficiency 1.00 (no speedup measured yet, taken as linear)");
}

TEST(MarginalGain, LinearFirstThenTheBestGainAboveTheMinimum) {
  // A linear (gain 1 per processor), B f = 0.5: S = 2P / (P + 1): gains 0.333, 0.167, 0.100, 0.067 ...
  PolicyParameters parameters = parameters_for(PolicyKind::marginal_gain, 8);
  EXPECT_EQ(processors_of(decide(parameters, std::vector<ApplicationReport>{measured(1, 0.0, 4), measured(2, 0.5, 4)})),
            (std::vector<int>{7, 1}));
  const std::vector<ApplicationReport> capped{measured(1, 0.0, 4, 3), measured(2, 0.5, 4)};
  EXPECT_EQ(processors_of(decide(parameters, capped)), (std::vector<int>{3, 5}));
  parameters.minimum_gain = 0.12;  // B stops at 3 (its fourth would gain 0.100): 2 stay free
  EXPECT_EQ(processors_of(decide(parameters, capped)), (std::vector<int>{3, 3}));
}

TEST(MarginalGain, WeighsTheGainByTheRemainingWork) {
  // A linear, 100 s left at 4: 400 one-processor seconds, score 1 / 400 = 0.0025 per processor.
  // B f = 0.5, 10 s left at 1: 10 s of work, scores 0.1 x gain: 0.0333, 0.0167, 0.0100, 0.0067, 0.0048,
  // 0.0036, 0.0028 (to 8), then 0.0022 (to 9) < 0.0025: with 10 processors A 2, B 8.
  ApplicationReport a = measured(1, 0.0, 4);
  a.predicted_time = 100.0;
  ApplicationReport b = measured(2, 0.5, 1);
  b.predicted_time = 10.0;
  const std::vector<ApplicationReport> reports{a, b};
  EXPECT_EQ(processors_of(decide(parameters_for(PolicyKind::marginal_gain, 10), reports)), (std::vector<int>{2, 8}));
}

TEST(PredictedPolicies, MoreApplicationsThanProcessorsTheEarliestGetOne) {
  const std::vector<ApplicationReport> reports{measured(1, 0.1, 0), measured(2, 0.1, 0), measured(3, 0.1, 0)};
  for (const PolicyKind kind : {PolicyKind::equal_efficiency, PolicyKind::marginal_gain}) {
    const auto allocations = decide(parameters_for(kind, 2), reports);
    EXPECT_EQ(processors_of(allocations), (std::vector<int>{1, 1, 0}));
    EXPECT_EQ(allocations[2].reason, "waits: more applications than processors");
  }
}

}  // namespace
}  // namespace augur::manager
