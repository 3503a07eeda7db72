// Small statistics shared by every tool.
#pragma once

#include <vector>

namespace augur::core {

// Median of the values (mean of the two middle ones for an even count); NaN when empty.
[[nodiscard]] double median(std::vector<double> values);
// Arithmetic mean; NaN when empty.
[[nodiscard]] double mean(const std::vector<double>& values);

// A distribution-free confidence interval of the median from order statistics: the narrowest
// symmetric pair (x_(j), x_(n+1-j)) whose binomial coverage reaches `level`; with too few values for
// that (fewer than 6 for 95%), the whole range. `coverage` is the level actually reached.
struct MedianInterval {
  double low = 0;
  double high = 0;
  double coverage = 0;
};
[[nodiscard]] MedianInterval median_interval(std::vector<double> values, double level = 0.95);

}  // namespace augur::core
