// augur actors: actor programs on a multiprocessor model (docs/actors.md, seed 004 §3). A group of
// subcommands, one file each (actors_<sub>.cpp); actors_command.cpp declares the group, actors_inputs.cpp
// reads what they share (the program, the machine, the mapping).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "sim/actors/simulate.hpp"

namespace CLI {
class App;
}

namespace augur::sim::parallel {
class Ranks;
}

namespace augur::cli {

struct ActorsOptions {
  std::string program;
  std::string machine;
  std::string mapping;                  // --mapping FILE
  std::string initial = "round-robin";  // --initial round-robin|random|one-site|greedy
  std::uint64_t seed = 1;
  std::vector<std::string> set;         // --set NAME=VALUE
  bool json = false;
  // simulate
  std::string trace;                    // --trace FILE
  int replications = 1;                 // --replications R
  int threads = 0;                      // --threads T (0: the hardware's; simulate's replications, search)
  // tune
  int maximum_iterations = 40;
  int perturbations = 6;                // --perturbations N
  std::string write_mapping;            // --write-mapping FILE (tune, search)
  // search
  std::string method;                   // --method exhaustive|annealing|random|greedy|clustering
  long budget = 0;                      // --budget N (0: the method's default)
  bool progress = false;                // --progress: progress lines on stderr even when it is not a terminal
  bool quiet = false;                   // -q: no progress
};

struct ActorsInputs {
  sim::actors::Program program;
  sim::actors::Machine machine;
  sim::actors::Mapping mapping;
  sim::actors::SimulationOptions options;
};

// Declares PROGRAM, --machine, --mapping, --initial, --seed, --set and --json on `command`.
void add_actors_inputs(CLI::App& command, ActorsOptions& options);
// Runs `body` and returns its exit status; an InputError is printed as it is (file:line:col: message),
// another exception as "augur actors SUBCOMMAND: message"; both give exit status 1.
int run_reporting_errors(const char* subcommand, const std::function<int()>& body);
// Reads the program (with --set), the machine and the mapping (--mapping or --initial); InputError on bad input.
[[nodiscard]] ActorsInputs load_actors_inputs(const ActorsOptions& options);
// "PLAYER SITE" a line, static players then the created ones named: a mapping file (docs/formats.md, "Mappings").
[[nodiscard]] std::string mapping_text(const sim::actors::Program& program, const sim::actors::Mapping& mapping,
                                       const std::vector<std::pair<std::string, int>>& created = {});

// augur actors simulate and augur actors tune: each declares its options on `command` and returns them
// (filled when it is parsed).
std::shared_ptr<ActorsOptions> add_actors_simulate(CLI::App& command);
int run_actors_simulate(const ActorsOptions& options);
// simulate --replications R (actors_replications.cpp): the replications over threads and MPI ranks; prints on
// rank 0 only.
int run_actors_replications(const ActorsOptions& options, const ActorsInputs& inputs, const sim::parallel::Ranks& ranks);
// The first line of simulate's output: the program, the machine, the mapping and the seed.
[[nodiscard]] std::string describe_simulation(const ActorsOptions& options, const sim::actors::Machine& machine);
std::shared_ptr<ActorsOptions> add_actors_tune(CLI::App& command);
int run_actors_tune(const ActorsOptions& options);
std::shared_ptr<ActorsOptions> add_actors_search(CLI::App& command);
int run_actors_search(const ActorsOptions& options);

}  // namespace augur::cli
