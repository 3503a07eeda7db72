/*
 * outer_region: one OpenMP parallel region around the whole time loop, with orphaned worksharing loops
 * inside it (as ports of the NAS benchmarks do): per time step two `#pragma omp for` loops with a static
 * schedule, one with a dynamic schedule, and the bookkeeping of the step in `#pragma omp single`. Built
 * plain (no augur code), for `augur run` (docs/run.md, "One outer parallel region").
 *
 *   outer_region [N [STEPS]]     prints the checksum and "outer_region: ... time_s=T"
 *   with EXAMPLE_PACE=1 also "outer_region: pace steps=S marks=M at_s=..." (pace_marks.h, for bench_outer_region)
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#include "pace_marks.h"

static long parse(const char* text, long low, long high, const char* what) {
  char* end = NULL;
  const long value = strtol(text, &end, 10);
  if (end == text || *end != '\0' || value < low || value > high) {
    fprintf(stderr, "outer_region: %s must be an integer between %ld and %ld, got '%s'\n", what, low, high, text);
    exit(2);
  }
  return value;
}

/* The worksharing loops of one time step, orphaned: called from inside the parallel region. */
static void smooth(const double* in, double* out, long n) {
#pragma omp for schedule(static)
  for (long i = 1; i < n - 1; ++i) out[i] = 0.25 * in[i - 1] + 0.5 * in[i] + 0.25 * in[i + 1];
}

static void relax(double* values, const double* smoothed, long n) {
#pragma omp for schedule(static)
  for (long i = 1; i < n - 1; ++i) values[i] = 0.5 * (values[i] + smoothed[i]);
}

static void source(double* values, long n, long step) {
#pragma omp for schedule(dynamic, 1024)
  for (long i = 0; i < n; ++i) values[i] += 1e-6 * (double)((i + step) % 7);
}

int main(int argc, char** argv) {
  const long n = argc > 1 ? parse(argv[1], 16, 100000000L, "N") : 200000;
  const long steps = argc > 2 ? parse(argv[2], 1, 1000000L, "STEPS") : 300;
  double* values = malloc((size_t)n * sizeof *values);
  double* smoothed = malloc((size_t)n * sizeof *smoothed);
  if (values == NULL || smoothed == NULL) {
    fprintf(stderr, "outer_region: out of memory\n");
    return 1;
  }
  for (long i = 0; i < n; ++i) values[i] = smoothed[i] = (double)(i % 100) / 100.0;
  double residual = 0.0;
  int threads = 0;
  PaceMarks pace;
  pace_begin(&pace, steps);
  const double start = omp_get_wtime();
#pragma omp parallel
  {
#pragma omp single
    threads = omp_get_num_threads();
    for (long step = 0; step < steps; ++step) {
      smooth(values, smoothed, n);
      relax(values, smoothed, n);
      source(values, n, step);
#pragma omp single
      residual = values[n / 2];
      pace_done(&pace, step + 1);
    }
  }
  const double elapsed = omp_get_wtime() - start;
  double sum = 0.0;
  for (long i = 0; i < n; ++i) sum += values[i];
  printf("outer_region: N=%ld steps=%ld threads=%d\n", n, steps, threads);
  printf("outer_region: checksum sum=%.10e residual=%.10e\n", sum, residual);
  printf("outer_region: time_s=%.6f\n", elapsed);
  pace_end(&pace, "outer_region", start, start + elapsed);
  free(values);
  free(smoothed);
  return 0;
}
