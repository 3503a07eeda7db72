// The one-pass miss-rate curves of issue 17 (part 2): accesses per second of Mattson's stack-distance curve
// and of StatStack at 1 in 1000, and StatStack's error against the exact curve, on four synthetic patterns
// (streaming, random in a working set, a matrix-multiply loop nest, a mix; tests/sim/cache_patterns.hpp).
// Medians of interleaved rounds of the thread's CPU time (the machine is shared: CPU time does not count the
// time other processes hold the core); the generator's own time is measured alone and reported. Prints
// figures; never fails.  Usage: bench_cache_curve [accesses per run, default 1e8] [rounds, default 3]
#include <cstdio>
#include <cstdlib>
#include <string>
#include <time.h>
#include <vector>

#include "augur/core/stats.hpp"
#include "core/table.hpp"
#include "sim/cache/stack_distance.hpp"
#include "sim/cache/statstack.hpp"
#include "sim/cache_patterns.hpp"
#include "bench_arguments.hpp"

namespace {

using namespace augur::sim::cache;

constexpr std::uint64_t line_size = 64;
constexpr double sample_rate = 1e-3;
constexpr std::uint64_t seed = 1;

struct Timings {
  std::vector<double> generator, exact, statstack;
};

double cpu_seconds() {
  timespec now{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) + 1e-9 * static_cast<double>(now.tv_nsec);
}

double seconds_since(double start) { return cpu_seconds() - start; }

std::string rate(std::uint64_t accesses, const std::vector<double>& seconds) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f M/s", static_cast<double>(accesses) / augur::core::median(seconds) / 1e6);
  return text;
}

}  // namespace

int main(int argc, char** argv) {
  augur::bench::check_arguments(argc, argv,
                                "usage: bench_cache_curve [ACCESSES [ROUNDS]]\n"
                                "Stack-distance curves and StatStack: accesses per CPU second (defaults: 1e8 accesses a run, 3 rounds)",
                                {}, 2);
  const std::uint64_t accesses = argc > 1 ? static_cast<std::uint64_t>(std::strtod(argv[1], nullptr)) : 100000000;
  const int rounds = argc > 2 ? std::atoi(argv[2]) : 3;
  const std::vector<testing::Pattern> patterns = {testing::Pattern::Streaming, testing::Pattern::RandomWorkingSet,
                                                  testing::Pattern::MatrixMultiply, testing::Pattern::Mix};
  std::vector<Timings> timings(patterns.size());
  std::vector<testing::CurveError> errors(patterns.size());
  std::vector<std::uint64_t> references(patterns.size()), samples(patterns.size()), floors(patterns.size());
  for (int round = 0; round < rounds; ++round) {
    for (std::size_t p = 0; p < patterns.size(); ++p) {
      // The order of the three runs turns with the round, so that a slow neighbour does not favour one.
      for (int turn = 0; turn < 3; ++turn) {
        const int which = (turn + round) % 3;
        testing::PatternSource source(patterns[p], accesses, seed);
        const double start = cpu_seconds();
        if (which == 0) {
          read_batches(source, [](std::span<const Access>) {}, {});
          timings[p].generator.push_back(seconds_since(start));
        } else if (which == 1) {
          StackDistanceHistogram histogram(line_size, 1);
          read_batches(source, [&](std::span<const Access> batch) { histogram.add(batch); }, {});
          timings[p].exact.push_back(seconds_since(start));
          if (round == 0) {
            testing::PatternSource again(patterns[p], accesses, seed);
            const StatStackCurve estimate = statstack_curve(again, line_size, sample_rate, seed);
            errors[p] = testing::curve_error(histogram, estimate);
            references[p] = histogram.references();
            samples[p] = estimate.samples;
            floors[p] = stack_distance_curve(histogram).points.back().size;
          }
        } else {
          StatStackSampler sampler(line_size, sample_rate, seed);
          read_batches(source, [&](std::span<const Access> batch) { sampler.add(batch); }, {});
          [[maybe_unused]] const StatStackEstimate estimate = sampler.estimate();  // the estimate is part of the cost
          timings[p].statstack.push_back(seconds_since(start));
        }
      }
    }
  }
  augur::core::TextTable table({"pattern", "generator alone", "stack distances", "StatStack 1/1000", "samples",
                                "exact floor (bytes)", "StatStack mean error (points)", "max error (points)", "at size (bytes)"});
  for (std::size_t p = 0; p < patterns.size(); ++p) {
    table.add_row({testing::name_of(patterns[p]), rate(accesses, timings[p].generator), rate(accesses, timings[p].exact),
                   rate(accesses, timings[p].statstack), std::to_string(samples[p]), std::to_string(floors[p]),
                   augur::core::format_number(errors[p].mean_points, 3), augur::core::format_number(errors[p].max_points, 3), std::to_string(errors[p].worst_size)});
  }
  std::printf("bench_cache_curve: %llu accesses per run (8-byte, line %llu B, fully associative LRU), medians of %d "
              "interleaved rounds, per second of the thread's CPU time; rates include the generator\n%s",
              static_cast<unsigned long long>(accesses), static_cast<unsigned long long>(line_size), rounds,
              table.render().c_str());
  return 0;
}
