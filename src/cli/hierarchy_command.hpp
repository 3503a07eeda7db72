// augur hierarchy: the hierarchical multiprocessor simulator (docs/hierarchy.md, seed 004 §4). A group of
// subcommands, one file each (hierarchy_<sub>.cpp); hierarchy_command.cpp declares the group,
// hierarchy_inputs.cpp reads what they share (the machine, the program model, the program).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "sim/hierarchy/simulate.hpp"

namespace CLI {
class App;
}
namespace augur::sim::parallel {
class Ranks;
}

namespace augur::cli {

struct HierarchyOptions {
  std::string machine;        // --machine FILE
  int levels = 2;             // --levels, --fanout, --processors: a uniform machine
  int fanout = 4;
  int processors = 4;
  std::string model;          // --model PRESET|FILE (generate: MODEL)
  std::string program;        // --program FILE
  std::uint64_t seed = 1;
  int replications = 10;
  int threads = 0;
  std::string output;         // generate -o
  std::string trace;          // simulate --trace FILE: replication 0's timeline
  bool json = false;
  bool quiet = false;
  bool progress = false;  // --progress: progress lines on stderr even when it is not a terminal
  bool levels_given = false;  // --levels on the command line (filled by the runner)
  std::vector<std::string> sweep_fanouts;     // sweep: --fanout and --processors as given
  std::vector<std::string> sweep_processors;
};

// The model named by `name`: a preset (UU20, XU11, XP11, XU20) or a model file; its levels set to `levels`
// when the model leaves them open (0: the model's, or 2). InputError on a bad file, or on levels that differ
// (naming `option`).
[[nodiscard]] sim::hierarchy::ProgramModel load_model(const std::string& name, int levels, const std::string& option);
// The machine of --machine, or of --levels/--fanout/--processors.
[[nodiscard]] sim::hierarchy::Machine load_machine(const HierarchyOptions& options);
// Runs `body`; errors reported as augur hierarchy SUBCOMMAND's (report_error), exit status 1.
int run_hierarchy_reporting_errors(const char* subcommand, const std::function<int()>& body);
// Runs `body` on every rank of an MPI launch (one without): rank 0 alone reports errors, exit status 1.
int run_hierarchy_on_ranks(const char* subcommand, const std::function<int(const sim::parallel::Ranks&)>& body);

std::shared_ptr<HierarchyOptions> add_hierarchy_simulate(CLI::App& command);
int run_hierarchy_simulate(const HierarchyOptions& options);
std::shared_ptr<HierarchyOptions> add_hierarchy_generate(CLI::App& command);
int run_hierarchy_generate(const HierarchyOptions& options);
std::shared_ptr<HierarchyOptions> add_hierarchy_sweep(CLI::App& command);
int run_hierarchy_sweep(const HierarchyOptions& options);

}  // namespace augur::cli
