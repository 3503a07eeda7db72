/*
 * pace_marks.h: the pace of an example's time loop by its own clock, with no tool around it (bench_outer_region
 * reads it to tell how far any estimate made from the first quarter of the loop can fall: docs/benchmarks.md).
 * With EXAMPLE_PACE=1 in the environment, thread 0 reads omp_get_wtime() at the start of the step that closes
 * each eighth of the loop, and the program prints "<name>: pace steps=S at_s=t1 t2 ... t8", t_j the seconds
 * from the loop's start to the end of step floor(j S / 8) (t8: the loop's end). Without it nothing is read or
 * printed. No OpenMP construct is added (a plain test of omp_get_thread_num()), so `augur run` sees the same
 * constructs either way.
 */
#ifndef AUGUR_EXAMPLES_PACE_MARKS_H
#define AUGUR_EXAMPLES_PACE_MARKS_H

#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  int on;
  long steps;   /* the loop's steps */
  long next;    /* the step whose start closes the next eighth */
  int closed;   /* eighths closed */
  double start; /* omp_get_wtime() at the loop's start */
  double at[8];
} PaceMarks;

/* Before the parallel region, `start` the time the example times its loop from. */
static void pace_begin(PaceMarks* pace, long steps, double start) {
  const char* value = getenv("EXAMPLE_PACE");
  pace->on = value != NULL && strcmp(value, "1") == 0 && steps >= 8;
  pace->steps = steps;
  pace->next = steps / 8;
  pace->closed = 0;
  pace->start = start;
}

/* At the start of step `step`, on every thread of the team (thread 0 records). */
static inline void pace_step(PaceMarks* pace, long step) {
  if (!pace->on || step != pace->next || omp_get_thread_num() != 0) return;
  pace->at[pace->closed] = omp_get_wtime() - pace->start;
  pace->closed += 1;
  pace->next = (long)(pace->closed + 1) * pace->steps / 8;
}

/* After the parallel region, `end` the time the example's loop ended. */
static void pace_end(PaceMarks* pace, const char* name, double end) {
  if (!pace->on || pace->closed != 7) return;
  pace->at[7] = end - pace->start;
  printf("%s: pace steps=%ld at_s=", name, pace->steps);
  for (int j = 0; j < 8; ++j) printf(j == 0 ? "%.6f" : " %.6f", pace->at[j]);
  printf("\n");
}

#endif
