// Kernel coupling (seed 002, Wu, Taylor, Geisler and Stevens, "Isocoupling"): the measurements of an
// iterative application's kernels alone, in chains and whole, the coupling values of the chains, the
// coupling and summation predictors, and the reuse of coupling values measured for another
// configuration (isocoupling). Pure: no clock, no file system. Method: docs/coupling.md.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace augur::coupling {

// The machine a run was measured on (read from the system by the harness; docs/formats.md).
struct Machine {
  std::string hostname;
  std::string cpu_model;
  int cores = 0;
  std::int64_t l1d_bytes = 0;  // 0: unknown
  std::int64_t l2_bytes = 0;
  std::int64_t l3_bytes = 0;
  std::int64_t memory_bytes = 0;

  // Machines of one class have the same processor and memory hierarchy (isocoupling reuses the
  // coupling values of a class): "CPU MODEL / L1d / L2 / L3".
  [[nodiscard]] std::string machine_class() const;
};

// A timed quantity: the median of the samples with a 95% confidence interval of the median.
struct Timing {
  double seconds = 0;  // median
  double ci_low = 0;
  double ci_high = 0;
  std::vector<double> samples;
  std::int64_t repetitions = 1;  // executions of the kernel or chain per sample
};

struct Kernel {
  std::string name;
  int calls = 1;  // calls per iteration of the application's loop
};

// One measured configuration of an application: machine, problem, processors.
struct Run {
  std::string application;
  std::string dataset;            // a label such as "W" or "24" (may be empty)
  double problem_size = 0;        // a number that orders the problems, e.g. grid points
  double footprint_bytes = 0;     // bytes of data the loop touches (0: unknown)
  std::int64_t iterations = 1;    // iterations of the application's loop
  int threads = 1;                // OpenMP threads per rank
  int ranks = 1;                  // MPI ranks
  Machine machine;
  std::string started;            // ISO 8601 UTC
  std::map<std::string, std::string> options;  // the harness's options, as measured
  std::vector<Kernel> kernels;    // in the order of the loop
  // Seconds per execution of each measured chain. A chain is a list of kernel indices along the
  // cyclic loop; a chain of length 1 is a kernel alone.
  std::vector<std::pair<std::vector<int>, Timing>> chains;
  std::optional<Timing> loop;  // seconds of the whole application loop (all iterations)

  [[nodiscard]] int processors() const { return threads * ranks; }
  // N_i: calls of kernel i in the whole loop.
  [[nodiscard]] std::int64_t invocations(int kernel) const;
  // The timing of a chain, or nullptr.
  [[nodiscard]] const Timing* find(const std::vector<int>& chain) const;
  // P_i; throws std::invalid_argument naming the kernel when it was not measured alone.
  [[nodiscard]] double alone(int kernel) const;
  // The chain lengths k ≥ 2 for which every chain of length k was measured.
  [[nodiscard]] std::vector<int> complete_lengths() const;
};

// The harness's option `chains` ("all", "none", "K" or "K1-K2", K of at most 5 digits): the chain lengths
// it selects for a loop of `kernels` kernels, clipped to 2 .. kernels − 1; nullopt when the text has none
// of those forms (whether it does does not depend on `kernels`).
[[nodiscard]] std::optional<std::vector<int>> chain_lengths(const std::string& option, int kernels);

// The chain of `length` kernels that starts at `first`, along the cyclic loop of `kernels` kernels.
[[nodiscard]] std::vector<int> cyclic_chain(int first, int length, int kernels);
// "copy_faces→txinvr→x_solve"
[[nodiscard]] std::string chain_name(const Run& run, const std::vector<int>& chain);

// C_W = P_W / Σ_{j∈W} P_j (equation 2).
struct ChainCoupling {
  std::vector<int> chain;
  double time = 0;       // P_W
  double sum_alone = 0;  // Σ_{j∈W} P_j
  double value = 0;      // C_W
};

// The coupling values of the n chains of length k of a run (k from 2 to n − 1); throws
// std::invalid_argument when a chain or kernel of that length was not measured.
[[nodiscard]] std::vector<ChainCoupling> couplings(const Run& run, int length);

struct Prediction {
  std::string method;          // "summation", "coupling", "reuse"
  int length = 1;              // chain length k (1 for summation)
  double seconds = 0;          // predicted time of the whole loop
  std::vector<double> alpha;   // α_i (1 for summation)
  std::optional<double> error; // (predicted − measured) / measured, when the run's time was measured
};

// Σ_i N_i P_i.
[[nodiscard]] Prediction summation(const Run& run);
// T = Σ_i α_i N_i P_i with α_i = Σ_{W∈Q_i} C_W P_W / Σ_{W∈Q_i} P_W (equations 3 and 4) over the run's
// own chains of length k.
[[nodiscard]] Prediction predict(const Run& run, int length);
// Isocoupling: the coupling values C_W of another configuration (`source`, chains of length k) with
// the target's kernels alone: P̂_W = C_W · Σ_{j∈W} P_j(target), then equations 4 and 3. The error is
// against the target's measured time. Throws std::invalid_argument when the kernels differ.
[[nodiscard]] Prediction predict_reusing(const Run& target, const std::vector<ChainCoupling>& source, int length);

// Isocoupling: the stored runs that can lend their coupling values to a target configuration, nearest
// first. Same application and kernels, chains of length k measured, a problem size, not a repeat of the
// target's configuration; ordered by (different machine class, |log(processors ratio)|,
// |log(size per processor) − log(target's)|): docs/coupling.md says why processors come before size.
struct Candidate {
  std::size_t index = 0;        // into the runs given
  bool same_class = false;      // same machine class as the target
  double distance = 0;          // |log(size per processor ratio)|
  double processor_distance = 0;
};
[[nodiscard]] std::vector<Candidate> reusable_runs(const Run& target, const std::vector<Run>& runs, int length);

// A transition of the coupling values along problem size: between two consecutive sizes (same
// machine class, processors), the mean |ΔC_W| over the chains of length k exceeds `threshold`.
struct Transition {
  std::size_t before = 0;  // indices into the runs given
  std::size_t after = 0;
  double mean_change = 0;  // mean over chains of C_W(after) − C_W(before)
  double mean_abs_change = 0;
  // The cache level whose size lies between the two footprints per processor ("L2"), or "".
  std::string level;
  std::int64_t level_bytes = 0;  // its size on the machine of the larger run (0 without a level)
};
[[nodiscard]] std::vector<Transition> transitions(const std::vector<Run>& runs, int length, double threshold);

}  // namespace augur::coupling

namespace augur::coupling {

// The measurement file the harness writes (JSON Lines; docs/formats.md, "Kernel coupling
// measurements"). read_run throws core::InputError at file:line:column on bad input.
[[nodiscard]] Run read_run(const std::string& text, const std::string& file);
[[nodiscard]] std::string write_run(const Run& run);

}  // namespace augur::coupling
