// libaugur: starting the self-analysis (runtime.cpp has the probes). At the first region: the settings, the
// OpenMP thread control (the allocation is what the program last set; SIGCONT marks a stop), the processor
// manager's slot when one runs, the analyzer and its listener, which forwards each speedup to the manager and
// to the program's callback; the report at exit. Nothing here throws across the C ABI.
#include <errno.h>
#include <omp.h>
#include <signal.h>
#include <strings.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <string>

#include "augur/augur.h"
#include "augur/selfanalysis.hpp"
#include "internal.hpp"
#include "options.hpp"
#include "self_analysis.hpp"

namespace augur::runtime {
namespace {

using selfanalysis::Analyzer;

std::atomic<bool> stopped_flag{false};

// The processors of an OpenMP program: the allocation is what the program (or its user, through
// OMP_NUM_THREADS) last set with omp_set_num_threads; augur's own settings are told apart by
// remembering the last value augur set.
class OpenMpThreadControl final : public selfanalysis::ThreadControl {
 public:
  OpenMpThreadControl() : allocation_(omp_get_max_threads()), last_set_(allocation_) {}
  int allocated_processors() override {
    // Connected to a processor manager: its allocation, once it has decided one (docs/manager.md).
    if (manager_connection != nullptr) {
      const int managed = manager_connection->allocation();
      if (managed > 0) return managed;
    }
    const int current = omp_get_max_threads();
    if (current != last_set_) {
      allocation_ = current;
      last_set_ = current;
    }
    return allocation_;
  }
  void set_active_threads(int threads) override {
    omp_set_num_threads(threads);
    last_set_ = threads;
  }
  bool stopped_since_last_call() override {
    // A plain load first: the locked exchange is paid only when the flag is set.
    return stopped_flag.load(std::memory_order_relaxed) && stopped_flag.exchange(false, std::memory_order_relaxed);
  }

 private:
  int allocation_;
  int last_set_;
};

void on_sigcont(int) {
  stopped_flag.store(true, std::memory_order_relaxed);
}

// The thesis' cpus_speedup, cpus_prediction_time and cpus_reference_time (Table 4.3) into the manager's slot.
void report_to_manager(const selfanalysis::SpeedupEvent& event) {
  if (manager_connection == nullptr) return;
  manager_connection->report_speedup(event.processors, event.speedup, event.estimated_time);
  if (event.region->baseline_done) {
    manager_connection->report_reference(event.region->baseline_time, event.region->baseline_processors);
  }
}

void forward_speedup(const selfanalysis::SpeedupEvent& event, void*) {
  report_to_manager(event);
  SelfAnalysis& s = state();
  augur_speedup_callback callback = nullptr;
  void* data = nullptr;
  {
    std::lock_guard lock(s.callback_mutex);
    callback = s.callback;
    data = s.callback_data;
  }
  if (callback == nullptr) return;
  augur_speedup_event out{};
  out.ipr = event.region->ipr;
  out.length = event.region->length;
  out.processors = event.processors;
  out.speedup = event.speedup;
  out.estimated_time = event.estimated_time;
  out.iteration = event.region->iterations_closed;
  callback(&out, data);
}

// Connects to the processor manager named by the option `manager` when it runs: nothing when none does, one
// warning when its segment cannot be used (the program runs on as without a manager).
void connect_manager_locked(SelfAnalysis& s) {
  if (s.settings.manager == "off") return;
  manager::Connection::Result result =
      manager::Connection::connect(s.settings.manager, ::getpid(), program_invocation_short_name, s.initial_allocation);
  if (result.connection == nullptr) {
    if (result.failure != manager::OpenFailure::Absent) warn("AUGUR_MANAGER: " + result.error + "; running without the manager");
    return;
  }
  s.manager = std::move(result.connection);
  manager_connection = s.manager.get();
  s.notes.push_back("connected to the processor manager '" + s.settings.manager + "' (slot " +
                    std::to_string(s.manager->slot_index()) + "): the allocated processors are the manager's");
}

void finalize_at_exit() {
  augur_finalize();
}

}  // namespace

void start_locked(SelfAnalysis& s) {
  if (s.started) return;
  s.started = true;
  s.settings = settings();
  s.initial_allocation = omp_get_max_threads();
  if (s.settings.mode == Mode::Off) return;
  std::atexit(finalize_at_exit);
  s.settings.engine.analyze = s.settings.mode == Mode::Analyze;
  if (s.settings.engine.analyze && s.settings.watch_sigcont) {
    struct sigaction current {};
    if (sigaction(SIGCONT, nullptr, &current) == 0 && current.sa_handler == SIG_DFL) {
      struct sigaction handler {};
      handler.sa_handler = on_sigcont;
      sigemptyset(&handler.sa_mask);
      handler.sa_flags = SA_RESTART;
      sigaction(SIGCONT, &handler, nullptr);
    }
  }
  const char* wait_policy = std::getenv("OMP_WAIT_POLICY");
  if (s.settings.engine.analyze && s.settings.engine.self_tuning &&
      (wait_policy == nullptr || strcasecmp(wait_policy, "passive") != 0)) {
    s.notes.push_back(
        "OMP_WAIT_POLICY is not 'passive': threads that spin while waiting count as busy, so the "
        "self-tuning' speedup (ST') is overestimated");
  }
  const int processors = std::max(omp_get_num_procs(), s.initial_allocation);
  s.threads = std::make_unique<OpenMpThreadControl>();
  if (s.settings.engine.analyze) connect_manager_locked(s);
  s.analyzer = std::make_unique<Analyzer>(s.settings.engine, s.clock, *s.threads, processors);
  s.machine.start();
  s.analyzer->set_listener(forward_speedup, nullptr);
}

}  // namespace augur::runtime

extern "C" {

void augur_notify_stopped(void) {
  augur::runtime::stopped_flag.store(true, std::memory_order_relaxed);
}

}  // extern "C"
