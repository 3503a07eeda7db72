// libaugur: the queries of include/augur/augur.h on the current region, the speedup callback, and the end
// of the measurement (augur_finalize: the summary and the report). The threads' rules are in
// self_analysis.hpp: a query reads the analyzer on the thread that owns the measurement, or when no
// thread does; the report waits a little for another thread's region to give it up.
#include <omp.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <mutex>
#include <string>
#include <vector>

#include "augur/augur.h"
#include "augur/selfanalysis.hpp"
#include "augur/selfanalysis_report.hpp"
#include "core/files.hpp"
#include "core/json_text.hpp"
#include "internal.hpp"
#include "process_info.hpp"
#include "self_analysis.hpp"

namespace augur::runtime {
namespace {

using selfanalysis::Analyzer;
using selfanalysis::Region;

// Runs `read` on the current region when the calling thread may read the analyzer: it owns the
// measurement, or no thread does. AUGUR_ERROR when there is no region or another thread's region runs.
template <typename Read>
int query(const char* name, Read read) {
  try {
    SelfAnalysis& s = state();
    std::lock_guard lock(s.mutex);
    if (!measuring_locked(s)) return AUGUR_ERROR;
    if (other_thread_owns_locked(s)) {
      if (first_warning(QueryOtherThread)) {
        warn(std::string(name) +
             "() called on a thread other than the one whose region runs; ask on that thread or "
             "after the region ends; AUGUR_ERROR returned (warned once)");
      }
      return AUGUR_ERROR;
    }
    if (s.analyzer->current() == nullptr) return AUGUR_ERROR;
    return read(*s.analyzer, *s.analyzer->current());
  } catch (...) {
    return AUGUR_ERROR;
  }
}

// Another thread's region runs while the report is due: asks it to give the measurement up at its next
// probe, and waits half a second at most (the program is never held longer).
bool wait_for_owner(SelfAnalysis& s, std::unique_lock<std::mutex>& lock) {
  release_requested.store(true, std::memory_order_relaxed);
  if (s.released.wait_for(lock, std::chrono::milliseconds(500), [&] { return !s.owned; })) return true;
  warn("augur_finalize(): another thread's region still runs (no probe from it for 0.5 s); no summary or report");
  return false;
}

void write_summary_and_report_locked(SelfAnalysis& s) {
  const std::vector<selfanalysis::Region>& regions = s.analyzer->regions();
  selfanalysis::RunContext context;
  context.mode = mode_name(s.settings.mode);
  context.program = program_path();
  context.process_id = static_cast<long>(::getpid());
  context.allocated_processors = s.initial_allocation;
  context.available_processors = omp_get_num_procs();
  const char* wait_policy = std::getenv("OMP_WAIT_POLICY");
  context.wait_policy = wait_policy == nullptr ? "" : wait_policy;
  context.config = s.settings.engine;
  context.notes = s.notes;
  context.machine = s.machine.finish(context.available_processors);
  if (s.settings.summary) {
    std::fflush(stdout);  // keep the program's own output before the summary
    const std::string summary = selfanalysis::render_summary(context, regions);
    std::fputs(summary.c_str(), stderr);
  }
  if (!s.settings.report_path.empty()) {
    const std::string path = expand_path(s.settings.report_path);
    try {
      core::write_file_atomically(path, selfanalysis::render_report(context, regions));
    } catch (const std::exception& error) {
      warn("AUGUR_REPORT: " + augur::core::describe_error(error) + "; no report written");
    }
  }
}

}  // namespace
}  // namespace augur::runtime

using namespace augur::runtime;
using augur::selfanalysis::Analyzer;
using augur::selfanalysis::Region;

extern "C" {

int augur_get_speedup(int processors, double* speedup) {
  return query("augur_get_speedup", [&](const Analyzer&, const Region& region) {
    const auto* stats = region.stats(processors);
    if (stats == nullptr || stats->state != augur::selfanalysis::SpeedupState::Calculated) return AUGUR_PNC;
    if (speedup != nullptr) *speedup = region.speedup(processors);
    return AUGUR_PC;
  });
}

int augur_get_estimated_time(int processors, double* seconds) {
  return query("augur_get_estimated_time", [&](const Analyzer& analyzer, const Region& region) {
    const double estimate = analyzer.estimated_time(region, processors, state().clock.wall_seconds());
    if (estimate < 0.0) return AUGUR_ERROR;
    if (seconds != nullptr) *seconds = estimate;
    return AUGUR_OK;
  });
}

int augur_get_sequential_fraction(double* fraction) {
  return query("augur_get_sequential_fraction", [&](const Analyzer&, const Region& region) {
    const double f = region.sequential_fraction();
    if (f < 0.0) return AUGUR_ERROR;
    if (fraction != nullptr) *fraction = f;
    return AUGUR_OK;
  });
}

int augur_get_amdahl_factor(double* factor) {
  return query("augur_get_amdahl_factor", [&](const Analyzer&, const Region& region) {
    if (region.baseline_processors <= 0) return AUGUR_ERROR;
    if (factor != nullptr) *factor = region.amdahl_factor();
    return AUGUR_OK;
  });
}

int augur_get_self_tuning_speedup(int processors, double* speedup) {
  return query("augur_get_self_tuning_speedup", [&](const Analyzer&, const Region& region) {
    const auto* stats = region.stats(processors);
    if (stats == nullptr || stats->self_tuning_wall <= 0.0) return AUGUR_ERROR;
    if (speedup != nullptr) *speedup = stats->self_tuning_speedup();
    return AUGUR_OK;
  });
}

void augur_set_speedup_callback(augur_speedup_callback callback, void* user_data) {
  try {
    SelfAnalysis& s = state();
    std::lock_guard lock(s.callback_mutex);
    s.callback = callback;
    s.callback_data = user_data;
  } catch (...) {
  }
}

void augur_finalize(void) {
  try {
    SelfAnalysis& s = state();
    std::unique_lock lock(s.mutex);
    if (!s.started || s.finalized || s.settings.mode == Mode::Off) return;
    s.finalized = true;  // no thread enters a region from now on
    if (s.analyzer == nullptr) return;
    if (other_thread_owns_locked(s) && !wait_for_owner(s, lock)) return;
    if (owned_analyzer != nullptr) release_locked(s);
    s.analyzer->finish();
    if (s.manager != nullptr) {  // the slot goes back to the manager
      manager_connection = nullptr;
      s.manager->disconnect();
    }
    write_summary_and_report_locked(s);
  } catch (const std::exception& error) {
    warn(std::string("augur_finalize(): ") + error.what());
  } catch (...) {
  }
}

}  // extern "C"
