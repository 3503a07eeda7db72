// The hierarchical multiprocessor simulator (docs/hierarchy.md; seed 004 §4.2-4.3) on the discrete-event
// engine: a program's functions become task packets in the control subsystems (CS); a lower CS whose load is
// below its grasp threshold grasps packets from its parent, a lowest CS hands elementary functions to its
// idle processors; results return up and fire successors; an idle CS whose parent has no packets takes
// packets from the busiest CS of its level over that level's network (migration). The ideal execution is a
// simulation of its own: the same processors, no overhead, first-ready-first-scheduled.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "augur/sim/engine.hpp"
#include "sim/hierarchy/machine.hpp"
#include "sim/hierarchy/program.hpp"

namespace augur::sim::hierarchy {

struct LevelRun {
  long control_subsystems = 0;
  double utilization = 0.0;       // control-unit busy time / (CSs × execution time)
  double occupancy = 0.0;         // space units held, mean over the CSs and the execution time
  double occupancy_maximum = 0.0; // the most space units one CS of the level held
  double occupancy_share = 0.0;   // occupancy / capacity
  long grasped = 0;               // packets handed down by the CSs of this level (to CSs or processors)
  long migrated = 0;              // packets moved between CSs of this level
  long transfers = 0;             // packets and results on the links below the level
  long network = 0;               // packets and results on the level's network
};

struct Execution {
  double time = 0.0;              // execution time: the top-level function's completion
  double ideal_time = 0.0;
  long elementary = 0;            // elementary functions executed
  std::vector<LevelRun> levels;
  std::vector<double> processor_utilization;
  std::uint64_t events = 0;
};

// InputError (located at `where`, the program's source) when the program's levels differ from the machine's,
// or a function has more tasks than the capacity of the CSs of its level.
void check_program_fits(const Program& program, const Machine& machine, const std::string& where);

// One hierarchical execution of `program` on `machine` (check_program_fits first). With a `timeline`, its
// events go there as they happen (docs/hierarchy.md, "The timeline"): a row per CS (by id, level by level
// from the top), then one per processor; the control unit's scheduling as slices on the CSs, elementary
// functions as slices on the processors, packets grasped (by a CS or a processor) and migrated, and results
// going up (or back to the CS of a migrated packet), as flows.
[[nodiscard]] Execution simulate_hierarchy(const Program& program, const Machine& machine, const std::string& where = "program",
                                           TimelineWriter* timeline = nullptr);

// The ideal execution time: `processors` processors, no overhead, elementary functions assigned to free
// processors first ready, first scheduled (ties: in the order they became ready).
[[nodiscard]] double ideal_time(const Program& program, long processors);

// How the replications run: replicate(index) for every index in [0, count), combine(index, result) on the
// calling thread in index order (run_replications' contract; the command passes one that spreads them over
// MPI ranks, where combine is called on rank 0 only).
using ReplicationRunner = std::function<void(int count, int threads, const std::function<Execution(int)>& replicate,
                                             const std::function<void(int, Execution&&)>& combine)>;

// An execution as doubles and back, bit for bit (to cross processes): counts are whole numbers below 2^53.
[[nodiscard]] std::vector<double> execution_values(const Execution& run);
[[nodiscard]] Execution execution_from_values(const std::vector<double>& values);

struct SimulationOptions {
  std::uint64_t seed = 1;
  int replications = 1;
  int threads = 0;                // 0: the hardware concurrency, capped by the replications
  std::string source = "program"; // where errors of fit are located (the model or program file)
  std::function<void(int done)> progress;  // called on the calling thread after each replication, if set
  std::function<void()> interruption;      // if set, called on any thread before each replication; it throws to stop (Ctrl-C)
  ReplicationRunner runner;       // unset: run_replications over `threads` threads
  TimelineWriter* timeline = nullptr;  // if set, replication 0's timeline (simulate_hierarchy)
};

struct LevelSummary {
  Statistic utilization, occupancy, occupancy_maximum, occupancy_share, grasped, migrated, transfers, network;
};

struct Summary {
  int replications = 0;
  Statistic time, ideal_time, ratio, elementary;
  std::vector<LevelSummary> levels;
  std::vector<Statistic> processor_utilization;
  Statistic grasped, migrated;    // over all levels
  std::uint64_t events = 0;       // over all replications
};

// `replications` runs, replication r on program_of(r) (which must depend on r only: a model's program is
// drawn from RandomStream(seed, r)), over threads; the same numbers for any thread count.
[[nodiscard]] Summary simulate(const std::function<Program(int replication)>& program_of, const Machine& machine,
                               const SimulationOptions& options);

}  // namespace augur::sim::hierarchy
