// Private to augur_manager: the pieces of hesrpt-plan (hesrpt_plan.cpp) that the rollout policy
// (rollout.cpp) reuses: the applications as the plan reads them, the plan's weights, its machine and its
// hand-out, and this quantum's processors under given weights.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

#include "manager/policy.hpp"
#include "measured_curve.hpp"

namespace augur::manager {

inline constexpr double weight_exponent = 0.75;  // hesrpt-plan: this quantum's processors go by mu^0.75 x gain
inline constexpr double arrivals_exponent = 0.5;  // hesrpt-plan: the plan's machine with k of the n present alive: C (k/n)^0.5

// The applications as the plan reads them: the measured curve, how far each may grow, its work left.
struct Planned {
  std::vector<MeasuredCurve> curves;
  std::vector<int> limits;  // its request, at most `step` past the largest P it measured
  std::vector<double> work;  // work left; the mean of the others' when unknown
};
[[nodiscard]] Planned planned(const PolicyParameters& parameters, std::span<const ApplicationReport> reports);

// The processors the plan gives the `alive` of the `present` applications: C (alive / present)^exponent,
// at least one each while the machine has them (the others go to the applications expected to arrive).
[[nodiscard]] int planned_machine(int cpus, std::size_t alive, std::size_t present, double exponent = arrivals_exponent);

// Hands out `free_processors` one at a time to the largest mu x (S(P+1) - S(P)) among the `present` (the
// earliest on a tie), each up to its limit, past its first processor only on a gain above `minimum_gain`.
void hand_out(const Planned& plan, const std::vector<double>& mu, std::vector<int>& processors, int free_processors,
              const std::vector<char>& present, double minimum_gain);

// One interval of a plan: with `alive_count` of the applications alive, the machine
// planned_machine(cpus, alive_count, n, exponent); one processor to every one alive (the highest weights
// first, as many as that machine has), the rest by weight x gain (hand_out, no minimum gain).
[[nodiscard]] std::vector<int> interval_allocation(const Planned& plan, const std::vector<double>& weights, const std::vector<char>& alive,
                                                   std::size_t alive_count, int cpus, double exponent);

// The plan's weights mu (ten rounds of plan forward and weights backward); `left` the work each reported.
[[nodiscard]] std::vector<double> plan_weights(const Planned& plan, const std::vector<double>& left, int cpus);

// This quantum's processors under `weights`: one to every running application, the rest by weight x gain.
[[nodiscard]] std::vector<int> this_quantum(const PolicyParameters& parameters, std::span<const ApplicationReport> reports,
                                            const Planned& plan, const std::vector<double>& weights);

// hesrpt-plan's decision: the plan, the work each reported, the weights mu and mu^0.75, the processors; with
// parameters.history, each report completed by its program's prior first (with_prior, history.hpp).
struct HesrptDecision {
  Planned plan;
  std::vector<double> left;
  std::vector<double> mu;
  std::vector<double> tempered;
  std::vector<int> processors;
  std::vector<char> prior;  // per application: whether its program's history completed what it reported
};
[[nodiscard]] HesrptDecision hesrpt_decision(const PolicyParameters& parameters, std::span<const ApplicationReport> reports);

}  // namespace augur::manager
