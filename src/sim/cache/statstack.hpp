// StatStack: the LRU miss ratio of every cache size from a sample of reuse distances (Eklöv and Hagersten,
// "StatStack: Efficient modeling of LRU caches", ISPASS 2010; issue 17, part 2; docs/cache.md, "Miss-rate
// curves").
//
// The reuse distance D of a line reference is counted here in positions: the next reference to the same line
// is D references later (1: the very next one; infinite when the line is not referenced again); the paper and
// docs/cache.md count the RD = D - 1 references in between. A sample of references, each chosen with
// probability `sample_rate`, gives the distribution of reuse distances. A reference inside the window of a
// reuse adds a line to its stack distance exactly when it is the last reference to its line before the window
// closes, so the reference k positions before the end adds one with probability P(D > k):
//
//     E[sd(d)] = sum_{k=1}^{d-1} P(D > k)        (= sum_{i=0}^{r-1} P(RD > i) with r = d - 1)
//
// and a fully associative LRU cache of C lines misses the reuse when E[sd(d)] >= C. Samples whose line is
// not referenced again before the end of the trace count as misses of every size (as cold misses do: there
// are as many last references as first ones).
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "augur/sim/engine.hpp"
#include "sim/cache/access.hpp"
#include "sim/cache/line_map.hpp"
#include "sim/cache/stack_distance.hpp"

namespace augur::sim::cache {

// The sampled reuse distances of a trace and their expected stack distances.
class StatStackEstimate {
public:
  // From the finished samples' reuse distances (any order) and the number of unfinished samples.
  StatStackEstimate(std::vector<std::uint64_t> reuse_distances, std::uint64_t unfinished);

  [[nodiscard]] std::uint64_t samples() const { return stack_distances_.size() + unfinished_; }
  [[nodiscard]] std::uint64_t unfinished() const { return unfinished_; }
  // The expected stack distance of each finished sample, ascending (E[sd] grows with d).
  [[nodiscard]] const std::vector<double>& stack_distances() const { return stack_distances_; }
  // The estimated miss ratio of a fully associative LRU cache of `lines` lines (0 without samples).
  [[nodiscard]] double miss_rate(std::uint64_t lines) const;
  // The smallest number of lines from which the estimate no longer falls.
  [[nodiscard]] std::uint64_t floor_lines() const;

private:
  std::vector<double> stack_distances_;
  std::uint64_t unfinished_ = 0;
};

// Samples line references at `sample_rate` (in (0, 1]): the gaps between samples are geometric, drawn from
// the random stream (seed, 0), and measures each sample's reuse distance.
class StatStackSampler {
public:
  StatStackSampler(std::uint64_t line_size, double sample_rate, std::uint64_t seed);

  void add(std::span<const Access> accesses);

  [[nodiscard]] std::uint64_t accesses() const { return accesses_; }
  [[nodiscard]] std::uint64_t references() const { return references_; }
  [[nodiscard]] double sample_rate() const { return sample_rate_; }
  [[nodiscard]] unsigned line_shift() const { return line_shift_; }
  [[nodiscard]] StatStackEstimate estimate() const;  // the samples still open count as unfinished

private:
  void reference(std::uint64_t line);
  [[nodiscard]] std::uint64_t gap();  // references to skip before the next sample

  unsigned line_shift_;
  double sample_rate_;
  double log_keep_;  // log(1 - sample_rate)
  RandomStream random_;
  LineMap open_;  // line -> the position of its open sample
  std::vector<std::uint64_t> reuse_distances_;
  std::uint64_t next_sample_ = 0;
  std::uint64_t accesses_ = 0;
  std::uint64_t references_ = 0;
};

struct StatStackCurve {
  MissRateCurve curve;  // sets = 1: fully associative sizes of powers of two lines
  double sample_rate = 0.0;
  std::uint64_t samples = 0;
  std::uint64_t unfinished = 0;
};

// The curve of an estimate at powers of two lines, up to its floor.
[[nodiscard]] StatStackCurve statstack_curve(const StatStackSampler& sampler);

// Reads `source` to its end and returns its StatStack curve. `progress(accesses)` every 2^24 accesses.
[[nodiscard]] StatStackCurve statstack_curve(AccessSource& source, std::uint64_t line_size, double sample_rate,
                                             std::uint64_t seed, const std::function<void(std::uint64_t)>& progress = {});

}  // namespace augur::sim::cache
