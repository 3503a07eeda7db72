// augur gen-tasks: a seeded random series-parallel task system, in the TSPP language (docs/tspp.md).
#pragma once

#include <cstdint>
#include <string>

#include "augur/tspp.hpp"

namespace CLI {
class App;
}

namespace augur::cli {

struct GenTasksOptions {
  tspp::GeneratorOptions generator;
  std::string output;  // empty: standard output
  std::uint64_t max_size = 4000000000;  // --max-size: the largest text written, in bytes (estimated first)
};

// Declares the options of `augur gen-tasks` on its subcommand (the table of commands.cpp makes it).
void add_gen_tasks_options(CLI::App* command, GenTasksOptions& options);
int run_gen_tasks_command(const GenTasksOptions& options);

}  // namespace augur::cli
