// augur manager simulate: what its two files share (the command in manager_simulate.cpp, the printing in
// manager_simulate_print.cpp).
#pragma once

#include <string>

#include "manager/simulate.hpp"

namespace augur::cli {

// The human table: the run's parameters, one row per job, the totals.
[[nodiscard]] std::string render_simulation_table(const std::string& workload, const manager::SimulationOptions& options,
                                                  const manager::SimulationResult& result);
// {"policy", "cpus", "quantum", "mean_response_time", "makespan", "utilization", "mean_efficiency", "decisions",
// "jobs": [...]} (docs/manager.md), indented, with a final newline.
[[nodiscard]] std::string render_simulation_json(const manager::SimulationResult& result);
// One row per job, with a header line.
[[nodiscard]] std::string render_simulation_csv(const manager::SimulationResult& result);

}  // namespace augur::cli
