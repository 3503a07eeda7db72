// The seed's stochastic cache simulator against exact simulation of the expanded trace (issue 17, seed 004
// §2.2 Figures 14-15): for each program model, the miss rate over a range of cache sizes by the exact
// simulator, the stochastic simulator at the loops' fixed point and in the seed's single pass, and StatStack
// (1 in 1000); the mean and maximum absolute error in points, over all sizes and over the transition range;
// each method's time. Then one loop nest of about 10^8 accesses at two sizes (the 100x goal). Prints
// figures, never fails on a time (docs/benchmarks.md).
//
//   bench_cache_predict [--quick] [MODEL_FILE...]   (default: the six models of examples/cache/models/)
#include <chrono>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "core/files.hpp"
#include "sim/cache/cache_sim.hpp"
#include "sim/cache/model_trace.hpp"
#include "sim/cache/stack_distance.hpp"
#include "sim/cache/statstack.hpp"
#include "sim/cache/stochastic.hpp"
#include "bench_arguments.hpp"

namespace {

namespace cache = augur::sim::cache;

struct Program {
  std::string name;
  std::string text;
};

// The six example models (examples/cache/models/, docs/cache.md).
std::vector<Program> example_programs() {
  std::vector<Program> programs;
  for (const char* name : {"ab_loop", "matmul", "matmul_tiled", "stencil2d", "transpose", "linked_walk"}) {
    const std::string path = std::string(AUGUR_EXAMPLES_DIR) + "/cache/models/" + name + ".model";
    programs.push_back({name, augur::core::read_file(path)});
  }
  return programs;
}

cache::Model parse(const Program& program, const augur::core::Bindings& defines = {}) {
  return cache::parse_model(augur::core::SourceText(program.name, program.text), defines);
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

cache::CacheSpec spec(std::uint64_t size) {
  cache::CacheSpec level;
  level.name = "l1";
  level.size = size;
  level.line = 64;
  level.assoc = std::min<std::uint64_t>(8, size / 64);
  return level;
}

struct ExactRun {
  double miss_rate = 0.0;
  double seconds = 0.0;
  std::uint64_t accesses = 0;
};

ExactRun exact(const cache::Model& model, std::uint64_t size) {
  const auto start = std::chrono::steady_clock::now();
  cache::ModelTrace trace(model, augur::sim::RandomStream(1, 0));
  cache::CacheHierarchy hierarchy({spec(size)}, false);
  hierarchy.run(trace);
  return {hierarchy.levels().front().statistics().miss_rate(), seconds_since(start),
          hierarchy.levels().front().statistics().accesses};
}

struct StochasticRun {
  double miss_rate = 0.0;
  double seconds = 0.0;
  std::uint64_t work = 0;
};

StochasticRun stochastic(const cache::Model& model, std::uint64_t size, cache::LoopMethod loops) {
  const auto start = std::chrono::steady_clock::now();
  const cache::CacheSpec level = spec(size);
  const cache::StochasticLevel stochastic_level{"l1", level.size, level.line, level.assoc, cache::StochasticReplacement::Lru};
  cache::StochasticOptions options;
  options.loops = loops;
  const cache::StochasticResult result = cache::predict_stochastic(model, {&stochastic_level, 1}, options);
  return {result.levels.front().miss_rate(), seconds_since(start), result.simulated_accesses};
}

struct Errors {
  double sum = 0.0;
  double largest = 0.0;
  int count = 0;
  void add(double error) {
    sum += std::abs(error);
    largest = std::max(largest, std::abs(error));
    ++count;
  }
  [[nodiscard]] double mean() const { return count > 0 ? sum / count : 0.0; }
};

void compare(const Program& program, const std::vector<std::uint64_t>& sizes) {
  const cache::Model model = parse(program);
  std::vector<ExactRun> exact_runs;
  for (const std::uint64_t size : sizes) exact_runs.push_back(exact(model, size));
  const auto statstack_start = std::chrono::steady_clock::now();
  cache::ModelTrace trace(model, augur::sim::RandomStream(1, 0));
  cache::StatStackSampler sampler(64, 0.001, 1);
  cache::read_batches(trace, [&sampler](std::span<const cache::Access> batch) { sampler.add(batch); }, {});
  const cache::StatStackEstimate estimate = sampler.estimate();
  const double statstack_seconds = seconds_since(statstack_start);
  std::printf("\n%s: %llu accesses, LRU 8-way, 64-byte lines (miss rates in %%)\n", program.name.c_str(),
              static_cast<unsigned long long>(exact_runs.front().accesses));
  std::printf("%9s %8s %8s %8s %8s %9s  %s\n", "size", "exact", "fixed", "single", "statstk", "fixed-ms", "transition");
  Errors fixed_errors, single_errors, statstack_errors, transition_errors;
  double exact_seconds = 0.0, fixed_seconds = 0.0, single_seconds = 0.0;
  for (std::size_t k = 0; k < sizes.size(); ++k) {
    const StochasticRun fixed = stochastic(model, sizes[k], cache::LoopMethod::FixedPoint);
    const StochasticRun single = stochastic(model, sizes[k], cache::LoopMethod::SinglePass);
    const double statstack = estimate.miss_rate(sizes[k] / 64);
    const double truth = exact_runs[k].miss_rate;
    // The transition range: sizes where the exact curve moves by more than a point to a neighbour.
    const bool transition = (k > 0 && std::abs(exact_runs[k - 1].miss_rate - truth) > 0.01) ||
                            (k + 1 < sizes.size() && std::abs(exact_runs[k + 1].miss_rate - truth) > 0.01);
    fixed_errors.add(100 * (fixed.miss_rate - truth));
    single_errors.add(100 * (single.miss_rate - truth));
    statstack_errors.add(100 * (statstack - truth));
    if (transition) transition_errors.add(100 * (fixed.miss_rate - truth));
    exact_seconds += exact_runs[k].seconds;
    fixed_seconds += fixed.seconds;
    single_seconds += single.seconds;
    std::printf("%8lluK %8.3f %8.3f %8.3f %8.3f %9.3f  %s\n", static_cast<unsigned long long>(sizes[k] / 1024), 100 * truth,
                100 * fixed.miss_rate, 100 * single.miss_rate, 100 * statstack, fixed.seconds * 1e3, transition ? "*" : "");
  }
  std::printf("abs error (points): fixed mean %.3f max %.3f (transition: mean %.3f max %.3f over %d sizes); "
              "single mean %.3f max %.3f; statstack mean %.3f max %.3f\n",
              fixed_errors.mean(), fixed_errors.largest, transition_errors.mean(), transition_errors.largest,
              transition_errors.count, single_errors.mean(), single_errors.largest, statstack_errors.mean(),
              statstack_errors.largest);
  std::printf("time over the %zu sizes: exact %.3f s, fixed %.4f s (%.0fx), single %.4f s, statstack (all sizes) %.3f s\n",
              sizes.size(), exact_seconds, fixed_seconds, exact_seconds / std::max(fixed_seconds, 1e-9), single_seconds,
              statstack_seconds);
}

void hundred_million(const Program& program, std::int64_t n) {
  const cache::Model model = parse(program, {{"N", static_cast<double>(n)}});
  std::printf("\nmatmul N = %lld (%.3g accesses): exact vs stochastic (fixed point)\n", static_cast<long long>(n),
              2.0 * static_cast<double>(n * n * n + n * n));
  for (const std::uint64_t size : {std::uint64_t{32} << 10, std::uint64_t{256} << 10}) {
    const ExactRun truth = exact(model, size);
    const StochasticRun fixed = stochastic(model, size, cache::LoopMethod::FixedPoint);
    std::printf("%6lluK: exact %.3f%% in %.3f s; stochastic %.3f%% in %.4f s (%llu reference updates): %.0fx faster, "
                "error %.3f points\n",
                static_cast<unsigned long long>(size >> 10), 100 * truth.miss_rate, truth.seconds, 100 * fixed.miss_rate,
                fixed.seconds, static_cast<unsigned long long>(fixed.work), truth.seconds / fixed.seconds,
                100 * std::abs(fixed.miss_rate - truth.miss_rate));
  }
}

}  // namespace

int main(int argc, char** argv) {
  augur::bench::check_arguments(argc, argv,
                                "usage: bench_cache_predict [--quick] [MODEL...]\n"
                                "The stochastic cache simulator against exact simulation over cache sizes (default: the example models)",
                                {"--quick"}, 1000000);
  bool quick = false;
  std::vector<Program> programs;
  for (int i = 1; i < argc; ++i) {
    const std::string argument = argv[i];
    if (argument == "--quick") {
      quick = true;
    } else {
      programs.push_back({argument, augur::core::read_file(argument)});
    }
  }
  const std::vector<Program> examples = example_programs();
  if (programs.empty()) programs = examples;
  std::vector<std::uint64_t> sizes;
  for (std::uint64_t size = 1024; size <= (std::uint64_t{1} << 20); size *= 2) sizes.push_back(size);
  try {
    for (const Program& program : programs) compare(program, sizes);
    hundred_million(examples[1], quick ? 100 : 368);
  } catch (const std::exception& error) {
    std::fprintf(stderr, "bench_cache_predict: %s\n", error.what());
    return 1;
  }
  return 0;
}
