// Baselines for post-game analysis (issue 18): searches over the mappings of an actor program, each
// candidate judged by one simulation. Exhaustive search (the optimum, with the machine's symmetries pruned),
// simulated annealing, random search, greedy load balancing and communication clustering.
// docs/actors.md, "augur actors search".
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "sim/actors/simulate.hpp"

namespace augur::sim::actors {

// A complete placement: the sites of the static players (and the rule for created players not named) and
// the sites of created players named by their creation path (e.g. "root/left").
struct Layout {
  Mapping mapping;
  std::vector<std::pair<std::string, int>> created;
};

// Simulates `program` under `layout` (the layout's created sites replace options.created_sites).
[[nodiscard]] Simulation simulate_layout(const Program& program, const Machine& machine, const Layout& layout, SimulationOptions options);

// Throws std::runtime_error naming the first player waiting when `run`, the initial mapping's, deadlocks:
// "... nothing to `what`" (search, tune).
void refuse_initial_deadlock(const Simulation& run, const char* what);

enum class SearchMethod { Exhaustive, Annealing, Random, Greedy, Clustering };

// How a method's candidates are run: spread(count, evaluate, collect) calls evaluate(index) once for each
// index in [0, count), on any thread of any process, and collect(index, bytes) with what it returned, for
// every index in order, on the calling thread. The command spreads them over the ranks of an MPI launch
// (sim/parallel, run_encoded_on_every_rank); the search's result is the same bits as with threads.
using Spread = std::function<void(int count, const std::function<std::string(int index)>& evaluate,
                                  const std::function<void(int index, const std::string& bytes)>& collect)>;

struct SearchOptions {
  SearchMethod method = SearchMethod::Random;
  long budget = 1000;            // simulations at most; exhaustive refuses when its mappings exceed it
  int threads = 1;               // 0: the hardware's; results do not depend on it
  int chains = 4;                // annealing: independent chains, budget shared
  SimulationOptions simulation;  // the seed (created_sites are ignored: a layout names its created players)
  std::function<void(long simulations)> progress;  // called on the calling thread about every 10000 simulations
  // If set, called on any thread before each simulation; it throws to stop the search (Ctrl-C), and the
  // search stops promptly and passes the exception on.
  std::function<void()> interruption;
  // If set, the candidates run through it instead of over `threads` threads here (the same result).
  Spread spread;
};

struct SearchResult {
  Layout best;
  double time = 0.0;           // of the best layout
  double initial_time = 0.0;   // of the initial layout (the first simulation)
  long simulations = 0;        // the initial one included
  long static_players = 0;     // the players searched: the static ones ...
  long created_players = 0;    // ... and those created in the initial layout's run
  long symmetries = 1;         // exhaustive: site permutations that leave the machine and its routes unchanged
  double mappings = 0.0;       // exhaustive: mappings that differ beyond those symmetries (Burnside's count)
};

// Searches from `initial`. Its simulation names the players searched: the static ones and those created in
// that run; in every candidate a created player not named stays on its creator's site. A candidate that
// deadlocks is never the best. InputError/runtime_error: the initial layout deadlocks, exhaustive too large.
[[nodiscard]] SearchResult search(const Program& program, const Machine& machine, const Layout& initial, const SearchOptions& options);

// Greedy load balancing from one simulation of `initial`: the players, heaviest work
// first, each to the site that would finish its load soonest (ties: the fewest hops to its partners already
// placed, then the lowest site). The `--initial greedy` mapping.
[[nodiscard]] Layout greedy_layout(const Program& program, const Machine& machine, const Layout& initial, const SimulationOptions& options);

}  // namespace augur::sim::actors
