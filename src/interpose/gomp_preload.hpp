// What the two files of libaugur_preload.so share (private to src/interpose): the real libgomp found with
// dlsym, the thread control that passes the processors through GOMP's num_threads argument, and the state
// of the preload (the session, the thread that drives the engine). gomp_preload.cpp starts and finishes
// the session; gomp_wrappers.cpp holds the GOMP_* wrappers and what they do around the real calls.
#pragma once

#include <dlfcn.h>
#include <pthread.h>

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include "augur/selfanalysis.hpp"
#include "interpose/session.hpp"
#include "interpose/spin_loops.hpp"

namespace augur::interpose::gomp {

using OutlinedFunction = void (*)(void*);

// ---- The real libgomp, found with dlsym(RTLD_NEXT) ---------------------------------------------

struct RealGomp {
  std::atomic<void*> parallel{nullptr};
  std::atomic<void*> parallel_start{nullptr};
  std::atomic<void*> parallel_end{nullptr};
  std::atomic<void*> loop_static{nullptr};
  std::atomic<void*> loop_dynamic{nullptr};
  std::atomic<void*> loop_guided{nullptr};
  std::atomic<void*> loop_runtime{nullptr};
  std::atomic<void*> loop_nonmonotonic_dynamic{nullptr};
  std::atomic<void*> loop_nonmonotonic_guided{nullptr};
  std::atomic<void*> loop_nonmonotonic_runtime{nullptr};
  std::atomic<void*> loop_maybe_nonmonotonic_runtime{nullptr};
  std::atomic<void*> loop_static_start{nullptr};
  std::atomic<void*> loop_dynamic_start{nullptr};
  std::atomic<void*> loop_guided_start{nullptr};
  std::atomic<void*> loop_runtime_start{nullptr};
  std::atomic<void*> sections{nullptr};
  std::atomic<void*> sections_start{nullptr};
  std::atomic<void*> reductions{nullptr};
  std::atomic<void*> barrier{nullptr};
  std::atomic<void*> loop_end{nullptr};
  std::atomic<void*> loop_end_nowait{nullptr};
  std::atomic<void*> sections_end{nullptr};
  std::atomic<void*> sections_end_nowait{nullptr};
  std::atomic<void*> barrier_cancel{nullptr};
  std::atomic<void*> loop_end_cancel{nullptr};
  std::atomic<void*> sections_end_cancel{nullptr};
  std::atomic<void*> omp_get_max_threads{nullptr};
  std::atomic<void*> omp_get_level{nullptr};
  std::atomic<void*> omp_get_num_threads{nullptr};
  std::atomic<void*> omp_get_thread_num{nullptr};
  std::atomic<void*> single_start{nullptr};
};

extern RealGomp real;

// The real function `name`, looked up once (a race only looks it up twice). A missing function
// cannot be called: the program is told, and ends as it would without libgomp.
template <typename Function>
Function resolve(std::atomic<void*>& slot, const char* name) {
  void* address = slot.load(std::memory_order_relaxed);
  if (address == nullptr) {
    address = dlsym(RTLD_NEXT, name);
    if (address == nullptr) address = dlsym(RTLD_DEFAULT, name);
    if (address == nullptr) {
      std::fprintf(stderr, "augur: libaugur_preload cannot find libgomp's %s (%s)\n", name, dlerror());
      std::_Exit(127);
    }
    slot.store(address, std::memory_order_relaxed);
  }
  return reinterpret_cast<Function>(address);
}

inline int max_threads() { return resolve<int (*)()>(real.omp_get_max_threads, "omp_get_max_threads")(); }
inline int nesting_level() { return resolve<int (*)()>(real.omp_get_level, "omp_get_level")(); }
inline int team_size() { return resolve<int (*)()>(real.omp_get_num_threads, "omp_get_num_threads")(); }
inline int thread_number() { return resolve<int (*)()>(real.omp_get_thread_num, "omp_get_thread_num")(); }

// ---- The engine's edges: clock, thread control, listener ---------------------------------------

// The processors are set per region through GOMP's num_threads argument, not omp_set_num_threads:
// the program's own setting (its allocation) stays untouched and readable with omp_get_max_threads.
// Under a processor manager (docs/manager.md) the allocation is the manager's, passed to every region the
// program does not ask fewer threads for.
class ArgumentThreadControl final : public selfanalysis::ThreadControl {
public:
  int allocated_processors() override {
    const int managed = managed_ != nullptr ? managed_->load(std::memory_order_relaxed) : 0;
    allocated_ = managed > 0 ? managed : max_threads();
    return allocated_;
  }
  void set_active_threads(int threads) override { active_ = threads; }
  bool stopped_since_last_call() override { return false; }
  void manage(const std::atomic<std::int32_t>* allocation) { managed_ = allocation; }
  [[nodiscard]] bool managed() const { return managed_ != nullptr; }
  // The num_threads to pass for a region the program asked `requested` threads for (0: the default).
  [[nodiscard]] unsigned threads_for(unsigned requested) const {
    if (active_ <= 0 || (active_ == allocated_ && managed_ == nullptr)) return requested;
    const auto active = static_cast<unsigned>(active_);
    return requested == 0 || requested > active ? active : requested;
  }

private:
  int allocated_ = 0;
  int active_ = 0;
  const std::atomic<std::int32_t>* managed_ = nullptr;
};

// ---- The state of the preload --------------------------------------------------------------------

// The shared session (options, engine, report) and the thread control of the libgomp wrappers.
struct Preload {
  interpose::Session session;
  ArgumentThreadControl threads;
  Preload() {
    session.runtime = "libgomp";
    session.library = "libaugur_preload";
  }
};

extern Preload* preload;             // set once, by the first region
extern std::atomic<bool> started;
extern std::atomic<bool> active;     // the engine may be driven
extern pthread_t owner;              // the thread that drives the engine
extern bool pending_start;           // GOMP_parallel_start instrumented, waiting for its end
// The spin loops in the process's code whose samples the measured threads take out of their work (pc_sampler.hpp);
// null when there is none or the kernel refuses to sample (session.spin_note says why).
extern std::atomic<const SpinLoops*> spin_loops;

// Starts the session at the first region (the owner thread); throws when it cannot.
void start_once();
// After an exception: no more measurement, one warning, the program goes on.
void disable_after(const char* what);

}  // namespace augur::interpose::gomp
