/*
 * pace_marks.h: the pace of an example's time loop by its own clock, with no tool around it (bench_outer_region
 * reads it to tell how far an estimate made from the loop's first steps can fall when the pace moves later:
 * docs/benchmarks.md). With EXAMPLE_PACE=1 in the environment, thread 0 reads omp_get_wtime() at the start of
 * the steps that close each of M = min(64, S) equal parts of the loop of S steps, and the program prints
 * "<name>: pace steps=S marks=M at_s=t1 t2 ... tM", t_j the seconds from the loop's start to the end of step
 * floor(j S / M) (tM: the loop's end). Without it nothing is read or printed. No OpenMP construct is added (a
 * plain test of omp_get_thread_num()), so `augur run` sees the same constructs either way.
 */
#ifndef AUGUR_EXAMPLES_PACE_MARKS_H
#define AUGUR_EXAMPLES_PACE_MARKS_H

#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { PACE_MARKS_MAX = 64 };

typedef struct {
  int on;
  long steps;   /* the loop's steps */
  int marks;    /* the parts: min(64, steps) */
  long next;    /* the step whose start closes the next part */
  int closed;   /* parts closed */
  double start; /* omp_get_wtime() at the loop's start */
  double at[PACE_MARKS_MAX];
} PaceMarks;

/* Before the parallel region, `start` the time the example times its loop from. */
static void pace_begin(PaceMarks* pace, long steps, double start) {
  const char* value = getenv("EXAMPLE_PACE");
  pace->on = value != NULL && strcmp(value, "1") == 0 && steps >= 2;
  pace->steps = steps;
  pace->marks = steps < PACE_MARKS_MAX ? (int)steps : PACE_MARKS_MAX;
  pace->next = pace->marks > 0 ? steps / pace->marks : 0;
  pace->closed = 0;
  pace->start = start;
}

/* At the start of step `step`, on every thread of the team (thread 0 records). */
static inline void pace_step(PaceMarks* pace, long step) {
  if (!pace->on || step != pace->next || omp_get_thread_num() != 0) return;
  pace->at[pace->closed] = omp_get_wtime() - pace->start;
  pace->closed += 1;
  pace->next = (long)(pace->closed + 1) * pace->steps / pace->marks;
}

/* After the parallel region, `end` the time the example's loop ended. */
static void pace_end(PaceMarks* pace, const char* name, double end) {
  if (!pace->on || pace->closed != pace->marks - 1) return;
  pace->at[pace->marks - 1] = end - pace->start;
  printf("%s: pace steps=%ld marks=%d at_s=", name, pace->steps, pace->marks);
  for (int j = 0; j < pace->marks; ++j) printf(j == 0 ? "%.6f" : " %.6f", pace->at[j]);
  printf("\n");
}

#endif
