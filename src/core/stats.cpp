#include "augur/core/stats.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include "core/stats_json.hpp"

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

namespace {

// Regularised incomplete beta I_x(a, b) by its continued fraction (modified Lentz).
double incomplete_beta(double x, double a, double b) {
  if (x <= 0.0) return 0.0;
  if (x >= 1.0) return 1.0;
  if (x > (a + 1.0) / (a + b + 2.0)) return 1.0 - incomplete_beta(1.0 - x, b, a);
  const double front = std::exp(std::lgamma(a + b) - std::lgamma(a) - std::lgamma(b) + a * std::log(x) + b * std::log1p(-x)) / a;
  constexpr double tiny = 1e-300;
  double f = 1.0;
  double c = 1.0;
  double d = 0.0;
  for (int i = 0; i <= 400; ++i) {
    const int m = i / 2;
    double numerator = 1.0;
    if (i > 0) {
      numerator = i % 2 == 0 ? m * (b - m) * x / ((a + 2.0 * m - 1.0) * (a + 2.0 * m))
                             : -((a + m) * (a + b + m) * x) / ((a + 2.0 * m) * (a + 2.0 * m + 1.0));
    }
    d = 1.0 + numerator * d;
    if (std::fabs(d) < tiny) d = tiny;
    d = 1.0 / d;
    c = 1.0 + numerator / c;
    if (std::fabs(c) < tiny) c = tiny;
    const double step = c * d;
    f *= step;
    if (std::fabs(1.0 - step) < 1e-15) break;
  }
  return front * (f - 1.0);
}

// Pr(T ≤ t) for Student's t with `degrees` degrees of freedom.
double student_t_cdf(double t, double degrees) {
  const double tail = 0.5 * incomplete_beta(degrees / (degrees + t * t), degrees / 2.0, 0.5);
  return t >= 0 ? 1.0 - tail : tail;
}

}  // namespace

double student_t_quantile(double p, double degrees) {
  if (!(p > 0.0 && p < 1.0) || !(degrees > 0.0)) return std::numeric_limits<double>::quiet_NaN();
  if (p < 0.5) return -student_t_quantile(1.0 - p, degrees);
  double low = 0.0;
  double high = 1.0;
  while (student_t_cdf(high, degrees) < p && high < 1e12) high *= 2.0;
  for (int iteration = 0; iteration < 200 && high - low > 1e-13 * std::max(1.0, high); ++iteration) {
    const double middle = 0.5 * (low + high);
    (student_t_cdf(middle, degrees) < p ? low : high) = middle;
  }
  return 0.5 * (low + high);
}

double mean_half_width(double deviation, long count, double level) {
  if (count < 2) return 0.0;
  const double n = static_cast<double>(count);
  return student_t_quantile(0.5 + level / 2.0, n - 1.0) * deviation / std::sqrt(n);
}

nlohmann::ordered_json estimate_json(const Estimate& estimate) {
  nlohmann::ordered_json json{{"mean", estimate.mean}, {"std", estimate.deviation}};
  if (estimate.half_width) json["ci95_half_width"] = *estimate.half_width;
  return json;
}

double karp_flatt_fraction(double speedup, int processors) {
  if (!(speedup >= 1.0) || processors < 2) return -1.0;
  const double p = processors;
  return std::max(0.0, (1.0 / speedup - 1.0 / p) / (1.0 - 1.0 / p));
}

}  // namespace augur::core
