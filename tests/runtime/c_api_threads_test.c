/*
 * c_api_threads_test.c - every entry point of libaugur's C API called from many POSIX threads at once
 * (issue 15, item 1: two pthreads marking regions crashed the host program).
 *
 * Usage: c_api_threads_test FOLDER      (an existing folder for the report and the output files)
 *
 * WAVES waves of THREADS pthreads (no OpenMP thread: ThreadSanitizer follows pthreads only) start
 * together and enter STORM new regions each as fast as they can, then each run ROUNDS rounds of the
 * self-analysis probes and queries, the callback, CALL experiments (declare, begin,
 * end, report, serialize, write), the superstep trace, the periodicity detector and the coupling harness
 * (an application of its own and one shared by all threads). Nothing is called from main before the
 * threads start but augur_set_option, so the first use of augur races too. Exit status 0 when the
 * program survives and every check passed: every experiment instance ended is written exactly once, the
 * report and the coupling files are written; otherwise each failed check is printed and the status is 1.
 * Built with -fsanitize=thread by the CApiThreadSanitizer test (tests/threads).
 */
#define _POSIX_C_SOURCE 200809L /* pthread_barrier_t */
#include <augur/augur.h>
#include <augur/coupling.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { WAVES = 3, THREADS = 6, ROUNDS = 40, ITERATIONS = 12, STORM = 300 };

static int failures = 0;

#define CHECK(condition, ...)                                                               \
  do {                                                                                      \
    if (!(condition)) {                                                                     \
      fprintf(stderr, "c_api_threads_test: FAILED at line %d: %s: ", __LINE__, #condition); \
      fprintf(stderr, __VA_ARGS__);                                                         \
      fputc('\n', stderr);                                                                  \
      ++failures;                                                                           \
    }                                                                                       \
  } while (0)

static const char* folder;
static pthread_barrier_t start_together;
static augur_coupling_app* shared_app;
static atomic_long instances_ended;
static atomic_long records_reported;
static atomic_int regions_entered;
static atomic_int speedup_events;
static atomic_int coupling_failures;

static void on_speedup(const augur_speedup_event* event, void* data) {
  (void)event;
  (void)data;
  atomic_fetch_add(&speedup_events, 1);
}

/* A little arithmetic standing in for a parallel loop or a kernel. */
static void work(void* data) {
  volatile double* sink = data;
  for (int i = 0; i < 200; ++i) *sink = *sink * 0.5 + (double)i;
}

static void self_analysis_round(int thread, int round) {
  volatile double sink = 0;
  /* A new region each round: the analyzer's table of regions grows while other threads use it. */
  const uint64_t region = (uint64_t)(thread * ROUNDS + round);
  if (augur_init_parallel_region(region, 1, ITERATIONS) == AUGUR_OK) atomic_fetch_add(&regions_entered, 1);
  for (int iteration = 0; iteration < ITERATIONS; ++iteration) {
    augur_open_iteration();
    augur_init_par();
    work((void*)&sink);
    augur_end_par();
    augur_close_iteration();
  }
  double value = 0;
  (void)augur_get_speedup(1, &value);
  (void)augur_get_estimated_time(1, &value);
  (void)augur_get_sequential_fraction(&value);
  (void)augur_get_amdahl_factor(&value);
  (void)augur_get_self_tuning_speedup(1, &value);
  augur_end_parallel_region();
  if (round % 10 == 0) augur_set_speedup_callback(on_speedup, NULL);
  if (round % 13 == 12) augur_notify_stopped();
}

/* The threads of a wave start together and enter new regions as fast as they can: unserialised, the
 * analyzer's table of regions grows on several threads at once (the crash of issue 15, item 1). */
static void region_storm(int wave, int thread) {
  pthread_barrier_wait(&start_together);
  for (int index = 0; index < STORM; ++index) {
    augur_init_parallel_region((uint64_t)(1000000 + (wave * THREADS + thread) * STORM + index), 2, 1);
    augur_open_iteration();
    augur_close_iteration();
    augur_end_parallel_region();
  }
}

static void experiment_round(int thread, int round) {
  const int outer = augur_experiment_declare("outer", "outer[0] + outer[1]*N", "N");
  const int inner = augur_experiment_declare("inner", "", "");
  const double n = (double)(thread + 1);
  augur_experiment_begin(outer, &n);
  augur_experiment_begin(inner, NULL);
  augur_experiment_end(inner);
  augur_experiment_end(outer);
  atomic_fetch_add(&instances_ended, 2);
  if (round % 8 == 3) {
    const int count = augur_experiment_report(round % 16 == 3 ? "outer" : NULL);
    CHECK(count >= 0, "augur_experiment_report failed");
    if (count > 0) atomic_fetch_add(&records_reported, count);
  } else if (round % 8 == 7) {
    char* buffer = NULL;
    unsigned long length = 0;
    const int count = augur_experiment_serialize("inner,outer", thread, THREADS, &buffer, &length);
    CHECK(count >= 0 && augur_experiment_write(buffer, length) == AUGUR_OK, "serialize or write failed");
    if (count > 0) atomic_fetch_add(&records_reported, count);
    augur_free(buffer);
  }
}

static void trace_and_detector_round(int thread, int round) {
  if (round == 0) (void)augur_bsp_start(0, 0, 1);
  augur_bsp_communicate();
  const int partner = 0;
  augur_bsp_sync(AUGUR_BSP_BARRIER, 8, 16, 1, &partner);
  if (round % 10 == 5 && augur_bsp_partition(0, 0, 1) == AUGUR_OK) augur_bsp_done();
  if (round % 10 == 9) {
    char* buffer = NULL;
    unsigned long length = 0;
    if (augur_bsp_serialize(&buffer, &length) >= 0) augur_free(buffer);
  }
  int period = 0;
  (void)augur_DPD((long)(round % 4), &period);
  if (round % 20 == 0) augur_DPDWindowSize(16 + thread);
}

/* One application of the thread's own, measured, and options set on the application all threads share. */
static void coupling_round(int wave, int thread) {
  volatile double data = 0;
  char name[32];
  char output[4096];
  snprintf(name, sizeof name, "app%d_%d", wave, thread);
  snprintf(output, sizeof output, "%s/%s.coupling.jsonl", folder, name);
  augur_coupling_app* app = augur_coupling_create(name, 2);
  augur_coupling_add_kernel(app, "first", work, (void*)&data, 1);
  augur_coupling_add_kernel(app, "second", work, (void*)&data, 2);
  augur_coupling_add_kernel(app, "third", work, (void*)&data, 1);
  augur_coupling_set_problem(app, "T", 1.0, 0.0);
  augur_coupling_set_option(app, "output", output);
  augur_coupling_set_option(app, "min_time", "0.0001");
  augur_coupling_set_option(app, "samples", "1");
  augur_coupling_set_option(app, "application_samples", "1");
  if (augur_coupling_measure(app) != AUGUR_OK) atomic_fetch_add(&coupling_failures, 1);
  augur_coupling_destroy(app);
  augur_coupling_set_option(shared_app, "samples", thread % 2 == 0 ? "1" : "2");
  augur_coupling_add_kernel(shared_app, name, work, (void*)&data, 1); /* names differ: every call adds one */
}

typedef struct {
  int wave;
  int thread;
} Role;

static void* run_thread(void* argument) {
  const Role* role = argument;
  region_storm(role->wave, role->thread);
  for (int round = 0; round < ROUNDS; ++round) {
    self_analysis_round(role->thread, round);
    experiment_round(role->thread, round);
    trace_and_detector_round(role->thread, round);
  }
  coupling_round(role->wave, role->thread);
  return NULL;
}

static long count_lines(const char* path) {
  FILE* file = fopen(path, "r");
  if (file == NULL) return -1;
  long lines = 0;
  for (int c = fgetc(file); c != EOF; c = fgetc(file)) lines += c == '\n';
  fclose(file);
  return lines;
}

int main(int argc, char** argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: c_api_threads_test FOLDER\n");
    return 2;
  }
  folder = argv[1];
  char report[4096];
  char experiments[4096];
  snprintf(report, sizeof report, "%s/threads.report.json", folder);
  snprintf(experiments, sizeof experiments, "%s/threads.cll.jsonl", folder);
  remove(report);
  remove(experiments);
  CHECK(augur_set_option("report", report) == AUGUR_OK, "report");
  CHECK(augur_set_option("experiment_file", experiments) == AUGUR_OK, "experiment_file");
  CHECK(augur_set_option("summary", "0") == AUGUR_OK, "summary");
  CHECK(augur_set_option("baseline", "1") == AUGUR_OK, "baseline");
  CHECK(augur_set_option("warmup_iterations", "0") == AUGUR_OK, "warmup_iterations");
  CHECK(augur_set_option("measure_iterations", "2") == AUGUR_OK, "measure_iterations");
  shared_app = augur_coupling_create("shared", 1);
  pthread_barrier_init(&start_together, NULL, THREADS);

  for (int wave = 0; wave < WAVES; ++wave) {
    pthread_t threads[THREADS];
    Role roles[THREADS];
    for (int thread = 0; thread < THREADS; ++thread) {
      roles[thread] = (Role){wave, thread};
      CHECK(pthread_create(&threads[thread], NULL, run_thread, &roles[thread]) == 0, "pthread_create");
    }
    for (int thread = 0; thread < THREADS; ++thread) pthread_join(threads[thread], NULL);
  }
  augur_coupling_destroy(shared_app);
  pthread_barrier_destroy(&start_together);
  (void)augur_bsp_stop();
  const int rest = augur_experiment_report(NULL);
  CHECK(rest >= 0, "the last report failed");
  if (rest > 0) atomic_fetch_add(&records_reported, rest);
  augur_finalize();

  const long ended = atomic_load(&instances_ended);
  CHECK(ended == (long)WAVES * THREADS * ROUNDS * 2, "%ld instances", ended);
  CHECK(atomic_load(&records_reported) == ended, "%ld records reported for %ld instances",
        atomic_load(&records_reported), ended);
  CHECK(count_lines(experiments) == ended + 1, "%s: %ld lines for %ld records and a header", experiments,
        count_lines(experiments), ended);
  CHECK(atomic_load(&regions_entered) > 0, "no region was ever entered");
  CHECK(count_lines(report) > 0, "%s: no report", report);
  CHECK(atomic_load(&coupling_failures) == 0, "%d coupling measurements failed", atomic_load(&coupling_failures));
  if (failures == 0)
    printf("c_api_threads_test: %d threads, %ld instances, %d region entries: passed\n", WAVES * THREADS, ended,
           atomic_load(&regions_entered));
  return failures == 0 ? 0 : 1;
}
