// Cost of the self-analyzer's probes, through the C API of libaugur as a program calls them.
// Goal (issue 2): at most 50 ns per call. Prints figures; never fails.
#include <benchmark/benchmark.h>

#include "augur/augur.h"

namespace {

// One open/close_iteration pair per benchmark iteration: the "per_call" counter is the cost of one call.
void open_close_iteration(benchmark::State& state) {
  for (auto _ : state) {
    augur_open_iteration();
    augur_close_iteration();
  }
  state.counters["per_call"] = benchmark::Counter(2, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}
BENCHMARK(open_close_iteration);

// One init_par/end_par pair per benchmark iteration, inside an open iteration.
void init_end_par(benchmark::State& state) {
  augur_open_iteration();
  for (auto _ : state) {
    augur_init_par();
    augur_end_par();
  }
  augur_close_iteration();
  state.counters["per_call"] = benchmark::Counter(2, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}
BENCHMARK(init_end_par);

// A whole empty iteration as the example marks it: open, three parallel loops, close.
void iteration_with_three_loops(benchmark::State& state) {
  for (auto _ : state) {
    augur_open_iteration();
    for (int loop = 0; loop < 3; ++loop) {
      augur_init_par();
      augur_end_par();
    }
    augur_close_iteration();
  }
  state.counters["per_call"] = benchmark::Counter(8, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}
BENCHMARK(iteration_with_three_loops);

}  // namespace

int main(int argc, char** argv) {
  augur_set_option("summary", "0");
  augur_init_parallel_region(1, 3, -1);
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  augur_end_parallel_region();
  return 0;
}
