/*
 * outer_race: one OpenMP parallel region around the time loop holding, per time step, a worksharing loop
 * with a dynamic schedule, a worksharing loop with a reduction, and a `single` block (issue 16, point 3).
 * Which thread takes which chunks of the dynamic loop, and which thread runs the `single`, is a race
 * decided anew at every step: the constructs a thread meets must not depend on it for `augur run` to find
 * the same time step in every run. Built plain (no augur code), for `augur run` (docs/run.md).
 *
 *   outer_race [N [STEPS]]     prints the checksum and "outer_race: ... time_s=T"
 *   with EXAMPLE_PACE=1 also "outer_race: pace steps=S marks=M at_s=..." (pace_marks.h, for bench_outer_region)
 */
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#include "pace_marks.h"

static long parse(const char* text, long low, long high, const char* what) {
  char* end = NULL;
  const long value = strtol(text, &end, 10);
  if (end == text || *end != '\0' || value < low || value > high) {
    fprintf(stderr, "outer_race: %s must be an integer between %ld and %ld, got '%s'\n", what, low, high, text);
    exit(2);
  }
  return value;
}

/* Shared by the team: the reduction of the step (a reduction of an orphaned loop must be shared). */
static double energy;

/* A damped wave update, in chunks handed out at run time: the chunk a thread gets is a race. Each
 * element is written by one chunk, so the result does not depend on who ran it. */
static void advance(double* u, const double* v, long n, double weight) {
#pragma omp for schedule(dynamic, 64)
  for (long i = 0; i < n; ++i) u[i] = 0.999 * u[i] + weight * v[i];
}

/* The step's energy, a sum over a static schedule (the same partial sums in every run on one thread count). */
static void measure_energy(const double* u, long n) {
#pragma omp for schedule(static) reduction(+ : energy)
  for (long i = 0; i < n; ++i) energy += u[i] * u[i];
}

int main(int argc, char** argv) {
  const long n = argc > 1 ? parse(argv[1], 16, 100000000L, "N") : 16384;
  const long steps = argc > 2 ? parse(argv[2], 1, 1000000L, "STEPS") : 4000;
  double* u = malloc((size_t)n * sizeof *u);
  double* v = malloc((size_t)n * sizeof *v);
  if (u == NULL || v == NULL) {
    fprintf(stderr, "outer_race: out of memory\n");
    return 1;
  }
  for (long i = 0; i < n; ++i) {
    u[i] = (double)(i % 64) / 64.0;
    v[i] = (double)(i % 37) / 37.0;
  }
  double total = 0.0;
  int threads = 0;
  energy = 0.0;
  PaceMarks pace;
  pace_begin(&pace, steps);
  const double start = omp_get_wtime();
#pragma omp parallel
  {
    for (long step = 0; step < steps; ++step) {
      advance(u, v, n, 0.001 * (double)(step % 3));
      measure_energy(u, n);
#pragma omp single
      {
        threads = omp_get_num_threads();
        total += sqrt(energy / (double)n);
        energy = 0.0;
      }
      pace_done(&pace, step + 1);
    }
  }
  const double elapsed = omp_get_wtime() - start;
  double sum = 0.0;
  for (long i = 0; i < n; ++i) sum += u[i];
  printf("outer_race: N=%ld steps=%ld threads=%d\n", n, steps, threads);
  printf("outer_race: checksum sum=%.8e energy=%.8e\n", sum, total / (double)steps);
  printf("outer_race: time_s=%.6f\n", elapsed);
  pace_end(&pace, "outer_race", start, start + elapsed);
  free(u);
  free(v);
  return 0;
}
