// augur actors: the group of subcommands (docs/actors.md). Each subcommand is a file of its own
// (actors_simulate.cpp, actors_tune.cpp, actors_search.cpp).
#include "actors_command.hpp"

#include <CLI/CLI.hpp>
#include <memory>

#include "command.hpp"

namespace augur::cli {

Runner declare_actors_command(CLI::App& command) {
  command.require_subcommand(1);
  CLI::App* simulate = command.add_subcommand(
      "simulate", "Simulate an actor program on a machine: execution time, per site utilization and queue, per link "
                  "traffic, per player busy time and messages");
  const auto simulate_options = add_actors_simulate(*simulate);
  CLI::App* tune = command.add_subcommand(
      "tune", "Post-game analysis: simulate, let heuristics (communication, load, concurrency) propose moves of players, "
              "keep the mapping when it is faster, iterate; prints each iteration, the final mapping and the speedup");
  const auto tune_options = add_actors_tune(*tune);
  CLI::App* search = command.add_subcommand(
      "search", "Baselines of post-game analysis: the best mapping by exhaustive search (the optimum), simulated annealing, "
                "random search, greedy load balancing or communication clustering, each candidate one simulation");
  const auto search_options = add_actors_search(*search);
  command.footer(
      "Examples:\n"
      "  augur actors simulate examples/actors/pipeline.actors --machine examples/actors/ring8.machine\n"
      "  augur actors simulate examples/actors/farm.actors --machine examples/actors/mesh4x4.machine --set workers=30 --json\n"
      "  augur actors tune examples/actors/pipeline.actors --machine examples/actors/ring8.machine --write-mapping best.map\n"
      "  augur actors search examples/actors/pipeline.actors --machine examples/actors/mesh2x2.machine --method exhaustive\n"
      "Guide: docs/actors.md; files: docs/formats.md (Actor programs, Machines, Mappings)");
  return [simulate, simulate_options, tune, tune_options, search, search_options] {
    if (simulate->parsed()) return run_actors_simulate(*simulate_options);
    if (tune->parsed()) return run_actors_tune(*tune_options);
    if (search->parsed()) return run_actors_search(*search_options);
    return 2;
  };
}

}  // namespace augur::cli
