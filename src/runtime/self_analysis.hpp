// The state of the self-analysis in libaugur, shared by the probes (runtime.cpp), its start
// (self_analysis_start.cpp) and the queries and the report (self_analysis_queries.cpp). Private to src/runtime.
//
// Threads (docs/self-analysis.md, "Threads"): the measurement belongs to one thread at a time, its owner:
// the thread whose region runs, from augur_init_parallel_region to augur_end_parallel_region (or to the
// thread's exit, or to the report). On the owner `owned_analyzer` points to the analyzer, and its probes
// use it without a lock. Everything else holds SelfAnalysis::mutex and touches the analyzer only when the
// calling thread owns the measurement or no thread does.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "augur/augur.h"
#include "augur/selfanalysis.hpp"
#include "manager/protocol.hpp"
#include "options.hpp"
#include "system_clock.hpp"

namespace augur::runtime {

// Warnings said once: one per kind of misuse (indexed by selfanalysis::Misuse), then these.
constexpr std::size_t misuse_kinds = 6;
enum Warning : std::size_t { InParallel = misuse_kinds, OtherThread, QueryOtherThread, WarningCount };

struct SelfAnalysis {
  std::mutex mutex;                  // everything below but the callback and the atomics
  std::condition_variable released;  // the owner gave the measurement up
  bool started = false;
  bool finalized = false;
  bool disabled = false;  // after an exception: no more measurement (the report is still written)
  bool owned = false;     // a thread owns the measurement (owned_analyzer is set on it)
  Settings settings;
  SystemClock clock;
  MachineProbe machine;  // load and steal since the analyzer was made, for the noise verdict
  std::unique_ptr<selfanalysis::ThreadControl> threads;
  std::unique_ptr<selfanalysis::Analyzer> analyzer;  // nullptr when augur is off
  int initial_allocation = 0;
  std::unique_ptr<manager::Connection> manager;  // the processor manager's slot, when one runs (docs/manager.md)
  std::vector<std::string> notes;
  std::mutex callback_mutex;  // the callback and its data
  augur_speedup_callback callback = nullptr;
  void* callback_data = nullptr;
  std::atomic<bool> warned[WarningCount] = {};
};

// The one state of the process, made at the first use and never destroyed (threads may probe while the
// program exits).
SelfAnalysis& state();

// The analyzer on the thread that owns the measurement; nullptr on every other thread. Initial-exec TLS:
// the probes read it with one instruction, no call (libaugur is loaded with the program; a dlopen finds
// these 8 bytes in the static TLS that glibc keeps in reserve for libraries loaded later).
extern constinit thread_local selfanalysis::Analyzer* owned_analyzer __attribute__((tls_model("initial-exec")));
// Set by augur_finalize on another thread than the owner: the owner gives the measurement up at its next probe.
extern std::atomic<bool> release_requested;

// The processor manager's slot (s.manager), set once when the first region starts; read by the owner's probes.
extern manager::Connection* manager_connection;

// True the first time for each kind of warning.
bool first_warning(std::size_t kind);

// Under the lock: the analyzer measures (augur is on, not disabled, not finished).
bool measuring_locked(const SelfAnalysis& s);
// Under the lock: another thread than the caller owns the measurement (its region runs).
bool other_thread_owns_locked(const SelfAnalysis& s);
// Under the lock, on the owner: gives the measurement up.
void release_locked(SelfAnalysis& s);

// Under the lock, at the first region (self_analysis_start.cpp): the settings, and unless augur is off the
// thread control, the processor manager's slot, the analyzer and its listener, the report at exit.
void start_locked(SelfAnalysis& s);

}  // namespace augur::runtime
