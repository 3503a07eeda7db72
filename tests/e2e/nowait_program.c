/* A plain OpenMP program for the timeline tests (trace_e2e_test.cpp): one parallel region around STEPS
 * steps, each a `for nowait` loop, then work of each thread alone (four times the loop's), then an explicit
 * barrier; after the steps a `single nowait` and more work of each thread up to the region's end. Every
 * moment of a thread's time in the region is in a construct, after one, or in a barrier: the timeline of
 * `augur run --trace` covers it whole. Built by gcc (libgomp) and clang (libomp).
 * Usage: nowait_program [STEPS] (default 100). */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

enum { length = 20000 };
static double values[length];
static double sums[256];

static void own_work(int thread, long step) {
  double sum = 0.0;
  for (long i = 0; i < 4 * length; ++i) sum += (double)((i + step) % 13) * 1e-3;
  sums[thread % 256] += sum;
}

int main(int argc, char** argv) {
  const long steps = argc > 1 ? atol(argv[1]) : 100;
  if (steps < 1 || steps > 1000000) {
    fprintf(stderr, "nowait_program: STEPS must be from 1 to 1000000\n");
    return 2;
  }
#pragma omp parallel
  {
    const int thread = omp_get_thread_num();
    for (long step = 0; step < steps; ++step) {
#pragma omp for schedule(static) nowait
      for (long i = 0; i < length; ++i) values[i] += (double)((i + step) % 7) * 1e-3;
      own_work(thread, step);
#pragma omp barrier
    }
#pragma omp single nowait
    values[0] += 1.0;
    own_work(thread, steps);
  }
  double total = 0.0;
  for (long i = 0; i < length; ++i) total += values[i];
  for (int k = 0; k < 256; ++k) total += sums[k];
  printf("nowait_program: steps=%ld checksum=%.6e\n", steps, total);
  return 0;
}
