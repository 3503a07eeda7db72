// The range of an affine form over a loop nest's iteration space, for the program model's checks (an index
// out of bounds on some iteration, a loop that never runs). Private to sim/cache.
#pragma once

#include <optional>
#include <vector>

#include "sim/cache/model.hpp"

namespace augur::sim::cache {

// The bounds of one enclosing loop, as model.hpp's Loop states them (x_depth runs from first to last by step).
struct LoopBounds {
  const AffineForm* first = nullptr;
  const AffineForm* last = nullptr;
  std::int64_t step = 1;
};

struct ValueRange {
  double minimum = 0.0;
  double maximum = 0.0;
};

// The smallest and largest value of `form` over the points of the nest `loops` (loops[d] gives x_d's bounds
// in x_0 .. x_{d-1}), or nothing when the nest has no point (some loop never runs). Computed on the
// real-valued relaxation by Fourier-Motzkin elimination, innermost loop first: exact for the usual nests
// (rectangular, triangular), never narrower than the integer range. A loop whose bounds differ by a
// constant is bounded by the last value its step reaches.
[[nodiscard]] std::optional<ValueRange> affine_range(const AffineForm& form, const std::vector<LoopBounds>& loops);

}  // namespace augur::sim::cache
