// What augur couple computes from measured runs, on top of the equations of augur/coupling.hpp: the
// chain length to use, how noisy a run's timings are, every prediction of one run, the isocoupling of a
// target from other configurations (and of every run from the others), the mean errors over many runs,
// and the coupling values along problem size. Pure: no clock, no file system, no printing; the command
// (src/cli/couple_command.cpp) loads the runs and prints these. Method: docs/coupling.md.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "augur/coupling.hpp"

namespace augur::coupling {

// ---- chain lengths -------------------------------------------------------------------------------------

// The chain length used when none is asked for: the longest with every chain measured (the seed's
// 5-kernel chains of a 6-kernel loop); 0 when no length is complete.
[[nodiscard]] int longest_length(const Run& run);
// `asked` when every chain of that length was measured, else 0 (the report says so); without `asked`,
// longest_length.
[[nodiscard]] int chosen_length(const Run& run, std::optional<int> asked);

// ---- noise ---------------------------------------------------------------------------------------------

// A confidence interval wider than this fraction of its median makes a run's timings noisy: a busy
// machine, and coupling values (ratios of two timings) spread more than the timings.
inline constexpr double kNoisyWidth = 0.10;

// The widest confidence interval of a run's timings (chains and the whole loop) relative to its median.
struct Spread {
  double width = 0;   // (ci_high − ci_low) / median; 0 when no timing has a positive median
  std::string where;  // "x_solve→y_solve", "the whole loop"; empty when width is 0
  [[nodiscard]] bool noisy() const { return width > kNoisyWidth; }
};
[[nodiscard]] Spread widest_interval(const Run& run);

// ---- one run -------------------------------------------------------------------------------------------

// The coupling values of one complete chain length.
struct LengthCouplings {
  int length = 0;
  std::vector<ChainCoupling> chains;
};

// Everything `augur couple report` shows of a run.
struct Analysis {
  int length = 0;  // chosen_length; 0: none
  Prediction summation;
  std::vector<Prediction> predictions;     // the coupling predictor, one per complete length, shortest first
  std::vector<LengthCouplings> couplings;  // one per complete length, shortest first
  Spread widest;

  // The prediction of `length`, or nullptr.
  [[nodiscard]] const Prediction* chosen() const;
  // The coupling values of `length`, or nullptr when that length is not complete.
  [[nodiscard]] const std::vector<ChainCoupling>* couplings_of(int length) const;
};
// Throws std::invalid_argument when a kernel was not measured alone (summation needs every one).
[[nodiscard]] Analysis analyse(const Run& run, std::optional<int> length);

// ---- mean errors over runs -----------------------------------------------------------------------------

// The mean |error| of a predictor and of summation over the runs where both have an error (the run's
// time was measured and the predictor applies).
struct MeanErrors {
  int runs = 0;
  double method_total = 0;     // Σ |error| of the predictor
  double summation_total = 0;  // Σ |error| of summation

  // Counts a run when the summation and the predictor (nullptr: none applies) both have an error.
  void add(const Prediction& summation, const Prediction* method);
  // The means; only when runs > 0.
  [[nodiscard]] double method() const { return method_total / runs; }
  [[nodiscard]] double summation() const { return summation_total / runs; }
};
// Of the coupling predictor at each analysis' chosen length.
[[nodiscard]] MeanErrors mean_errors(const std::vector<Analysis>& analyses);

// ---- isocoupling ---------------------------------------------------------------------------------------

// The default chain length for predicting `target` from `sources`: the longest that a source of the
// target's application and number of kernels measured completely; 0 when none did.
[[nodiscard]] int reuse_length(const Run& target, const std::vector<Run>& sources);

// A target configuration predicted from the coupling values of others (`augur couple predict`).
struct Isocoupling {
  int length = 0;
  Prediction summation;
  std::optional<Prediction> own;          // from the target's own chains of `length`, when it has them all
  std::vector<Candidate> candidates;      // reusable_runs, nearest first
  std::vector<Prediction> reused;         // one per candidate, in its order
  std::vector<std::size_t> not_reusable;  // the sources that are not candidates, in the order given
};
// `length` nullopt: reuse_length. Throws std::invalid_argument when the target has no problem size
// (no configuration is nearer than another) or when no source has a complete set of chains to reuse.
[[nodiscard]] Isocoupling isocouple(const Run& target, const std::vector<Run>& sources, std::optional<int> length);

// One run predicted from the others (`augur couple reuse`).
struct Reuse {
  int length = 0;
  Prediction summation;
  std::optional<Prediction> own;                 // from its own chains of `length`, when it has them all
  std::optional<std::size_t> nearest;            // the nearest other run (reusable_runs), an index into the runs
  std::optional<Prediction> reused;              // from the nearest run's coupling values
  std::optional<double> same_processors_error;   // mean |error| reusing the runs of its processor count
  std::optional<double> other_processors_error;  // ... and of other processor counts
};
// Every run from the others. `length` nullopt: n − 1 for a loop of n kernels.
[[nodiscard]] std::vector<Reuse> reuse_each(const std::vector<Run>& runs, std::optional<int> length);
// Of the reuse of the nearest run.
[[nodiscard]] MeanErrors mean_errors(const std::vector<Reuse>& reuses);

// ---- along problem size --------------------------------------------------------------------------------

// The coupling values of runs along problem size and their transitions (`augur couple transitions`).
struct SizeSeries {
  int length = 0;
  std::vector<std::size_t> order;       // the runs by application, machine class, processors, problem size
  std::vector<double> mean_coupling;    // per run given: mean C_W of length k; NaN without every such chain
  std::vector<Transition> transitions;  // transitions(runs, length, threshold)
};
// `length` nullopt: the longest any run measured completely. Throws std::invalid_argument when no run
// has a complete set of chains.
[[nodiscard]] SizeSeries along_size(const std::vector<Run>& runs, std::optional<int> length, double threshold);

}  // namespace augur::coupling
