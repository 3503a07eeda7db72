// The median of a set of figures, for the benchmarks (NaN for none).
#pragma once

#include <algorithm>
#include <cmath>
#include <vector>

namespace augur::bench {

inline double median(std::vector<double> values) {
  if (values.empty()) return std::nan("");
  std::sort(values.begin(), values.end());
  const std::size_t middle = values.size() / 2;
  return values.size() % 2 == 1 ? values[middle] : (values[middle - 1] + values[middle]) / 2.0;
}

}  // namespace augur::bench
