/*
 * augur.h - the C API of libaugur, the self-analysis runtime.
 *
 * Link an iterative parallel program with libaugur and mark its iterative parallel region:
 *
 *     augur_init_parallel_region(0, 3, iterations);      // once per region: (ipr, length, iters)
 *     for (int step = 0; step < iterations; ++step) {
 *         augur_open_iteration();
 *         augur_init_par();  #pragma omp parallel for ... ; augur_end_par();
 *         ... sequential code ...
 *         augur_init_par();  #pragma omp parallel for ... ; augur_end_par();
 *         augur_close_iteration();
 *     }
 *     augur_end_parallel_region();
 *
 * While the program runs, libaugur runs the first iterations on a baseline number of threads,
 * then on the threads allocated, and computes the speedup S(p) of the region and an estimate of
 * its execution time (Corbalan & Labarta; thesis chapter 4, Table 4.1). Method: docs/self-analysis.md.
 *
 * Rules: every function may be called from C or C++; none throws, none aborts the program.
 * Misuse (an iteration opened outside a region, a call from inside an OpenMP parallel region,
 * a bad option) is reported once on stderr and ignored. Call the probes from the thread that
 * runs the sequential loop, outside OpenMP parallel regions. The probes allocate no memory.
 */
#ifndef AUGUR_AUGUR_H
#define AUGUR_AUGUR_H

#include <stdint.h>

#if defined(AUGUR_BUILDING_LIBRARY)
#define AUGUR_EXPORT __attribute__((visibility("default")))
#else
#define AUGUR_EXPORT
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* Return codes of the functions that return int. */
#define AUGUR_OK 0
#define AUGUR_ERROR (-1)

/* State of the speedup of a region with p processors (the CPUManager's classification, thesis 4.5). */
typedef enum augur_state {
  AUGUR_PNC = 0, /* performance not calculated: no speedup measured yet with p processors */
  AUGUR_PC = 1   /* performance calculated */
} augur_state;

/* ---- The thesis API (Table 4.1) ------------------------------------------------------------ */

/* Starts (or resumes) the iterative parallel region identified by (ipr, length): ipr is any number
 * unique to the region, length the number of parallel loops in one iteration, iterations the number
 * of iterations of the sequential loop in this entry, or a negative value when unknown (no time
 * estimate then). A region entered again keeps its measurements; calling this for the region already
 * running changes nothing. Returns AUGUR_OK, or AUGUR_ERROR when augur is off or disabled. */
AUGUR_EXPORT int augur_init_parallel_region(uint64_t ipr, int length, long iterations);
/* Marks the end of the current region: stops its time counters. */
AUGUR_EXPORT void augur_end_parallel_region(void);
/* Call at the start of each iteration of the sequential loop. */
AUGUR_EXPORT void augur_open_iteration(void);
/* Call at the end of each iteration of the sequential loop. */
AUGUR_EXPORT void augur_close_iteration(void);
/* Call just before each parallel loop inside the iteration. */
AUGUR_EXPORT void augur_init_par(void);
/* Call just after each parallel loop inside the iteration. */
AUGUR_EXPORT void augur_end_par(void);

/* ---- The paper's names (Corbalan & Labarta, section 3.3): thin equivalents ------------------- */

/* Same as augur_init_parallel_region. */
AUGUR_EXPORT int augur_init_parallelism(uint64_t ipr, int length, long iterations);
/* Same as augur_open_iteration. */
AUGUR_EXPORT void augur_open_parallel_region(void);
/* Same as augur_close_iteration. */
AUGUR_EXPORT void augur_close_parallel_region(void);
/* Same as augur_end_parallel_region. */
AUGUR_EXPORT void augur_end_parallelism(void);

/* ---- Configuration ----------------------------------------------------------------------------
 * Every option has a default, can be set in the environment as AUGUR_<KEY> (key in upper case),
 * and through augur_set_option; the API wins over the environment, which wins over the default.
 * Options take effect when the first region starts; later calls are ignored with a warning.
 * Keys: mode, baseline, warmup_iterations, baseline_iterations, measure_iterations, history, sweep, sweep_every,
 * self_tuning, report, summary, watch_sigcont (docs/self-analysis.md lists them with defaults).
 * Returns AUGUR_OK, or AUGUR_ERROR (with one message on stderr) for an unknown key or bad value. */
AUGUR_EXPORT int augur_set_option(const char* key, const char* value);

/* ---- Queries on the current region (the most recently started one) ----------------------------
 * Each returns AUGUR_ERROR when there is no region yet. */

/* Speedup S(p) and its state; *speedup is written only when the state is AUGUR_PC.
 * Returns AUGUR_PC, AUGUR_PNC, or AUGUR_ERROR. */
AUGUR_EXPORT int augur_get_speedup(int processors, double* speedup);
/* Estimated execution time of the region if it runs its remaining iterations on p processors
 * (thesis Figure 4.8). Needs S(p) and a known iteration count. Returns AUGUR_OK or AUGUR_ERROR. */
AUGUR_EXPORT int augur_get_estimated_time(int processors, double* seconds);
/* Fraction of sequential code f (thesis Figure 4.6). Returns AUGUR_OK or AUGUR_ERROR (not measured). */
AUGUR_EXPORT int augur_get_sequential_fraction(double* fraction);
/* Amdahl's Factor of the baseline, AF(B) = 1 / (f + (1 - f) / B). Returns AUGUR_OK or AUGUR_ERROR. */
AUGUR_EXPORT int augur_get_amdahl_factor(double* factor);
/* Self-tuning' speedup (efficiency from idle time x p) measured with p processors.
 * Returns AUGUR_OK or AUGUR_ERROR (not measured with p processors). */
AUGUR_EXPORT int augur_get_self_tuning_speedup(int processors, double* speedup);

/* ---- Notifications ------------------------------------------------------------------------ */

/* One new speedup value, passed to the callback each time libaugur computes one. */
typedef struct augur_speedup_event {
  uint64_t ipr;                /* region id */
  int length;                  /* parallel loops per iteration */
  int processors;              /* p */
  double speedup;              /* S(p) after the history is applied */
  double estimated_time;       /* ExTime(p) in seconds, or a negative value when unknown */
  long iteration;              /* iterations closed so far in the region */
} augur_speedup_event;

typedef void (*augur_speedup_callback)(const augur_speedup_event* event, void* user_data);

/* Registers one callback (NULL removes it). It runs on the thread that calls augur_close_iteration. */
AUGUR_EXPORT void augur_set_speedup_callback(augur_speedup_callback callback, void* user_data);

/* Tells libaugur that the program was stopped (for a scheduler's or a signal handler's use; the
 * thesis' appl_stopped). The iteration in progress is discarded. Async-signal-safe. With the option
 * watch_sigcont=1 libaugur installs its own SIGCONT handler that does this (off by default: a handler
 * makes blocking calls return early with EINTR after a stop). */
AUGUR_EXPORT void augur_notify_stopped(void);

/* Ends the measurement: closes open regions, prints the summary and writes the report
 * (AUGUR_REPORT). Called automatically at exit; calling it earlier is allowed, once. */
AUGUR_EXPORT void augur_finalize(void);

#ifdef __cplusplus
}
#endif

#endif /* AUGUR_AUGUR_H */
