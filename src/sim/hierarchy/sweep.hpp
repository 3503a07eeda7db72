// Sweeps of the hierarchical simulator over system sizes (docs/hierarchy.md, "Sweeps"; seed 004 §4.3,
// Figures 19 and 20): for every model, fan-out F and total number of processors N, the machine of `levels`
// levels with fan-out F at every level above the lowest and N / F^(levels − 1) processors under each lowest
// CS (the other settings at their defaults, or those of a machine file), simulated over replications. Replication r of every point runs
// the program drawn from (seed, r) for its model, so the points of a model compare the same programs.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "sim/hierarchy/simulate.hpp"

namespace augur::sim::hierarchy {

struct SweepModel {
  std::string name;
  ProgramModel model;  // levels open (0) or those of the sweep
};

struct SweepPoint {
  std::string model;
  int fanout = 0;
  long processors = 0;      // in all
  bool possible = false;    // N is a multiple of F^(levels − 1)
  Summary summary;          // when possible
};

struct SweepOptions {
  int levels = 2;
  std::vector<LevelSettings> settings;          // per level (levels entries), or empty for the defaults
  std::uint64_t seed = 1;
  int replications = 10;
  int threads = 0;                              // over the points; the numbers do not depend on it
  std::function<void(int done, int total)> progress;
  std::function<void()> interruption;  // if set, called on any thread before each replication of every point; it throws to stop (Ctrl-C)
  // How the points run (run_replications' contract, as SimulationOptions::runner); unset: over `threads`.
  std::function<void(int count, int threads, const std::function<SweepPoint(int)>& point, const std::function<void(int, SweepPoint&&)>& combine)> runner;
};

// A point's figures as doubles and back, bit for bit (to cross processes); the model's name is not carried.
[[nodiscard]] std::vector<double> point_values(const SweepPoint& point);
[[nodiscard]] SweepPoint point_from_values(const std::vector<double>& values);

// The points in order model, fan-out, processors. InputError (naming the option) on an empty list.
[[nodiscard]] std::vector<SweepPoint> sweep(const std::vector<SweepModel>& models, const std::vector<int>& fanouts,
                                            const std::vector<long>& processors, const SweepOptions& options);

}  // namespace augur::sim::hierarchy
