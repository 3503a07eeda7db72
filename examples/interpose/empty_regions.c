/*
 * empty_regions: REGIONS empty OpenMP parallel regions in a loop, timed; for the per-region overhead
 * of libaugur_preload (bench/interpose_bench.cpp, docs/run.md). Built plain (no augur code).
 *
 *   empty_regions [REGIONS]      prints "empty_regions: regions=R time_s=T per_region_us=U"
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

static volatile int sink;

int main(int argc, char** argv) {
  long regions = 100000;
  if (argc > 1) {
    char* end = NULL;
    regions = strtol(argv[1], &end, 10);
    if (end == argv[1] || *end != '\0' || regions < 1 || regions > 1000000000L) {
      fprintf(stderr, "empty_regions: REGIONS must be an integer between 1 and 1000000000, got '%s'\n", argv[1]);
      return 2;
    }
  }
  /* One region outside the timing: the thread team exists before the loop. */
#pragma omp parallel
  { sink = 0; }
  const double start = omp_get_wtime();
  for (long index = 0; index < regions; ++index) {
#pragma omp parallel
    {
      if (omp_get_thread_num() == 0) sink = (int)index;
    }
  }
  const double elapsed = omp_get_wtime() - start;
  printf("empty_regions: regions=%ld time_s=%.6f per_region_us=%.4f\n", regions, elapsed, elapsed / (double)regions * 1e6);
  return 0;
}
