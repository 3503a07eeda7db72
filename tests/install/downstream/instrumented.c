/* A user's iterative OpenMP program, instrumented with libaugur's C API (the install test builds it
   with find_package(augur) and with pkg-config). It prints what the self-analysis measured. */
#include <augur/augur.h>
#include <stdio.h>

int main(void) {
  enum { steps = 40, n = 200000 };
  static double a[n], b[n];
  if (augur_init_parallel_region(1, 1, steps) != 0) return 3;
  for (int step = 0; step < steps; ++step) {
    augur_open_iteration();
    augur_init_par();
#pragma omp parallel for
    for (int i = 0; i < n; ++i) a[i] = 0.5 * (b[i] + (double)(i % 7)) + step;
    augur_end_par();
    for (int i = 0; i < n; i += 4096) b[i] = a[i];
    augur_close_iteration();
  }
  augur_end_parallel_region();
  double fraction = -1.0;
  const int status = augur_get_sequential_fraction(&fraction);
  printf("instrumented: %d iterations, sequential fraction %s\n", steps,
         status == 0 && fraction >= 0.0 && fraction <= 1.0 ? "measured" : "missing");
  augur_finalize();
  return 0;
}
