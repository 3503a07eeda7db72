// The simulation of a workload under a policy (augur manager simulate, docs/manager.md): jobs arrive, the
// manager decides every quantum with the same decide() as the real manager, each job runs its work at
// S(P) of its allocation and learns its speedup with P (PC) after a whole quantum on P. On the
// discrete-event engine (src/sim/engine): decisions and completions are its events.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "augur/sim/engine.hpp"
#include "manager/policy.hpp"
#include "manager/workload.hpp"

namespace augur::manager {

struct SimulationOptions {
  PolicyParameters policy;  // its cpus is the machine
  double quantum = 1.0;     // seconds between two decisions (> 0)
  // The noise in what a job measures: each S(P) it calculates is its curve's S(P) times exp(noise x z), z
  // drawn from the standard normal distribution (0: exact). The draws come from a generator seeded with
  // `seed`: the same workload, options and seed give the same result.
  double speedup_noise = 0.0;
  std::uint64_t seed = 1;
  // The oracle (for measuring what learning costs a policy, bench/manager_policies.cpp): every job reports
  // its true S(P) for every P up to what it may use as calculated, and its true work left, from its arrival.
  bool oracle = false;
  // The self-analysis as it runs (docs/manager.md, "The self-analysis in the simulation"): a job's first
  // quantum with processors runs its baseline iterations on B = half its allocation, at most 4 (at least 1),
  // and only then reports T(B) and starts calculating S(P); after it, one iteration in
  // baseline_share re-measures T(B) on B (when B < P); a job whose processors were all taken reports
  // itself preempted (appl_stopped) at the next decision. false: S(P) after a whole quantum on P, from
  // the start, every iteration on P.
  bool self_analysis = false;
  // The programs' history (history.hpp, docs/manager.md "history"): the simulation keeps, per program (a
  // job's name without its copy suffix), the speedups its jobs calculated and the work of its last finished
  // jobs (their true work: what a job did), and passes it to every decision (PolicyParameters::history; what
  // a new job takes from it: policy.history_prior).
  bool history = false;
};

// The self-analysis's defaults the simulation follows with SimulationOptions::self_analysis
// (include/augur/selfanalysis.hpp, Config): B = min(4, P / 2), 3 baseline iterations after every 20.
inline constexpr int simulated_baseline_limit = 4;
inline constexpr double baseline_share = 3.0 / 23.0;

struct JobOutcome {
  std::string name;
  double arrival = 0.0;
  double start = 0.0;              // first time it had processors
  double finish = 0.0;
  double response_time = 0.0;      // finish - arrival
  double work = 0.0;               // seconds on one processor
  double processor_seconds = 0.0;  // the integral of its allocation while it ran
  double efficiency = 0.0;         // work / processor_seconds
  std::vector<std::pair<double, int>> allocations;  // (time, processors) at every change
};

struct SimulationResult {
  std::string policy;
  int cpus = 0;
  double quantum = 0.0;
  std::vector<JobOutcome> jobs;     // in the workload's order
  double mean_response_time = 0.0;
  double makespan = 0.0;            // last finish - first arrival
  double utilization = 0.0;         // processor-seconds allocated / (cpus x makespan)
  double mean_efficiency = 0.0;     // mean of the jobs' efficiencies
  long decisions = 0;
};

// Throws std::invalid_argument on options out of range (validate_parameters, quantum <= 0, a noise below 0
// or above 1) and
// std::runtime_error if the jobs make no progress for a million quanta (a policy that starves them) or
// need more than 10^7 decisions.
[[nodiscard]] SimulationResult simulate(const Workload& workload, const SimulationOptions& options);

// The allocations over time as a Chrome trace-event timeline (opens in Perfetto): a row per job, a span
// per allocation it held ("16 processors"), and its wait before it started.
[[nodiscard]] sim::Timeline allocation_timeline(const SimulationResult& result);

}  // namespace augur::manager
