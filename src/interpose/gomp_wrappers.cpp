// libaugur_preload.so's wrappers of libgomp (gomp_preload.cpp has the rest): the GOMP_* entry points of
// parallel regions, which drive the engine around the real call on the owner thread (DI_event_pre and
// DI_event_post of the thesis' Figure 4.11) and pass the processors it chose as num_threads; and the ends
// of worksharing constructs, the samples of one outer parallel region. Everything else is only forwarded.
// Nothing is thrown across them: after an exception the program goes on unmeasured.
#include <pthread.h>
#include <time.h>

#include <atomic>
#include <cstdint>
#include <exception>
#include <string>
#include <type_traits>

#include "augur/selfanalysis.hpp"
#include "interpose/gomp_preload.hpp"
#include "interpose/pc_sampler.hpp"
#include "interpose/run_timeline.hpp"
#include "interpose/session.hpp"

#define AUGUR_PRELOAD_EXPORT __attribute__((visibility("default")))

namespace augur::interpose::gomp {
namespace {

// True when this region drives the engine: the first thread that runs a region at level 0 owns it.
bool owns_region() {
  if (!started.load(std::memory_order_acquire)) {
    static std::atomic_flag once = ATOMIC_FLAG_INIT;
    if (nesting_level() != 0 || once.test_and_set()) return false;
    try {
      start_once();
    } catch (const std::exception& error) {
      warn(std::string("libaugur_preload: cannot start: ") + error.what() + "; the program goes on unmeasured");
    } catch (...) {
      warn("libaugur_preload: cannot start; the program goes on unmeasured");
    }
    started.store(true, std::memory_order_release);
  }
  if (preload == nullptr) return false;
  if (!pthread_equal(owner, pthread_self()) || nesting_level() != 0) {
    preload->session.passed_through.fetch_add(1, std::memory_order_relaxed);
    return false;
  }
  ++preload->session.intercepted;
  return active.load(std::memory_order_relaxed);
}

// The top-level regions begun (before_region): a single's pending barrier belongs to the region it began in.
std::atomic<unsigned long> region_generation{0};

// This thread's last GOMP_single_start whose closing barrier has not come yet (site null: none).
struct PendingSingle {
  void* site = nullptr;
  unsigned long generation = 0;
};
thread_local PendingSingle single_pending;

// What a construct's end is known by: its call site and kind, but for the barrier that closes a single (the
// first barrier after GOMP_single_start on the thread, in the same region), the single's site and kind. Any
// end takes the pending single away (one that ends in no barrier was `nowait`).
struct ConstructId {
  void* site;
  interpose::ConstructEnd end;  // (not `kind`: the wrappers' macros have a parameter of that name)
};
ConstructId construct_of(void* own, interpose::ConstructEnd kind) {
  const PendingSingle single = single_pending;
  single_pending.site = nullptr;
  if (kind == interpose::ConstructEnd::Barrier && single.site != nullptr &&
      single.generation == region_generation.load(std::memory_order_relaxed))
    return {single.site, interpose::ConstructEnd::Single};
  return {own, kind};
}

// DI_event_pre of Figure 4.11: returns the num_threads to pass on.
unsigned before_region(OutlinedFunction function, unsigned requested) {
  region_generation.fetch_add(1, std::memory_order_relaxed);
  try {
    if (preload->session.worksharing != nullptr) {
      preload->session.worksharing->enter_region(reinterpret_cast<std::uint64_t>(function));
      interpose::outer_begin(preload->session, reinterpret_cast<std::uint64_t>(function), runtime::read_clock(CLOCK_MONOTONIC));
    }
    preload->session.engine->before_region(reinterpret_cast<std::uint64_t>(function));
    if (preload->session.trace != nullptr) {
      interpose::timeline_region_begin(preload->session, reinterpret_cast<std::uint64_t>(function), runtime::read_clock(CLOCK_MONOTONIC));
    }
    // Outside the iterations only a manager's allocation applies (the engine set the threads to it).
    const bool apply = preload->session.engine->regions().in_iteration() || preload->threads.managed();
    return apply ? preload->threads.threads_for(requested) : requested;
  } catch (const std::exception& error) {
    disable_after(error.what());
  } catch (...) {
    disable_after("unknown exception");
  }
  return requested;
}

// DI_event_post of Figure 4.11.
void after_region() {
  if (!active.load(std::memory_order_relaxed)) return;
  try {
    if (preload->session.trace != nullptr) interpose::timeline_region_end(preload->session, runtime::read_clock(CLOCK_MONOTONIC));
    if (preload->session.worksharing != nullptr) {
      preload->session.worksharing->leave_region();
      interpose::outer_end(preload->session, runtime::read_clock(CLOCK_MONOTONIC));
    }
    preload->session.engine->after_region();
  } catch (const std::exception& error) {
    disable_after(error.what());
  } catch (...) {
    disable_after("unknown exception");
  }
}

// This thread's spins in the program's spin loops (pc_sampler.hpp), sampled from its first measured arrival on.
struct ThreadSpin {
  PcSampler sampler;
  SampledSpin spin;
  double departed = -1.0;  // when it last left a barrier (negative: not yet)
  bool tried = false;
};
thread_local ThreadSpin thread_spin;

// At an arrival at `now`: the thread's spin since it left its last barrier (0 when not sampled).
double sampled_spin(double now) {
  const SpinLoops* loops = spin_loops.load(std::memory_order_acquire);
  if (loops == nullptr) return 0.0;
  ThreadSpin& mine = thread_spin;
  if (!mine.tried) {
    mine.tried = true;
    if (!mine.sampler.open()) preload->session.spin_threads_refused.fetch_add(1, std::memory_order_relaxed);
  }
  if (!mine.sampler.is_open() || mine.departed < 0.0) return 0.0;
  return mine.spin.arrive(mine.sampler.drain(*loops), now - mine.departed);
}

// At a departure at `now`: the samples inside the barrier dropped.
void sampled_depart(double now) {
  const SpinLoops* loops = spin_loops.load(std::memory_order_acquire);
  if (loops == nullptr || !thread_spin.sampler.is_open()) return;
  (void)thread_spin.sampler.drain(*loops);
  thread_spin.departed = now;
}

// What construct_end recorded: the thread's number in its team when it recorded an arrival (else -1), and
// the arrival time on the timeline when the construct ends in a barrier there (else negative).
struct Arrival {
  int thread = -1;
  double traced = -1.0;
};

// The end of a worksharing construct (`site`: the call's return address in the program) on any thread. On the
// master thread of a measured region (the owner thread at level 1: it started that region at level 0, so it is
// thread 0 of its team) it is a sample of the second detector. On every thread of that team, a construct that
// ends in a barrier (`barrier`) is an arrival for the one-run analysis. On every thread of a traced region's team,
// the end of its work on the timeline (run_timeline.hpp). construct_left must follow the real call.
Arrival construct_end(void* site, interpose::ConstructEnd kind, bool barrier) {
  Arrival arrival;
  if (preload == nullptr || !active.load(std::memory_order_relaxed)) return arrival;
  interpose::Session& session = preload->session;
  if (session.trace != nullptr) {
    arrival.traced = interpose::timeline_construct_end(session, kind, barrier, runtime::read_clock(CLOCK_MONOTONIC));
  }
  if (session.worksharing == nullptr || nesting_level() != 1) return arrival;
  const bool master = pthread_equal(owner, pthread_self());
  if (!master && (session.outer == nullptr || !session.outer->measuring.load(std::memory_order_acquire))) return arrival;
  try {
    const double now = runtime::read_clock(CLOCK_MONOTONIC);
    arrival.thread = barrier ? thread_number() : -1;
    if (arrival.thread >= 0) interpose::outer_arrive(session, arrival.thread, now, 0.0, master, sampled_spin(now));
    if (master) interpose::outer_sample(session, reinterpret_cast<std::uint64_t>(site), kind, team_size(), now);
    return arrival;
  } catch (const std::exception& error) {
    disable_after(error.what());
  } catch (...) {
    disable_after("unknown exception");
  }
  arrival.thread = -1;
  return arrival;
}

// After the real call of a construct's end that construct_end recorded.
void construct_left(const Arrival& arrival) {
  if (arrival.traced >= 0.0 && preload != nullptr) {
    interpose::timeline_construct_left(preload->session, arrival.traced, runtime::read_clock(CLOCK_MONOTONIC));
  }
  const int thread = arrival.thread;
  if (thread < 0 || preload == nullptr || !active.load(std::memory_order_relaxed)) return;
  try {
    const bool master = pthread_equal(owner, pthread_self());
    const double now = runtime::read_clock(CLOCK_MONOTONIC);
    interpose::outer_depart(preload->session, thread, master, master ? team_size() : 0, now);
    sampled_depart(now);
  } catch (const std::exception& error) {
    disable_after(error.what());
  } catch (...) {
    disable_after("unknown exception");
  }
}

// The wrapper of one libgomp entry point with num_threads as its third argument.
template <typename Function, typename... Rest>
auto wrap(std::atomic<void*>& slot, const char* name, OutlinedFunction function, void* data, unsigned threads, Rest... rest) {
  const auto call = resolve<Function>(slot, name);
  if (!owns_region()) return call(function, data, threads, rest...);
  const unsigned chosen = before_region(function, threads);
  if constexpr (std::is_void_v<decltype(call(function, data, threads, rest...))>) {
    call(function, data, chosen, rest...);
    after_region();
  } else {
    auto result = call(function, data, chosen, rest...);
    after_region();
    return result;
  }
}

using LoopFunction = void (*)(OutlinedFunction, void*, unsigned, long, long, long, long, unsigned);
using RuntimeLoopFunction = void (*)(OutlinedFunction, void*, unsigned, long, long, long, unsigned);
using LoopStartFunction = void (*)(OutlinedFunction, void*, unsigned, long, long, long, long);

// The old pairs (GOMP_parallel_start, GOMP_parallel_loop_*_start, GOMP_parallel_sections_start):
// the region begins here and ends in GOMP_parallel_end.
template <typename Function, typename... Rest>
void wrap_start(std::atomic<void*>& slot, const char* name, OutlinedFunction function, void* data, unsigned threads, Rest... rest) {
  const auto call = resolve<Function>(slot, name);
  if (!owns_region()) return call(function, data, threads, rest...);
  const unsigned chosen = before_region(function, threads);
  pending_start = true;
  call(function, data, chosen, rest...);
}

}  // namespace
}  // namespace augur::interpose::gomp

using namespace augur;
using namespace augur::interpose::gomp;

extern "C" {

AUGUR_PRELOAD_EXPORT void GOMP_parallel(OutlinedFunction function, void* data, unsigned threads, unsigned flags) {
  wrap<void (*)(OutlinedFunction, void*, unsigned, unsigned)>(real.parallel, "GOMP_parallel", function, data, threads, flags);
}

AUGUR_PRELOAD_EXPORT unsigned GOMP_parallel_reductions(OutlinedFunction function, void* data, unsigned threads, unsigned flags) {
  return wrap<unsigned (*)(OutlinedFunction, void*, unsigned, unsigned)>(real.reductions, "GOMP_parallel_reductions", function,
                                                                          data, threads, flags);
}

AUGUR_PRELOAD_EXPORT void GOMP_parallel_sections(OutlinedFunction function, void* data, unsigned threads, unsigned count,
                                                 unsigned flags) {
  wrap<void (*)(OutlinedFunction, void*, unsigned, unsigned, unsigned)>(real.sections, "GOMP_parallel_sections", function, data,
                                                                         threads, count, flags);
}

#define AUGUR_LOOP_WRAPPER(suffix, slot)                                                                              \
  AUGUR_PRELOAD_EXPORT void GOMP_parallel_loop_##suffix(OutlinedFunction function, void* data, unsigned threads,     \
                                                        long start, long end, long increment, long chunk, unsigned flags) { \
    wrap<LoopFunction>(real.slot, "GOMP_parallel_loop_" #suffix, function, data, threads, start, end, increment, chunk, flags); \
  }
AUGUR_LOOP_WRAPPER(static, loop_static)
AUGUR_LOOP_WRAPPER(dynamic, loop_dynamic)
AUGUR_LOOP_WRAPPER(guided, loop_guided)
AUGUR_LOOP_WRAPPER(nonmonotonic_dynamic, loop_nonmonotonic_dynamic)
AUGUR_LOOP_WRAPPER(nonmonotonic_guided, loop_nonmonotonic_guided)
#undef AUGUR_LOOP_WRAPPER

#define AUGUR_RUNTIME_LOOP_WRAPPER(suffix, slot)                                                                   \
  AUGUR_PRELOAD_EXPORT void GOMP_parallel_loop_##suffix(OutlinedFunction function, void* data, unsigned threads,  \
                                                        long start, long end, long increment, unsigned flags) {   \
    wrap<RuntimeLoopFunction>(real.slot, "GOMP_parallel_loop_" #suffix, function, data, threads, start, end, increment, flags); \
  }
AUGUR_RUNTIME_LOOP_WRAPPER(runtime, loop_runtime)
AUGUR_RUNTIME_LOOP_WRAPPER(nonmonotonic_runtime, loop_nonmonotonic_runtime)
AUGUR_RUNTIME_LOOP_WRAPPER(maybe_nonmonotonic_runtime, loop_maybe_nonmonotonic_runtime)
#undef AUGUR_RUNTIME_LOOP_WRAPPER

AUGUR_PRELOAD_EXPORT void GOMP_parallel_start(OutlinedFunction function, void* data, unsigned threads) {
  wrap_start<void (*)(OutlinedFunction, void*, unsigned)>(real.parallel_start, "GOMP_parallel_start", function, data, threads);
}

#define AUGUR_LOOP_START_WRAPPER(suffix, slot)                                                                     \
  AUGUR_PRELOAD_EXPORT void GOMP_parallel_loop_##suffix##_start(OutlinedFunction function, void* data, unsigned threads, \
                                                                long start, long end, long increment, long chunk) { \
    wrap_start<LoopStartFunction>(real.slot, "GOMP_parallel_loop_" #suffix "_start", function, data, threads, start, end, \
                                  increment, chunk);                                                                \
  }
AUGUR_LOOP_START_WRAPPER(static, loop_static_start)
AUGUR_LOOP_START_WRAPPER(dynamic, loop_dynamic_start)
AUGUR_LOOP_START_WRAPPER(guided, loop_guided_start)
#undef AUGUR_LOOP_START_WRAPPER

AUGUR_PRELOAD_EXPORT void GOMP_parallel_loop_runtime_start(OutlinedFunction function, void* data, unsigned threads, long start,
                                                           long end, long increment) {
  wrap_start<void (*)(OutlinedFunction, void*, unsigned, long, long, long)>(real.loop_runtime_start,
                                                                             "GOMP_parallel_loop_runtime_start", function, data,
                                                                             threads, start, end, increment);
}

AUGUR_PRELOAD_EXPORT void GOMP_parallel_sections_start(OutlinedFunction function, void* data, unsigned threads, unsigned count) {
  wrap_start<void (*)(OutlinedFunction, void*, unsigned, unsigned)>(real.sections_start, "GOMP_parallel_sections_start", function,
                                                                     data, threads, count);
}

AUGUR_PRELOAD_EXPORT void GOMP_parallel_end(void) {
  resolve<void (*)()>(real.parallel_end, "GOMP_parallel_end")();
  // Only the owner thread's outer region was instrumented; the owner is back at level 0 now.
  if (pending_start && preload != nullptr && pthread_equal(owner, pthread_self()) && nesting_level() == 0) {
    pending_start = false;
    after_region();
  }
}

// The ends of worksharing constructs, the samples of one outer parallel region (docs/run.md, "One outer
// parallel region"): an orphaned `#pragma omp for` with a static schedule calls only GOMP_barrier at its
// end (nothing with nowait), a dynamic, guided or runtime one GOMP_loop_*_start, _next and GOMP_loop_end
// (GOMP_loop_end_nowait with nowait), sections GOMP_sections_end(_nowait), single GOMP_barrier.
// noinline: __builtin_return_address(0) must be the program's call site. A barrier that closes a `single`
// (the next barrier after GOMP_single_start on the thread) is known as the single, by its call site (construct_of):
// gcc may give the winner of the single and the others each their own call of GOMP_barrier (it did on
// outer_region at -O3 once a call followed the single in the loop), and the master's samples must not depend on
// which thread won (issue 16, point 3; docs/run.md, "One outer parallel region").
#define AUGUR_CONSTRUCT_END_WRAPPER(function, slot, kind, barrier)                               \
  AUGUR_PRELOAD_EXPORT __attribute__((noinline)) void function(void) {                          \
    const ConstructId id = construct_of(__builtin_return_address(0), interpose::ConstructEnd::kind); \
    const Arrival arrival = construct_end(id.site, id.end, barrier);                            \
    resolve<void (*)()>(real.slot, #function)();                                                 \
    construct_left(arrival);                                                                     \
  }
AUGUR_CONSTRUCT_END_WRAPPER(GOMP_barrier, barrier, Barrier, true)
AUGUR_CONSTRUCT_END_WRAPPER(GOMP_loop_end, loop_end, LoopEnd, true)
AUGUR_CONSTRUCT_END_WRAPPER(GOMP_loop_end_nowait, loop_end_nowait, LoopEndNowait, false)
AUGUR_CONSTRUCT_END_WRAPPER(GOMP_sections_end, sections_end, SectionsEnd, true)
AUGUR_CONSTRUCT_END_WRAPPER(GOMP_sections_end_nowait, sections_end_nowait, SectionsEndNowait, false)
#undef AUGUR_CONSTRUCT_END_WRAPPER
// The same ends in a region that may be cancelled (`#pragma omp cancel` in the program): they return
// whether the construct was cancelled.
#define AUGUR_CANCELLABLE_END_WRAPPER(function, slot, kind)                                       \
  AUGUR_PRELOAD_EXPORT __attribute__((noinline)) bool function(void) {                           \
    const ConstructId id = construct_of(__builtin_return_address(0), interpose::ConstructEnd::kind); \
    const Arrival arrival = construct_end(id.site, id.end, true);                               \
    const bool cancelled = resolve<bool (*)()>(real.slot, #function)();                          \
    construct_left(arrival);                                                                     \
    return cancelled;                                                                            \
  }
AUGUR_CANCELLABLE_END_WRAPPER(GOMP_barrier_cancel, barrier_cancel, Barrier)
AUGUR_CANCELLABLE_END_WRAPPER(GOMP_loop_end_cancel, loop_end_cancel, LoopEnd)
AUGUR_CANCELLABLE_END_WRAPPER(GOMP_sections_end_cancel, sections_end_cancel, SectionsEnd)
#undef AUGUR_CANCELLABLE_END_WRAPPER

// `#pragma omp single`: every thread calls GOMP_single_start (true for the one that runs the block), then
// GOMP_barrier at the block's end (none with nowait). On the master of a measured region, the next barrier
// ends a serial episode for the one-run analysis.
AUGUR_PRELOAD_EXPORT __attribute__((noinline)) bool GOMP_single_start(void) {
  single_pending = {__builtin_return_address(0), region_generation.load(std::memory_order_relaxed)};
  const bool chosen = resolve<bool (*)()>(real.single_start, "GOMP_single_start")();
  if (preload != nullptr && active.load(std::memory_order_relaxed) && pthread_equal(owner, pthread_self()) && nesting_level() == 1) {
    interpose::outer_single(preload->session);
  }
  return chosen;
}

}  // extern "C"
