// libaugur: the C API of include/augur/augur.h over the self-analysis engine, with the OpenMP
// thread control, the monotonic and CPU clocks, the configuration and the end-of-run report.
// Nothing here throws across the C ABI or aborts the host program.
#include <omp.h>
#include <signal.h>
#include <time.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "augur/augur.h"
#include "core/files.hpp"
#include "core/json_text.hpp"
#include "augur/selfanalysis.hpp"
#include "augur/selfanalysis_report.hpp"
#include "internal.hpp"
#include "options.hpp"
#include "process_info.hpp"
#include "system_clock.hpp"

extern char** environ;

namespace augur::runtime {

void warn(const std::string& message) { std::fprintf(stderr, "augur: %s\n", message.c_str()); }

double monotonic_seconds() {
  timespec now{};
  clock_gettime(CLOCK_MONOTONIC, &now);
  return static_cast<double>(now.tv_sec) + static_cast<double>(now.tv_nsec) * 1e-9;
}

std::string expand_path(const std::string& pattern) {
  std::string path;
  for (std::size_t index = 0; index < pattern.size(); ++index) {
    const char next = index + 1 < pattern.size() ? pattern[index + 1] : '\0';
    if (pattern[index] == '%' && next == 'p') {
      path += std::to_string(::getpid());
      ++index;
    } else if (pattern[index] == '%' && next == 'n') {
      path += program_invocation_short_name;
      ++index;
    } else {
      path += pattern[index];
    }
  }
  return path;
}

namespace {

using selfanalysis::Misuse;

std::atomic<bool> stopped_flag{false};

// The processors of an OpenMP program: the allocation is what the program (or its user, through
// OMP_NUM_THREADS) last set with omp_set_num_threads; augur's own settings are told apart by
// remembering the last value augur set.
class OpenMpThreadControl final : public selfanalysis::ThreadControl {
public:
  OpenMpThreadControl() : allocation_(omp_get_max_threads()), last_set_(allocation_) {}
  int allocated_processors() override {
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

void on_sigcont(int) { stopped_flag.store(true, std::memory_order_relaxed); }

struct Runtime {
  Settings settings;
  std::vector<std::pair<std::string, std::string>> api_options;
  bool settings_loaded = false;
  bool started = false;
  bool finalized = false;
  SystemClock clock;
  std::unique_ptr<OpenMpThreadControl> threads;
  std::unique_ptr<selfanalysis::Analyzer> analyzer;
  augur_speedup_callback callback = nullptr;
  void* callback_data = nullptr;
  bool warned_misuse[8] = {};
  bool warned_in_parallel = false;
  int initial_allocation = 0;
  std::vector<std::string> notes;
};

Runtime& state() {
  static Runtime runtime;
  return runtime;
}

// Set once the analyzer exists (modes "analyze" and "time"): the probes test only this pointer.
selfanalysis::Analyzer* active_analyzer = nullptr;

void forward_speedup(const selfanalysis::SpeedupEvent& event, void*) {
  Runtime& runtime = state();
  if (runtime.callback == nullptr) return;
  augur_speedup_event out{};
  out.ipr = event.region->ipr;
  out.length = event.region->length;
  out.processors = event.processors;
  out.speedup = event.speedup;
  out.estimated_time = event.estimated_time;
  out.iteration = event.region->iterations_closed;
  runtime.callback(&out, runtime.callback_data);
}

void finalize_at_exit() { augur_finalize(); }


}  // namespace

namespace {
std::mutex settings_mutex;
}  // namespace

namespace {
const char* tool_channel() { return std::getenv(std::string(tool_channel_variable).c_str()); }
}  // namespace

void check_environment_once() {
  static std::mutex mutex;
  static bool checked = false;
  std::lock_guard lock(mutex);
  if (checked) return;
  checked = true;
  std::vector<std::string> warnings;
  check_variables(variable_names(environ), tool_channel(), warnings);
  for (const std::string& warning : warnings) warn(warning);
}

const Settings& settings() {
  Runtime& runtime = state();
  std::lock_guard lock(settings_mutex);  // the first use may come from any thread
  if (runtime.settings_loaded) return runtime.settings;
  runtime.settings_loaded = true;
  check_environment_once();
  OptionSources sources;
  sources.environment = [](const char* name) -> const char* { return std::getenv(name); };
  sources.api = runtime.api_options;
  sources.tool_channel = tool_channel();
  std::vector<std::string> warnings;
  runtime.settings = settings_from(resolve_options(runtime_option_set(), sources, warnings));
  for (const std::string& warning : warnings) warn(warning);
  return runtime.settings;
}

namespace {

void start() {
  Runtime& runtime = state();
  if (runtime.started) return;
  runtime.started = true;
  (void)settings();
  runtime.initial_allocation = omp_get_max_threads();
  if (runtime.settings.mode == Mode::Off) return;
  std::atexit(finalize_at_exit);
  runtime.settings.engine.analyze = runtime.settings.mode == Mode::Analyze;
  if (runtime.settings.engine.analyze && runtime.settings.watch_sigcont) {
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
  if (runtime.settings.engine.analyze && runtime.settings.engine.self_tuning && (wait_policy == nullptr || strcasecmp(wait_policy, "passive") != 0)) {
    runtime.notes.push_back("OMP_WAIT_POLICY is not 'passive': threads that spin while waiting count as busy, so the "
                            "self-tuning' speedup (ST') is overestimated");
  }
  const int processors = std::max(omp_get_num_procs(), runtime.initial_allocation);
  runtime.threads = std::make_unique<OpenMpThreadControl>();
  runtime.analyzer = std::make_unique<selfanalysis::Analyzer>(runtime.settings.engine, runtime.clock, *runtime.threads, processors);
  runtime.analyzer->set_listener(forward_speedup, nullptr);
  active_analyzer = runtime.analyzer.get();
}

// What happened to a probe called out of order, in the C API's words.
const char* describe(Misuse misuse) {
  switch (misuse) {
    case Misuse::None: return "was accepted";
    case Misuse::NoRegion: return "called outside a parallel region (no augur_init_parallel_region before it); ignored";
    case Misuse::IterationNotOpen: return "called while no iteration is open (missing augur_open_iteration); ignored";
    case Misuse::IterationAlreadyOpen:
      return "called while an iteration is open (missing augur_close_iteration): that iteration is discarded and a "
             "new one opened";
    case Misuse::ParNotOpen: return "called while no parallel loop is open (missing augur_init_par); ignored";
    case Misuse::ParAlreadyOpen:
      return "called while a parallel loop is open (missing augur_end_par); an open loop ends with its iteration";
  }
  return "called out of order";
}

// Warns once per kind of misuse, naming the probe.
void report_misuse(const char* probe, Misuse misuse) {
  Runtime& runtime = state();
  auto index = static_cast<std::size_t>(misuse);
  if (index >= sizeof runtime.warned_misuse || runtime.warned_misuse[index]) return;
  runtime.warned_misuse[index] = true;
  warn(std::string(probe) + "() " + describe(misuse) + " (warned once)");
}

// After an exception augur stops measuring; the program gets its processors back.
void disable_after(const char* name, const char* what) {
  warn(std::string(name) + "(): " + what + "; measurement disabled");
  active_analyzer = nullptr;
  Runtime& runtime = state();
  if (runtime.threads != nullptr) {
    try {
      runtime.threads->set_active_threads(runtime.threads->allocated_processors());
    } catch (...) {
    }
  }
}

// True when the probe may run: not inside an OpenMP parallel region.
bool outside_parallel(const char* probe) {
  if (!omp_in_parallel()) return true;
  Runtime& runtime = state();
  if (!runtime.warned_in_parallel) {
    runtime.warned_in_parallel = true;
    warn(std::string(probe) + "() called inside an OpenMP parallel region; augur probes belong in the sequential "
                              "loop; ignored (warned once)");
  }
  return false;
}

// Runs one probe of the analyzer: ignored outside a measurement or inside a parallel region,
// misuse warned once, and nothing thrown across the C ABI (an exception disables augur).
template <typename Probe>
void run_probe(const char* name, Probe probe) {
  if (active_analyzer == nullptr) {
    // Before the first region (not when augur is off or finished): a probe out of order.
    if (!state().started) report_misuse(name, Misuse::NoRegion);
    return;
  }
  if (!outside_parallel(name)) return;
  try {
    const Misuse misuse = probe(*active_analyzer);
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

extern "C" {

int augur_init_parallel_region(uint64_t ipr, int length, long iterations) {
  try {
    start();
    if (active_analyzer == nullptr || !outside_parallel("augur_init_parallel_region")) return AUGUR_ERROR;
    const Misuse misuse = active_analyzer->init_parallel_region(ipr, length, iterations);
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
  run_probe("augur_end_parallel_region", [](augur::selfanalysis::Analyzer& analyzer) { return analyzer.end_parallel_region(); });
}

void augur_open_iteration(void) {
  run_probe("augur_open_iteration", [](augur::selfanalysis::Analyzer& analyzer) { return analyzer.open_iteration(); });
}

void augur_close_iteration(void) {
  run_probe("augur_close_iteration", [](augur::selfanalysis::Analyzer& analyzer) { return analyzer.close_iteration(); });
}

void augur_init_par(void) {
  run_probe("augur_init_par", [](augur::selfanalysis::Analyzer& analyzer) { return analyzer.init_par(); });
}

void augur_end_par(void) {
  run_probe("augur_end_par", [](augur::selfanalysis::Analyzer& analyzer) { return analyzer.end_par(); });
}

int augur_init_parallelism(uint64_t ipr, int length, long iterations) {
  return augur_init_parallel_region(ipr, length, iterations);
}
void augur_open_parallel_region(void) { augur_open_iteration(); }
void augur_close_parallel_region(void) { augur_close_iteration(); }
void augur_end_parallelism(void) { augur_end_parallel_region(); }

int augur_set_option(const char* key, const char* value) {
  try {
    if (key == nullptr || value == nullptr) {
      warn("augur_set_option(): key and value must not be NULL; ignored");
      return AUGUR_ERROR;
    }
    Runtime& runtime = state();
    std::lock_guard lock(settings_mutex);
    if (runtime.settings_loaded) {
      warn(std::string("augur_set_option(") + key + "): options take effect at augur's first use (a region, an "
                       "experiment instance, a report or a trace), and it has happened; ignored");
      return AUGUR_ERROR;
    }
    Settings probe;
    if (auto error = apply_option(probe, key, value)) {
      warn(std::string("augur_set_option(") + key + "): " + *error + "; ignored");
      return AUGUR_ERROR;
    }
    runtime.api_options.emplace_back(key, value);
    return AUGUR_OK;
  } catch (const std::exception& error) {
    warn(std::string("augur_set_option(): ") + error.what());
    return AUGUR_ERROR;
  }
}

int augur_get_speedup(int processors, double* speedup) {
  if (active_analyzer == nullptr || active_analyzer->current() == nullptr) return AUGUR_ERROR;
  const auto* stats = active_analyzer->current()->stats(processors);
  if (stats == nullptr || stats->state != augur::selfanalysis::SpeedupState::Calculated) return AUGUR_PNC;
  if (speedup != nullptr) *speedup = active_analyzer->current()->speedup(processors);
  return AUGUR_PC;
}

int augur_get_estimated_time(int processors, double* seconds) {
  if (active_analyzer == nullptr || active_analyzer->current() == nullptr) return AUGUR_ERROR;
  const double estimate =
      active_analyzer->estimated_time(*active_analyzer->current(), processors, state().clock.wall_seconds());
  if (estimate < 0.0) return AUGUR_ERROR;
  if (seconds != nullptr) *seconds = estimate;
  return AUGUR_OK;
}

int augur_get_sequential_fraction(double* fraction) {
  if (active_analyzer == nullptr || active_analyzer->current() == nullptr) return AUGUR_ERROR;
  const double f = active_analyzer->current()->sequential_fraction();
  if (f < 0.0) return AUGUR_ERROR;
  if (fraction != nullptr) *fraction = f;
  return AUGUR_OK;
}

int augur_get_amdahl_factor(double* factor) {
  if (active_analyzer == nullptr || active_analyzer->current() == nullptr) return AUGUR_ERROR;
  const auto* region = active_analyzer->current();
  if (region->baseline_processors <= 0) return AUGUR_ERROR;
  if (factor != nullptr) *factor = region->amdahl_factor();
  return AUGUR_OK;
}

int augur_get_self_tuning_speedup(int processors, double* speedup) {
  if (active_analyzer == nullptr || active_analyzer->current() == nullptr) return AUGUR_ERROR;
  const auto* stats = active_analyzer->current()->stats(processors);
  if (stats == nullptr || stats->self_tuning_wall <= 0.0) return AUGUR_ERROR;
  if (speedup != nullptr) *speedup = stats->self_tuning_speedup();
  return AUGUR_OK;
}

void augur_set_speedup_callback(augur_speedup_callback callback, void* user_data) {
  Runtime& runtime = state();
  runtime.callback = callback;
  runtime.callback_data = user_data;
}

void augur_notify_stopped(void) { stopped_flag.store(true, std::memory_order_relaxed); }

void augur_finalize(void) {
  try {
    Runtime& runtime = state();
    if (!runtime.started || runtime.finalized || runtime.settings.mode == Mode::Off) return;
    runtime.finalized = true;
    if (runtime.analyzer == nullptr) return;
    runtime.analyzer->finish();
    active_analyzer = nullptr;
    const std::vector<augur::selfanalysis::Region>& regions = runtime.analyzer->regions();
    augur::selfanalysis::RunContext context;
    context.mode = mode_name(runtime.settings.mode);
    context.program = program_path();
    context.process_id = static_cast<long>(::getpid());
    context.allocated_processors = runtime.initial_allocation;
    context.available_processors = omp_get_num_procs();
    const char* wait_policy = std::getenv("OMP_WAIT_POLICY");
    context.wait_policy = wait_policy == nullptr ? "" : wait_policy;
    context.config = runtime.settings.engine;
    context.notes = runtime.notes;
    if (runtime.settings.summary) {
      std::fflush(stdout);  // keep the program's own output before the summary
      const std::string summary = augur::selfanalysis::render_summary(context, regions);
      std::fputs(summary.c_str(), stderr);
    }
    if (!runtime.settings.report_path.empty()) {
      const std::string path = expand_path(runtime.settings.report_path);
      try {
        augur::core::write_file_atomically(path, augur::selfanalysis::render_report(context, regions));
      } catch (const std::exception& error) {
        warn("AUGUR_REPORT: " + augur::core::describe_error(error) + "; no report written");
      }
    }
  } catch (const std::exception& error) {
    warn(std::string("augur_finalize(): ") + error.what());
  }
}

}  // extern "C"
