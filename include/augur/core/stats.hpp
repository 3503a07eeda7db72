// Small statistics shared by every tool.
#pragma once

#include <optional>
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

// Quantile of Student's t distribution with `degrees` degrees of freedom (> 0, need not be whole), p in
// (0, 1): the inverse of its distribution function, found by bisection to about 1e-13 relative; NaN
// outside the domain.
[[nodiscard]] double student_t_quantile(double p, double degrees);

// Half-width of the confidence interval at `level` of the mean of `count` values whose sample standard
// deviation is `deviation`: t((1 + level) / 2, count − 1) · deviation / √count; 0 for fewer than 2 values.
[[nodiscard]] double mean_half_width(double deviation, long count, double level = 0.95);

// The sequential fraction Amdahl's law needs to give speedup S on P > 1 processors (Karp and Flatt's
// experimentally determined serial fraction, seed 000's f from a measured speedup): (1/S - 1/P) / (1 - 1/P);
// 0 above P (superlinear: no sequential part is visible); -1 when S < 1 (the formula exceeds 1: overheads, not
// a sequential part, make the threads slower than one) or P < 2. The one rule of `augur run`'s verdict and
// `augur report`'s speedup page.
[[nodiscard]] double karp_flatt_fraction(double speedup, int processors);

// A mean with its spread, as augur's tools print it: the standard deviation of the quantity and, when the
// mean is estimated from a sample (a simulation's replications), the half-width of the 95% confidence
// interval of that mean. A predictor's figures have no interval. Its JSON (src/core/stats_json.hpp) is
// {"mean", "std"} or {"mean", "std", "ci95_half_width"}.
struct Estimate {
  double mean = 0.0;
  double deviation = 0.0;
  std::optional<double> half_width;
};

}  // namespace augur::core
