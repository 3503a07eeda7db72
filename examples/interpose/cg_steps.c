/*
 * cg_steps: the shape of NAS CG inside ONE OpenMP parallel region: an inverse power method whose every
 * outer step solves A z = x by CGIT iterations of the conjugate gradient, A a sparse symmetric positive
 * definite matrix in compressed rows (the 5-point Laplacian of an M x M grid, shifted). A CG iteration is
 * four orphaned worksharing loops and a `single` (q = A p; p.q, a reduction; alpha in the single; z, r and
 * r.r, a reduction; p = r + beta p), so an outer step holds 5 CGIT + 5 worksharing constructs: 85 with the
 * default 16, more than half of the periodicity detector's default window of 128 samples. Built plain (no
 * augur code), for `augur run` (docs/run.md, "One outer parallel region").
 *
 *   cg_steps [M [STEPS [CGIT]]]     prints the checksum and "cg_steps: ... time_s=T"
 *   with EXAMPLE_PACE=1 also "cg_steps: pace steps=S marks=M at_s=..." (pace_marks.h, for bench_outer_region)
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
    fprintf(stderr, "cg_steps: %s must be an integer between %ld and %ld, got '%s'\n", what, low, high, text);
    exit(2);
  }
  return value;
}

typedef struct {
  long rows;
  long* start; /* rows + 1 offsets into column and value */
  long* column;
  double* value;
} Matrix;

/* The shared scalars of the team: the list items of orphaned reductions, and what the `single`s set. */
static double rho, rho_old, pq, alpha, scale, zz, xz, distance, residual;

static int laplacian(Matrix* a, long m) {
  a->rows = m * m;
  a->start = malloc((size_t)(a->rows + 1) * sizeof *a->start);
  a->column = malloc((size_t)(5 * a->rows) * sizeof *a->column);
  a->value = malloc((size_t)(5 * a->rows) * sizeof *a->value);
  if (a->start == NULL || a->column == NULL || a->value == NULL) return 0;
  long entry = 0;
  for (long row = 0; row < a->rows; ++row) {
    const long i = row % m, j = row / m;
    a->start[row] = entry;
    const long neighbours[4] = {j > 0 ? row - m : -1, i > 0 ? row - 1 : -1, i < m - 1 ? row + 1 : -1, j < m - 1 ? row + m : -1};
    for (int side = 0; side < 4; ++side) {
      if (neighbours[side] < 0) continue;
      a->column[entry] = neighbours[side];
      a->value[entry++] = -1.0;
    }
    a->column[entry] = row;
    a->value[entry++] = 4.1 + (double)(row % 5) * 0.05; /* a shift, uneven along the diagonal */
  }
  a->start[a->rows] = entry;
  return 1;
}

static double row_times(const Matrix* a, long row, const double* x) {
  double sum = 0.0;
  for (long e = a->start[row]; e < a->start[row + 1]; ++e) sum += a->value[e] * x[a->column[e]];
  return sum;
}

static void start_solve(const double* x, double* z, double* r, double* p, long n) {
#pragma omp for schedule(static) reduction(+ : rho)
  for (long i = 0; i < n; ++i) {
    z[i] = 0.0;
    r[i] = p[i] = x[i];
    rho += x[i] * x[i];
  }
}

/* One conjugate gradient iteration: five worksharing constructs. */
static void cg_iteration(const Matrix* a, double* z, double* r, double* p, double* q) {
  const long n = a->rows;
#pragma omp for schedule(static)
  for (long i = 0; i < n; ++i) q[i] = row_times(a, i, p);
#pragma omp for schedule(static) reduction(+ : pq)
  for (long i = 0; i < n; ++i) pq += p[i] * q[i];
#pragma omp single
  {
    alpha = rho / pq;
    rho_old = rho;
    rho = 0.0;
    pq = 0.0;
  }
#pragma omp for schedule(static) reduction(+ : rho)
  for (long i = 0; i < n; ++i) {
    z[i] += alpha * p[i];
    r[i] -= alpha * q[i];
    rho += r[i] * r[i];
  }
  const double beta = rho / rho_old; /* read by every thread after the barrier; written again after two more */
#pragma omp for schedule(static)
  for (long i = 0; i < n; ++i) p[i] = r[i] + beta * p[i];
}

/* After the solve: |x - A z|, x.z and z.z, then x = z / |z| (a reduction, a reduction, a single, a loop).
 * 1 / x.z estimates the smallest eigenvalue of A. */
static void finish_step(const Matrix* a, double* x, const double* z, double* shift) {
  const long n = a->rows;
#pragma omp for schedule(static) reduction(+ : distance)
  for (long i = 0; i < n; ++i) {
    const double gap = x[i] - row_times(a, i, z);
    distance += gap * gap;
  }
#pragma omp for schedule(static) reduction(+ : xz, zz)
  for (long i = 0; i < n; ++i) {
    xz += x[i] * z[i];
    zz += z[i] * z[i];
  }
#pragma omp single
  {
    *shift = 1.0 / xz;
    residual = sqrt(distance);
    scale = 1.0 / sqrt(zz);
    rho = distance = xz = zz = 0.0;
  }
#pragma omp for schedule(static)
  for (long i = 0; i < n; ++i) x[i] = scale * z[i];
}

int main(int argc, char** argv) {
  const long m = argc > 1 ? parse(argv[1], 4, 10000, "M") : 192;
  const long steps = argc > 2 ? parse(argv[2], 1, 1000000L, "STEPS") : 60;
  const long cgit = argc > 3 ? parse(argv[3], 1, 1000, "CGIT") : 16;
  Matrix a;
  if (!laplacian(&a, m)) {
    fprintf(stderr, "cg_steps: out of memory\n");
    return 1;
  }
  const long n = a.rows;
  double* vectors = malloc((size_t)(5 * n) * sizeof *vectors);
  if (vectors == NULL) {
    fprintf(stderr, "cg_steps: out of memory\n");
    return 1;
  }
  double *x = vectors, *z = x + n, *r = z + n, *p = r + n, *q = p + n;
  for (long i = 0; i < n; ++i) x[i] = 1.0;
  double shift = 0.0;
  int threads = 0;
  rho = pq = xz = zz = distance = 0.0;
  PaceMarks pace;
  pace_begin(&pace, steps);
  const double start = omp_get_wtime();
#pragma omp parallel
  {
#pragma omp single
    threads = omp_get_num_threads();
    for (long step = 0; step < steps; ++step) {
      start_solve(x, z, r, p, n);
      for (long iteration = 0; iteration < cgit; ++iteration) cg_iteration(&a, z, r, p, q);
      finish_step(&a, x, z, &shift);
      pace_done(&pace, step + 1);
    }
  }
  const double elapsed = omp_get_wtime() - start;
  printf("cg_steps: M=%ld steps=%ld cgit=%ld threads=%d\n", m, steps, cgit, threads);
  printf("cg_steps: checksum eigenvalue=%.8e residual=%.8e\n", shift, residual);
  printf("cg_steps: time_s=%.6f\n", elapsed);
  pace_end(&pace, "cg_steps", start, start + elapsed);
  free(vectors);
  free(a.start);
  free(a.column);
  free(a.value);
  return 0;
}
