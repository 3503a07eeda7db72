/* An instrumented program for the timeline tests (trace_e2e_test.cpp): a CALL experiment before the
 * region, then one region of ITERATIONS iterations, each an experiment around two parallel loops.
 * Usage: trace_program [ITERATIONS] (default 12). */
#include <stdio.h>
#include <stdlib.h>

#include "augur/augur.h"

static double work(int n) {
  double sum = 0.0;
#pragma omp parallel for reduction(+ : sum)
  for (int i = 0; i < n; ++i) sum += (double)i * 0.5;
  return sum;
}

int main(int argc, char** argv) {
  const int iterations = argc > 1 ? atoi(argv[1]) : 12;
  if (iterations < 1 || iterations > 100000) {
    fprintf(stderr, "trace_program: ITERATIONS must be from 1 to 100000\n");
    return 2;
  }
  const int setup = augur_experiment_declare("setup", "setup[0]", "");
  const int step = augur_experiment_declare("step", "step[0] + step[1]*N", "N");
  double total = 0.0;
  augur_experiment_begin(setup, NULL);
  total += work(100000);
  augur_experiment_end(setup);
  augur_init_parallel_region(0x1234, 2, iterations);
  for (int k = 0; k < iterations; ++k) {
    augur_open_iteration();
    const double n = 200000.0;
    augur_experiment_begin(step, &n);
    for (int loop = 0; loop < 2; ++loop) {
      augur_init_par();
      total += work((int)n);
      augur_end_par();
    }
    augur_experiment_end(step);
    augur_close_iteration();
  }
  augur_end_parallel_region();
  augur_experiment_report(NULL);
  printf("%.1f\n", total);
  return 0;
}
