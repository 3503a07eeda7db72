// augur run [options] -- PROGRAM ARGS: measures an unmodified OpenMP program (built with gcc
// -fopenmp) through libaugur_preload.so, which finds its iterative parallel region by itself
// (thesis section 4.4.3). Guide: docs/run.md.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace CLI {
class App;
}

namespace augur::cli {

struct RunOptions {
  std::vector<std::string> command;
  std::string preload;  // libaugur_preload.so (default: the one of this build)
  bool json = false;      // --json: the report as JSON instead of the table
  std::string json_file;  // --json=FILE: the report written there too (empty: no file)
  int threads = 0;      // OMP_NUM_THREADS for the program (0: leave it)
  bool one_run = false;   // one outer parallel region: no second run (the default; the flag is kept for scripts)
  bool check_run = false; // one outer parallel region: a second run on the baseline thread count, as a check
  // The options of libaugur and of the preload session given as flags, as (full key, value); the program
  // gets them in the tool channel (AUGUR_TOOL_OPTIONS).
  std::vector<std::pair<std::string, std::string>> augur_options;

  // The value of --iterations (run.iterations), 0 when not given.
  [[nodiscard]] long iterations() const;
};

// Declares the options of `augur run` on its subcommand (the table of commands.cpp makes it).
void add_run_options(CLI::App* command, RunOptions& options);
int run_run_command(const RunOptions& options);

}  // namespace augur::cli
