// Accuracy of augur's model search on synthetic data from known models, and the seed's FFT formula on
// its Table 1. Prints figures; never fails. Usage: bench_model_accuracy [--cases N] [--relative]
//
// Each case draws a true model from Extra-P's building blocks x^i·log2(x)^j, measures it at m points
// per parameter (m = 5..9, x = 2^2, 2^3, ...) with 5 repetitions of multiplicative uniform noise
// ±1%, ±5% or ±10% (mean of the repetitions), runs the search, and checks whether the leading term
// (per parameter, the largest (i, j)) is the true one; then predicts at 2× and 4× the largest
// measured value of every parameter and compares with the noise-free truth.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "model/model.hpp"
#include "bench_arguments.hpp"

namespace {

using namespace augur::model;

struct Exponent {
  double i;
  int j;
};

// Extra-P's default building blocks (i, j), the truth is drawn from them.
const std::vector<Exponent> blocks = {
    {0, 1}, {0, 2}, {0.25, 0}, {1.0 / 3, 0}, {0.25, 1}, {1.0 / 3, 1}, {0.25, 2}, {1.0 / 3, 2}, {0.5, 0}, {0.5, 1}, {0.5, 2},
    {2.0 / 3, 0}, {0.75, 0}, {2.0 / 3, 1}, {0.75, 1}, {0.8, 0}, {2.0 / 3, 2}, {0.75, 2}, {1, 0}, {1, 1}, {1, 2}, {1.25, 0},
    {1.25, 1}, {4.0 / 3, 0}, {4.0 / 3, 1}, {1.5, 0}, {1.5, 1}, {1.5, 2}, {5.0 / 3, 0}, {1.75, 0}, {2, 0}, {2, 1}, {2, 2},
    {2.25, 0}, {7.0 / 3, 0}, {2.5, 0}, {2.5, 1}, {2.5, 2}, {8.0 / 3, 0}, {2.75, 0}, {3, 0}, {3, 1}};

double term(const Exponent& e, double x) { return std::pow(x, e.i) * std::pow(std::log2(x), e.j); }

// Reads the exponents of each variable from a factor text such as "p^(3/2) * log2(p)^2 * n".
std::vector<Exponent> exponents_of(const std::string& factor, const std::vector<std::string>& names) {
  std::vector<Exponent> result(names.size(), Exponent{0, 0});
  std::size_t position = 0;
  while (position < factor.size()) {
    const std::size_t end = std::min(factor.find(" * ", position), factor.size());
    const std::string piece = factor.substr(position, end - position);
    position = end + 3;
    for (std::size_t v = 0; v < names.size(); ++v) {
      const std::string& name = names[v];
      if (piece.rfind("log2(" + name + ")", 0) == 0) {
        const auto caret = piece.find('^');
        result[v].j = caret == std::string::npos ? 1 : std::stoi(piece.substr(caret + 1));
      } else if (piece.rfind(name, 0) == 0 && (piece.size() == name.size() || piece[name.size()] == '^')) {
        if (piece.size() == name.size()) {
          result[v].i = 1;
        } else {
          std::string exponent = piece.substr(name.size() + 1);
          if (exponent.front() == '(') exponent = exponent.substr(1, exponent.size() - 2);
          const auto slash = exponent.find('/');
          result[v].i = slash == std::string::npos ? std::stod(exponent) : std::stod(exponent.substr(0, slash)) / std::stod(exponent.substr(slash + 1));
        }
      }
    }
  }
  return result;
}

bool same(const Exponent& a, const Exponent& b) { return std::fabs(a.i - b.i) < 1e-9 && a.j == b.j; }
bool larger(const Exponent& a, const Exponent& b) { return a.i > b.i + 1e-9 || (std::fabs(a.i - b.i) < 1e-9 && a.j > b.j); }

struct Tally {
  int cases = 0;
  int leading_found = 0;
  std::vector<double> error_2x;
  std::vector<double> error_4x;
  double seconds = 0.0;
};

double quantile(std::vector<double> values, double q) {
  if (values.empty()) return NAN;
  std::sort(values.begin(), values.end());
  return values[static_cast<std::size_t>(q * static_cast<double>(values.size() - 1) + 0.5)];
}

void run_case(int parameters, double noise, bool relative, std::mt19937_64& random, Tally& tally) {
  std::uniform_int_distribution<std::size_t> pick(0, blocks.size() - 1);
  std::uniform_int_distribution<int> points_per(5, 9);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  const std::vector<std::string> names = parameters == 1 ? std::vector<std::string>{"p"} : std::vector<std::string>{"p", "n"};
  std::vector<Exponent> truth;
  for (int v = 0; v < parameters; ++v) truth.push_back(blocks[pick(random)]);
  const bool product = parameters == 2 && unit(random) < 0.5;
  const int m = points_per(random);
  std::vector<std::vector<double>> grid;
  for (int a = 0; a < m; ++a) {
    if (parameters == 1) {
      grid.push_back({std::pow(2.0, 2 + a)});
      continue;
    }
    for (int b = 0; b < m; ++b) grid.push_back({std::pow(2.0, 2 + a), 100.0 * std::pow(2.0, b)});
  }
  // c0 + c1·f(p) [+ c2·g(n) | ·g(n)], each term reaching 1..100 times c0 at the largest point
  const double c0 = 0.5 + 10.0 * unit(random);
  std::vector<double> largest(static_cast<std::size_t>(parameters), 0.0);
  for (const auto& point : grid) {
    for (int v = 0; v < parameters; ++v) largest[static_cast<std::size_t>(v)] = std::max(largest[static_cast<std::size_t>(v)], point[static_cast<std::size_t>(v)]);
  }
  std::vector<double> coefficients;
  double product_scale = 1.0;
  for (int v = 0; v < parameters; ++v) {
    const double ratio = std::pow(10.0, 2.0 * unit(random));
    coefficients.push_back(ratio * c0 / term(truth[static_cast<std::size_t>(v)], largest[static_cast<std::size_t>(v)]));
    product_scale *= term(truth[static_cast<std::size_t>(v)], largest[static_cast<std::size_t>(v)]);
  }
  const double product_coefficient = std::pow(10.0, 2.0 * unit(random)) * c0 / product_scale;
  auto model = [&](const std::vector<double>& point) {
    if (product) return c0 + product_coefficient * term(truth[0], point[0]) * term(truth[1], point[1]);
    double value = c0;
    for (int v = 0; v < parameters; ++v) value += coefficients[static_cast<std::size_t>(v)] * term(truth[static_cast<std::size_t>(v)], point[static_cast<std::size_t>(v)]);
    return value;
  };

  Series series;
  series.region = "synthetic";
  series.metric = "time";
  series.parameters = names;
  std::uniform_real_distribution<double> jitter(-noise, noise);
  for (const auto& point : grid) {
    Measurement measurement{point, {}};
    for (int r = 0; r < 5; ++r) measurement.values.push_back(model(point) * (1.0 + jitter(random)));
    series.measurements.push_back(measurement);
  }
  ModelOptions options;
  options.fit.relative = relative;
  const auto start = std::chrono::steady_clock::now();
  const SeriesModel fitted = build_model(series, options);
  tally.seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  // The leading exponent per parameter, over the found terms.
  std::vector<Exponent> found(static_cast<std::size_t>(parameters), Exponent{0, 0});
  for (const auto& formula_term : fitted.formula.terms()) {
    if (!formula_term.factor) continue;
    const std::string text = augur::core::write_expression(*formula_term.factor, augur::core::ExpressionStyle::Readable);
    const auto exponents = exponents_of(text, names);
    for (int v = 0; v < parameters; ++v) {
      if (larger(exponents[static_cast<std::size_t>(v)], found[static_cast<std::size_t>(v)])) found[static_cast<std::size_t>(v)] = exponents[static_cast<std::size_t>(v)];
    }
  }
  bool correct = true;
  for (int v = 0; v < parameters; ++v) correct = correct && same(found[static_cast<std::size_t>(v)], truth[static_cast<std::size_t>(v)]);
  ++tally.cases;
  tally.leading_found += correct ? 1 : 0;
  if (!correct && std::getenv("AUGUR_BENCH_VERBOSE") != nullptr) {
    std::string truth_text;
    for (int v = 0; v < parameters; ++v) truth_text += names[static_cast<std::size_t>(v)] + "^" + std::to_string(truth[static_cast<std::size_t>(v)].i) + " log^" + std::to_string(truth[static_cast<std::size_t>(v)].j) + " ";
    std::fprintf(stderr, "  missed (noise %.0f%%, %d points, %s): truth %s found %s\n", 100 * noise, m, product ? "product" : "sum", truth_text.c_str(), fitted.formula.text().c_str());
  }
  for (double factor : {2.0, 4.0}) {
    std::vector<double> point = largest;
    for (double& value : point) value *= factor;
    const double predicted = predict(fitted, point).interval.value;
    const double exact = model(point);
    (factor == 2.0 ? tally.error_2x : tally.error_4x).push_back(100.0 * std::fabs(predicted - exact) / exact);
    if (std::getenv("AUGUR_BENCH_VERBOSE") != nullptr && std::fabs(predicted - exact) > 0.5 * exact) {
      std::fprintf(stderr, "  far off at %gx: predicted %g, truth %g, model %s\n", factor, predicted, exact,
                   fitted.formula.with_values({fitted.segmentation.segments[0].fit.constants.data(), fitted.segmentation.segments[0].fit.constants.data() + fitted.segmentation.segments[0].fit.constants.size()}, augur::core::ExpressionStyle::Readable).c_str());
    }
  }
}

void fft_table() {
  // Seed 001, Table 1: CRAY T3E, N = 2^21 complex points.
  const double procs[] = {1, 2, 4, 8, 16, 32};
  const double measured[] = {11.7748, 6.0036, 3.2120, 1.8939, 1.2750, 0.9664};
  const double obsp[] = {11.8096, 5.8943, 3.0908, 1.7735, 1.1644, 0.8919};
  Series series;
  series.region = "fft";
  series.metric = "time";
  series.parameters = {"N", "P"};
  for (int i = 0; i < 6; ++i) series.measurements.push_back({{2097152.0, procs[i]}, {measured[i]}});
  ModelOptions options;
  options.formula = "fft[0] + fft[1]*log(P) + fft[2]*(N/P)*log(N/P) + fft[3]*N*(P-1)/P";
  for (bool nonnegative : {false, true}) {
    options.fit.nonnegative = nonnegative;
    const SeriesModel model = build_model(series, options);
    const auto& fit = model.segmentation.segments.front().fit;
    std::printf("\nSeed 001 Table 1 (CRAY T3E, N = 2^21): formula (11) fitted by augur%s\n", nonnegative ? " with constants >= 0" : "");
    std::printf("  %5s  %9s  %9s  %7s  %13s  %7s  %9s  %7s\n", "P", "measured", "fitted", "err %", "leave-one-out", "err %", "OBSP*", "err %");
    double fitted_sum = 0.0;
    double loo_sum = 0.0;
    double obsp_sum = 0.0;
    for (int i = 0; i < 6; ++i) {
      const double fitted_error = 100.0 * (measured[i] - fit.fitted(i)) / measured[i];
      const double loo_error = 100.0 * (measured[i] - fit.loo_predictions(i)) / measured[i];
      const double obsp_error = 100.0 * (measured[i] - obsp[i]) / measured[i];
      fitted_sum += std::fabs(fitted_error);
      loo_sum += std::fabs(loo_error);
      obsp_sum += std::fabs(obsp_error);
      std::printf("  %5.0f  %9.4f  %9.4f  %7.2f  %13.4f  %7.2f  %9.4f  %7.2f\n", procs[i], measured[i], fit.fitted(i), fitted_error,
                  fit.loo_predictions(i), loo_error, obsp[i], obsp_error);
    }
    std::printf("  mean |error|: fitted %.2f%%, leave-one-out %.2f%%, published OBSP* %.2f%%\n", fitted_sum / 6, loo_sum / 6, obsp_sum / 6);
    std::printf("  constants: %s\n", model.formula.with_values({fit.constants.data(), fit.constants.data() + fit.constants.size()},
                                                               augur::core::ExpressionStyle::Readable).c_str());
  }
}

}  // namespace

int main(int argc, char** argv) {
  augur::bench::check_arguments(argc, argv,
                                "usage: bench_model_accuracy [--cases N] [--relative]\n"
                                "The model search on noisy data of known laws",
                                {"--cases N", "--relative"}, 0);
  int cases = 100;
  bool relative = false;
  for (int index = 1; index < argc; ++index) {
    if (std::strcmp(argv[index], "--cases") == 0 && index + 1 < argc) cases = std::max(1, std::atoi(argv[++index]));
    else if (std::strcmp(argv[index], "--relative") == 0) relative = true;
    else {
      std::fprintf(stderr, "usage: bench_model_accuracy [--cases N] [--relative]\n");
      return 2;
    }
  }
  std::printf("Model search on synthetic data: %d cases per row, 5 to 9 points per parameter, 5 repetitions (mean), %s fit\n",
              cases, relative ? "relative (1/y²)" : "unweighted");
  std::printf("%-11s  %6s  %14s  %20s  %20s  %10s\n", "parameters", "noise", "leading term", "error at 2x: median", "error at 4x: median",
              "ms/search");
  std::printf("%-11s  %6s  %14s  %20s  %20s  %10s\n", "", "", "found", "(90th percentile)", "(90th percentile)", "");
  std::mt19937_64 random(20261122);
  for (int parameters : {1, 2}) {
    for (double noise : {0.01, 0.05, 0.10}) {
      Tally tally;
      for (int c = 0; c < cases; ++c) run_case(parameters, noise, relative, random, tally);
      char found[32];
      std::snprintf(found, sizeof found, "%.0f%%", 100.0 * tally.leading_found / tally.cases);
      char at2[48];
      char at4[48];
      std::snprintf(at2, sizeof at2, "%.2f%% (%.1f%%)", quantile(tally.error_2x, 0.5), quantile(tally.error_2x, 0.9));
      std::snprintf(at4, sizeof at4, "%.2f%% (%.1f%%)", quantile(tally.error_4x, 0.5), quantile(tally.error_4x, 0.9));
      std::printf("%-11d  %5.0f%%  %14s  %20s  %20s  %10.2f\n", parameters, 100.0 * noise, found, at2, at4, 1000.0 * tally.seconds / tally.cases);
    }
  }
  fft_table();
  return 0;
}
