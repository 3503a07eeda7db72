// Private to augur_manager: what the policy files share.
#pragma once

#include <string>

#include "manager/policy.hpp"

namespace augur::manager {

// The allocation of `processors` to `report` with the policy's memory carried on (its phase set, one more
// decision counted) and its reason for the log.
[[nodiscard]] Allocation next_allocation(const ApplicationReport& report, int processors, PdpaPhase phase,
                                         std::string reason);

// The policies decide() dispatches to (pdpa.cpp, pdpa_lend.cpp, predicted.cpp).
[[nodiscard]] std::vector<Allocation> decide_pdpa(const PolicyParameters& parameters,
                                                  std::span<const ApplicationReport> reports);
[[nodiscard]] std::vector<Allocation> decide_pdpa_lend(const PolicyParameters& parameters,
                                                       std::span<const ApplicationReport> reports);
[[nodiscard]] std::vector<Allocation> decide_predicted(const PolicyParameters& parameters,
                                                       std::span<const ApplicationReport> reports);

}  // namespace augur::manager
