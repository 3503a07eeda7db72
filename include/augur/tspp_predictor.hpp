// The TSPP predictor: Mak and Lundstrom's method (seed 004, section 1.3) as reconstructed for augur.
// Step 1, approximate Mean Value Analysis with overlap factors, gives each task's residence time at
// each resource; step 2, a series-parallel reduction, gives the start and end time distributions;
// the two alternate until the completion time moves by less than the tolerance. Equations and the
// choices made where the seed is silent: docs/tspp.md.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "augur/tspp.hpp"

namespace augur::tspp {

struct Moments {
  double mean = 0.0;
  double variance = 0.0;
  [[nodiscard]] double deviation() const;
};

struct TaskPrediction {
  Moments start, residence, end;
  std::vector<double> residence_at;     // R_ik per resource
  std::vector<double> arrival_queue;    // A_ik: queue length the task finds at each resource
  std::vector<double> queue_of_task;    // Q_ik = R_ik / R_i
};

struct ResourcePrediction {
  double utilization = 0.0;   // sum of demands / (servers x completion time); delay centres: per task
  double queue_length = 0.0;  // sum of R_ik / completion time
};

struct Prediction {
  Moments completion;
  int iterations = 0;
  bool converged = false;
  std::vector<TaskPrediction> tasks;
  std::vector<ResourcePrediction> resources;
  std::uint64_t states = 0;  // the exact method: states of its Markov chain (0 for the others)
  std::string part;          // the hybrid method: which method answered ("exact", "decomposition", ...)
  double dropped = 0.0;      // the pruned method: the probability dropped, summed over the levels
};

// How a task's residence time is distributed around its mean R_i.
enum class ResidenceDistribution {
  Exponential,  // variance R_i^2: the seed's choice (its Figure 12 shows std = mean)
  Phases,       // one exponential phase per resource: variance sum_k R_ik^2
};

// Which method: the seed's (Mak and Lundstrom's, reconstructed), augur's transient method, the
// same two steps resolved in time (docs/tspp.md, "The transient method"), or the exact solution of
// the continuous-time Markov chain of the system with exponential service (docs/tspp.md, "The exact
// method"), for small systems; the decomposition method (docs/tspp.md, "The decomposition method"); the
// hybrid method, each system answered by the most accurate of these that can take it (docs/tspp.md,
// "The hybrid method"); the pruned forward pass of the exact chain, each level thinned to about K states by
// sampling (docs/tspp.md, "The pruned method").
enum class Method { MakLundstrom, Transient, Exact, Decomposition, Hybrid, Pruned };

// The queueing discipline of the queuing centres, as the simulator's (the exact method only: the
// others do not tell them apart).
enum class Discipline { FirstComeFirstServed, ProcessorSharing };

struct PredictorOptions {
  double tolerance = 0.001;  // relative change of the completion time (the seed's 0.1%)
  int max_iterations = 100;
  Method method = Method::MakLundstrom;
  ResidenceDistribution residence = ResidenceDistribution::Exponential;  // MakLundstrom only
  // Transient only: V visit cycles over the task's resources (as the simulator's -V), S exponential
  // stages per visit (1: exponential service; many: nearly deterministic), bins of the time grid.
  // The exact method takes visits and stages too (each stage an exponential phase of the chain).
  int visits = 1;
  int stages = 1;
  int grid = 1000;
  Discipline discipline = Discipline::FirstComeFirstServed;  // Exact and Hybrid only
  // Exact, Decomposition, Hybrid: the limit of the chain's states (0: max_exact_states,
  // max_decomposition_states, max_hybrid_states and max_hybrid_decomposition_states)
  std::size_t max_states = 0;
  // Pruned only: the states kept at each level of the chain (0: default_pruned_beam).
  std::size_t beam = 0;
};

// The limits of size, checked before any work: the seed's method visits every pair of tasks that
// the structure does not order (two tasks whose lowest common ancestor is a parallel group) in each
// iteration; the transient method marches every task over the whole time grid.
constexpr unsigned long long max_concurrent_pairs = 20000000ULL;
constexpr std::size_t max_transient_tasks = 2000;
// The exact method builds its chain state by state and refuses past this many states.
constexpr std::size_t max_exact_states = 2000000;
// The pruned method keeps this many states per level by default, at most max_pruned_beam.
constexpr std::size_t default_pruned_beam = 20000;
constexpr std::size_t max_pruned_beam = 10000000;
// and at most this many words of candidate states per level (beam x tasks x words per state; 500 MB).
constexpr std::size_t max_pruned_words = 250000000;
// The decomposition method gives each task fewer phases until its chain has at most this many states.
constexpr std::size_t max_decomposition_states = 200000;
// The hybrid method: its budgets of states for the exact chain (up to about 5 s of CPU) and for the
// decomposition's (up to about 10 s of CPU with one phase per task; 200 000 before 2026-11-26; --max-states
// sets both); under FCFS the exact chain is tried when the count of its
// processor-sharing states is within this factor of the budget; from this many stages per visit on,
// service is taken as deterministic (its limit); past the chains, the transient method up to this many
// tasks, the seed's method beyond.
constexpr std::size_t max_hybrid_states = 1000000;
constexpr std::size_t max_hybrid_decomposition_states = 1000000;
constexpr double hybrid_fcfs_count_factor = 1e7;
// The hybrid's chains: at most this many words of states (2 bytes each: 500 MB), their budgets of states
// cut to fit (the words per state: the tasks, under FCFS twice that in the exact chain).
constexpr std::size_t hybrid_chain_words = 250000000;
constexpr int hybrid_deterministic_stages = 10;
// From this many visits (with one stage), past the exact chain: the interpolation in 1 / sqrt(V) between the
// sharing limit and the exact chains at 1 to 3 visits, where one of those fits.
constexpr int hybrid_interpolation_visits = 3;
constexpr std::size_t hybrid_transient_tasks = 200;
// Past the exact chain (and the interpolation from exact chains), the pruned pass with a beam of
// hybrid_pruned_work / (levels x tasks), at most default_pruned_beam; not below hybrid_pruned_min_beam (100
// until 2026-11-27: the benchmark's five systems with ten visits at beams of 80 to 93 went to the transient
// method and the decomposition's interpolation, -14% to +6%; at their beams, within 2.2%).
constexpr double hybrid_pruned_work = 1e7;
constexpr std::size_t hybrid_pruned_min_beam = 50;

// The number of unordered pairs of tasks whose lowest common ancestor is a parallel group.
[[nodiscard]] unsigned long long concurrent_pairs(const TaskSystem& system);

// Throws std::invalid_argument, naming the limit, for a system past the method's limit, and
// std::runtime_error if a figure of the prediction is not finite (never printed as a result).
[[nodiscard]] Prediction predict(const TaskSystem& system, const PredictorOptions& options = {});

// Pr(X < Y) for independent Erlang fits of X and Y (exposed for tests).
[[nodiscard]] double probability_less(const Moments& x, const Moments& y);
// Mean and variance of the maximum of two independent Erlang fits (exposed for tests).
[[nodiscard]] Moments maximum(const Moments& x, const Moments& y);

}  // namespace augur::tspp
