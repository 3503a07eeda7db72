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
  std::string json;     // write the report there (empty: no file)
  int threads = 0;      // OMP_NUM_THREADS for the program (0: leave it)
  long iterations = 0;  // iterations of the program's main loop, when known (0: unknown)
  int dpd_window = 0;   // samples of the periodicity detector's window (0: its default)
  bool one_run = false; // one outer parallel region: no second run on the baseline thread count
  // libaugur's options given on the command line, as (key, value): AUGUR_<KEY>=value.
  std::vector<std::pair<std::string, std::string>> augur_options;
};

CLI::App* add_run_command(CLI::App& app, RunOptions& options);
int run_run_command(const RunOptions& options);

}  // namespace augur::cli
