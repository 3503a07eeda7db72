/*
 * flag_pipeline: one parallel region around the time loop whose first worksharing loop is a pipeline of the
 * team's threads synchronised with flags, as NPB LU's SSOR sweeps are: thread t works on plane k only after
 * thread t - 1 finished it, and never gets more than one plane ahead of thread t + 1. The threads thus wait
 * on each other inside the construct, which `augur run`'s baseline steps (the threads one after the other)
 * cannot serialise: the test (run_outer_e2e_test.cpp) checks that the report says the baseline stopped.
 *
 *   flag_pipeline [STEPS]     prints "flag_pipeline: ... checksum=C time_s=T"
 */
#include <omp.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

enum { planes = 64, width = 2048, most_threads = 64 };

static double grid[planes][width];
static atomic_long done[most_threads];  // per thread: planes finished, over the whole run

/* One plane's share of the work of a thread. */
static void relax(int plane, int first, int last) {
  for (int i = first; i < last; ++i) {
    const double above = plane > 0 ? grid[plane - 1][i] : 1.0;
    grid[plane][i] = 0.5 * grid[plane][i] + 0.25 * above + 0.25 * (double)((i + plane) % 7) / 7.0;
  }
}

int main(int argc, char** argv) {
  char* end = NULL;
  const long steps = argc > 1 ? strtol(argv[1], &end, 10) : 300;
  if (argc > 1 && (end == argv[1] || *end != '\0' || steps < 1 || steps > 1000000)) {
    fprintf(stderr, "flag_pipeline: STEPS must be an integer between 1 and 1000000, got '%s'\n", argv[1]);
    return 2;
  }
  int threads = 1;
  const double start = omp_get_wtime();
#pragma omp parallel
  {
    const int team = omp_get_num_threads() < most_threads ? omp_get_num_threads() : most_threads;
    for (long step = 0; step < steps; ++step) {
#pragma omp for schedule(static)
      for (int t = 0; t < team; ++t) {
        const long base = step * planes;
        for (int plane = 0; plane < planes; ++plane) {
          /* After thread t - 1 finished this plane; at most one plane ahead of thread t + 1. */
          if (t > 0)
            while (atomic_load(&done[t - 1]) < base + plane + 1) {
            }
          if (t + 1 < team)
            while (atomic_load(&done[t + 1]) < base + plane - 1) {
            }
          relax(plane, t * width / team, (t + 1) * width / team);
          atomic_store(&done[t], base + plane + 1);
        }
      }
#pragma omp single
      threads = omp_get_num_threads();
    }
  }
  const double elapsed = omp_get_wtime() - start;
  double checksum = 0.0;
  for (int plane = 0; plane < planes; ++plane)
    for (int i = 0; i < width; ++i) checksum += grid[plane][i];
  printf("flag_pipeline: steps=%ld threads=%d checksum=%.6e time_s=%.6f\n", steps, threads, checksum, elapsed);
  return 0;
}
