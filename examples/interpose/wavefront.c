/*
 * wavefront: an LU-like pipelined sweep (NPB LU's blts) inside one OpenMP parallel region around the time loop.
 * Each time step sweeps the planes k of an N x N x N grid with a Gauss-Seidel update that needs the row before
 * in the same plane; the rows are split over the threads, and a thread waits for its predecessor to finish a
 * plane (a flag it spins on with `#pragma omp flush`; a flush before the flag is set and after it is seen order
 * the rows, as in LU) and for its successor to have finished the plane two before
 * (a bounded lead, as LU's flags give). Then a worksharing loop with a reduction measures the change, and a
 * `single` keeps it. Built plain (no augur code), for `augur run` (docs/run.md): its threads wait on each other
 * inside the step, so the one-run analysis cannot run them one after the other (the baseline steps stop), and
 * under libomp the waits are seen through the flushes.
 *
 *   wavefront [N [STEPS]]     prints the checksum and "wavefront: ... time_s=T"
 */
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

static long parse(const char* text, long low, long high, const char* what) {
  char* end = NULL;
  const long value = strtol(text, &end, 10);
  if (end == text || *end != '\0' || value < low || value > high) {
    fprintf(stderr, "wavefront: %s must be an integer between %ld and %ld, got '%s'\n", what, low, high, text);
    exit(2);
  }
  return value;
}

/* The planes each thread has finished, counted over the whole run (step * (N - 1) + k): they only grow, so no flag is
 * ever reset. One cache line each. */
struct progress {
  long done;
  char pad[64 - sizeof(long)];
};

static long seen(const struct progress* flag) {
  long value;
#pragma omp atomic read
  value = flag->done;
  return value;
}

/* Spins until `flag` reaches `wanted`: the flush makes the other thread's progress visible (and, under clang,
 * is a call of the runtime's __kmpc_flush, which its tools see); the flush after it orders the reads of the
 * other thread's rows after the flag. */
static void wait_for(const struct progress* flag, long wanted) {
  while (seen(flag) < wanted) {
#pragma omp flush
  }
#pragma omp flush
}

static double energy;  /* the step's change, a reduction of an orphaned loop: shared */

static void measure(const double* u, const double* old, long cells) {
#pragma omp for schedule(static) reduction(+ : energy)
  for (long i = 0; i < cells; ++i) energy += (u[i] - old[i]) * (u[i] - old[i]);
}

static void keep(double* old, const double* u, long cells) {
#pragma omp for schedule(static)
  for (long i = 0; i < cells; ++i) old[i] = u[i];
}

int main(int argc, char** argv) {
  const long n = argc > 1 ? parse(argv[1], 4, 512, "N") : 48;
  const long steps = argc > 2 ? parse(argv[2], 1, 1000000L, "STEPS") : 200;
  const long cells = n * n * n;
  double* u = malloc((size_t)cells * sizeof *u);
  double* old = malloc((size_t)cells * sizeof *old);
  struct progress* flags = calloc((size_t)omp_get_max_threads() + 1, sizeof *flags);
  if (u == NULL || old == NULL || flags == NULL) {
    fprintf(stderr, "wavefront: out of memory\n");
    return 1;
  }
  for (long i = 0; i < cells; ++i) u[i] = old[i] = (double)(i % 97) / 97.0;
  double total = 0.0;
  int threads = 0;
  energy = 0.0;
  const double start = omp_get_wtime();
#pragma omp parallel
  {
    const int me = omp_get_thread_num();
    const int team = omp_get_num_threads();
    const long first = 1 + (n - 1) * me / team;  /* rows 1 .. n-1 split over the team */
    const long last = 1 + (n - 1) * (me + 1) / team;
    for (long step = 0; step < steps; ++step) {
      const double source = 0.01 * (double)(step % 3);  /* a forcing that changes: the change never dies out */
      for (long k = 1; k < n; ++k) {
        const long plane = step * (n - 1) + k;
        if (me > 0) wait_for(&flags[me - 1], plane);             /* the row before, in this plane */
        if (me + 1 < team) wait_for(&flags[me + 1], plane - 2);  /* at most two planes ahead of the successor */
        for (long j = first; j < last; ++j) {
          double* row = u + (k * n + j) * n;
          const double* below = u + ((k - 1) * n + j) * n;
          const double* before = u + (k * n + j - 1) * n;
          for (long i = 1; i < n; ++i) row[i] = 0.25 * (row[i - 1] + below[i] + before[i]) + 0.1 * row[i] + source;
        }
#pragma omp flush
#pragma omp atomic write
        flags[me].done = plane;
      }
#pragma omp barrier
      measure(u, old, cells);
      keep(old, u, cells);
#pragma omp single
      {
        threads = team;
        total += sqrt(energy / (double)cells);
        energy = 0.0;
      }
    }
  }
  const double elapsed = omp_get_wtime() - start;
  double sum = 0.0;
  for (long i = 0; i < cells; ++i) sum += u[i];
  printf("wavefront: N=%ld steps=%ld threads=%d\n", n, steps, threads);
  printf("wavefront: checksum sum=%.8e change=%.8e\n", sum, total / (double)steps);
  printf("wavefront: time_s=%.6f\n", elapsed);
  free(u);
  free(old);
  free(flags);
  return 0;
}
