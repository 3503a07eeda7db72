// Cost of a CALL experiment instance (augur_experiment_begin + augur_experiment_end) through the C API,
// as translated code calls it, and of a BSP superstep record. Prints figures; never fails.
// The records are reported (and forgotten) every 100000 instances so that memory stays bounded;
// the experiment file is /dev/null.
#include <benchmark/benchmark.h>

#include "augur/augur.h"

namespace {

int declare(const char* name, const char* formula, const char* variables) {
  static const bool configured = augur_set_option("experiment_file", "/dev/null") == AUGUR_OK;
  (void)configured;
  return augur_experiment_declare(name, formula, variables);
}

void flush_every(benchmark::State& state, long& count) {
  if (++count % 100000 != 0) return;
  state.PauseTiming();
  augur_experiment_report(nullptr);
  state.ResumeTiming();
}

// An instance without variables.
void instance_without_variables(benchmark::State& state) {
  const int experiment = declare("empty", "empty[0]", "");
  long count = 0;
  for (auto _ : state) {
    augur_experiment_begin(experiment, nullptr);
    augur_experiment_end(experiment);
    flush_every(state, count);
  }
  augur_experiment_report(nullptr);
}
BENCHMARK(instance_without_variables);

// An instance with two variables, as the FFT's fft experiment (N, P).
void instance_with_two_variables(benchmark::State& state) {
  const int experiment = declare("two", "two[0] + two[1]*N*P", "N,P");
  const double values[] = {1024.0, 4.0};
  long count = 0;
  for (auto _ : state) {
    augur_experiment_begin(experiment, values);
    augur_experiment_end(experiment);
    flush_every(state, count);
  }
  augur_experiment_report(nullptr);
}
BENCHMARK(instance_with_two_variables);

// Two nested instances (the FFT's D inside fft).
void nested_instances(benchmark::State& state) {
  const int outer = declare("outer", "outer[0]", "");
  const int inner = declare("inner", "inner[0]", "");
  long count = 0;
  for (auto _ : state) {
    augur_experiment_begin(outer, nullptr);
    augur_experiment_begin(inner, nullptr);
    augur_experiment_end(inner);
    augur_experiment_end(outer);
    flush_every(state, count);
  }
  augur_experiment_report(nullptr);
}
BENCHMARK(nested_instances);

// One superstep: communicate + sync with one partner.
void superstep(benchmark::State& state) {
  augur_bsp_start(0, 0, 2);
  const int partner = 1;
  long count = 0;
  for (auto _ : state) {
    augur_bsp_communicate();
    augur_bsp_sync(AUGUR_BSP_OBLIVIOUS, 1024, 1024, 1, &partner);
    if (++count % 100000 == 0) {
      state.PauseTiming();
      char* buffer = nullptr;
      unsigned long length = 0;
      augur_bsp_serialize(&buffer, &length);
      augur_free(buffer);
      state.ResumeTiming();
    }
  }
  augur_bsp_stop();
}
BENCHMARK(superstep);

}  // namespace

BENCHMARK_MAIN();
