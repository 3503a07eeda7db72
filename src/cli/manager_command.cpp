// augur manager: the processor manager (issue 20, docs/manager.md). The group is a table of subcommands, one
// row per subcommand {name, summary, declare function}; each subcommand lives in its own file
// manager_<sub>.cpp.
#include <CLI/CLI.hpp>
#include <memory>
#include <utility>
#include <vector>

#include "command.hpp"

namespace augur::cli {

Runner declare_manager_simulate_command(CLI::App& command);
Runner declare_manager_start_command(CLI::App& command);
Runner declare_manager_status_command(CLI::App& command);
Runner declare_manager_stop_command(CLI::App& command);

namespace {

const Command manager_subcommands[] = {
    {"simulate",
     "Simulate a workload of jobs (arrivals, work, speedup curves) on N processors under a policy (equipartition, "
     "pdpa, equal-efficiency, fixed, marginal-gain, pdpa-lend, shortest-first, hesrpt-plan, rollout, rollout-arrivals, rollout-wide), with the real manager's decisions: "
     "response times, allocations over time, makespan, utilization, efficiency.",
     declare_manager_simulate_command},
    {"start",
     "Run the processor manager in the foreground: every quantum it reads what the connected programs report (speedup "
     "per processor count, reference and predicted times), asks the policy and writes their allocations; a log of "
     "every change.",
     declare_manager_start_command},
    {"status", "The running manager's applications: allocations, threads, iterations, speedups and their PC/PNC states.",
     declare_manager_status_command},
    {"stop", "Stop the running manager (the programs keep their last allocations).", declare_manager_stop_command},
};

}  // namespace

Runner declare_manager_command(CLI::App& command) {
  command.require_subcommand(1);
  auto runners = std::make_shared<std::vector<std::pair<CLI::App*, Runner>>>();
  for (const Command& row : manager_subcommands) {
    CLI::App* subcommand = command.add_subcommand(row.name, row.summary);
    runners->emplace_back(subcommand, row.declare(*subcommand));
  }
  command.footer("Guide: docs/manager.md; the workload format: docs/formats.md (\"Manager workloads\")");
  return [runners] {
    for (const auto& [subcommand, run] : *runners) {
      if (subcommand->parsed()) return run();
    }
    return 2;
  };
}

}  // namespace augur::cli
