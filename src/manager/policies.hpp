// Private to augur_manager: what the policy files share.
#pragma once

#include <string>

#include "manager/policy.hpp"

namespace augur::manager {

// The allocation of `processors` to `report` with the policy's memory carried on (its phase set, one more
// decision counted) and its reason for the log.
[[nodiscard]] Allocation next_allocation(const ApplicationReport& report, int processors, PdpaPhase phase,
                                         std::string reason);

}  // namespace augur::manager
