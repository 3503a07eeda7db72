// Post-game analysis (seed 004 §3.3, Axe): simulate a mapping, let heuristics read the statistics and
// propose moves of players with a projected gain, resolve the proposals into a new mapping, simulate it,
// and iterate until no proposal improves the execution time. docs/actors.md, "augur actors tune".
#pragma once

#include <string>
#include <vector>

#include "sim/actors/simulate.hpp"

namespace augur::sim::actors {

// One proposal: move a static player to another site.
struct Move {
  int player = 0;
  int from = 0;
  int to = 0;
  std::string heuristic;       // communication, contention, load or concurrency
  double projected_gain = 0.0; // time units the heuristic expects to save
};

struct TuneIteration {
  double time = 0.0;           // of the mapping this iteration simulated
  long proposals = 0;          // moves the heuristics proposed after it
  std::vector<Move> applied;   // the moves that made the next iteration's mapping (none on the last)
};

struct TuneOptions {
  int maximum_iterations = 20;
  std::size_t alternatives = 8;  // proposals tried alone, best first, when the combined ones are not faster
  SimulationOptions simulation;
};

struct TuneResult {
  std::vector<TuneIteration> iterations;  // the first is the initial mapping
  Mapping mapping;                        // the best mapping found
  double time = 0.0;                      // its execution time
  double one_site_time = 0.0;             // every player on site 0
  int simulations = 0;
};

// The heuristics' proposals on one simulation of `mapping`, best projected gain first.
[[nodiscard]] std::vector<Move> propose_moves(const Program& program, const Machine& machine, const Mapping& mapping, const Simulation& simulation);

// Iterates from `initial`: each iteration applies the proposals that do not conflict (one move per player and
// per site) and keeps the new mapping when it is faster, else tries the best `alternatives` proposals alone
// in order of projected gain and keeps the first that is faster; it stops when none is, or after
// `maximum_iterations`.
[[nodiscard]] TuneResult tune(const Program& program, const Machine& machine, const Mapping& initial, const TuneOptions& options);

}  // namespace augur::sim::actors
