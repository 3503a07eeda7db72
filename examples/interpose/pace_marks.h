/*
 * pace_marks.h: the pace of an example's time loop by its own clock, with no tool around it (bench_outer_region
 * reads it to tell how far an estimate made from the loop's first steps can fall when the pace moves later:
 * docs/benchmarks.md). With EXAMPLE_PACE=1 in the environment and a loop of S >= 2 steps, thread 0 reads
 * omp_get_wtime() at the end of the steps that close each of M = min(64, S) equal parts of the loop, and the
 * program prints "<name>: pace steps=S marks=M at_s=t1 t2 ... tM", t_j the seconds the loop's first
 * floor(j S / M) steps took (tM: the whole loop). Otherwise nothing is recorded or printed. No OpenMP construct
 * is added (a plain test of omp_get_thread_num()), so `augur run` sees the same constructs either way; the
 * struct has a cache line of its own, which only thread 0 writes, M - 1 times a run.
 */
#ifndef AUGUR_EXAMPLES_PACE_MARKS_H
#define AUGUR_EXAMPLES_PACE_MARKS_H

#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { PACE_MARKS_MAX = 64 };

typedef struct {
  _Alignas(64) int on;
  int marks;    /* the parts: min(64, steps) */
  int closed;   /* parts closed */
  long steps;   /* the loop's steps */
  long next;    /* the steps done when the next part closes */
  double at[PACE_MARKS_MAX];  /* omp_get_wtime() when each part closed */
} PaceMarks;

/* Before the loop's clock starts (getenv is not timed). */
static void pace_begin(PaceMarks* pace, long steps) {
  const char* value = getenv("EXAMPLE_PACE");
  pace->on = value != NULL && strcmp(value, "1") == 0 && steps >= 2;
  pace->steps = steps;
  pace->marks = steps < PACE_MARKS_MAX ? (int)steps : PACE_MARKS_MAX;
  pace->next = pace->marks > 0 ? steps / pace->marks : 0;
  pace->closed = 0;
}

/* At the end of each step, `done` the steps the loop has done, on every thread of the team: thread 0 records
 * (the others read only `on`). At the end of the step rather than its start, and not inlined: so placed, gcc
 * makes the same code for the example's constructs as without it (called at the start of the step, it merged
 * the barrier of adi_sweep's y_solve into the outlined function, whose name the barrier then took). */
__attribute__((noinline)) static void pace_done(PaceMarks* pace, long done) {
  if (!pace->on || omp_get_thread_num() != 0 || done != pace->next) return;
  pace->at[pace->closed] = omp_get_wtime();
  pace->closed += 1;
  /* The last part closes with the loop (pace_end). */
  pace->next = pace->closed < pace->marks - 1 ? (long)(pace->closed + 1) * pace->steps / pace->marks : -1;
}

/* After the parallel region: `start` and `end` the times the example's loop began and ended. */
static void pace_end(PaceMarks* pace, const char* name, double start, double end) {
  if (!pace->on || pace->closed != pace->marks - 1) return;
  pace->at[pace->marks - 1] = end;
  printf("%s: pace steps=%ld marks=%d at_s=", name, pace->steps, pace->marks);
  for (int j = 0; j < pace->marks; ++j) printf(j == 0 ? "%.6f" : " %.6f", pace->at[j] - start);
  printf("\n");
}

#endif
