// augur speedup -- PROGRAM ARGS: the self-analyzer's validation experiment (docs/speedup.md).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace augur::cli {

struct SpeedupOptions {
  std::vector<std::string> command;
  int max_threads = 0;  // 0: the processors of the machine
  std::string baseline;  // --baseline; its default is libaugur's (runtime/options.cpp), set when declared
  int repeat = 5;
  int sweep_every = 10;
  bool no_sweep = false;
  std::optional<std::uint64_t> region;  // empty: the longest-running region
  bool json = false;
  bool csv = false;  // one CSV line per thread count
  bool quiet = false;
  bool progress = false;  // progress lines even when stderr is not a terminal
};

// Declares the options of `augur speedup` on its subcommand (the table of commands.cpp makes it).
void add_speedup_options(CLI::App* command, SpeedupOptions& options);
int run_speedup_command(const SpeedupOptions& options);

}  // namespace augur::cli
