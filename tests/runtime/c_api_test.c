/*
 * c_api_test.c - libaugur used from C11 exactly as a user program would use it (include/augur/augur.h).
 *
 * Usage: c_api_test REPORT_PATH
 *
 * Configures libaugur with augur_set_option (baseline 1, measure_iterations 2, no summary, a report
 * at REPORT_PATH), runs two iterative OpenMP regions (one marked with the thesis' probe names, one
 * with the paper's), and checks the queries, the speedup callback and the report. Exit status 0 when
 * every check passed; otherwise each failed check is printed on stderr and the status is 1.
 *
 * With baseline 1, S(1) = AF(1) = 1 exactly, on any number of processors (thesis Figure 4.5 (3)).
 */
#include <augur/augur.h>
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures = 0;

#define CHECK(condition, ...)                                                          \
  do {                                                                                 \
    if (!(condition)) {                                                                \
      fprintf(stderr, "c_api_test: FAILED at line %d: %s: ", __LINE__, #condition);    \
      fprintf(stderr, __VA_ARGS__);                                                    \
      fputc('\n', stderr);                                                             \
      ++failures;                                                                      \
    }                                                                                  \
  } while (0)

/* ---- The workload: two parallel loops and a small sequential part per iteration ---------- */

enum { ELEMENTS = 16384, ITERATIONS = 60 };

static double field_a[ELEMENTS];
static double field_b[ELEMENTS];

static void initialise(void) {
  for (int i = 0; i < ELEMENTS; ++i) {
    field_a[i] = 1.0 + (double)i / ELEMENTS;
    field_b[i] = 2.0 - (double)i / ELEMENTS;
  }
}

/* About 0.3 ms of arithmetic on one core. */
static void parallel_loop_a(void) {
#pragma omp parallel for schedule(static)
  for (int i = 0; i < ELEMENTS; ++i) {
    const double x = field_a[i];
    field_a[i] = sqrt(x * x + 1.0) - 0.5 * sin(x) + 0.25 * cos(field_b[i]);
  }
}

static void parallel_loop_b(void) {
#pragma omp parallel for schedule(static)
  for (int i = 0; i < ELEMENTS; ++i) {
    const double y = field_b[i];
    field_b[i] = 0.5 * (y + field_a[i] / (1.0 + y * y)) + 0.1 * exp(-y);
  }
}

/* The sequential part: a serial sum. */
static double sequential_part(void) {
  double sum = 0.0;
  for (int i = 0; i < ELEMENTS; i += 4) sum += field_a[i] - field_b[i];
  return sum;
}

/* ---- The speedup callback ------------------------------------------------------------------ */

typedef struct callback_record {
  long events;
  long events_by_region[3]; /* index: ipr 1 or 2 */
  long bad_events;
  int saw_positive_estimate;
} callback_record;

static void on_speedup(const augur_speedup_event* event, void* user_data) {
  callback_record* record = (callback_record*)user_data;
  ++record->events;
  if (event->ipr >= 1 && event->ipr <= 2) {
    ++record->events_by_region[event->ipr];
  } else {
    ++record->bad_events;
  }
  if (event->length != 2 || event->processors < 1 || !(event->speedup > 0.0) || !isfinite(event->speedup) ||
      event->iteration < 1 || event->iteration > ITERATIONS) {
    ++record->bad_events;
  }
  if (event->estimated_time > 0.0) record->saw_positive_estimate = 1;
}

/* ---- Checks on the current region --------------------------------------------------------- */

static void check_region_queries(const char* name, int processors) {
  double value = -1.0;
  int state = augur_get_speedup(1, &value);
  CHECK(state == AUGUR_PC, "%s: augur_get_speedup(1) returned %d, expected AUGUR_PC", name, state);
  if (state == AUGUR_PC) {
    CHECK(value == 1.0, "%s: S(1) = %.17g with baseline 1, expected exactly 1", name, value);
  }

  value = -1.0;
  state = augur_get_speedup(processors, &value);
  CHECK(state == AUGUR_PC, "%s: augur_get_speedup(P=%d) returned %d, expected AUGUR_PC", name, processors, state);
  if (state == AUGUR_PC) {
    CHECK(isfinite(value) && value > 0.0, "%s: S(%d) = %g is not a finite positive number", name, processors, value);
  }

  double fraction = -1.0;
  CHECK(augur_get_sequential_fraction(&fraction) == AUGUR_OK, "%s: augur_get_sequential_fraction failed", name);
  CHECK(fraction >= 0.0 && fraction <= 1.0, "%s: f = %g is outside [0, 1]", name, fraction);

  double factor = -1.0;
  CHECK(augur_get_amdahl_factor(&factor) == AUGUR_OK, "%s: augur_get_amdahl_factor failed", name);
  CHECK(factor == 1.0, "%s: AF(B) = %.17g with baseline 1, expected exactly 1", name, factor);

  double seconds = -1.0;
  CHECK(augur_get_estimated_time(processors, &seconds) == AUGUR_OK, "%s: augur_get_estimated_time(%d) failed", name,
        processors);
  CHECK(isfinite(seconds) && seconds > 0.0, "%s: ExTime(%d) = %g, expected a positive time", name, processors, seconds);

  /* A processor count never measured (and beyond the machine's tables). */
  value = -7.0;
  state = augur_get_speedup(64, &value);
  CHECK(state == AUGUR_PNC, "%s: augur_get_speedup(64) returned %d, expected AUGUR_PNC", name, state);
  CHECK(value == -7.0, "%s: augur_get_speedup(64) wrote %g although the state is PNC", name, value);
  CHECK(augur_get_estimated_time(64, &seconds) == AUGUR_ERROR, "%s: augur_get_estimated_time(64) did not fail", name);
}

static int file_contains(const char* path, const char* needle) {
  FILE* file = fopen(path, "rb");
  if (file == NULL) return -1;
  static char text[1 << 16];
  const size_t length = fread(text, 1, sizeof text - 1, file);
  fclose(file);
  text[length] = '\0';
  return strstr(text, needle) != NULL;
}

int main(int argc, char** argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: c_api_test REPORT_PATH\n");
    return 2;
  }
  const char* report_path = argv[1];
  remove(report_path);
  const int processors = omp_get_max_threads();
  printf("c_api_test: P = %d\n", processors);

  /* No region yet: every query fails. */
  double value = 0.0;
  CHECK(augur_get_speedup(1, &value) == AUGUR_ERROR, "augur_get_speedup before any region did not fail");
  CHECK(augur_get_sequential_fraction(&value) == AUGUR_ERROR, "augur_get_sequential_fraction before any region did not fail");
  CHECK(augur_get_amdahl_factor(&value) == AUGUR_ERROR, "augur_get_amdahl_factor before any region did not fail");
  CHECK(augur_get_estimated_time(1, &value) == AUGUR_ERROR, "augur_get_estimated_time before any region did not fail");

  /* Options. */
  CHECK(augur_set_option("baseline", "1") == AUGUR_OK, "augur_set_option(baseline, 1) failed");
  CHECK(augur_set_option("measure_iterations", "2") == AUGUR_OK, "augur_set_option(measure_iterations, 2) failed");
  CHECK(augur_set_option("summary", "0") == AUGUR_OK, "augur_set_option(summary, 0) failed");
  CHECK(augur_set_option("report", report_path) == AUGUR_OK, "augur_set_option(report) failed");
  CHECK(augur_set_option("no_such_option", "1") == AUGUR_ERROR, "an unknown key was accepted");
  CHECK(augur_set_option("baseline", "abc") == AUGUR_ERROR, "baseline 'abc' was accepted");
  CHECK(augur_set_option("history", "1.5") == AUGUR_ERROR, "history '1.5' was accepted");
  CHECK(augur_set_option("sweep", "1,,2") == AUGUR_ERROR, "sweep '1,,2' was accepted");
  CHECK(augur_set_option(NULL, "1") == AUGUR_ERROR, "a NULL key was accepted");
  CHECK(augur_set_option("baseline", NULL) == AUGUR_ERROR, "a NULL value was accepted");

  callback_record record;
  memset(&record, 0, sizeof record);
  augur_set_speedup_callback(on_speedup, &record);

  initialise();
  double checksum = 0.0;

  /* Region 1: the thesis' probe names (Table 4.1). */
  CHECK(augur_init_parallel_region(1, 2, ITERATIONS) == AUGUR_OK, "augur_init_parallel_region failed");
  for (int step = 0; step < ITERATIONS; ++step) {
    augur_open_iteration();
    augur_init_par();
    parallel_loop_a();
    augur_end_par();
    checksum += sequential_part();
    augur_init_par();
    parallel_loop_b();
    augur_end_par();
    augur_close_iteration();
    if (step == ITERATIONS / 2) {
      /* Half-way: S(P) is known and the estimate covers the remaining iterations. */
      double seconds = -1.0;
      CHECK(augur_get_speedup(processors, NULL) == AUGUR_PC, "S(%d) is not calculated after %d iterations", processors,
            step + 1);
      CHECK(augur_get_estimated_time(processors, &seconds) == AUGUR_OK && seconds > 0.0,
            "no positive estimate half-way (%g)", seconds);
    }
  }
  augur_end_parallel_region();
  CHECK(omp_get_max_threads() == processors, "the region ended on %d threads, the program had %d", omp_get_max_threads(),
        processors);
  check_region_queries("region 1", processors);
  const long events_after_first = record.events;
  CHECK(events_after_first > 0, "no speedup event during region 1");

  /* Region 2: the paper's names (section 3.3). */
  CHECK(augur_init_parallelism(2, 2, ITERATIONS) == AUGUR_OK, "augur_init_parallelism failed");
  for (int step = 0; step < ITERATIONS; ++step) {
    augur_open_parallel_region();
    augur_init_par();
    parallel_loop_b();
    augur_end_par();
    checksum += sequential_part();
    augur_init_par();
    parallel_loop_a();
    augur_end_par();
    augur_close_parallel_region();
  }
  augur_end_parallelism();
  CHECK(omp_get_max_threads() == processors, "the region ended on %d threads, the program had %d", omp_get_max_threads(),
        processors);
  check_region_queries("region 2", processors);

  CHECK(record.events > 0, "the speedup callback never ran");
  CHECK(record.events_by_region[1] > 0, "no speedup event for region 1");
  CHECK(record.events_by_region[2] > 0, "no speedup event for region 2");
  CHECK(record.bad_events == 0, "%ld speedup events had impossible fields", record.bad_events);
  CHECK(record.saw_positive_estimate, "no speedup event carried an estimated time");

  /* Options are fixed once the first region started. */
  CHECK(augur_set_option("baseline", "2") == AUGUR_ERROR, "augur_set_option after the start was accepted");

  augur_finalize();
  augur_finalize(); /* allowed: the second call does nothing */
  const int found = file_contains(report_path, "\"augur_report\"");
  CHECK(found >= 0, "no report file at %s", report_path);
  CHECK(found != 0, "the report %s has no \"augur_report\" key", report_path);

  printf("c_api_test: checksum %.6e, %ld speedup events\n", checksum, record.events);
  if (failures > 0) {
    fprintf(stderr, "c_api_test: %d check%s failed\n", failures, failures == 1 ? "" : "s");
    return 1;
  }
  printf("c_api_test: all checks passed\n");
  return 0;
}
