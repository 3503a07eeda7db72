/*
 * outer_region_cancel.c - one parallel region around the whole time loop, as in outer_region.c, but with
 * its worksharing loops written inside the region and a `cancel parallel` on a check that never fails
 * (it would cancel only with OMP_CANCELLATION=true; it is there so that gcc treats the region as
 * cancellable): in such a region, gcc ends the constructs with GOMP_barrier_cancel and
 * GOMP_loop_end_cancel instead of GOMP_barrier and GOMP_loop_end. `augur run` finds the time loop in those
 * ends too (docs/run.md, "One outer parallel region").
 *
 *   outer_region-cancel [N [STEPS]]      N points (default 200000), STEPS time steps (default 300)
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

static long parse(const char* text, long low, long high, const char* what) {
  char* end = NULL;
  const long value = strtol(text, &end, 10);
  if (end == text || *end != '\0' || value < low || value > high) {
    fprintf(stderr, "outer_region_cancel: %s must be an integer between %ld and %ld, got '%s'\n", what, low, high,
            text);
    exit(2);
  }
  return value;
}

int main(int argc, char** argv) {
  const long n = argc > 1 ? parse(argv[1], 16, 100000000L, "N") : 200000;
  const long steps = argc > 2 ? parse(argv[2], 1, 1000000L, "STEPS") : 300;
  double* values = malloc((size_t)n * sizeof *values);
  double* smoothed = malloc((size_t)n * sizeof *smoothed);
  if (values == NULL || smoothed == NULL) {
    fprintf(stderr, "outer_region_cancel: out of memory\n");
    return 1;
  }
  for (long i = 0; i < n; ++i) values[i] = smoothed[i] = (double)(i % 100) / 100.0;
  double residual = 0.0;
  int threads = 0;
  int diverged = 0;
  const double start = omp_get_wtime();
#pragma omp parallel
  {
#pragma omp single
    threads = omp_get_num_threads();
    for (long step = 0; step < steps; ++step) {
#pragma omp for schedule(static)
      for (long i = 1; i < n - 1; ++i) smoothed[i] = 0.25 * values[i - 1] + 0.5 * values[i] + 0.25 * values[i + 1];
#pragma omp for schedule(static)
      for (long i = 1; i < n - 1; ++i) values[i] = 0.5 * (values[i] + smoothed[i]);
#pragma omp for schedule(dynamic, 1024)
      for (long i = 0; i < n; ++i) values[i] += 1e-6 * (double)((i + step) % 7);
#pragma omp single
      {
        residual = values[n / 2];
        diverged = !(residual == residual) || residual > 1e300;
      }
      /* Never taken while the values stay finite (and a no-op unless OMP_CANCELLATION=true); its presence
       * makes the region cancellable. */
#pragma omp cancel parallel if (diverged)
    }
  }
  const double elapsed = omp_get_wtime() - start;
  double sum = 0.0;
  for (long i = 0; i < n; ++i) sum += values[i];
  printf("outer_region_cancel: N=%ld steps=%ld threads=%d%s\n", n, steps, threads, diverged ? " (diverged)" : "");
  printf("outer_region_cancel: checksum sum=%.10e residual=%.10e\n", sum, residual);
  printf("outer_region_cancel: time_s=%.6f\n", elapsed);
  free(values);
  free(smoothed);
  return diverged ? 1 : 0;
}
