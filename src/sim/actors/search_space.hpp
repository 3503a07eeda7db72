// What the searches of search.cpp share (private to sim/actors): the players searched, a candidate as one
// site per player, its simulation, and the methods' entry points.
#pragma once

#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "augur/sim/engine.hpp"
#include "sim/actors/search.hpp"

namespace augur::sim::actors {

// The players a search moves: the static players of the program, then the players created in the initial
// layout's run, by creation path: player p of the space is player p of the profile. A candidate is one site
// per player, in that order.
struct SearchSpace {
  const Program& program;
  const Machine& machine;
  SimulationOptions options;
  std::vector<std::string> created;  // creation paths
  Simulation profile;                // the initial layout's run
  std::vector<int> initial;          // its sites, one per player
  std::function<void()> interruption;  // SearchOptions::interruption, before each simulation

  [[nodiscard]] std::size_t players() const { return program.players.size() + created.size(); }
  [[nodiscard]] Layout layout(const std::vector<int>& sites) const;
  // The candidate's execution time; infinity when it deadlocks.
  [[nodiscard]] double time(const std::vector<int>& sites) const;
};

constexpr double never = std::numeric_limits<double>::infinity();

// The best candidate of a method and the simulations it ran (the profile's not counted).
struct Found {
  std::vector<int> sites;
  double time = never;
  long simulations = 0;
};

// Keeps `candidate` when it is strictly faster (the first of equals wins, whatever the thread count).
inline void keep_better(Found& best, const std::vector<int>& sites, double time) {
  if (time < best.time) {
    best.sites = sites;
    best.time = time;
  }
}

// A result of a method's candidates as bytes and back, bit for bit (SearchOptions::spread).
[[nodiscard]] std::string encode_found(const Found& found);
[[nodiscard]] Found decode_found(const std::string& bytes);

// Runs evaluate(index) -> Found for index in [0, count) over options.threads threads, or through
// options.spread when it is set, and collect(index, Found&&) on the calling thread in index order.
template <typename Evaluate, typename Collect>
void run_candidates(const SearchOptions& options, int count, Evaluate&& evaluate, Collect&& collect) {
  if (!options.spread) return run_replications(count, options.threads, evaluate, collect);
  options.spread(
      count, [&](int index) { return encode_found(evaluate(index)); }, [&](int index, const std::string& bytes) { collect(index, decode_found(bytes)); });
}

// Reports the simulations done so far through options.progress, about every 10000.
struct Progress {
  const SearchOptions& options;
  long done = 0;
  long next = 10000;
  void add(long simulations) {
    done += simulations;
    if (done < next || !options.progress) return;
    options.progress(done);
    next = (done / 10000 + 1) * 10000;
  }
};

// search_exhaustive.cpp
struct Exhaustive {
  Found found;
  long symmetries = 1;
  double mappings = 0.0;
};
[[nodiscard]] Exhaustive search_exhaustive(const SearchSpace& space, const SearchOptions& options);

// search_constructive.cpp: greedy load balancing and communication clustering.
[[nodiscard]] std::vector<int> greedy_sites(const SearchSpace& space);
[[nodiscard]] Found search_clustering(const SearchSpace& space, const SearchOptions& options);

// The communication cost between players of the space a hop apart, from the profile: per pair (a, b) with
// a < b, messages × (send + receive overhead + mean latency) + traffic / mean bandwidth.
struct Affinity {
  int a = 0;
  int b = 0;
  double cost = 0.0;
};
[[nodiscard]] std::vector<Affinity> affinities(const SearchSpace& space);
// Work per player of the space in work units (busy time × the speed of the site it ran on).
[[nodiscard]] std::vector<double> player_work(const SearchSpace& space);

}  // namespace augur::sim::actors
