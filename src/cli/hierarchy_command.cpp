// augur hierarchy: the group of subcommands (docs/hierarchy.md). Each subcommand is a file of its own
// (hierarchy_simulate.cpp, hierarchy_generate.cpp, hierarchy_sweep.cpp).
#include "hierarchy_command.hpp"

#include <CLI/CLI.hpp>

#include "command.hpp"

namespace augur::cli {

Runner declare_hierarchy_command(CLI::App& command) {
  command.require_subcommand(1);
  CLI::App* simulate = command.add_subcommand(
      "simulate", "Simulate a program (drawn from a behaviour model, or a program file) on a hierarchical machine: execution "
                  "time against the ideal execution, per level utilization, occupancy, packets grasped and migrated, traffic");
  const auto simulate_options = add_hierarchy_simulate(*simulate);
  CLI::App* generate = command.add_subcommand("generate", "Draw a synthetic program from a behaviour model (a preset or a file) and write it");
  const auto generate_options = add_hierarchy_generate(*generate);
  CLI::App* sweep = command.add_subcommand(
      "sweep", "Simulate models over system sizes and fan-outs: execution time relative to the ideal one (Figure 19) and "
               "actual execution time (Figure 20), one row per model and fan-out");
  const auto sweep_options = add_hierarchy_sweep(*sweep);
  command.footer(
      "Examples:\n"
      "  augur hierarchy simulate --levels 2 --fanout 4 --processors 8 --model UU20 --replications 10\n"
      "  augur hierarchy simulate --machine examples/hierarchy/two_level.machine --model XP11 --json\n"
      "  augur hierarchy sweep --model UU20,XU11,XP11,XU20 --fanout 2,4,8 --processors 4:512:*2\n"
      "  augur hierarchy generate XU11 --seed 3 -o program.hprog\n"
      "  augur hierarchy simulate --machine examples/hierarchy/two_level.machine --program program.hprog\n"
      "Guide: docs/hierarchy.md; files: docs/formats.md (Hierarchical machines, Program behaviour models, Hierarchical programs)");
  return [simulate, simulate_options, generate, generate_options, sweep, sweep_options] {
    if (simulate->parsed()) return run_hierarchy_simulate(*simulate_options);
    if (generate->parsed()) return run_hierarchy_generate(*generate_options);
    if (sweep->parsed()) return run_hierarchy_sweep(*sweep_options);
    return 2;
  };
}

}  // namespace augur::cli
