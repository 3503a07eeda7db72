// augur tspp [FILE] [-b] [-d] [--json]: the task-system performance predictor (docs/tspp.md).
// Also the seed's own interface, `tspp [-b] [-d] <in >out` (build/bin/tspp).
#pragma once

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
  std::string method = "mak-lundstrom";   // or "transient"
  std::string residence = "exponential";  // or "phases" (mak-lundstrom)
  int visits = 1;                         // transient
  int stages = 1;                         // transient
  int grid = 1000;                        // transient
};

// Declares the options of `augur tspp` on its subcommand (the table of commands.cpp makes it).
void add_tspp_options(CLI::App* command, TsppOptions& options);
int run_tspp_command(const TsppOptions& options);

}  // namespace augur::cli
