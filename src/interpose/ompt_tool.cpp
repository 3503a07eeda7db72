// libaugur_ompt.so: the OMPT tool that does for LLVM's OpenMP runtime (libomp, clang -fopenmp) what
// libaugur_preload does for libgomp. libomp loads it from OMP_TOOL_LIBRARIES (or finds ompt_start_tool
// in a preloaded library) and calls ompt_start_tool; the tool registers parallel_begin, parallel_end
// and work (the ends of worksharing constructs, for a program with one outer parallel region; a second
// detector, as in libaugur_preload), sync_region_wait (its barriers) and flush (its spins on flags). Each
// parallel region started at level 0 by the first thread that starts one is a sample of the periodicity detector: its codeptr_ra, the return address of the runtime call in the
// program, which identifies the region's call site. The samples drive the Figure 4.11 engine
// (dynamic_regions.hpp) and the self-analysis engine through the session shared with libaugur_preload
// (session.hpp), which writes the same report and interposition file at exit. The baseline's thread
// count goes through the ICV nthreads-var (icv_threads.hpp). Method and limits: docs/run.md.
//
// It goes into the user's process: C ABI, only ompt_start_tool and the __kmpc_dispatch_next_* wrappers
// (below) exported, nothing thrown across the
// callbacks, the program never stopped, no link to libomp (omp_* come from dlsym), no SQLite, no Eigen.
#include <dlfcn.h>
#include <pthread.h>

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <exception>
#include <string>

#include AUGUR_OMPT_HEADER  // omp-tools.h of the LLVM release that provides libomp

#include "core/files.hpp"
#include "icv_threads.hpp"
#include "interpose/flush_spin.hpp"
#include "interpose/next_definition.hpp"
#include "interpose/run_timeline.hpp"
#include "interpose/session.hpp"

#define AUGUR_OMPT_EXPORT __attribute__((visibility("default")))

namespace {

using namespace augur;

struct OmpFunctions {
  int (*get_max_threads)() = nullptr;
  void (*set_num_threads)(int) = nullptr;
  int (*get_level)() = nullptr;
  int (*get_num_threads)() = nullptr;
};

bool flushes_reported = false;  // libomp dispatches the flush callback (set at initialize)
thread_local interpose::FlushSpin flush_spin;  // this thread's spins on flags since its last barrier

struct Tool {
  interpose::Session session;
  interpose::IcvThreadControl threads;
  Tool() {
    session.runtime = "libomp";
    session.library = "libaugur_ompt";
    session.sees_spins = flushes_reported;
  }
};

OmpFunctions omp;
ompt_get_task_info_t get_task_info = nullptr;          // the thread's number in its team, from inside callbacks
ompt_get_parallel_info_t get_parallel_info = nullptr;  // the team's size, from inside callbacks
Tool* tool = nullptr;              // set once, by the first region at level 0
std::atomic<bool> started{false};
std::atomic<bool> active{false};   // the engine may be driven
pthread_t owner{};                 // the thread that drives the engine
std::atomic<std::uint64_t> traced_region_site{0};  // on the timeline, the codeptr_ra of the region being run

// The marker in ompt_data_t of a region that drives the engine.
constexpr std::uint64_t instrumented = 0x61756775u;  // "augu"

void finish_at_exit() {
  if (tool == nullptr) return;
  active.store(false, std::memory_order_relaxed);
  interpose::finish_session(tool->session);
}

void start_once() {
  Tool* state = new Tool();
  const int allocation = omp.get_max_threads();
  state->threads = interpose::IcvThreadControl(allocation);
  interpose::start_session(state->session, state->threads, allocation, /*worksharing=*/true);
  state->threads.manage(interpose::managed_allocation(state->session));
  tool = state;
  owner = pthread_self();
  std::atexit(finish_at_exit);
  active.store(state->session.engine != nullptr, std::memory_order_release);
}

void disable_after(const char* what) {
  active.store(false, std::memory_order_relaxed);
  if (tool != nullptr) tool->session.disabled_reason = std::string("measurement stopped: ") + what;
  interpose::warn(std::string("libaugur_ompt: ") + what + "; the program goes on unmeasured");
}

// True when this region drives the engine: the first thread that runs a region at level 0 owns it.
bool owns_region(int flags) {
  if ((flags & ompt_parallel_league) != 0) return false;  // a teams construct, not a parallel region
  if (!started.load(std::memory_order_acquire)) {
    static std::atomic_flag once = ATOMIC_FLAG_INIT;
    if (omp.get_level() != 0 || once.test_and_set()) return false;
    try {
      start_once();
    } catch (const std::exception& error) {
      interpose::warn(std::string("libaugur_ompt: cannot start: ") + error.what() + "; the program goes on unmeasured");
    } catch (...) {
      interpose::warn("libaugur_ompt: cannot start; the program goes on unmeasured");
    }
    started.store(true, std::memory_order_release);
  }
  if (tool == nullptr) return false;
  if (!pthread_equal(owner, pthread_self()) || omp.get_level() != 0) {
    tool->session.passed_through.fetch_add(1, std::memory_order_relaxed);
    return false;
  }
  ++tool->session.intercepted;
  return active.load(std::memory_order_relaxed);
}

// DI_event_pre of Figure 4.11. libomp sizes the team after this callback, from the encountering
// thread's nthreads-var unless the region has a num_threads clause.
void on_parallel_begin(ompt_data_t* /*encountering_task_data*/, const ompt_frame_t* /*encountering_task_frame*/,
                       ompt_data_t* parallel_data, unsigned int /*requested_parallelism*/, int flags, const void* codeptr_ra) {
  if (!owns_region(flags)) return;
  try {
    const int current = omp.get_max_threads();
    tool->threads.observe(current);
    tool->session.engine->before_region(reinterpret_cast<std::uint64_t>(codeptr_ra));
    if (tool->session.trace != nullptr) {
      traced_region_site.store(reinterpret_cast<std::uint64_t>(codeptr_ra), std::memory_order_relaxed);
      interpose::timeline_region_begin(tool->session, reinterpret_cast<std::uint64_t>(codeptr_ra), runtime::read_clock(CLOCK_MONOTONIC));
    }
    if (tool->session.worksharing != nullptr) {
      tool->session.worksharing->enter_region(reinterpret_cast<std::uint64_t>(codeptr_ra));
      interpose::outer_begin(tool->session, reinterpret_cast<std::uint64_t>(codeptr_ra), runtime::read_clock(CLOCK_MONOTONIC));
    }
    const int threads = tool->threads.decide(current, tool->session.engine->regions().in_iteration());
    if (threads > 0) omp.set_num_threads(threads);
    parallel_data->value = instrumented;
  } catch (const std::exception& error) {
    disable_after(error.what());
  } catch (...) {
    disable_after("unknown exception");
  }
}

// DI_event_post of Figure 4.11.
void on_parallel_end(ompt_data_t* parallel_data, ompt_data_t* /*encountering_task_data*/, int /*flags*/,
                     const void* /*codeptr_ra*/) {
  if (parallel_data == nullptr || parallel_data->value != instrumented) return;
  parallel_data->value = 0;
  if (!active.load(std::memory_order_relaxed)) return;
  try {
    if (tool->session.trace != nullptr) interpose::timeline_region_end(tool->session, runtime::read_clock(CLOCK_MONOTONIC));
    if (tool->session.worksharing != nullptr) {
      tool->session.worksharing->leave_region();
      interpose::outer_end(tool->session, runtime::read_clock(CLOCK_MONOTONIC));
    }
    tool->session.engine->after_region();
  } catch (const std::exception& error) {
    disable_after(error.what());
  } catch (...) {
    disable_after("unknown exception");
  }
}

// The call site of the worksharing construct the master is in (its begin), the sample at its end.
std::uint64_t construct_site = 0;

// The end of a worksharing construct (one outer parallel region around the time loop; docs/run.md): a
// sample of the second detector when it runs on the master thread of a measured region, the owner
// thread at level 1. The sample is the construct's call site at its BEGIN (__kmpc_for_static_init,
// __kmpc_dispatch_init, __kmpc_single): a dynamic loop's end is reported from __kmpc_dispatch_next, which
// clang may call from two places (before the loop and at its latch), so the end's call site depends on
// whether the thread got a chunk; the begin's does not. A single is sampled at its begin (its end is
// reported from __kmpc_end_single by the thread that ran it and from __kmpc_single by the others).
// On the timeline (augur run --trace), the end of a construct on any thread of a traced region's team: the
// thread's work since its last construct end or barrier, named by the construct (run_timeline.hpp); the
// barrier after it, if any, comes from on_sync_region_wait.
thread_local bool construct_just_ended = false;  // this thread's last timeline event was a construct's end
thread_local double barrier_arrival = -1.0;      // on the timeline, when this thread began to wait (negative: none)
// A barrier right after a construct's end is its own (its work is on the timeline), or the next after a `nowait`
// one (the work since is a `work` slice). libomp 14 reports both as barrier_implicit (2): the join barrier with
// the region's call site on the master and none on the workers; an explicit barrier is never the own.
bool constructs_own_barrier(ompt_sync_region_t kind, const void* codeptr_ra) {
  if (kind == ompt_sync_region_barrier_implicit_workshare) return true;
  if (static_cast<int>(kind) != 2 || codeptr_ra == nullptr) return false;
  return reinterpret_cast<std::uint64_t>(codeptr_ra) != traced_region_site.load(std::memory_order_relaxed);
}

void trace_construct_end(interpose::ConstructEnd kind, const ompt_data_t* parallel_data) {
  if (tool->session.trace == nullptr || parallel_data == nullptr || parallel_data->value != instrumented) return;
  (void)interpose::timeline_construct_end(tool->session, kind, false, runtime::read_clock(CLOCK_MONOTONIC));
  construct_just_ended = true;
}

void on_work(ompt_work_t work_type, ompt_scope_endpoint_t endpoint, ompt_data_t* parallel_data, ompt_data_t* /*task_data*/,
             std::uint64_t /*count*/, const void* codeptr_ra) {
  if (tool == nullptr || !active.load(std::memory_order_relaxed)) return;
  interpose::ConstructEnd kind = interpose::ConstructEnd::Loop;
  switch (work_type) {
    case ompt_work_loop: kind = interpose::ConstructEnd::Loop; break;
    case ompt_work_sections: kind = interpose::ConstructEnd::Sections; break;
    case ompt_work_single_executor:
    case ompt_work_single_other: kind = interpose::ConstructEnd::Single; break;
    default: return;  // workshare, distribute, taskloop, scope: not samples
  }
  if (endpoint == ompt_scope_end) trace_construct_end(kind, parallel_data);
  if (!pthread_equal(owner, pthread_self()) || tool->session.worksharing == nullptr || omp.get_level() != 1) return;
  const bool single = kind == interpose::ConstructEnd::Single;
  if (endpoint == ompt_scope_begin) {
    construct_site = reinterpret_cast<std::uint64_t>(codeptr_ra);
    if (!single) return;
    interpose::outer_single(tool->session);
  } else if (single) {
    return;
  }
  try {
    const std::uint64_t site = construct_site != 0 ? construct_site : reinterpret_cast<std::uint64_t>(codeptr_ra);
    construct_site = 0;
    interpose::outer_sample(tool->session, site, kind, omp.get_num_threads != nullptr ? omp.get_num_threads() : 0,
                            runtime::read_clock(CLOCK_MONOTONIC));
  } catch (const std::exception& error) {
    disable_after(error.what());
  } catch (...) {
    disable_after("unknown exception");
  }
}

// ---- libomp's chunk dispatcher in baseline steps --------------------------------------------------------
// libomp runs a dynamic, guided or runtime-scheduled loop of a serialized team (a one-thread run,
// OMP_NUM_THREADS=1) as one chunk, but a team of several threads asks __kmpc_dispatch_next for every chunk:
// about 0.55 us a call with libomp 14 even when one thread takes every chunk, as in a baseline step, where
// the threads run one after the other. That time is not in a one-thread run: in a baseline step it is taken
// out of the thread's work (TeamRecorder::arrive). The first call after a barrier is always timed (weight 1):
// a thread whose turn comes after the others' took every chunk makes that one call only, and it is the
// dearest (0.8-1.3 us against 0.45-0.5 us a chunk, measured with a wrapper on clang's outer_race loop).
// The calls after it are timed 1 in `dispatch_sampling` and the estimate is the sampled time times the
// period: timing every call costs about as much as a chunk of a small loop. libomp reaches these wrappers when augur run preloads the tool (LD_PRELOAD as well as
// OMP_TOOL_LIBRARIES); loaded by OMP_TOOL_LIBRARIES alone they are not called and nothing is taken out.
constexpr long dispatch_sampling = 16;
thread_local long dispatch_calls = 0;        // the calls after the first of their episode, over the run
thread_local bool dispatch_first = true;     // no call yet since the thread last arrived at or left a barrier
thread_local double dispatch_seconds = 0.0;  // the estimate since the thread last left a barrier

struct ident;  // libomp's ident_t, passed through

template <typename Function, typename... Arguments>
int dispatch_next(Function function, Arguments... arguments) {
  if (function == nullptr) return 0;
  if (!active.load(std::memory_order_acquire) || !interpose::outer_serializing(tool->session)) {
    return function(arguments...);
  }
  const bool first = dispatch_first;
  dispatch_first = false;
  if (!first && ++dispatch_calls % dispatch_sampling != 0) return function(arguments...);
  const double weight = first ? 1.0 : static_cast<double>(dispatch_sampling);
  const double start = runtime::read_clock(CLOCK_MONOTONIC);
  const int result = function(arguments...);
  dispatch_seconds += weight * (runtime::read_clock(CLOCK_MONOTONIC) - start);
  return result;
}

// Waiting at a barrier of the measured region's team, on any of its threads: the arrival (begin) and the
// departure (end) of the one-run analysis. Only barriers of the region marked at parallel_begin count
// (`parallel_data`): not a nested region's, nor the fork barrier a worker waits at before it joins a team
// (omp_* calls there crash libomp 14: the thread has no team yet). Barriers of tasks (taskwait, taskgroup),
// reductions and teams are not barriers of the team's work.
void on_sync_region_wait(ompt_sync_region_t kind, ompt_scope_endpoint_t endpoint, ompt_data_t* parallel_data,
                         ompt_data_t* /*task_data*/, const void* codeptr_ra) {
  if (tool == nullptr || !active.load(std::memory_order_relaxed)) return;
  if (parallel_data == nullptr || parallel_data->value != instrumented) return;
  if (kind == ompt_sync_region_taskwait || kind == ompt_sync_region_taskgroup || kind == ompt_sync_region_reduction ||
      kind == ompt_sync_region_barrier_teams) {
    return;
  }
  if (tool->session.trace != nullptr) {  // the timeline's barrier slices (run_timeline.hpp)
    const double now = runtime::read_clock(CLOCK_MONOTONIC);
    if (endpoint == ompt_scope_begin) {
      const bool after_construct = construct_just_ended && constructs_own_barrier(kind, codeptr_ra);
      barrier_arrival = interpose::timeline_barrier_arrive(tool->session, after_construct, now);
    } else {
      interpose::timeline_construct_left(tool->session, barrier_arrival, now);
      barrier_arrival = -1.0;
    }
    construct_just_ended = false;
  }
  const double spin = flush_spin.take();  // since it left the last barrier (a departure drops what it spun inside)
  if (tool->session.outer == nullptr || get_task_info == nullptr) return;
  if (!tool->session.outer->measuring.load(std::memory_order_acquire)) return;
  try {
    int thread = -1;
    if (get_task_info(0, nullptr, nullptr, nullptr, nullptr, &thread) == 0 || thread < 0) return;
    const double now = runtime::read_clock(CLOCK_MONOTONIC);
    dispatch_first = true;
    if (endpoint == ompt_scope_begin) {
      interpose::outer_arrive(tool->session, thread, now, dispatch_seconds, false, spin);
      dispatch_seconds = 0.0;
    } else {
      dispatch_seconds = 0.0;
      const bool master = thread == 0 && pthread_equal(owner, pthread_self());
      int team = 0;
      if (master && (get_parallel_info == nullptr || get_parallel_info(0, nullptr, &team) == 0)) team = 0;
      interpose::outer_depart(tool->session, thread, master, team, now);
    }
  } catch (const std::exception& error) {
    disable_after(error.what());
  } catch (...) {
    disable_after("unknown exception");
  }
}

// A flush (__kmpc_flush): a spin on a flag when it repeats (flush_spin.hpp); the clock read only while an outer
// region is measured (`tool` and its session are set before `active`).
void on_flush(ompt_data_t* /*thread_data*/, const void* codeptr_ra) {
  const interpose::OuterRegion* outer = active.load(std::memory_order_acquire) ? tool->session.outer.get() : nullptr;
  if (outer != nullptr && outer->measuring.load(std::memory_order_relaxed)) flush_spin.flush(codeptr_ra, runtime::read_clock(CLOCK_MONOTONIC));
}

int initialize(ompt_function_lookup_t lookup, int /*initial_device_num*/, ompt_data_t* /*tool_data*/) {
  omp.get_max_threads = reinterpret_cast<int (*)()>(dlsym(RTLD_DEFAULT, "omp_get_max_threads"));
  omp.set_num_threads = reinterpret_cast<void (*)(int)>(dlsym(RTLD_DEFAULT, "omp_set_num_threads"));
  omp.get_level = reinterpret_cast<int (*)()>(dlsym(RTLD_DEFAULT, "omp_get_level"));
  omp.get_num_threads = reinterpret_cast<int (*)()>(dlsym(RTLD_DEFAULT, "omp_get_num_threads"));
  get_task_info = reinterpret_cast<ompt_get_task_info_t>(lookup("ompt_get_task_info"));
  get_parallel_info = reinterpret_cast<ompt_get_parallel_info_t>(lookup("ompt_get_parallel_info"));
  const auto set_callback = reinterpret_cast<ompt_set_callback_t>(lookup("ompt_set_callback"));
  if (omp.get_max_threads == nullptr || omp.set_num_threads == nullptr || omp.get_level == nullptr || set_callback == nullptr) {
    interpose::warn("libaugur_ompt: the OpenMP runtime lacks omp_get_max_threads, omp_set_num_threads, omp_get_level or "
                    "ompt_set_callback; the program goes on unmeasured");
    return 0;  // the runtime then calls no callback of the tool
  }
  const bool begin = set_callback(ompt_callback_parallel_begin, reinterpret_cast<ompt_callback_t>(&on_parallel_begin)) ==
                     ompt_set_always;
  const bool end = set_callback(ompt_callback_parallel_end, reinterpret_cast<ompt_callback_t>(&on_parallel_end)) ==
                   ompt_set_always;
  if (!begin || !end) {
    interpose::warn("libaugur_ompt: the OpenMP runtime does not always dispatch parallel_begin/parallel_end; the program "
                    "goes on unmeasured");
    return 0;
  }
  // The worksharing constructs, for a program with one parallel region around its time loop: optional
  // (without them such a program is only told that nothing was found).
  (void)set_callback(ompt_callback_work, reinterpret_cast<ompt_callback_t>(&on_work));
  // The threads' barriers, for the one-run analysis of such a program: optional too.
  (void)set_callback(ompt_callback_sync_region_wait, reinterpret_cast<ompt_callback_t>(&on_sync_region_wait));
  flushes_reported = set_callback(ompt_callback_flush, reinterpret_cast<ompt_callback_t>(&on_flush)) == ompt_set_always;
  return 1;
}

void finalize(ompt_data_t* /*tool_data*/) {}

// A program that never ran a parallel region still gets its information file.
__attribute__((destructor)) void write_info_at_unload() {
  if (tool != nullptr) return;
  try {
    const std::string info = interpose::info_path_from_environment();
    if (info.empty()) return;
    Tool empty;
    core::write_file_atomically(interpose::expand_path(info), interpose::render_info(empty.session));
  } catch (...) {
  }
}

}  // namespace

extern "C" AUGUR_OMPT_EXPORT ompt_start_tool_result_t* ompt_start_tool(unsigned int /*omp_version*/,
                                                                        const char* /*runtime_version*/) {
  static ompt_start_tool_result_t result = {&initialize, &finalize, ompt_data_t{0}};
  return &result;
}

// The wrappers of libomp's chunk dispatcher (above), exported for the program's calls to reach them when
// the tool is preloaded; the signatures are libomp's (kmp.h).
extern "C" {
using dispatch_next_4_t = int (*)(ident*, std::int32_t, std::int32_t*, std::int32_t*, std::int32_t*, std::int32_t*);
using dispatch_next_4u_t = int (*)(ident*, std::int32_t, std::int32_t*, std::uint32_t*, std::uint32_t*, std::int32_t*);
using dispatch_next_8_t = int (*)(ident*, std::int32_t, std::int32_t*, std::int64_t*, std::int64_t*, std::int64_t*);
using dispatch_next_8u_t = int (*)(ident*, std::int32_t, std::int32_t*, std::uint64_t*, std::uint64_t*, std::int64_t*);

AUGUR_OMPT_EXPORT int __kmpc_dispatch_next_4(ident* location, std::int32_t gtid, std::int32_t* last, std::int32_t* lower,
                                              std::int32_t* upper, std::int32_t* stride) {
  static std::atomic<dispatch_next_4_t> next{nullptr};
  return dispatch_next(interpose::next_definition(next, "__kmpc_dispatch_next_4"), location, gtid, last, lower, upper, stride);
}
AUGUR_OMPT_EXPORT int __kmpc_dispatch_next_4u(ident* location, std::int32_t gtid, std::int32_t* last, std::uint32_t* lower,
                                               std::uint32_t* upper, std::int32_t* stride) {
  static std::atomic<dispatch_next_4u_t> next{nullptr};
  return dispatch_next(interpose::next_definition(next, "__kmpc_dispatch_next_4u"), location, gtid, last, lower, upper, stride);
}
AUGUR_OMPT_EXPORT int __kmpc_dispatch_next_8(ident* location, std::int32_t gtid, std::int32_t* last, std::int64_t* lower,
                                              std::int64_t* upper, std::int64_t* stride) {
  static std::atomic<dispatch_next_8_t> next{nullptr};
  return dispatch_next(interpose::next_definition(next, "__kmpc_dispatch_next_8"), location, gtid, last, lower, upper, stride);
}
AUGUR_OMPT_EXPORT int __kmpc_dispatch_next_8u(ident* location, std::int32_t gtid, std::int32_t* last, std::uint64_t* lower,
                                               std::uint64_t* upper, std::int64_t* stride) {
  static std::atomic<dispatch_next_8u_t> next{nullptr};
  return dispatch_next(interpose::next_definition(next, "__kmpc_dispatch_next_8u"), location, gtid, last, lower, upper, stride);
}
}
