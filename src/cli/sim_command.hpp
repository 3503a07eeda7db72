// augur sim FILE: simulate a TSPP task system on its queueing network (docs/sim.md).
#pragma once

#include <cstdint>
#include <string>

namespace CLI {
class App;
}

namespace augur::cli {

struct SimOptions {
  std::string file = "-";
  int replications = 1000;
  std::uint64_t seed = 1;
  int visits = 1;
  std::string service = "exponential";
  std::string discipline = "fcfs";
  int threads = 0;    // 0: the hardware concurrency, capped by the replications
  std::string trace;  // Chrome trace-event file of the first replication; empty: none
  bool json = false;
  bool csv = false;  // the task times as CSV (render_times_csv)
  bool quiet = false;
  bool progress = false;  // progress lines even when stderr is not a terminal
};

// Declares the options of `augur sim` on its subcommand (the table of commands.cpp makes it).
void add_sim_options(CLI::App* command, SimOptions& options);
int run_sim_command(const SimOptions& options);

}  // namespace augur::cli
