// Post-game analysis (seed 004 §3.3, Axe): simulate a mapping, let heuristics read the statistics and
// propose moves of players with a projected gain, resolve the proposals into a new mapping, simulate it,
// and iterate until no proposal improves the execution time. docs/actors.md, "augur actors tune".
#pragma once

#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "sim/actors/simulate.hpp"

namespace augur::sim::actors {

// One proposal: move a player (static, or created and named by its creation path) to another site.
struct Move {
  int player = 0;              // in the simulation the proposal read (static players first)
  std::string name;            // the player's name; a created player's is its creation path
  int from = 0;
  int to = 0;
  std::string heuristic;       // communication, contention, load, concurrency or creation
  double projected_gain = 0.0; // time units the heuristic expects to save
};

struct TuneIteration {
  double time = 0.0;           // of the mapping this iteration simulated
  long proposals = 0;          // moves the heuristics proposed after it
  std::vector<Move> applied;   // the moves that made the next iteration's mapping (none on the last)
};

struct TuneOptions {
  int maximum_iterations = 20;
  std::size_t alternatives = 64;  // proposals tried alone, best first, when the combined ones are not faster
  std::size_t paired = 8;         // then the pairs of the best `paired` proposals, when none alone is faster
  SimulationOptions simulation;  // created_sites: the initial sites of created players named
  std::function<void()> interruption;  // if set, called before each simulation; it throws to stop (Ctrl-C)
  // If set, called before each simulation with the iterations finished so far (of maximum_iterations; tune
  // may stop sooner) and the simulations run so far: the command's progress bar.
  std::function<void(int iterations, int simulations)> progress;
};

// Per heuristic: its proposals, and those in a mapping that was kept.
struct HeuristicCount {
  long proposed = 0;
  long kept = 0;
};

struct TuneResult {
  std::vector<TuneIteration> iterations;  // the first is the initial mapping
  Mapping mapping;                        // the best mapping found: its static players ...
  std::vector<std::pair<std::string, int>> created;  // ... and every created player of its run, by name
  double time = 0.0;                      // its execution time
  double one_site_time = 0.0;             // every player on site 0
  int simulations = 0;
  std::map<std::string, HeuristicCount> heuristics;
};

// The heuristics' proposals on one simulation of `mapping` (the sites of created players are read from the
// simulation), best projected gain first.
[[nodiscard]] std::vector<Move> propose_moves(const Program& program, const Machine& machine, const Mapping& mapping, const Simulation& simulation);

// Iterates from `initial`: each iteration applies the proposals that do not conflict (one move per player and
// per site) and keeps the new mapping when it is faster, else tries the best `alternatives` proposals alone
// in order of projected gain and keeps the first that is faster; it stops when none is, or after
// `maximum_iterations`.
[[nodiscard]] TuneResult tune(const Program& program, const Machine& machine, const Mapping& initial, const TuneOptions& options);

}  // namespace augur::sim::actors
