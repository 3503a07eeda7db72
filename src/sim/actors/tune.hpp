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

// One move: a player (static, or created and named by its creation path) to another site.
struct Move {
  int player = 0;              // in the simulation the proposal read (static players first)
  std::string name;            // the player's name; a created player's is its creation path
  int from = 0;
  int to = 0;
  std::string heuristic;       // the heuristic that proposed it (docs/actors.md lists them), or perturbation
  double projected_gain = 0.0; // time units the heuristic expects its proposal to save
};

// One proposal of a heuristic: a move, or moves made together (two players exchanging their sites, a chain of
// partners moving as one), with the heuristic and the projected gain repeated in each move.
struct Proposal {
  std::vector<Move> moves;
  std::string heuristic;
  double projected_gain = 0.0;
};

struct TuneIteration {
  double time = 0.0;           // of the mapping this iteration simulated
  long proposals = 0;          // proposals the heuristics made after it
  std::vector<Move> applied;   // the moves that made the next iteration's mapping (none on the last)
};

struct TuneOptions {
  int maximum_iterations = 40;
  std::size_t alternatives = 64;  // proposals tried alone, best first, when the combined ones are not faster
  std::size_t paired = 8;         // then the pairs of the best `paired` proposals, when none alone is faster
  // Rank the proposals by projected gain × (kept + 1) / (proposed + 2) of their heuristic in this analysis so
  // far (the seed's resolution weighs the heuristic that proposed them); false: by projected gain alone.
  bool weigh_by_record = true;
  // When no proposal is faster: at most this many perturbations, each moving a few players of the best
  // mapping so far to random sites (from the seed's stream 5000 + k), the analysis going on from there; the
  // best mapping found is the result. 0: the analysis stops at the first mapping no proposal improves.
  int perturbations = 6;
  SimulationOptions simulation;  // created_sites: the initial sites of created players named; seed
  std::function<void()> interruption;  // if set, called before each simulation; it throws to stop (Ctrl-C)
  // If set, called before each simulation with the iterations finished so far (of maximum_iterations; tune
  // may stop sooner) and the simulations run so far: the command's progress bar.
  std::function<void(int iterations, int simulations)> progress;
};

// Per heuristic: the moves of its proposals, and those in a mapping that was kept (a proposal of two
// players exchanging sites counts two; perturbation: its moves, all kept).
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

// The heuristics' proposals on one simulation (the sites of players, created ones included, are read from
// it), best projected gain first.
[[nodiscard]] std::vector<Proposal> propose(const Program& program, const Machine& machine, const Simulation& simulation);

// Iterates from `initial`: each iteration applies the proposals that do not conflict (one per player and
// per site) and keeps the new mapping when it is faster, else tries the best `alternatives` proposals alone
// in order of projected gain, then pairs of the best `paired`, and keeps the first that is faster; when none
// is, it perturbs the best mapping (up to `perturbations` times) or stops; at most `maximum_iterations`.
// std::runtime_error when the initial mapping deadlocks (refuse_initial_deadlock).
[[nodiscard]] TuneResult tune(const Program& program, const Machine& machine, const Mapping& initial, const TuneOptions& options);

}  // namespace augur::sim::actors
