// The seed's stochastic cache simulator (seed 004 §2.2, issue 17): predicts each static reference's hit
// probability and each cache level's miss rate from a program model, without expanding its address trace.
//
// A history holds, per cache set, the lines that may be in the cache with P_v (the probability that line v is
// in the cache) and, for LRU, E[d_v|P_v] (its expected depth in the set's LRU stack). References update it
// with the seed's rules, branches combine their arms' histories weighted by the arms' probabilities, and
// loops are solved at their fixed point (the seed's open problem) or, as the seed did, in one extra pass
// (LoopMethod::SinglePass). The method, its equations and what is reconstructed: docs/cache.md,
// "The stochastic simulator (augur cache predict)".
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "sim/cache/model.hpp"

namespace augur::sim::cache {

enum class StochasticReplacement { Lru, Random };

// One cache level: `size` bytes in lines of `line` bytes (a power of two), `associativity` lines per set
// (size / (line × associativity) sets, at least one). Levels are searched in order; level k + 1 sees level
// k's misses (neither inclusive nor exclusive).
struct StochasticLevel {
  std::string name;
  std::uint64_t size = 32768;
  std::uint64_t line = 64;
  std::uint64_t associativity = 8;
  StochasticReplacement replacement = StochasticReplacement::Lru;
};

enum class LoopMethod {
  FixedPoint,  // iterate a loop's history equations to their fixed point (or periodic steady state)
  SinglePass,  // the seed's method: the first iteration, then one pass standing for all the others
};

struct StochasticOptions {
  LoopMethod loops = LoopMethod::FixedPoint;
  double tolerance = 1e-12;             // a loop's history has converged when no P_v moves by more
  std::size_t max_iterations = 10000;   // iterations of a loop without affine strides before extrapolating
};

// Expected counts of one static reference (Reference::id): its accesses (the expected number of times it
// runs) and its expected misses at each level.
struct StochasticReference {
  double accesses = 0.0;
  std::vector<double> misses;  // per level; misses[k] are also level k + 1's accesses by this reference
  // The probability that an access of the reference hits at `level` given that it reaches that level.
  [[nodiscard]] double hit_probability(std::size_t level) const;
};

struct StochasticLevelResult {
  double accesses = 0.0;
  double misses = 0.0;
  [[nodiscard]] double miss_rate() const { return accesses > 0.0 ? misses / accesses : 0.0; }
};

struct StochasticResult {
  std::vector<StochasticReference> references;  // indexed by Reference::id
  std::vector<StochasticLevelResult> levels;
  std::uint64_t simulated_accesses = 0;  // reference updates the simulator made (its work, not the program's)
  std::uint64_t loop_jumps = 0;          // loop instances whose steady-state iterations were skipped
  std::uint64_t capped_loops = 0;        // loop instances stopped at max_iterations without converging
};

// Predicts `model` on the cache `levels` (each valid: line a power of two, size a multiple of
// line × associativity). Pure: no I/O; the same inputs give the same result.
[[nodiscard]] StochasticResult predict_stochastic(const Model& model, std::span<const StochasticLevel> levels,
                                                  const StochasticOptions& options);

}  // namespace augur::sim::cache
