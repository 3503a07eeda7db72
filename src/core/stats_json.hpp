// The JSON of a mean with its spread (core::Estimate, include/augur/core/stats.hpp), one form for every
// tool that prints one (augur tspp, augur sim and the simulators to come).
#pragma once

#include <nlohmann/json.hpp>

#include "augur/core/stats.hpp"

namespace augur::core {

// {"mean": m, "std": s}, and "ci95_half_width": h when the estimate has an interval.
[[nodiscard]] nlohmann::ordered_json estimate_json(const Estimate& estimate);

}  // namespace augur::core
