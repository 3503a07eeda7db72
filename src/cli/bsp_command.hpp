// augur bsp TRACE: the OBSP* and classical BSP predictions of a superstep trace against its measured
// times (docs/bsp.md).
#pragma once

#include <optional>
#include <string>

namespace CLI {
class App;
}

namespace augur::cli {

struct BspOptions {
  std::string trace;        // the superstep trace; "-": standard input
  std::optional<double> g;  // seconds per byte
  std::optional<double> L;  // seconds per synchronisation
  std::string hrelation;    // h-relation benchmark records to fit g and L to; empty: none
  std::string experiment = "hrelation";
  std::string combine = "sum";  // the @ of seed eq. 4: sum or max
  bool supersteps = false;      // add the table per machine and superstep
  bool json = false;
};

// Declares the options of `augur bsp` on its subcommand (the table of commands.cpp makes it).
void add_bsp_options(CLI::App* command, BspOptions& options);
int run_bsp_command(const BspOptions& options);

}  // namespace augur::cli
