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
 *
 * Threads: every function may be called from any thread at any time (docs/self-analysis.md, "Threads").
 * The self-analysis measures the regions of one thread at a time: the thread that enters a region owns
 * the measurement until it ends the region or exits, and meanwhile the probes and queries of other
 * threads are ignored with one warning. Experiments record on every thread at once; the superstep trace,
 * the periodicity detector and the options are one per process, their calls serialised by a lock.
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
 * running changes nothing. The calling thread owns the measurement until augur_end_parallel_region
 * (or its exit). Returns AUGUR_OK, or AUGUR_ERROR when augur is off or disabled, or when another
 * thread's region runs (one warning). */
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
 * and through augur_set_option; the API wins over the environment, which wins over the default, and a
 * tool that runs the program (augur run) outranks all through AUGUR_TOOL_OPTIONS="key=value;...".
 * Options take effect when the first region starts; later calls are ignored with a warning.
 * Keys: mode, baseline, warmup_iterations, baseline_iterations, baseline_every, measure_iterations, history, sweep,
 * sweep_every, self_tuning, report, summary, watch_sigcont, manager (docs/self-analysis.md lists them with defaults); experiment_file,
 * counters, bsp_trace (docs/experiments.md); trace, the timeline of the run (docs/self-analysis.md#timelines).
 * Options of the experiments and traces take effect at their first use.
 * Returns AUGUR_OK, or AUGUR_ERROR (with one message on stderr) for an unknown key or bad value. */
AUGUR_EXPORT int augur_set_option(const char* key, const char* value);

/* ---- Queries on the current region (the most recently started one) ----------------------------
 * Each returns AUGUR_ERROR when there is no region yet, or when called on another thread than the one
 * whose region runs (one warning; any thread may ask when no region runs). */

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

/* Registers one callback (NULL removes it), from any thread. It runs on the thread that calls
 * augur_close_iteration (the one whose region runs). */
AUGUR_EXPORT void augur_set_speedup_callback(augur_speedup_callback callback, void* user_data);

/* Tells libaugur that the program was stopped (for a scheduler's or a signal handler's use; the
 * thesis' appl_stopped). The iteration in progress is discarded. Async-signal-safe. With the option
 * watch_sigcont=1 libaugur installs its own SIGCONT handler that does this (off by default: a handler
 * makes blocking calls return early with EINTR after a stop). */
AUGUR_EXPORT void augur_notify_stopped(void);

/* Ends the measurement: closes open regions, prints the summary and writes the report
 * (AUGUR_REPORT). Called automatically at exit; calling it earlier is allowed, once. When another
 * thread's region runs, that thread gives the measurement up at its next probe; after half a second
 * without one, no summary or report is written (one warning). */
AUGUR_EXPORT void augur_finalize(void);

/* ---- CALL experiments (seed 001; docs/experiments.md) ------------------------------------------
 * An experiment is a named code segment with a complexity formula in CALL's canonical form
 * ("fft[0] + fft[1]*log(P) + ..."). Each execution instance (begin ... end) makes one record: the
 * experiment, the values of the formula's variables at entry, the elapsed seconds, the thread count,
 * and the hardware counters named in AUGUR_COUNTERS (PAPI, when present). Reports write the records as
 * JSON Lines (docs/formats.md, "augur experiment records"), which `augur fit` reads directly.
 * Programs annotated with `#pragma cll` get these calls from `augur cc`; they may also be called by hand.
 * Experiments nest (a stack per thread) and may be entered recursively; records from any thread. The
 * records of a thread that exits are kept for the next report, and its own log is freed. */

/* Sentinel of augur_experiment_declare: the experiment could not be declared (augur off, bad name). */
#define AUGUR_NO_EXPERIMENT (-1)

/* Declares the experiment `name` (letters, digits, '_'; not empty) with its formula (NULL or "" for
 * none; it must parse as an expression, docs/formats.md) and the comma-separated names of its variables
 * ("N,P"; NULL or "" for none), or finds it when declared before with the same formula and variables.
 * Returns its id (>= 0) or AUGUR_NO_EXPERIMENT (with one message on stderr: a bad name, formula or
 * variable, or the name declared before with another formula or variables). Declaring reads no option,
 * so it may run before main (as the code augur cc generates does). */
AUGUR_EXPORT int augur_experiment_declare(const char* name, const char* formula, const char* variables);
/* Begins an instance of the experiment: `values` holds the variables' values in their declared order
 * (NULL when it has none). An invalid id is reported once and ignored; values that are not finite
 * numbers are reported once and the instance is not recorded. With the option mode=off, begin and
 * end do nothing. */
AUGUR_EXPORT void augur_experiment_begin(int experiment, const double* values);
/* The same, with the number of values given: when it is not the experiment's number of variables, the
 * mismatch is reported once and the instance is not recorded. */
AUGUR_EXPORT void augur_experiment_begin_n(int experiment, int count, const double* values);
/* Ends the innermost open instance of the experiment on this thread and records it. An end without
 * a begin, or one that skips an inner open experiment, is reported once; the inner ones are dropped. */
AUGUR_EXPORT void augur_experiment_end(int experiment);
/* Writes the records of the experiments named in `names` ("fft,A,B"; NULL or "all" for every one) to
 * the experiment file (option experiment_file, default "%n.cll.jsonl", %n the program's name; appended
 * in one write under a file lock) and forgets them. Returns the number of records written, or
 * AUGUR_ERROR with a message on stderr; records whose write failed are kept and written with the next
 * report, or at exit. */
AUGUR_EXPORT int augur_experiment_report(const char* names);
/* For MPI and other gatherers: the records of `names` as JSON Lines, each with "rank" and "ranks",
 * in a buffer from malloc (free it with augur_free); the records are forgotten. *length is the byte
 * count (no terminating zero counted). Returns the number of records, or AUGUR_ERROR. */
AUGUR_EXPORT int augur_experiment_serialize(const char* names, int rank, int ranks, char** buffer, unsigned long* length);
/* Appends JSON Lines gathered from several ranks to the experiment file in one write (the header
 * line first when the file is new or empty). Returns AUGUR_OK or AUGUR_ERROR (the lines are then kept
 * and written with the next write, or at exit). */
AUGUR_EXPORT int augur_experiment_write(const char* buffer, unsigned long length);
/* Frees a buffer returned by libaugur. */
AUGUR_EXPORT void augur_free(void* buffer);

/* ---- Superstep traces for the OBSP* model (seed 001, section 2; docs/bsp.md) ----------------------
 * Per rank and superstep: the computation time W, the bytes in and out, the incoming partners and how
 * the superstep ended; with partitions into sub-machines (bsp_partition / bsp_done). Times are taken
 * from augur_bsp_start, which should follow a barrier so that all ranks share an origin. One trace per
 * process: calls from several threads are serialised and go into it in the order they come. */

/* How a superstep ends (the `kind` of augur_bsp_sync). */
#define AUGUR_BSP_NONE 0      /* no synchronisation: the last superstep of a (sub-)machine's task */
#define AUGUR_BSP_OBLIVIOUS 1 /* each processor waits only for its incoming partners */
#define AUGUR_BSP_BARRIER 2   /* a global barrier of the current (sub-)machine */

/* Starts the trace on this process: `rank` its global rank, `pid` and `nprocs` its number and the
 * size of the top machine. The first superstep starts now. Returns AUGUR_OK or AUGUR_ERROR. */
AUGUR_EXPORT int augur_bsp_start(int rank, int pid, int nprocs);
/* The computation of the current superstep ends and its communication begins. */
AUGUR_EXPORT void augur_bsp_communicate(void);
/* Ends the current superstep (and starts the next): `kind` as above, the bytes received and sent in
 * this superstep, and the incoming partners (pids in the current machine, NULL when count is 0). */
AUGUR_EXPORT void augur_bsp_sync(int kind, long bytes_in, long bytes_out, int partner_count, const int* partners);
/* Enters sub-machine `group` (0-based, as bsp_partition's subsets) of the current machine, as `pid`
 * of its `nprocs` processors; the sub-machine's first superstep starts now. Returns AUGUR_OK or AUGUR_ERROR. */
AUGUR_EXPORT int augur_bsp_partition(int group, int pid, int nprocs);
/* Leaves the sub-machine (its open superstep ends with AUGUR_BSP_NONE); the parent's superstep goes on. */
AUGUR_EXPORT void augur_bsp_done(void);
/* Ends the trace (an open superstep ends with AUGUR_BSP_NONE). Returns the superstep records kept. */
AUGUR_EXPORT int augur_bsp_stop(void);
/* The trace records as JSON Lines in a buffer from malloc (free with augur_free); they are forgotten.
 * Returns the number of records, or AUGUR_ERROR. */
AUGUR_EXPORT int augur_bsp_serialize(char** buffer, unsigned long* length);
/* Writes trace lines gathered from `ranks` processes, after the header line, to `path` (NULL: the
 * option bsp_trace; nothing is written, and AUGUR_OK returned, when both are empty), replacing the
 * file atomically. Returns AUGUR_OK or AUGUR_ERROR. */
AUGUR_EXPORT int augur_bsp_write(const char* path, int ranks, const char* buffer, unsigned long length);

/* ---- Dynamic periodicity detection (thesis Table 4.2; docs/dpd.md) ------------------------------
 * The Dynamic Periodicity Detector of Freitag, Corbalan and Labarta: it reads a stream of samples (for
 * the dynamic instrumentation, the address of the function of each parallel region, in the order the
 * regions run) and finds the smallest period m <= N/2 such that every two samples m apart among the N
 * most recent ones are equal (N: the window, 128 by default). One detector per process: any thread may
 * call these (a lock serialises them; the samples of several threads make one stream, so call them
 * from one thread for a stream that means something). They allocate nothing per sample and never throw. */

/* Reads the next sample. Returns 1 when `sample` starts a new period (the stream is periodic and the
 * sample is at the phase of the first sample of its periodic part), else 0. When `period` is not NULL,
 * *period receives the current period in samples, 0 while the stream shows none. */
AUGUR_EXPORT int augur_DPD(long sample, int* period);
/* Sets the window to `size` samples (thesis: DPDWindowSize; a smaller window costs less per sample
 * and detects sooner but only periods up to size/2). Sizes outside [4, 1048576] are clamped, with one
 * warning on stderr. The most recent samples are kept, and a period that still holds keeps its phase. */
AUGUR_EXPORT void augur_DPDWindowSize(int size);

#ifdef __cplusplus
}
#endif

#endif /* AUGUR_AUGUR_H */
