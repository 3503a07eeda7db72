// Segmented search (`augur fit DATA --segments auto` without a formula) on synthetic sets of one law and of
// two laws. Prints figures; never fails. Usage: bench_segment_search_accuracy [--one N] [--two N]
//
// Every set has 13 points p = 2, 4, 8, 12, 16, 24, 32, 48, 64, 96, 128, 192, 256 with 5 repetitions of
// uniform multiplicative noise ±1% or ±5% (mean of the repetitions), from a seeded mt19937_64.
// One law: c0 + c1·f(p), f one of Extra-P's building blocks p^i·log2(p)^j, c1·f(256) 1 to 100 times c0;
// counted: how many sets are split. Two laws: a0 + a1·f(p) up to the change point (after the 5th to 8th
// value), then b0 + b1·g(p) with g growing faster or slower, continuous at the change; counted: how many
// give two pieces with both leading terms right (the term of fastest growth) and the change point within
// one grid step.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "model/model.hpp"
#include "bench_arguments.hpp"

namespace {

using namespace augur::model;

struct Block {
  double i;
  int j;
};

// Extra-P's building blocks the laws are drawn from (a subset spread over the growth rates).
const std::vector<Block> blocks = {{0, 1},   {0.5, 0}, {0.5, 1}, {2.0 / 3, 0}, {1, 0},   {1, 1}, {4.0 / 3, 0},
                                   {1.5, 0}, {1.5, 1}, {2, 0},   {2, 1},        {2.5, 0}, {3, 0}};

double value_of(const Block& block, double p) { return std::pow(p, block.i) * std::pow(std::log2(p), block.j); }

// The growth of a block between p = 2^20 and 2^40: what ranks terms (and identifies a found one).
double growth(const Block& block) { return std::log(value_of(block, std::pow(2.0, 40)) / value_of(block, std::pow(2.0, 20))); }

const std::vector<double> grid = {2, 4, 8, 12, 16, 24, 32, 48, 64, 96, 128, 192, 256};

// The growth of the fastest-growing term of a found formula.
double leading_growth(const Formula& formula) {
  double best = 0.0;
  for (std::size_t t = 0; t < formula.terms().size(); ++t) {
    if (!formula.terms()[t].factor) continue;
    const double near = std::fabs(formula.regressor(t, {{"p", std::pow(2.0, 20)}}));
    const double far = std::fabs(formula.regressor(t, {{"p", std::pow(2.0, 40)}}));
    best = std::max(best, std::log(far / near));
  }
  return best;
}

bool same_growth(double a, double b) { return std::fabs(a - b) < 1e-6; }

Series measure(const std::function<double(double)>& law, double noise, std::mt19937_64& random) {
  Series series;
  series.region = "synthetic";
  series.metric = "time";
  series.parameters = {"p"};
  std::uniform_real_distribution<double> jitter(-noise, noise);
  for (double p : grid) {
    Measurement measurement{{p}, {}};
    for (int r = 0; r < 5; ++r) measurement.values.push_back(law(p) * (1.0 + jitter(random)));
    series.measurements.push_back(measurement);
  }
  return series;
}

struct Tally {
  int sets = 0;
  int hits = 0;  // one law: split; two laws: both pieces and the change point right
  int placed = 0;  // two laws: two segments with the change point within one grid step
  double seconds = 0.0;
};

SeriesModel timed_model(const Series& series, bool relative, Tally& tally) {
  ModelOptions options;
  options.segments = 0;
  options.fit.relative = relative;
  const std::clock_t start = std::clock();
  SeriesModel model = build_model(series, options);
  tally.seconds += static_cast<double>(std::clock() - start) / CLOCKS_PER_SEC;
  ++tally.sets;
  return model;
}

void one_law(double noise, bool relative, std::mt19937_64& random, Tally& tally) {
  std::uniform_int_distribution<std::size_t> pick(0, blocks.size() - 1);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  const Block block = blocks[pick(random)];
  const double c0 = 0.5 + 10.0 * unit(random);
  const double c1 = std::pow(10.0, 2.0 * unit(random)) * c0 / value_of(block, grid.back());
  const SeriesModel model = timed_model(measure([&](double p) { return c0 + c1 * value_of(block, p); }, noise, random), relative, tally);
  if (model.segmentation.segments.size() > 1) ++tally.hits;
}

void two_laws(double noise, bool relative, std::mt19937_64& random, Tally& tally) {
  std::uniform_int_distribution<std::size_t> pick(0, blocks.size() - 1);
  std::uniform_int_distribution<std::size_t> change(4, 7);  // the last index of the first law
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  Block first = blocks[pick(random)];
  Block second = blocks[pick(random)];
  while (std::fabs(second.i - first.i) < 0.99) second = blocks[pick(random)];  // shapes that differ clearly
  const std::size_t last = change(random);
  const double at = grid[last];
  const double a0 = 0.5 + 10.0 * unit(random);
  const double a1 = std::pow(10.0, 1.0 + unit(random)) * a0 / value_of(first, at);
  const double b0 = a0 * unit(random);
  const double b1 = (a0 + a1 * value_of(first, at) - b0) / value_of(second, at);  // continuous at the change
  const SeriesModel model = timed_model(
      measure([&](double p) { return p <= at ? a0 + a1 * value_of(first, p) : b0 + b1 * value_of(second, p); }, noise, random), relative, tally);
  if (model.pieces.size() != 2) return;
  const bool terms = same_growth(leading_growth(model.pieces[0]), growth(first)) && same_growth(leading_growth(model.pieces[1]), growth(second));
  const double upper = model.segmentation.segments[0].upper[0];
  std::size_t found = 0;
  while (found < grid.size() && grid[found] < upper) ++found;
  const std::size_t distance = found > last ? found - last : last - found;
  if (distance <= 1) ++tally.placed;
  if (terms && distance <= 1) ++tally.hits;
}

}  // namespace

int main(int argc, char** argv) {
  augur::bench::check_arguments(argc, argv,
                                "usage: bench_segment_search_accuracy [--one N] [--two N]\n"
                                "The segment search on data of one and two laws",
                                {"--one N", "--two N"}, 0);
  int one = 40;
  int two = 15;
  for (int a = 1; a < argc; ++a) {
    if (std::strcmp(argv[a], "--one") == 0 && a + 1 < argc) {
      one = std::atoi(argv[++a]);
    } else if (std::strcmp(argv[a], "--two") == 0 && a + 1 < argc) {
      two = std::atoi(argv[++a]);
    } else {
      std::fprintf(stderr, "usage: bench_segment_search_accuracy [--one N] [--two N]\n");
      return 2;
    }
  }
  std::printf("Segmented search on 13 points (p = 2..256), 5 repetitions, %d one-law and %d two-law sets per row\n\n", one, two);
  std::printf("| noise | weighting | one law split | two laws found | two laws split at the change | CPU per set |\n| --- | --- | --- | --- | --- | --- |\n");
  for (double noise : {0.01, 0.05}) {
    for (bool relative : {false, true}) {
      std::mt19937_64 random(21);  // the same sets for both weightings
      Tally single;
      Tally pair;
      for (int s = 0; s < one; ++s) one_law(noise, relative, random, single);
      for (int s = 0; s < two; ++s) two_laws(noise, relative, random, pair);
      const double per_set = (single.seconds + pair.seconds) / std::max(1, single.sets + pair.sets);
      std::printf("| %.0f%% | %s | %d of %d | %d of %d | %d of %d | %.1f ms |\n", 100 * noise, relative ? "--relative" : "unweighted", single.hits,
                  single.sets, pair.hits, pair.sets, pair.placed, pair.sets, 1e3 * per_set);
      std::fflush(stdout);
    }
  }
  return 0;
}
