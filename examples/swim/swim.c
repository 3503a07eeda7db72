/*
 * swim.c - a shallow-water stencil in the spirit of SPEC's swim, the example program of augur.
 *
 * The model is Sadourny's finite-difference scheme for the shallow-water equations on a doubly
 * periodic square grid of N x N cells (arrays of (N+1) x (N+1) points: the last row and the last
 * column repeat the first ones). Each time step has three parallel loops over the rows:
 *
 *   calc1: mass fluxes cu, cv, potential vorticity z and Bernoulli function h from u, v, p;
 *   calc2: the new fields unew, vnew, pnew (leapfrog step of length 2*dt; dt for the first step);
 *   calc3: Robert-Asselin time filter, uold = u + alpha*(unew - 2u + uold), then u = unew.
 *
 * and a sequential part run by the master thread alone: the periodic boundary copies after every
 * loop and a diagnostic (total mass and total energy, summed over the grid in a serial loop).
 *
 * Usage: swim [N] [ITERATIONS]     (defaults 512 and 400)
 *
 * Built with -DAUGUR_INSTRUMENTED, the time loop is marked for libaugur (include/augur/augur.h):
 * one iterative parallel region (ipr 1) of three parallel loops per iteration. Without it the
 * program contains no augur code at all.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <omp.h>

#ifdef AUGUR_INSTRUMENTED
#include <augur/augur.h>
#define AUGUR_PROBE(call) call
#else
#define AUGUR_PROBE(call) ((void)0)
#endif

enum { N_MIN = 8, N_MAX = 8192, N_DEFAULT = 512, ITERATIONS_DEFAULT = 400 };
#define ITERATIONS_MIN 1L
#define ITERATIONS_MAX 1000000000L

/* The physical constants of the classic code. */
static const double DT = 90.0;      /* time step, s */
static const double DX = 1.0e5;     /* grid spacing in x, m */
static const double DY = 1.0e5;     /* grid spacing in y, m */
static const double A = 1.0e6;      /* amplitude of the initial stream function, m^2/s */
static const double ALPHA = 0.001;  /* Robert-Asselin filter coefficient */
static const double P_MEAN = 5.0e4; /* mean geopotential, m^2/s^2 */

/* The fields. Every array holds (n+1) x (n+1) doubles, row-major, row i at a + i*(n+1);
 * i runs along x (spacing DX), j along y (spacing DY). */
typedef struct grid {
  int n;
  size_t ld; /* n + 1 */
  double *u, *v, *p;          /* current time level */
  double *uold, *vold, *pold; /* previous time level */
  double *unew, *vnew, *pnew; /* next time level */
  double *cu, *cv, *z, *h;    /* work arrays of calc1 */
} grid;

/* ---- Command line ----------------------------------------------------------------------- */

static void usage(FILE* out) {
  fprintf(out,
          "usage: swim [N] [ITERATIONS]\n"
          "  Shallow-water stencil (Sadourny scheme, periodic (N+1)x(N+1) grid), OpenMP parallel.\n"
          "  N           grid cells per side, %d..%d (default %d)\n"
          "  ITERATIONS  time steps, %ld..%ld (default %d)\n"
          "  Threads: OMP_NUM_THREADS. Prints the checksums of p, u, v and the time of the loop.\n",
          N_MIN, N_MAX, N_DEFAULT, ITERATIONS_MIN, ITERATIONS_MAX, ITERATIONS_DEFAULT);
}

/* Parses a decimal integer made of digits only, within [lo, hi]. Returns 0 on success. */
static int parse_count(const char* text, long lo, long hi, long* value) {
  if (text[0] == '\0') return -1;
  for (const char* c = text; *c != '\0'; ++c) {
    if (*c < '0' || *c > '9') return -1;
  }
  errno = 0;
  char* end = NULL;
  const long long parsed = strtoll(text, &end, 10);
  if (errno != 0 || *end != '\0' || parsed < lo || parsed > hi) return -1;
  *value = (long)parsed;
  return 0;
}

/* ---- Memory --------------------------------------------------------------------------- */

static double* allocate(size_t count) {
  double* a = malloc(count * sizeof *a);
  if (a == NULL) {
    fprintf(stderr, "swim: out of memory (%zu bytes for one array)\n", count * sizeof *a);
    exit(1);
  }
  return a;
}

/* First touch: every thread zeroes the rows it will compute, with the schedule of the loops. */
static void first_touch(double* a, int n) {
  const size_t ld = (size_t)n + 1;
#pragma omp parallel for schedule(static)
  for (int i = 0; i <= n; ++i) {
    double* row = a + (size_t)i * ld;
    for (size_t j = 0; j < ld; ++j) row[j] = 0.0;
  }
}

static void grid_allocate(grid* g, int n) {
  const size_t ld = (size_t)n + 1;
  g->n = n;
  g->ld = ld;
  double** fields[] = {&g->u,    &g->v,    &g->p,    &g->uold, &g->vold, &g->pold, &g->unew,
                       &g->vnew, &g->pnew, &g->cu,   &g->cv,   &g->z,    &g->h};
  for (size_t k = 0; k < sizeof fields / sizeof fields[0]; ++k) {
    *fields[k] = allocate(ld * ld);
    first_touch(*fields[k], n);
  }
}

static void grid_free(grid* g) {
  double* fields[] = {g->u,    g->v,    g->p,  g->uold, g->vold, g->pold, g->unew,
                      g->vnew, g->pnew, g->cu, g->cv,   g->z,    g->h};
  for (size_t k = 0; k < sizeof fields / sizeof fields[0]; ++k) free(fields[k]);
}

/* ---- Periodic boundaries (sequential) ------------------------------------------------- */

/* Fills the duplicated row and column of a periodic array. An array computed on rows 1..n has its
 * row 0 copied from row n (from_last_row != 0); one computed on rows 0..n-1 has its row n copied
 * from row 0. Same for the columns. The column copy runs first over every row, then the row copy
 * over the full width, which sets the corner consistently. */
static void periodic(double* a, int n, int from_last_row, int from_last_col) {
  const size_t ld = (size_t)n + 1;
  const size_t nn = (size_t)n;
  const size_t col_dst = from_last_col ? 0 : nn;
  const size_t col_src = from_last_col ? nn : 0;
  for (size_t i = 0; i < ld; ++i) a[i * ld + col_dst] = a[i * ld + col_src];
  const size_t row_dst = from_last_row ? 0 : nn;
  const size_t row_src = from_last_row ? nn : 0;
  memcpy(a + row_dst * ld, a + row_src * ld, ld * sizeof *a);
}

/* ---- Initial conditions --------------------------------------------------------------- */

static void initialise(grid* g) {
  const int n = g->n;
  const size_t ld = g->ld;
  const double pi = 4.0 * atan(1.0);
  const double di = 2.0 * pi / n; /* grid angle in x */
  const double dj = 2.0 * pi / n; /* grid angle in y */
  const double el = n * DX;       /* length of the domain */
  const double pcf = pi * pi * A * A / (el * el);
  /* The stream function psi(i, j) = A sin((i + 1/2) di) sin((j + 1/2) dj), at the cell corners;
   * psi lives in unew until the first step overwrites it. */
  double* const psi = g->unew;
  double* const u = g->u;
  double* const v = g->v;
  double* const p = g->p;

#pragma omp parallel for schedule(static)
  for (int i = 0; i <= n; ++i) {
    const double si = sin((i + 0.5) * di);
    const double ci = cos(2.0 * i * di);
    for (int j = 0; j <= n; ++j) {
      const size_t k = (size_t)i * ld + (size_t)j;
      psi[k] = A * si * sin((j + 0.5) * dj);
      p[k] = pcf * (ci + cos(2.0 * j * dj)) + P_MEAN;
    }
  }
  /* u = -d(psi)/dy on rows 1..n, v = d(psi)/dx on columns 1..n (the staggered C grid). */
#pragma omp parallel for schedule(static)
  for (int i = 0; i < n; ++i) {
    const double* psi0 = psi + (size_t)i * ld;
    const double* psi1 = psi0 + ld;
    double* urow = u + (size_t)(i + 1) * ld;
    double* vrow = v + (size_t)i * ld;
    for (int j = 0; j < n; ++j) {
      urow[j] = -(psi1[j + 1] - psi1[j]) / DY;
      vrow[j + 1] = (psi1[j + 1] - psi0[j + 1]) / DX;
    }
  }
  periodic(u, n, 1, 0);
  periodic(v, n, 0, 1);

#pragma omp parallel for schedule(static)
  for (int i = 0; i <= n; ++i) {
    const size_t k = (size_t)i * ld;
    const size_t row = ld * sizeof(double);
    memcpy(g->uold + k, u + k, row);
    memcpy(g->vold + k, v + k, row);
    memcpy(g->pold + k, p + k, row);
  }
}

/* ---- The three parallel loops ----------------------------------------------------------- */

/* cu = mean(p) * u, cv = mean(p) * v, z = potential vorticity, h = p + kinetic energy. */
static void calc1(int n, const double* restrict u, const double* restrict v,
                  const double* restrict p, double* restrict cu, double* restrict cv,
                  double* restrict z, double* restrict h) {
  const size_t ld = (size_t)n + 1;
  const double fsdx = 4.0 / DX;
  const double fsdy = 4.0 / DY;
#pragma omp parallel for schedule(static)
  for (int i = 0; i < n; ++i) {
    const size_t r0 = (size_t)i * ld;
    const size_t r1 = r0 + ld;
    for (size_t j = 0; j < (size_t)n; ++j) {
      cu[r1 + j] = 0.5 * (p[r1 + j] + p[r0 + j]) * u[r1 + j];
      cv[r0 + j + 1] = 0.5 * (p[r0 + j + 1] + p[r0 + j]) * v[r0 + j + 1];
      z[r1 + j + 1] = (fsdx * (v[r1 + j + 1] - v[r0 + j + 1]) - fsdy * (u[r1 + j + 1] - u[r1 + j])) /
                      (p[r0 + j] + p[r1 + j] + p[r1 + j + 1] + p[r0 + j + 1]);
      h[r0 + j] = p[r0 + j] + 0.25 * (u[r1 + j] * u[r1 + j] + u[r0 + j] * u[r0 + j] +
                                      v[r0 + j + 1] * v[r0 + j + 1] + v[r0 + j] * v[r0 + j]);
    }
  }
}

/* unew, vnew, pnew from the old level and the tendencies of calc1; tdt is the step length. */
static void calc2(int n, double tdt, const double* restrict uold, const double* restrict vold,
                  const double* restrict pold, const double* restrict cu,
                  const double* restrict cv, const double* restrict z, const double* restrict h,
                  double* restrict unew, double* restrict vnew, double* restrict pnew) {
  const size_t ld = (size_t)n + 1;
  const double tdts8 = tdt / 8.0;
  const double tdtsdx = tdt / DX;
  const double tdtsdy = tdt / DY;
#pragma omp parallel for schedule(static)
  for (int i = 0; i < n; ++i) {
    const size_t r0 = (size_t)i * ld;
    const size_t r1 = r0 + ld;
    for (size_t j = 0; j < (size_t)n; ++j) {
      unew[r1 + j] = uold[r1 + j] +
                     tdts8 * (z[r1 + j + 1] + z[r1 + j]) *
                         (cv[r1 + j + 1] + cv[r0 + j + 1] + cv[r0 + j] + cv[r1 + j]) -
                     tdtsdx * (h[r1 + j] - h[r0 + j]);
      vnew[r0 + j + 1] = vold[r0 + j + 1] -
                         tdts8 * (z[r1 + j + 1] + z[r0 + j + 1]) *
                             (cu[r1 + j + 1] + cu[r0 + j + 1] + cu[r0 + j] + cu[r1 + j]) -
                         tdtsdy * (h[r0 + j + 1] - h[r0 + j]);
      pnew[r0 + j] = pold[r0 + j] - tdtsdx * (cu[r1 + j] - cu[r0 + j]) -
                     tdtsdy * (cv[r0 + j + 1] - cv[r0 + j]);
    }
  }
}

/* Robert-Asselin filter and rotation of the time levels (alpha = 0 on the first, forward step). */
static void calc3(int n, double alpha, double* restrict u, double* restrict v, double* restrict p,
                  const double* restrict unew, const double* restrict vnew,
                  const double* restrict pnew, double* restrict uold, double* restrict vold,
                  double* restrict pold) {
  const size_t ld = (size_t)n + 1;
#pragma omp parallel for schedule(static)
  for (int i = 0; i < n; ++i) {
    const size_t r0 = (size_t)i * ld;
    for (size_t k = r0; k < r0 + (size_t)n; ++k) {
      uold[k] = u[k] + alpha * (unew[k] - 2.0 * u[k] + uold[k]);
      vold[k] = v[k] + alpha * (vnew[k] - 2.0 * v[k] + vold[k]);
      pold[k] = p[k] + alpha * (pnew[k] - 2.0 * p[k] + pold[k]);
      u[k] = unew[k];
      v[k] = vnew[k];
      p[k] = pnew[k];
    }
  }
}

/* ---- Sequential diagnostic -------------------------------------------------------------- */

/* Total mass sum(p), total energy sum(p (u^2 + v^2) / 2 + p^2 / 2) and an enstrophy-like
 * sum(p z^2 / 2) (z from this step's calc1) over the n x n distinct points, in a plain serial loop
 * (the staggered points are not averaged: a cheap monitor, not an exact invariant). */
static void diagnose(const grid* g, double* mass, double* energy, double* enstrophy) {
  const size_t ld = g->ld;
  const size_t n = (size_t)g->n;
  double m = 0.0;
  double e = 0.0;
  double q = 0.0;
  for (size_t i = 0; i < n; ++i) {
    for (size_t k = i * ld; k < i * ld + n; ++k) {
      const double pk = g->p[k];
      m += pk;
      e += 0.5 * pk * (g->u[k] * g->u[k] + g->v[k] * g->v[k] + pk);
      q += 0.5 * pk * g->z[k] * g->z[k];
    }
  }
  *mass = m;
  *energy = e;
  *enstrophy = q;
}

/* Sum of |a| over the n x n distinct points, serial (the same value for any thread count). */
static double checksum(const double* a, int n) {
  const size_t ld = (size_t)n + 1;
  double s = 0.0;
  for (size_t i = 0; i < (size_t)n; ++i) {
    for (size_t j = 0; j < (size_t)n; ++j) s += fabs(a[i * ld + j]);
  }
  return s;
}

/* ---- Main -------------------------------------------------------------------------------- */

int main(int argc, char** argv) {
  for (int k = 1; k < argc; ++k) {
    if (strcmp(argv[k], "--help") == 0 || strcmp(argv[k], "-h") == 0) {
      usage(stdout);
      return 0;
    }
  }
  if (argc > 3) {
    fprintf(stderr, "swim: too many arguments\n");
    usage(stderr);
    return 2;
  }
  long n_arg = N_DEFAULT;
  long iterations = ITERATIONS_DEFAULT;
  if (argc > 1 && parse_count(argv[1], N_MIN, N_MAX, &n_arg) != 0) {
    fprintf(stderr, "swim: N must be an integer between %d and %d, got '%s'\n", N_MIN, N_MAX,
            argv[1]);
    return 2;
  }
  if (argc > 2 && parse_count(argv[2], ITERATIONS_MIN, ITERATIONS_MAX, &iterations) != 0) {
    fprintf(stderr, "swim: ITERATIONS must be an integer between %ld and %ld, got '%s'\n",
            ITERATIONS_MIN, ITERATIONS_MAX, argv[2]);
    return 2;
  }
  const int n = (int)n_arg;
  const int threads = omp_get_max_threads();

  grid g;
  grid_allocate(&g, n);
  initialise(&g);

  int diverged = 0;
  long step = 0;
  double mass = 0.0;
  double energy = 0.0;
  double enstrophy = 0.0;

  const double start = omp_get_wtime();
  AUGUR_PROBE((void)augur_init_parallel_region(1, 3, iterations));
  for (step = 0; step < iterations; ++step) {
    AUGUR_PROBE(augur_open_iteration());
    /* The first step is a forward step of length dt, the others leapfrog steps of 2 dt. */
    const double tdt = step == 0 ? DT : 2.0 * DT;
    const double alpha = step == 0 ? 0.0 : ALPHA;

    AUGUR_PROBE(augur_init_par());
    calc1(n, g.u, g.v, g.p, g.cu, g.cv, g.z, g.h);
    AUGUR_PROBE(augur_end_par());
    periodic(g.cu, n, 1, 0);
    periodic(g.cv, n, 0, 1);
    periodic(g.z, n, 1, 1);
    periodic(g.h, n, 0, 0);

    AUGUR_PROBE(augur_init_par());
    calc2(n, tdt, g.uold, g.vold, g.pold, g.cu, g.cv, g.z, g.h, g.unew, g.vnew, g.pnew);
    AUGUR_PROBE(augur_end_par());
    periodic(g.unew, n, 1, 0);
    periodic(g.vnew, n, 0, 1);
    periodic(g.pnew, n, 0, 0);

    AUGUR_PROBE(augur_init_par());
    calc3(n, alpha, g.u, g.v, g.p, g.unew, g.vnew, g.pnew, g.uold, g.vold, g.pold);
    AUGUR_PROBE(augur_end_par());
    periodic(g.uold, n, 0, 0);
    periodic(g.vold, n, 0, 0);
    periodic(g.pold, n, 0, 0);
    periodic(g.u, n, 0, 0);
    periodic(g.v, n, 0, 0);
    periodic(g.p, n, 0, 0);

    diagnose(&g, &mass, &energy, &enstrophy);
    diverged = !isfinite(mass) || !isfinite(energy) || !isfinite(enstrophy);
    AUGUR_PROBE(augur_close_iteration());
    if (diverged) break;
  }
  AUGUR_PROBE(augur_end_parallel_region());
  const double elapsed = omp_get_wtime() - start;

  if (diverged) {
    fprintf(stderr, "swim: the solution diverged at step %ld (mass %g, energy %g)\n", step + 1,
            mass, energy);
    grid_free(&g);
    return 1;
  }

  printf("swim: N=%d iterations=%ld threads=%d\n", n, iterations, threads);
  printf("swim: checksum p=%.10e u=%.10e v=%.10e\n", checksum(g.p, n), checksum(g.u, n),
         checksum(g.v, n));
  printf("swim: time_s=%.6f\n", elapsed);
  grid_free(&g);
  return 0;
}
