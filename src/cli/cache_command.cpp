// augur cache: cache simulation (issue 17, docs/cache.md). The group is a table of subcommands, one row per
// subcommand {name, summary, declare function}; each subcommand lives in its own file cache_<sub>.cpp.
#include <CLI/CLI.hpp>
#include <memory>
#include <utility>
#include <vector>

#include "command.hpp"

namespace augur::cli {

Runner declare_cache_sim_command(CLI::App& command);
Runner declare_cache_trace_command(CLI::App& command);

namespace {

const Command cache_subcommands[] = {
    {"sim",
     "Simulate a cache hierarchy on a memory trace (din, valgrind lackey, augur binary): accesses, misses, miss "
     "rate, the 3C (compulsory, capacity, conflict) and writebacks per level.",
     declare_cache_sim_command},
    {"trace",
     "Expand a program model (arrays, loops, references, branches, calls) into its exact address trace, augur "
     "binary or din, for the other cache commands.",
     declare_cache_trace_command},
};

}  // namespace

Runner declare_cache_command(CLI::App& command) {
  command.require_subcommand(1);
  auto runners = std::make_shared<std::vector<std::pair<CLI::App*, Runner>>>();
  for (const Command& row : cache_subcommands) {
    CLI::App* subcommand = command.add_subcommand(row.name, row.summary);
    runners->emplace_back(subcommand, row.declare(*subcommand));
  }
  command.footer("Guide: docs/cache.md; formats: docs/formats.md (\"Cache traces\", \"Cache specifications\", \"Program models\")");
  return [runners] {
    for (const auto& [subcommand, run] : *runners) {
      if (subcommand->parsed()) return run();
    }
    return 2;
  };
}

}  // namespace augur::cli
