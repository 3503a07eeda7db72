// What the policy tests share: the processors of a decision, parameters for a policy and a machine.
#pragma once

#include <vector>

#include "manager/policy.hpp"

namespace augur::manager::test {

inline std::vector<int> processors_of(const std::vector<Allocation>& allocations) {
  std::vector<int> result;
  for (const Allocation& allocation : allocations) result.push_back(allocation.processors);
  return result;
}

inline PolicyParameters parameters_for(PolicyKind policy, int cpus) {
  PolicyParameters parameters;
  parameters.policy = policy;
  parameters.cpus = cpus;
  return parameters;
}

}  // namespace augur::manager::test
