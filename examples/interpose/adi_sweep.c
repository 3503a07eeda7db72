/*
 * adi_sweep: an implicit diffusion step split by directions (alternating direction implicit, the shape of
 * NAS SP and BT) on an N x N x N grid, inside ONE OpenMP parallel region around the time loop. Per time
 * step, orphaned worksharing loops with a static schedule: the right-hand side (a 7-point Laplacian), a
 * tridiagonal solve along every x line, then every y line, then every z line (the Thomas algorithm, one
 * line per iteration), the update of the field with the sum of its squared change (a reduction), and the
 * residual norm of the step in `#pragma omp single`. Built plain (no augur code), for `augur run`
 * (docs/run.md, "One outer parallel region").
 *
 *   adi_sweep [N [STEPS]]     prints the checksum and "adi_sweep: ... time_s=T"
 *   with EXAMPLE_PACE=1 also "adi_sweep: pace steps=S marks=M at_s=..." (pace_marks.h, for bench_outer_region)
 */
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#include "pace_marks.h"

enum { MAX_N = 512 };
static const double ALPHA = 0.4; /* the diffusion number of one direction */

static long parse(const char* text, long low, long high, const char* what) {
  char* end = NULL;
  const long value = strtol(text, &end, 10);
  if (end == text || *end != '\0' || value < low || value > high) {
    fprintf(stderr, "adi_sweep: %s must be an integer between %ld and %ld, got '%s'\n", what, low, high, text);
    exit(2);
  }
  return value;
}

/* The sum of the squared changes of one step: shared by the team (the list item of an orphaned reduction). */
static double change;

static long at(long n, long i, long j, long k) { return (k * n + j) * n + i; }

/* rhs = ALPHA * (the 7-point Laplacian of u) on the interior points; the boundary stays 0. */
static void compute_rhs(const double* u, double* rhs, long n) {
#pragma omp for schedule(static)
  for (long k = 1; k < n - 1; ++k)
    for (long j = 1; j < n - 1; ++j)
      for (long i = 1; i < n - 1; ++i) {
        const long c = at(n, i, j, k);
        rhs[c] = ALPHA * (u[c - 1] + u[c + 1] + u[c - n] + u[c + n] + u[c - n * n] + u[c + n * n] - 6.0 * u[c]);
      }
}

/* Solves (1 + 2 ALPHA) x[m] - ALPHA (x[m-1] + x[m+1]) = d[m] in place for m = 1 .. n-2 of the line of
 * `data` starting at `first` with `stride` between points (x = 0 at both ends). */
static void thomas(double* data, long first, long stride, long n) {
  double upper[MAX_N];
  const double diagonal = 1.0 + 2.0 * ALPHA;
  double previous = 0.0;
  for (long m = 1; m < n - 1; ++m) {
    const double pivot = diagonal + ALPHA * (m > 1 ? upper[m - 1] : 0.0);
    upper[m] = -ALPHA / pivot;
    double* value = &data[first + m * stride];
    *value = (*value + ALPHA * previous) / pivot;
    previous = *value;
  }
  for (long m = n - 3; m >= 1; --m) data[first + m * stride] -= upper[m] * data[first + (m + 1) * stride];
}

static void x_solve(double* rhs, long n) {
#pragma omp for schedule(static)
  for (long k = 1; k < n - 1; ++k)
    for (long j = 1; j < n - 1; ++j) thomas(rhs, at(n, 0, j, k), 1, n);
}

static void y_solve(double* rhs, long n) {
#pragma omp for schedule(static)
  for (long k = 1; k < n - 1; ++k)
    for (long i = 1; i < n - 1; ++i) thomas(rhs, at(n, i, 0, k), n, n);
}

static void z_solve(double* rhs, long n) {
#pragma omp for schedule(static)
  for (long j = 1; j < n - 1; ++j)
    for (long i = 1; i < n - 1; ++i) thomas(rhs, at(n, i, j, 0), n * n, n);
}

static void add(double* u, const double* rhs, long n) {
#pragma omp for schedule(static) reduction(+ : change)
  for (long c = 0; c < n * n * n; ++c) {
    u[c] += rhs[c];
    change += rhs[c] * rhs[c];
  }
}

int main(int argc, char** argv) {
  const long n = argc > 1 ? parse(argv[1], 4, MAX_N, "N") : 40;
  const long steps = argc > 2 ? parse(argv[2], 1, 1000000L, "STEPS") : 200;
  const size_t points = (size_t)(n * n * n);
  double* u = calloc(points, sizeof *u);
  double* rhs = calloc(points, sizeof *rhs);
  if (u == NULL || rhs == NULL) {
    fprintf(stderr, "adi_sweep: out of memory\n");
    return 1;
  }
  for (long k = 1; k < n - 1; ++k)
    for (long j = 1; j < n - 1; ++j)
      for (long i = 1; i < n - 1; ++i) u[at(n, i, j, k)] = (double)((i * 7 + j * 13 + k * 29) % 17) / 17.0;
  double residual = 0.0;
  int threads = 0;
  change = 0.0;
  PaceMarks pace;
  pace_begin(&pace, steps);
  const double start = omp_get_wtime();
#pragma omp parallel
  {
    for (long step = 0; step < steps; ++step) {
      compute_rhs(u, rhs, n);
      x_solve(rhs, n);
      y_solve(rhs, n);
      z_solve(rhs, n);
      add(u, rhs, n);
#pragma omp single
      {
        threads = omp_get_num_threads();
        residual = sqrt(change / (double)points);
        change = 0.0;
      }
      pace_done(&pace, step + 1);
    }
  }
  const double elapsed = omp_get_wtime() - start;
  double sum = 0.0;
  for (size_t c = 0; c < points; ++c) sum += u[c];
  printf("adi_sweep: N=%ld steps=%ld threads=%d\n", n, steps, threads);
  printf("adi_sweep: checksum sum=%.8e residual=%.8e\n", sum, residual);
  printf("adi_sweep: time_s=%.6f\n", elapsed);
  pace_end(&pace, "adi_sweep", start, start + elapsed);
  free(u);
  free(rhs);
  return 0;
}
