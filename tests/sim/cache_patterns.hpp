// Synthetic access patterns for the cache-curve tests and benchmarks (tests/sim/cache_curve_test.cpp,
// bench/cache_curve_speed.cpp): streaming, random in a working set, a matrix-multiply loop nest, and a mix,
// generated on the fly as an AccessSource so that 10^8 accesses need no memory.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <span>
#include <string>

#include "sim/cache/access.hpp"
#include "sim/cache/stack_distance.hpp"
#include "sim/cache/statstack.hpp"

namespace augur::sim::cache::testing {

enum class Pattern { Streaming, RandomWorkingSet, MatrixMultiply, Mix };

inline std::string name_of(Pattern pattern) {
  switch (pattern) {
    case Pattern::Streaming: return "streaming";
    case Pattern::RandomWorkingSet: return "random";
    case Pattern::MatrixMultiply: return "matmul";
    case Pattern::Mix: return "mix";
  }
  return "?";
}

class PatternSource : public AccessSource {
public:
  // `scale` sizes the data: the streaming array is 2^scale bytes, the random working set a quarter of it
  // (the mix adds one of 32 KiB), each matrix the largest power-of-two side that fits in half of it.
  PatternSource(Pattern pattern, std::uint64_t accesses, std::uint64_t seed, unsigned scale = 22)
      : pattern_(pattern), remaining_(accesses), state_(seed * 0x9e3779b97f4a7c15ULL + 1), bytes_(std::uint64_t{1} << scale) {
    matrix_side_ = 16;
    while ((matrix_side_ * 2) * (matrix_side_ * 2) * 8 <= bytes_ / 2) matrix_side_ *= 2;
  }

  std::size_t read(std::span<Access> buffer) override {
    const std::size_t count = static_cast<std::size_t>(std::min<std::uint64_t>(remaining_, buffer.size()));
    for (std::size_t i = 0; i < count; ++i) buffer[i] = next();
    remaining_ -= count;
    return count;
  }

private:
  std::uint64_t random() {  // xorshift64*: cheap, so that the generator does not dominate a benchmark
    state_ ^= state_ >> 12;
    state_ ^= state_ << 25;
    state_ ^= state_ >> 27;
    return state_ * 0x2545f4914f6cdd1dULL;
  }

  Access streaming() {
    const Access access{0x10000000 + position_, 8, AccessKind::Read};
    position_ = (position_ + 8) % bytes_;
    return access;
  }

  Access random_in(std::uint64_t base, std::uint64_t bytes) {
    return Access{base + (random() % (bytes / 8)) * 8, 8, AccessKind::Read};
  }

  // for i, for j, for k: C[i][j] += A[i][k] * B[k][j], row-major doubles; three accesses per iteration.
  Access matrix_multiply() {
    const std::uint64_t n = matrix_side_;
    const std::uint64_t a = 0x20000000;
    const std::uint64_t b = a + n * n * 8;
    const std::uint64_t c = b + n * n * 8;
    Access access;
    switch (phase_) {
      case 0: access = Access{a + (i_ * n + k_) * 8, 8, AccessKind::Read}; break;
      case 1: access = Access{b + (k_ * n + j_) * 8, 8, AccessKind::Read}; break;
      default: access = Access{c + (i_ * n + j_) * 8, 8, AccessKind::Write}; break;
    }
    if (++phase_ == 3) {
      phase_ = 0;
      if (++k_ == n) {
        k_ = 0;
        if (++j_ == n) {
          j_ = 0;
          i_ = (i_ + 1) % n;
        }
      }
    }
    return access;
  }

  Access next() {
    switch (pattern_) {
      case Pattern::Streaming: return streaming();
      case Pattern::RandomWorkingSet: return random_in(0x40000000, bytes_ / 4);
      case Pattern::MatrixMultiply: return matrix_multiply();
      case Pattern::Mix: {
        const std::uint64_t choice = random() % 4;
        if (choice < 2) return random_in(0x50000000, 32 * 1024);
        if (choice == 2) return streaming();
        return random_in(0x60000000, bytes_ / 4);
      }
    }
    return {};
  }

  Pattern pattern_;
  std::uint64_t remaining_;
  std::uint64_t state_;
  std::uint64_t bytes_;
  std::uint64_t matrix_side_ = 16;
  std::uint64_t position_ = 0;
  std::uint64_t i_ = 0, j_ = 0, k_ = 0;
  unsigned phase_ = 0;
};

// The absolute differences, in percentage points, between a StatStack curve and the exact curve of the same
// trace at every size of the StatStack curve: their mean, their maximum and the size of the maximum.
struct CurveError {
  double mean_points = 0.0;
  double max_points = 0.0;
  std::uint64_t worst_size = 0;
};

inline CurveError curve_error(const StackDistanceHistogram& exact, const StatStackCurve& estimate) {
  CurveError error;
  const double references = static_cast<double>(exact.references());
  for (const CurvePoint& point : estimate.curve.points) {
    const double exact_rate = static_cast<double>(exact.misses(point.ways)) / references;
    const double points = 100.0 * std::fabs(point.miss_rate - exact_rate);
    error.mean_points += points;
    if (points > error.max_points) {
      error.max_points = points;
      error.worst_size = point.size;
    }
  }
  if (!estimate.curve.points.empty()) error.mean_points /= static_cast<double>(estimate.curve.points.size());
  return error;
}

}  // namespace augur::sim::cache::testing
