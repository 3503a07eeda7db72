// libaugur: the C API of include/augur/augur.h over the self-analysis engine: the probes of regions,
// iterations and parallel loops, and which thread owns the measurement. Nothing here throws across the C ABI
// or aborts the host program. Starting the self-analysis (the OpenMP thread control, the processor manager,
// the listener, the report at exit): self_analysis_start.cpp; the queries and the report:
// self_analysis_queries.cpp.
//
// Threads (docs/self-analysis.md, "Threads"): the measurement belongs to one thread at a time, its owner:
// the thread whose region runs (from augur_init_parallel_region to augur_end_parallel_region, or to the
// thread's exit). The owner's probes use the analyzer without a lock: the hot path reads a thread-local
// pointer and one flag. Everything else (entering and leaving a region, the queries, the report) holds
// SelfAnalysis::mutex and touches the analyzer only when the calling thread owns it or no thread does.
// Probes of other threads while a region runs are ignored, with one warning.
#include <omp.h>
#include <pthread.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "augur/augur.h"
#include "augur/selfanalysis.hpp"
#include "internal.hpp"
#include "options.hpp"
#include "run_trace.hpp"
#include "self_analysis.hpp"
#include "system_clock.hpp"

namespace augur::runtime {

using selfanalysis::Analyzer;
using selfanalysis::Misuse;

constinit thread_local Analyzer* owned_analyzer __attribute__((tls_model("initial-exec"))) = nullptr;
std::atomic<bool> release_requested{false};
manager::Connection* manager_connection = nullptr;

namespace {
void lock_before_fork();
void unlock_in_parent();
void unlock_in_child();
}  // namespace

SelfAnalysis& state() {
  static SelfAnalysis* instance = [] {
    auto* created = new SelfAnalysis;  // never destroyed: other threads may probe while the program exits
    pthread_atfork(lock_before_fork, unlock_in_parent, unlock_in_child);
    return created;
  }();
  return *instance;
}

bool first_warning(std::size_t kind) {
  return !state().warned[kind].exchange(true, std::memory_order_relaxed);
}

bool measuring_locked(const SelfAnalysis& s) {
  return s.analyzer != nullptr && !s.disabled && !s.finalized;
}

bool other_thread_owns_locked(const SelfAnalysis& s) {
  return s.owned && owned_analyzer == nullptr;
}

void release_locked(SelfAnalysis& s) {
  owned_analyzer = nullptr;
  s.owned = false;
  s.released.notify_all();
}

namespace {

void lock_before_fork() {
  state().mutex.lock();
}
void unlock_in_parent() {
  state().mutex.unlock();
}
// fork(): the child's only thread is the one that forked; a measurement another thread owned is given up.
void unlock_in_child() {
  SelfAnalysis& s = state();
  if (owned_analyzer == nullptr) s.owned = false;
  // The parent's slot stays the parent's: the child neither reports into it nor gives it back.
  manager_connection = nullptr;
  (void)s.manager.release();
  s.mutex.unlock();
}

// A thread that exits inside its region gives the measurement up; the region stays open until a thread
// enters a region or the report closes it.
struct ReleaseAtThreadExit {
  ReleaseAtThreadExit() = default;
  ReleaseAtThreadExit(const ReleaseAtThreadExit&) = delete;
  ReleaseAtThreadExit& operator=(const ReleaseAtThreadExit&) = delete;
  ~ReleaseAtThreadExit() {
    if (owned_analyzer == nullptr) return;
    try {
      SelfAnalysis& s = state();
      std::lock_guard lock(s.mutex);
      release_locked(s);
    } catch (...) {
    }
  }
};

void claim_locked(SelfAnalysis& s) {
  thread_local ReleaseAtThreadExit release_at_exit;  // made once per thread: its destructor runs at the thread's exit
  (void)release_at_exit;
  owned_analyzer = s.analyzer.get();
  s.owned = true;
}

// The heartbeat at each iteration's end: iterations closed, threads of the iteration.
void report_iteration_to_manager(const Analyzer& analyzer) {
  const selfanalysis::Region* region = analyzer.current();
  if (manager_connection == nullptr || region == nullptr) return;
  manager_connection->report_iteration(manager::monotonic_ns(), region->iterations_closed, analyzer.active_threads());
}

// What happened to a probe called out of order, in the C API's words.
const char* describe(Misuse misuse) {
  switch (misuse) {
    case Misuse::None:
      return "was accepted";
    case Misuse::NoRegion:
      return "called outside a parallel region (no augur_init_parallel_region before it); ignored";
    case Misuse::IterationNotOpen:
      return "called while no iteration is open (missing augur_open_iteration); ignored";
    case Misuse::IterationAlreadyOpen:
      return "called while an iteration is open (missing augur_close_iteration): that iteration is discarded and a "
             "new one opened";
    case Misuse::ParNotOpen:
      return "called while no parallel loop is open (missing augur_init_par); ignored";
    case Misuse::ParAlreadyOpen:
      return "called while a parallel loop is open (missing augur_end_par); an open loop ends with its iteration";
  }
  return "called out of order";
}

// Warns once per kind of misuse, naming the probe.
void report_misuse(const char* probe, Misuse misuse) {
  const auto index = static_cast<std::size_t>(misuse);
  if (index >= misuse_kinds || !first_warning(index)) return;
  warn(std::string(probe) + "() " + describe(misuse) + " (warned once)");
}

void warn_other_thread(const char* name) {
  if (!first_warning(OtherThread)) return;
  warn(std::string(name) +
       "() called on a thread other than the one whose region runs: augur measures the "
       "regions of one thread at a time; ignored (warned once)");
}

// After an exception augur stops measuring; the calling thread gets its processors back.
void disable_after(const char* name, const char* what) {
  try {
    warn(std::string(name) + "(): " + what + "; measurement disabled");
    SelfAnalysis& s = state();
    std::lock_guard lock(s.mutex);
    s.disabled = true;
    const bool may_touch_threads = owned_analyzer != nullptr || !s.owned;  // not while another thread's region runs
    if (owned_analyzer != nullptr) release_locked(s);
    if (may_touch_threads && s.threads != nullptr) s.threads->set_active_threads(s.threads->allocated_processors());
  } catch (...) {
  }
}

// True when the probe may run: not inside an OpenMP parallel region.
bool outside_parallel(const char* probe) {
  if (!omp_in_parallel()) return true;
  if (first_warning(InParallel)) {
    warn(std::string(probe) +
         "() called inside an OpenMP parallel region; augur probes belong in the sequential "
         "loop; ignored (warned once)");
  }
  return false;
}

// A probe on a thread that does not own the measurement, or that augur_finalize asked to give it up.
void probe_without_measurement(const char* name) {
  SelfAnalysis& s = state();
  std::lock_guard lock(s.mutex);
  if (owned_analyzer != nullptr) {  // augur_finalize waits for this thread: its measurement ends here
    release_locked(s);
    return;
  }
  if (!s.started) {  // before the first region (not when augur is off or finished): out of order
    report_misuse(name, Misuse::NoRegion);
    return;
  }
  if (!measuring_locked(s) || !outside_parallel(name)) return;
  if (s.owned) {
    warn_other_thread(name);
    return;
  }
  report_misuse(name, Misuse::NoRegion);
}

// Runs one probe of the analyzer on the thread that owns the measurement; on any other thread, says why
// it is ignored. Misuse is warned once, and nothing is thrown across the C ABI (an exception disables augur).
template <typename Probe>
void run_probe(const char* name, Probe probe) {
  try {
    Analyzer* analyzer = owned_analyzer;
    if (analyzer == nullptr || release_requested.load(std::memory_order_relaxed)) {
      probe_without_measurement(name);
      return;
    }
    if (!outside_parallel(name)) return;
    const Misuse misuse = probe(*analyzer);
    if (misuse != Misuse::None) report_misuse(name, misuse);
  } catch (const std::exception& error) {
    disable_after(name, error.what());
  } catch (...) {
    disable_after(name, "unknown exception");
  }
}

}  // namespace
}  // namespace augur::runtime

using namespace augur::runtime;
using augur::selfanalysis::Analyzer;

extern "C" {

int augur_init_parallel_region(uint64_t ipr, int length, long iterations) {
  try {
    SelfAnalysis& s = state();
    std::lock_guard lock(s.mutex);
    start_locked(s);
    if (!measuring_locked(s) || !outside_parallel("augur_init_parallel_region")) return AUGUR_ERROR;
    if (other_thread_owns_locked(s)) {
      warn_other_thread("augur_init_parallel_region");
      return AUGUR_ERROR;
    }
    const Misuse misuse = s.analyzer->init_parallel_region(ipr, length, iterations);
    if (!s.owned) claim_locked(s);
    if (TraceRecorder* trace = run_trace()) thread_analysis_trace().region_begin(*trace, ipr, monotonic_seconds());
    if (misuse != Misuse::None) report_misuse("augur_init_parallel_region", misuse);
    return AUGUR_OK;
  } catch (const std::exception& error) {
    disable_after("augur_init_parallel_region", error.what());
    return AUGUR_ERROR;
  } catch (...) {
    disable_after("augur_init_parallel_region", "unknown exception");
    return AUGUR_ERROR;
  }
}

void augur_end_parallel_region(void) {
  run_probe("augur_end_parallel_region", [](Analyzer& analyzer) {
    const Misuse misuse = analyzer.end_parallel_region();
    if (TraceRecorder* trace = run_trace()) thread_analysis_trace().region_end(*trace, monotonic_seconds());
    SelfAnalysis& s = state();
    std::lock_guard lock(s.mutex);
    release_locked(s);  // the region has ended: another thread may enter one
    return misuse;
  });
}

void augur_open_iteration(void) {
  run_probe("augur_open_iteration", [](Analyzer& analyzer) {
    TraceRecorder* trace = run_trace();
    if (trace == nullptr) return analyzer.open_iteration();
    const augur::selfanalysis::Region* region = analyzer.current();
    const bool warming_up = region != nullptr && region->warmup_remaining > 0;
    const Misuse misuse = analyzer.open_iteration();
    if (misuse == Misuse::None || misuse == Misuse::IterationAlreadyOpen) {
      thread_analysis_trace().iteration_begin(*trace, analyzer, warming_up, state().settings.engine, monotonic_seconds());
    }
    return misuse;
  });
}

void augur_close_iteration(void) {
  run_probe("augur_close_iteration", [](Analyzer& analyzer) {
    const Misuse misuse = analyzer.close_iteration();
    if (TraceRecorder* trace = run_trace()) thread_analysis_trace().iteration_end(*trace, monotonic_seconds());
    report_iteration_to_manager(analyzer);
    return misuse;
  });
}

void augur_init_par(void) {
  run_probe("augur_init_par", [](Analyzer& analyzer) {
    if (TraceRecorder* trace = run_trace()) thread_analysis_trace().loop_begin(*trace, monotonic_seconds());
    return analyzer.init_par();
  });
}

void augur_end_par(void) {
  run_probe("augur_end_par", [](Analyzer& analyzer) {
    const Misuse misuse = analyzer.end_par();
    if (TraceRecorder* trace = run_trace()) thread_analysis_trace().loop_end(*trace, monotonic_seconds());
    return misuse;
  });
}

int augur_init_parallelism(uint64_t ipr, int length, long iterations) {
  return augur_init_parallel_region(ipr, length, iterations);
}
void augur_open_parallel_region(void) {
  augur_open_iteration();
}
void augur_close_parallel_region(void) {
  augur_close_iteration();
}
void augur_end_parallelism(void) {
  augur_end_parallel_region();
}

}  // extern "C"
