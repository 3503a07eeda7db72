// augur actors: actor programs on a multiprocessor model (docs/actors.md, seed 004 §3). A group of
// subcommands, one file each (actors_<sub>.cpp); actors_command.cpp declares the group.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace augur::cli {

struct ActorsSimulateOptions {
  std::string program;
  std::string machine;
  std::string mapping;                  // --mapping FILE
  std::string initial = "round-robin";  // --initial round-robin|random|one-site
  std::uint64_t seed = 1;
  std::vector<std::string> set;         // --set NAME=VALUE
  bool json = false;
};

// augur actors simulate: declares its options on `command` and returns them (filled when it is parsed).
std::shared_ptr<ActorsSimulateOptions> add_actors_simulate(CLI::App& command);
int run_actors_simulate(const ActorsSimulateOptions& options);

}  // namespace augur::cli
