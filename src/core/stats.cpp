#include "augur/core/stats.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

namespace augur::core {

double median(std::vector<double> values) {
  if (values.empty()) return std::numeric_limits<double>::quiet_NaN();
  const auto middle = values.size() / 2;
  std::nth_element(values.begin(), values.begin() + static_cast<long>(middle), values.end());
  const double upper = values[middle];
  if (values.size() % 2 == 1) return upper;
  const double lower = *std::max_element(values.begin(), values.begin() + static_cast<long>(middle));
  return (lower + upper) / 2.0;
}

double mean(const std::vector<double>& values) {
  if (values.empty()) return std::numeric_limits<double>::quiet_NaN();
  return std::accumulate(values.begin(), values.end(), 0.0) / static_cast<double>(values.size());
}

MedianInterval median_interval(std::vector<double> values, double level) {
  if (values.empty()) {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    return {nan, nan, 0};
  }
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  // Coverage of (x_(j), x_(n+1-j)), j 1-based: 1 − 2 · P(Binomial(n, 1/2) ≤ j − 1).
  std::vector<double> cumulative(n + 1, 0.0);  // P(B ≤ i)
  double term = std::pow(0.5, static_cast<double>(n));  // P(B = 0)
  double sum = 0;
  for (std::size_t i = 0; i <= n; ++i) {
    sum += term;
    cumulative[i] = sum;
    term = term * static_cast<double>(n - i) / static_cast<double>(i + 1);
  }
  MedianInterval interval{values.front(), values.back(), n == 1 ? 0.0 : 1.0 - 2.0 * cumulative[0]};
  for (std::size_t j = 2; 2 * j <= n + 1; ++j) {  // narrower pairs while they still reach the level
    const double coverage = 1.0 - 2.0 * cumulative[j - 1];
    if (coverage < level) break;
    interval = {values[j - 1], values[n - j], coverage};
  }
  return interval;
}

}  // namespace augur::core
