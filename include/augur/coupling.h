/*
 * coupling.h - the kernel coupling harness of libaugur (seed 002; method: docs/coupling.md).
 *
 * Declare an iterative application as an ordered loop of kernels, then let augur measure each kernel
 * alone, the chains of adjacent kernels along the cyclic loop, and the whole loop:
 *
 *     augur_coupling_app *app = augur_coupling_create("sp", 400);      // name, loop iterations
 *     augur_coupling_add_kernel(app, "copy_faces", copy_faces, &grid, 1);
 *     ...                                                               // in the loop's order
 *     augur_coupling_set_hooks(app, setup, reset, &grid);
 *     augur_coupling_set_problem(app, "W", 36.0 * 36 * 36, bytes);
 *     int status = augur_coupling_measure(app);                        // writes the measurement file
 *     augur_coupling_destroy(app);
 *
 * A kernel, chain or loop is timed by repeating it until the repetitions take at least `min_time`
 * seconds (the loop that dominates the time, as the seed prescribes); `samples` such timings give a
 * median and a 95% confidence interval. `reset` runs, untimed, before every sample and before the
 * whole loop, so that kernels run on valid data; `setup` runs once before the first measurement.
 *
 * Options (augur_coupling_set_option), with the precedence of every augur option: default < the
 * environment variable AUGUR_COUPLING_<KEY> < the program's value < the tool channel AUGUR_TOOL_OPTIONS
 * ("coupling.<key>=value;..."), through which `augur couple measure` passes its choices; a bad value is
 * warned about and ignored (`augur options --set coupling` lists them):
 *   output     measurement file (default "%a.coupling.jsonl"; %a: application name, %p: pid)
 *   min_time   seconds per sample of a kernel or chain (default 0.03)
 *   samples    samples per kernel or chain (default 9)
 *   warmup     untimed repetitions before each sample (default 1)
 *   chains     chain lengths to measure: "all" (2 .. n-1), "none", "K" or "K1-K2" (default "all")
 *   application_samples  timed runs of the whole loop (default 3)
 *   progress   "1": one line on stderr per round of samples, and one for the loop (default "0")
 *
 * Processors: the OpenMP threads of the caller (omp_get_max_threads) times the ranks given with
 * augur_coupling_set_communicator (1 without). With ranks, every rank calls augur_coupling_measure;
 * each timing is the maximum over ranks between barriers, and rank 0 writes the file.
 *
 * Rules: no function throws or aborts; misuse is reported once on stderr and returns AUGUR_ERROR.
 * Threads: different applications may be measured on different threads at once; the calls on one
 * application are serialised by a lock of its own (a kernel may call them on its own application).
 * Destroying an application while another thread uses it is the program's error, as with free().
 */
#ifndef AUGUR_COUPLING_H
#define AUGUR_COUPLING_H

#include "augur/augur.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct augur_coupling_app augur_coupling_app;
/* A kernel or hook: called with the data pointer given when it was declared. */
typedef void (*augur_kernel_fn)(void* data);

/* A new application whose loop runs `iterations` times (≥ 1); NULL on bad arguments. */
AUGUR_EXPORT augur_coupling_app* augur_coupling_create(const char* name, long iterations);
/* Appends a kernel to the loop body, called `calls` times (≥ 1) per iteration. Returns its index
 * (0, 1, ...) or AUGUR_ERROR. */
AUGUR_EXPORT int augur_coupling_add_kernel(augur_coupling_app* app, const char* name, augur_kernel_fn kernel,
                                           void* data, int calls);
/* setup: once before the measurements; reset: before every timed sample (untimed). Either may be NULL. */
AUGUR_EXPORT int augur_coupling_set_hooks(augur_coupling_app* app, augur_kernel_fn setup, augur_kernel_fn reset,
                                          void* data);
/* The problem: a label ("W", may be NULL), a size that orders problems (e.g. grid points, > 0) and the
 * bytes of data the loop touches (0 when unknown; used to relate coupling transitions to caches). */
AUGUR_EXPORT int augur_coupling_set_problem(augur_coupling_app* app, const char* dataset, double size,
                                            double footprint_bytes);
/* One option (see above). Returns AUGUR_OK, or AUGUR_ERROR for an unknown key or a bad value. */
AUGUR_EXPORT int augur_coupling_set_option(augur_coupling_app* app, const char* key, const char* value);
/* MPI: this rank, the number of ranks, a barrier and a maximum over ranks. augur/augur_mpi.h has
 * augur_mpi_coupling(app, &comm), which fills these in. */
typedef void (*augur_barrier_fn)(void* context);
typedef double (*augur_max_fn)(double value, void* context);
AUGUR_EXPORT int augur_coupling_set_communicator(augur_coupling_app* app, int rank, int ranks,
                                                 augur_barrier_fn barrier, augur_max_fn maximum, void* context);
/* Measures and writes the file (rank 0; when the output cannot be written, the file goes to $TMPDIR and
 * a warning says where). Returns AUGUR_OK, or AUGUR_ERROR (with a message) -- with ranks, on every rank.
 * With ranks, the counts (samples, warmup, chain lengths, repetitions) are the largest any rank asked
 * for, so that every rank runs the same collective calls; a kernel that fails on one rank only leaves
 * the others waiting, as in any MPI program. */
AUGUR_EXPORT int augur_coupling_measure(augur_coupling_app* app);
AUGUR_EXPORT void augur_coupling_destroy(augur_coupling_app* app);

#ifdef __cplusplus
}
#endif

#endif /* AUGUR_COUPLING_H */
