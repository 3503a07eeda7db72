// augur couple: kernel coupling (seed 002). `measure` runs a program that declares its kernels to the
// harness (augur/coupling.h) and reports; `report` reads measurement files; `predict` reuses coupling
// values of other configurations (isocoupling); `transitions` follows coupling values along problem
// size. Guide: docs/couple.md; method: docs/coupling.md.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "options_command.hpp"

namespace CLI {
class App;
}

namespace augur::cli {

struct CoupleOptions {
  // measure
  std::vector<std::string> command;  // PROGRAM ARGS
  std::string save;                  // keep the measurement file here (-o/--output; --save: its old name)
  int threads = 0;                   // -p/--threads: OMP_NUM_THREADS for the program (0: as set)
  ToolChoices coupling_choices;  // measure: the harness's options given as flags (full keys), for the tool channel
  bool quiet = false;
  bool progress = false;  // measure --progress: progress lines even when stderr is not a terminal
  // report, predict, transitions
  std::vector<std::string> files;
  std::string target;                  // predict: the target's measurement file
  std::optional<long long> target_run; // predict: the target's run id in the database
  std::vector<long long> runs;         // report: stored runs
  std::optional<int> length;       // chain length k
  double threshold = 0.05;         // transitions
  bool all_chains = false;         // report: every length's couplings
  bool summary = false;            // report: one line per run
  // the performance database (docs/db.md): measure stores there; report, predict and transitions read
  // it when no files are given
  std::string db;           // empty: $AUGUR_DB or the default path
  bool no_db = false;       // measure: do not store
  std::string application;  // filter of the stored runs
  bool json = false;
  bool csv = false;  // report: --csv
};

// Declares the options of `augur couple` on its subcommand (the table of commands.cpp makes it).
void add_couple_options(CLI::App* command, CoupleOptions& options);
int run_couple_command(const CLI::App& command, const CoupleOptions& options);

}  // namespace augur::cli
