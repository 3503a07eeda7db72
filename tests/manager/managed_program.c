/* A program for the manager's tests (runtime_connection_test.cpp): one iterative parallel region of one parallel
 * loop, run in two phases of `iterations` iterations each. Built twice: linked to libaugur with its probes
 * (managed_program), and plain (AUGUR_PLAIN: plain_program, for the preload of `augur run`). After the first phase it prints
 * "waiting" and reads one line from standard input (the test, as the manager, decides meanwhile); after the second it
 * prints the thread count of every iteration ("threads 4 4 2 2 2 4 ...") and waits for the end of standard input.
 * With a second argument `run` it neither waits nor reads (for augur manage). */
#ifndef AUGUR_PLAIN
#include <augur/augur.h>
#else
#define augur_open_iteration()
#define augur_close_iteration()
#define augur_init_par()
#define augur_end_par()
#define augur_init_parallel_region(ipr, length, iterations)
#define augur_end_parallel_region()
#endif
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

static double sink;

static int iteration(void) {
  int threads = 0;
  augur_open_iteration();
  augur_init_par();
#pragma omp parallel
  {
#pragma omp single
    threads = omp_get_num_threads();
    double local = 0.0;
#pragma omp for
    for (int i = 0; i < 200000; ++i) local += (double)i * 1e-9;
#pragma omp atomic
    sink += local;
  }
  augur_end_par();
  augur_close_iteration();
  return threads;
}

int main(int argc, char** argv) {
  const int iterations = argc > 1 ? atoi(argv[1]) : 20;
  const int interactive = !(argc > 2 && argv[2][0] == 'r');
  if (iterations < 1 || iterations > 100000) return 2;
  int* threads = malloc(sizeof(int) * (size_t)iterations * 2);
  if (threads == NULL) return 3;
  char line[64];
  augur_init_parallel_region(1, 1, 2L * iterations);
  for (int step = 0; step < iterations; ++step) threads[step] = iteration();
  if (interactive) {
    printf("waiting\n");
    fflush(stdout);
    if (fgets(line, sizeof line, stdin) == NULL) return 4;
  }
  for (int step = iterations; step < 2 * iterations; ++step) threads[step] = iteration();
  augur_end_parallel_region();
  printf("threads");
  for (int step = 0; step < 2 * iterations; ++step) printf(" %d", threads[step]);
  printf("\n");
  fflush(stdout);
  while (interactive && fgets(line, sizeof line, stdin) != NULL) {
  }
  free(threads);
  return sink < 0.0 ? 5 : 0;
}
