/* A `single` whose closing barrier is called from two places, as gcc compiles it at -O3 when code follows the
 * single in the loop (it did so in examples/interpose/outer_region.c): the thread that wins the single calls
 * GOMP_barrier at the end of the block, the others at another call site. Which thread wins is a race, so the
 * master's sequence of call sites has no period unless the barrier is known by the single's site (issue 16,
 * point 3; src/interpose/gomp_wrappers.cpp). Calls libgomp's entry points as gcc's code does; built by gcc only.
 * A step: three static loops (their barriers) and the single: period 4.
 * Usage: single_race [STEPS] (default 300); prints "single_race: steps=S winners=W" (W: steps won by thread 0). */
#include <omp.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

bool GOMP_single_start(void);
void GOMP_barrier(void);

enum { length = 40000 };
static double values[length];
static double total;

int main(int argc, char** argv) {
  const long steps = argc > 1 ? atol(argv[1]) : 300;
  if (steps < 1 || steps > 1000000) {
    fprintf(stderr, "single_race: STEPS must be from 1 to 1000000\n");
    return 2;
  }
  long winners = 0;  /* thread 0's wins */
#pragma omp parallel
  {
    long won = 0, lost = 0;  /* this thread's wins and losses, after the barrier of each */
    for (long step = 0; step < steps; ++step) {
#pragma omp for schedule(static)
      for (long i = 0; i < length; ++i) values[i] = 0.5 * values[i] + (double)((i + step) % 7);
#pragma omp for schedule(static)
      for (long i = 1; i < length; ++i) values[i] = 0.5 * (values[i] + values[i - 1]);
#pragma omp for schedule(static)
      for (long i = 0; i < length; ++i) values[i] *= 0.999;
      if (GOMP_single_start()) {
        total += values[step % length];
        GOMP_barrier();
        won += 1;
      } else {
        GOMP_barrier();
        lost -= 1;
      }
    }
    if (omp_get_thread_num() == 0) winners = won + 0 * lost;
  }
  printf("single_race: steps=%ld winners=%ld total=%.3f\n", steps, winners, total);
  return 0;
}
