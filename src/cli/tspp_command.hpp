// augur tspp [FILE] [-b] [-d] [--json]: the task-system performance predictor (docs/tspp.md).
// Also the seed's own interface, `tspp [-b] [-d] <in >out` (build/bin/tspp).
#pragma once

#include <cstddef>
#include <string>

namespace CLI {
class App;
}

namespace augur::cli {

struct TsppOptions {
  std::string file = "-";  // "-": standard input
  bool brief = false;
  bool dump = false;
  bool json = false;
  bool csv = false;  // the times as CSV (render_times_csv)
  std::string method = "hybrid";          // or "mak-lundstrom", "transient", "exact", "decomposition"
  std::string residence = "exponential";  // or "phases" (mak-lundstrom)
  std::string discipline = "fcfs";        // exact: or "ps"
  std::size_t max_states = 0;             // exact, decomposition: 0, the method's default limit
  std::size_t beam = 0;                   // pruned: states kept per level (0: the default)
  int visits = 1;                         // transient, exact
  int stages = 1;                         // transient, exact
  int grid = 1000;                        // transient
};

// Declares the options of `augur tspp` on its subcommand (the table of commands.cpp makes it).
void add_tspp_options(CLI::App* command, TsppOptions& options);
int run_tspp_command(const TsppOptions& options);

}  // namespace augur::cli
