// Speed of the modeling engine: a full model search on two parameters with 25 points (5 × 5, goal
// under 100 ms), a given four-term formula with automatic segmentation, and one least-squares fit.
// Median of repeated runs, measured in this run. Prints figures; never fails.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <functional>
#include <vector>

#include "model/model.hpp"
#include "bench_arguments.hpp"

namespace {

using namespace augur::model;

double median_seconds(const std::function<void()>& work, int repetitions) {
  std::vector<double> times;
  for (int r = 0; r < repetitions; ++r) {
    const auto start = std::chrono::steady_clock::now();
    work();
    times.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

Series grid_series(int per_parameter) {
  Series series;
  series.region = "solve";
  series.metric = "time";
  series.parameters = {"p", "n"};
  unsigned state = 12345;
  for (int a = 0; a < per_parameter; ++a) {
    for (int b = 0; b < per_parameter; ++b) {
      const double p = std::pow(2.0, 1 + a);
      const double n = 1000.0 * std::pow(2.0, b);
      state = state * 1103515245u + 12345u;
      const double noise = 1.0 + 0.02 * ((state >> 8) % 1000 / 500.0 - 1.0);
      series.measurements.push_back({{p, n}, {(0.3 + 2e-6 * n * std::log2(n) / p + 1e-3 * std::log2(p)) * noise}});
    }
  }
  return series;
}

}  // namespace

int main(int argc, char** argv) {
  augur::bench::check_arguments(argc, argv,
                                "usage: bench_model_speed\n"
                                "The modeling engine: model search, segmentation and a fit, medians of repeated runs",
                                {}, 0);
  std::printf("Modeling engine speed (median of repeated runs on this machine)\n");
  for (int per : {5, 7, 9}) {
    const Series series = grid_series(per);
    int hypotheses = 0;
    std::string formula;
    const double seconds = median_seconds([&] {
      const SeriesModel model = build_model(series, {});
      hypotheses = model.hypotheses;
      formula = model.formula.text();
    }, 21);
    std::printf("  search, 2 parameters, %2d points: %8.2f ms  (%d hypotheses fitted, %.2f us each)  -> %s\n", per * per, 1000.0 * seconds,
                hypotheses, 1e6 * seconds / hypotheses, formula.c_str());
  }
  {
    const Series series = grid_series(5);
    ModelOptions options;
    options.formula = "c[0] + c[1]*log(p) + c[2]*n*log(n)/p + c[3]*n";
    options.segments = 0;
    const double seconds = median_seconds([&] { (void)build_model(series, options); }, 51);
    std::printf("  given 4-term formula, automatic segmentation, 25 points: %.3f ms\n", 1000.0 * seconds);
  }
  {
    Eigen::MatrixXd design(25, 4);
    Eigen::VectorXd values(25);
    for (int i = 0; i < 25; ++i) {
      design.row(i) << 1.0, i, i * i, std::sqrt(i + 1.0);
      values(i) = 1.0 + i + 0.1 * std::cos(i);
    }
    const double seconds = median_seconds([&] { (void)fit_linear(design, values); }, 2001);
    std::printf("  one least-squares fit with leave-one-out and covariance, 25 x 4: %.2f us\n", 1e6 * seconds);
  }
  return 0;
}
