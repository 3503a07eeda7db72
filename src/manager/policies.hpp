// Private to augur_manager: what the policy files share.
#pragma once

#include <functional>
#include <optional>
#include <string>

#include "manager/policy.hpp"

namespace augur::manager {

// The allocation of `processors` to `report` with the policy's memory carried on (its phase set, one more
// decision counted) and its reason for the log.
[[nodiscard]] Allocation next_allocation(const ApplicationReport& report, int processors, PdpaPhase phase,
                                         std::string reason);

// What PDPA's state machine asks for one running application (allocation > 0), before the machine is shared
// out (pdpa.cpp): the processors it wants for the next quantum, its next phase, its memory and the reason.
struct PdpaMove {
  int request = 0;
  PdpaPhase phase = PdpaPhase::no_reference;
  PolicyMemory memory;
  std::string reason;
};
[[nodiscard]] PdpaMove pdpa_move(const PolicyParameters& parameters, const ApplicationReport& report);

// Hands out `free_processors` one at a time, each to the application with the highest score (the earliest
// on a tie); score(index, now) is the score of giving application `index` its processor number now + 1, or
// nothing when it takes no more. Stops when the processors are out or nobody takes one (policy.cpp).
void hand_out_one_at_a_time(std::vector<int>& processors, int& free_processors,
                            const std::function<std::optional<double>(std::size_t index, int now)>& score);

// The policies decide() dispatches to (pdpa.cpp, pdpa_lend.cpp, shortest_first.cpp, hesrpt_plan.cpp, rollout.cpp,
// predicted.cpp).
[[nodiscard]] std::vector<Allocation> decide_pdpa(const PolicyParameters& parameters,
                                                  std::span<const ApplicationReport> reports);
[[nodiscard]] std::vector<Allocation> decide_pdpa_lend(const PolicyParameters& parameters,
                                                       std::span<const ApplicationReport> reports);
[[nodiscard]] std::vector<Allocation> decide_shortest_first(const PolicyParameters& parameters,
                                                            std::span<const ApplicationReport> reports);
[[nodiscard]] std::vector<Allocation> decide_hesrpt_plan(const PolicyParameters& parameters,
                                                         std::span<const ApplicationReport> reports);
[[nodiscard]] std::vector<Allocation> decide_rollout(const PolicyParameters& parameters,
                                                     std::span<const ApplicationReport> reports);
[[nodiscard]] std::vector<Allocation> decide_predicted(const PolicyParameters& parameters,
                                                       std::span<const ApplicationReport> reports);

}  // namespace augur::manager
