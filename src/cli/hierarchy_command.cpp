// augur hierarchy: the group of subcommands (docs/hierarchy.md). Each subcommand is a file of its own
// (hierarchy_simulate.cpp, hierarchy_generate.cpp); `sweep` is not built yet.
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
  command.footer(
      "Examples:\n"
      "  augur hierarchy simulate --levels 2 --fanout 4 --processors 8 --model UU20 --replications 10\n"
      "  augur hierarchy simulate --machine examples/hierarchy/two_level.machine --model XP11 --json\n"
      "  augur hierarchy generate XU11 --seed 3 -o program.hprog\n"
      "  augur hierarchy simulate --machine examples/hierarchy/two_level.machine --program program.hprog\n"
      "Guide: docs/hierarchy.md; files: docs/formats.md (Hierarchical machines, Program behaviour models, Hierarchical programs)");
  return [simulate, simulate_options, generate, generate_options] {
    if (simulate->parsed()) return run_hierarchy_simulate(*simulate_options);
    if (generate->parsed()) return run_hierarchy_generate(*generate_options);
    return 2;
  };
}

}  // namespace augur::cli
