// The Erlang fits of the seed's step 2: Pr(X < Y) and the maximum of two independent durations.
#include <algorithm>
#include <cmath>

#include "augur/tspp_predictor.hpp"

namespace augur::tspp {
namespace {

constexpr int max_erlang_stages = 200;
// Above this many stages in total, Pr(X < Y) uses the normal approximation of the two Erlangs.
constexpr int normal_stages = 60;

struct Erlang {
  int stages = 1;
  double rate = 0.0;  // 0: the distribution is a point mass at 0
};

// The Erlang distribution with the mean and (as nearly as whole stages allow) the variance given.
Erlang fit(const Moments& moments) {
  if (moments.mean <= 0.0) return {1, 0.0};
  const double stages = moments.variance > 0.0 ? moments.mean * moments.mean / moments.variance : max_erlang_stages;
  Erlang erlang;
  erlang.stages = static_cast<int>(std::clamp(std::round(stages), 1.0, static_cast<double>(max_erlang_stages)));
  erlang.rate = erlang.stages / moments.mean;
  return erlang;
}

// E[min(X, Y)^r] for independent Erlangs X, Y:
//   r * sum_{a<k1} sum_{b<k2} l^a m^b (r-1+a+b)! / (a! b! (l+m)^(r+a+b))
double minimum_moment(const Erlang& x, const Erlang& y, int r) {
  const double total = x.rate + y.rate;
  double sum = 0.0;
  for (int a = 0; a < x.stages; ++a) {
    for (int b = 0; b < y.stages; ++b) {
      const double log_term = a * std::log(x.rate) + b * std::log(y.rate) + std::lgamma(r + a + b) - std::lgamma(a + 1) -
                              std::lgamma(b + 1) - (r + a + b) * std::log(total);
      sum += std::exp(log_term);
    }
  }
  return r * sum;
}

}  // namespace

double Moments::deviation() const { return std::sqrt(std::max(variance, 0.0)); }

double probability_less(const Moments& x, const Moments& y) {
  if (x.mean <= 0.0) return y.mean > 0.0 ? 1.0 : 0.0;  // Pr(0 < Y)
  if (y.mean <= 0.0) return 0.0;                       // Pr(X < 0)
  const Erlang a = fit(x);
  const Erlang b = fit(y);
  if (a.stages + b.stages > normal_stages) {
    // Many stages: both Erlangs are close to normal; Pr(X < Y) = Phi((E[Y] - E[X]) / sd(Y - X)).
    const double spread = std::sqrt(a.stages / (a.rate * a.rate) + b.stages / (b.rate * b.rate));
    return 0.5 * std::erfc(-(y.mean - x.mean) / (spread * std::sqrt(2.0)));
  }
  // X < Y when, among the first k1 + k2 - 1 events of the two merged Poisson processes, at least k1
  // come from X's: sum over m >= k1 of C(n, m) p^m (1 - p)^(n - m), n = k1 + k2 - 1.
  const int events = a.stages + b.stages - 1;
  const double p = a.rate / (a.rate + b.rate);
  if (p >= 1.0) return 1.0;
  if (p <= 0.0) return 0.0;
  double term = std::exp(std::lgamma(events + 1) - std::lgamma(a.stages + 1) - std::lgamma(events - a.stages + 1) +
                         a.stages * std::log(p) + (events - a.stages) * std::log1p(-p));
  double sum = 0.0;
  for (int m = a.stages; m <= events; ++m) {
    sum += term;
    term *= static_cast<double>(events - m) / (m + 1) * p / (1.0 - p);  // C(n, m+1) / C(n, m) x p / (1 - p)
  }
  return std::clamp(sum, 0.0, 1.0);
}

Moments maximum(const Moments& x, const Moments& y) {
  if (x.mean <= 0.0) return y;
  if (y.mean <= 0.0) return x;
  const Erlang a = fit(x);
  const Erlang b = fit(y);
  const double first = minimum_moment(a, b, 1);
  const double second = minimum_moment(a, b, 2);
  const auto square = [](const Erlang& e) { return e.stages * (e.stages + 1.0) / (e.rate * e.rate); };
  // max = X + Y - min, for the first and the second moments.
  const double mean = x.mean + y.mean - first;
  const double square_mean = square(a) + square(b) - second;
  return {mean, std::max(0.0, square_mean - mean * mean)};
}

}  // namespace augur::tspp
