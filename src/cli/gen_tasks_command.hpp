// augur gen-tasks: a seeded random series-parallel task system, in the TSPP language (docs/tspp.md).
#pragma once

#include <string>

#include "augur/tspp.hpp"

namespace CLI {
class App;
}

namespace augur::cli {

struct GenTasksOptions {
  tspp::GeneratorOptions generator;
  std::string output;  // empty: standard output
};

CLI::App* add_gen_tasks_command(CLI::App& app, GenTasksOptions& options);
int run_gen_tasks_command(const GenTasksOptions& options);

}  // namespace augur::cli
