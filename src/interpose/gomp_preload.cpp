// libaugur_preload.so: loaded with LD_PRELOAD into an unmodified program built with gcc -fopenmp, it
// wraps libgomp's entry points of parallel regions, feeds the address of each region's outlined
// function to the periodicity detector (augur_dpd), and drives the self-analysis engine with the
// logic of the thesis' Figure 4.11 (dynamic_regions.hpp). Method and limits: docs/run.md.
//
// It goes into the user's process: C ABI, hidden symbols except the GOMP_* wrappers, nothing thrown
// across them, the program never stopped (one warning, then the calls are only forwarded), no
// allocation on the path of a parallel region after the region's first detection, no libgomp link
// (omp_* and the real GOMP_* are found with dlsym), no SQLite, no Eigen.
//
// Options: the AUGUR_* variables of libaugur (docs/self-analysis.md, "Options"), plus
//   AUGUR_DPD_WINDOW     samples in the detector's window (default 128);
//   AUGUR_RUN_ITERATIONS total iterations of the program's main loop, when known (for ExTime);
//   AUGUR_RUN_INFO       where to write what interposition found (docs/run.md, "The interposition file").
#include <dlfcn.h>
#include <pthread.h>
#include <time.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <memory>
#include <string>
#include <vector>

#include "augur/core/files.hpp"
#include "augur/dpd.hpp"
#include "augur/selfanalysis.hpp"
#include "augur/selfanalysis_report.hpp"
#include "dynamic_regions.hpp"
#include "options.hpp"
#include "system_clock.hpp"

#define AUGUR_PRELOAD_EXPORT __attribute__((visibility("default")))

extern char** environ;

namespace {

using OutlinedFunction = void (*)(void*);
using namespace augur;

void warn(const std::string& message) { std::fprintf(stderr, "augur: %s\n", message.c_str()); }

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
  std::atomic<void*> omp_get_max_threads{nullptr};
  std::atomic<void*> omp_get_level{nullptr};
};

RealGomp real;

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

int max_threads() { return resolve<int (*)()>(real.omp_get_max_threads, "omp_get_max_threads")(); }
int nesting_level() { return resolve<int (*)()>(real.omp_get_level, "omp_get_level")(); }

// ---- The engine's edges: clock, thread control, listener ---------------------------------------

// The processors are set per region through GOMP's num_threads argument, not omp_set_num_threads:
// the program's own setting (its allocation) stays untouched and readable with omp_get_max_threads.
class ArgumentThreadControl final : public selfanalysis::ThreadControl {
public:
  int allocated_processors() override {
    allocated_ = max_threads();
    return allocated_;
  }
  void set_active_threads(int threads) override { active_ = threads; }
  bool stopped_since_last_call() override { return false; }
  // The num_threads to pass for a region the program asked `requested` threads for (0: the default).
  [[nodiscard]] unsigned threads_for(unsigned requested) const {
    if (active_ <= 0 || active_ == allocated_) return requested;
    const auto active = static_cast<unsigned>(active_);
    return requested == 0 || requested > active ? active : requested;
  }

private:
  int allocated_ = 0;
  int active_ = 0;
};

class AnalyzerListener final : public interpose::RegionListener {
public:
  explicit AnalyzerListener(selfanalysis::Analyzer& analyzer) : analyzer_(analyzer) {}
  // Misuse cannot come from a user here; the engine's answers are ignored.
  void init_parallel_region(std::uint64_t ipr, int length, long iterations) override {
    (void)analyzer_.init_parallel_region(ipr, length, iterations);
  }
  void open_iteration() override { (void)analyzer_.open_iteration(); }
  void init_par() override { (void)analyzer_.init_par(); }
  void end_par() override { (void)analyzer_.end_par(); }
  void close_iteration() override { (void)analyzer_.close_iteration(); }
  void end_parallel_region() override { (void)analyzer_.end_parallel_region(); }

private:
  selfanalysis::Analyzer& analyzer_;
};

// ---- The state of the preload --------------------------------------------------------------------

constexpr const char* own_variables[] = {"AUGUR_DPD_WINDOW", "AUGUR_RUN_ITERATIONS", "AUGUR_RUN_INFO"};

struct Preload {
  runtime::Settings settings;
  int dpd_window = dpd::Detector::default_window;
  long expected_iterations = -1;
  std::string info_path;
  std::string disabled_reason;  // why nothing is measured (empty: measuring)
  int initial_allocation = 0;
  runtime::SystemClock clock;
  ArgumentThreadControl threads;
  std::unique_ptr<selfanalysis::Analyzer> analyzer;
  std::unique_ptr<AnalyzerListener> listener;
  std::unique_ptr<interpose::DetectingRegions<dpd::Detector>> engine;
  long intercepted = 0;      // parallel regions seen on the owner thread at level 0
  std::atomic<long> passed_through{0};  // nested, or from another thread
  bool finished = false;
};

Preload* preload = nullptr;          // set once, by the first region
std::atomic<bool> started{false};
std::atomic<bool> active{false};     // the engine may be driven
pthread_t owner{};                   // the thread that drives the engine
bool pending_start = false;          // GOMP_parallel_start instrumented, waiting for its end

long parse_long(const char* name, const char* text, long low, long high, long fallback) {
  if (text == nullptr || *text == '\0') return fallback;
  errno = 0;
  char* end = nullptr;
  const long value = std::strtol(text, &end, 10);
  if (errno != 0 || end == text || *end != '\0' || value < low || value > high) {
    warn(std::string(name) + "='" + text + "': expected an integer in [" + std::to_string(low) + ", " +
         std::to_string(high) + "]; using " + std::to_string(fallback));
    return fallback;
  }
  return value;
}

void finish_at_exit();

void start_once() {
  Preload* state = new Preload();
  std::vector<std::string> variables;
  for (char** entry = environ; entry != nullptr && *entry != nullptr; ++entry) {
    const char* equals = std::strchr(*entry, '=');
    std::string name(*entry, equals == nullptr ? std::strlen(*entry) : static_cast<std::size_t>(equals - *entry));
    bool own = false;
    for (const char* variable : own_variables) own = own || name == variable;
    if (!own) variables.push_back(std::move(name));
  }
  std::vector<std::string> warnings;
  state->settings = runtime::settings_from_environment([](const char* name) { return std::getenv(name); }, variables, warnings);
  for (const std::string& warning : warnings) warn(warning);
  state->dpd_window = static_cast<int>(parse_long("AUGUR_DPD_WINDOW", std::getenv("AUGUR_DPD_WINDOW"), dpd::Detector::min_window,
                                                  dpd::Detector::max_window, dpd::Detector::default_window));
  state->expected_iterations = parse_long("AUGUR_RUN_ITERATIONS", std::getenv("AUGUR_RUN_ITERATIONS"), 1, 1L << 40, -1);
  if (const char* info = std::getenv("AUGUR_RUN_INFO")) state->info_path = info;
  state->initial_allocation = max_threads();
  if (dlsym(RTLD_DEFAULT, "augur_init_parallel_region") != nullptr) {
    state->disabled_reason = "the program is linked to libaugur (static instrumentation): libaugur_preload only "
                             "forwards its parallel regions";
  }
  if (state->settings.mode == runtime::Mode::Off) state->disabled_reason = "AUGUR_MODE=off";
  state->settings.engine.analyze = state->settings.mode == runtime::Mode::Analyze;
  if (state->disabled_reason.empty()) {
    const int processors = std::max(static_cast<int>(sysconf(_SC_NPROCESSORS_ONLN)), state->initial_allocation);
    state->analyzer = std::make_unique<selfanalysis::Analyzer>(state->settings.engine, state->clock, state->threads, processors);
    state->listener = std::make_unique<AnalyzerListener>(*state->analyzer);
    state->engine = std::make_unique<interpose::DetectingRegions<dpd::Detector>>(
        *state->listener, dpd::Detector(state->dpd_window), state->expected_iterations);
  }
  preload = state;
  owner = pthread_self();
  std::atexit(finish_at_exit);
  active.store(state->engine != nullptr, std::memory_order_release);
}

void disable_after(const char* what) {
  active.store(false, std::memory_order_relaxed);
  if (preload != nullptr) preload->disabled_reason = std::string("measurement stopped: ") + what;
  warn(std::string("libaugur_preload: ") + what + "; the program goes on unmeasured");
}

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
    preload->passed_through.fetch_add(1, std::memory_order_relaxed);
    return false;
  }
  ++preload->intercepted;
  return active.load(std::memory_order_relaxed);
}

// DI_event_pre of Figure 4.11: returns the num_threads to pass on.
unsigned before_region(OutlinedFunction function, unsigned requested) {
  try {
    preload->engine->before_region(reinterpret_cast<std::uint64_t>(function));
    return preload->engine->regions().in_iteration() ? preload->threads.threads_for(requested) : requested;
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
    preload->engine->after_region();
  } catch (const std::exception& error) {
    disable_after(error.what());
  } catch (...) {
    disable_after("unknown exception");
  }
}

// ---- The report ----------------------------------------------------------------------------------

std::string json_string(const std::string& text) {
  std::string out = "\"";
  for (const char c : text) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char buffer[8];
      std::snprintf(buffer, sizeof buffer, "\\u%04x", static_cast<unsigned>(static_cast<unsigned char>(c)));
      out += buffer;
    } else {
      out += c;
    }
  }
  return out + "\"";
}

std::string hex(std::uint64_t value) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "\"0x%" PRIx64 "\"", value);
  return buffer;
}

// One loop: its address, the module that holds it and the offset there, and the dynamic symbol
// when there is one (outlined functions are local symbols: `augur run` resolves them with addr2line).
std::string describe_loop(std::uint64_t address) {
  std::string out = "{\"address\": " + hex(address);
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(address), &info) != 0) {
    out += ", \"module\": " + json_string(info.dli_fname != nullptr ? info.dli_fname : "");
    out += ", \"offset\": " + hex(address - reinterpret_cast<std::uint64_t>(info.dli_fbase));
    out += ", \"symbol\": " + (info.dli_sname != nullptr && info.dli_saddr == reinterpret_cast<void*>(address)
                                   ? json_string(info.dli_sname)
                                   : std::string("null"));
  }
  return out + "}";
}

std::string render_info(const Preload& state) {
  std::string out = "{\n  \"augur_interpose\": 1,\n";
  out += "  \"runtime\": \"libgomp\",\n";
  out += "  \"intercepted\": " + std::to_string(state.intercepted) + ",\n";
  out += "  \"passed_through\": " + std::to_string(state.passed_through.load()) + ",\n";
  out += "  \"dpd_window\": " + std::to_string(state.dpd_window) + ",\n";
  out += "  \"disabled\": " + (state.disabled_reason.empty() ? std::string("null") : json_string(state.disabled_reason)) + ",\n";
  if (state.engine == nullptr) return out + "  \"distinct_loops\": 0,\n  \"detections\": 0,\n  \"breaks\": 0,\n  \"regions\": []\n}\n";
  const interpose::DynamicRegions& regions = state.engine->regions();
  out += "  \"distinct_loops\": " + std::to_string(regions.distinct_loops()) + ",\n";
  out += "  \"detections\": " + std::to_string(regions.detections()) + ",\n";
  out += "  \"breaks\": " + std::to_string(regions.breaks()) + ",\n";
  out += "  \"regions\": [";
  for (int index = 0; index < regions.region_count(); ++index) {
    const interpose::DetectedRegion& region = regions.region(index);
    out += index == 0 ? "\n" : ",\n";
    out += "    {\"id\": " + std::to_string(region.ipr) + ", \"length\": " + std::to_string(region.length) +
           ", \"entries\": " + std::to_string(region.entries) + ", \"iterations\": " + std::to_string(region.iterations_closed) +
           ", \"loops\": [";
    for (int loop = 0; loop < region.loops_known; ++loop) {
      out += (loop == 0 ? "" : ", ") + describe_loop(region.loops[static_cast<std::size_t>(loop)]);
    }
    out += "]}";
  }
  return out + "\n  ]\n}\n";
}

std::string program_path() {
  char buffer[4096];
  const ssize_t length = ::readlink("/proc/self/exe", buffer, sizeof buffer - 1);
  if (length <= 0) return "";
  buffer[length] = '\0';
  return buffer;
}

std::string expand_path(const std::string& pattern) {
  std::string path;
  for (std::size_t index = 0; index < pattern.size(); ++index) {
    if (pattern[index] == '%' && index + 1 < pattern.size() && pattern[index + 1] == 'p') {
      path += std::to_string(::getpid());
      ++index;
    } else {
      path += pattern[index];
    }
  }
  return path;
}

// What the run found when there is no measurement to show.
std::string diagnosis(const Preload& state) {
  if (!state.disabled_reason.empty()) return state.disabled_reason;
  if (state.intercepted == 0) return "no OpenMP parallel region ran";
  const interpose::DynamicRegions& regions = state.engine->regions();
  if (regions.region_count() > 0) return "";
  if (regions.distinct_loops() == 1 && state.intercepted == 1) {
    return "one parallel region ran, once: a program with one parallel region around its time loop (orphaned "
           "worksharing loops inside it) is not measured by libaugur_preload yet";
  }
  return std::to_string(state.intercepted) + " parallel regions ran (" + std::to_string(regions.distinct_loops()) +
         " distinct) without a periodic pattern: no iterative parallel region, nothing measured";
}

void finish_at_exit() {
  Preload* state = preload;
  if (state == nullptr || state->finished) return;
  state->finished = true;
  active.store(false, std::memory_order_relaxed);
  try {
    if (state->engine != nullptr) state->engine->finish();
    if (state->analyzer != nullptr) state->analyzer->finish();
    const std::string problem = diagnosis(state[0]);
    std::vector<selfanalysis::Region> none;
    const std::vector<selfanalysis::Region>& regions = state->analyzer != nullptr ? state->analyzer->regions() : none;
    selfanalysis::RunContext context;
    context.mode = runtime::mode_name(state->settings.mode);
    context.program = program_path();
    context.process_id = static_cast<long>(::getpid());
    context.allocated_processors = state->initial_allocation;
    context.available_processors = static_cast<int>(sysconf(_SC_NPROCESSORS_ONLN));
    const char* wait_policy = std::getenv("OMP_WAIT_POLICY");
    context.wait_policy = wait_policy == nullptr ? "" : wait_policy;
    context.config = state->settings.engine;
    context.notes.push_back("dynamic instrumentation (libaugur_preload, libgomp): regions found by the periodicity detector");
    if (!problem.empty()) context.notes.push_back(problem);
    if (state->settings.summary) {
      std::fflush(stdout);
      if (!problem.empty()) warn(problem);
      if (state->settings.mode != runtime::Mode::Off) std::fputs(selfanalysis::render_summary(context, regions).c_str(), stderr);
    }
    if (!state->settings.report_path.empty()) {
      const std::string path = expand_path(state->settings.report_path);
      try {
        core::write_file_atomically(path, selfanalysis::render_report(context, regions));
      } catch (const std::exception& error) {
        warn(std::string("AUGUR_REPORT: ") + error.what() + "; no report written");
      }
    }
    if (!state->info_path.empty()) {
      const std::string path = expand_path(state->info_path);
      try {
        core::write_file_atomically(path, render_info(*state));
      } catch (const std::exception& error) {
        warn(std::string("AUGUR_RUN_INFO: ") + error.what() + "; not written");
      }
    }
  } catch (const std::exception& error) {
    warn(std::string("libaugur_preload at exit: ") + error.what());
  } catch (...) {
    warn("libaugur_preload at exit: unknown exception");
  }
}

// Looks the real functions up at load, when libgomp (a dependency of the program) is mapped already.
__attribute__((constructor)) void resolve_at_load() {
  const auto look_up = [](std::atomic<void*>& slot, const char* name) {
    slot.store(dlsym(RTLD_NEXT, name), std::memory_order_relaxed);
  };
  look_up(real.parallel, "GOMP_parallel");
  look_up(real.omp_get_max_threads, "omp_get_max_threads");
  look_up(real.omp_get_level, "omp_get_level");
}

// A program that never ran a parallel region still gets its information file.
__attribute__((destructor)) void write_info_at_unload() {
  if (preload != nullptr) return;
  const char* info = std::getenv("AUGUR_RUN_INFO");
  if (info == nullptr || *info == '\0') return;
  try {
    Preload empty;
    empty.disabled_reason = real.parallel.load() == nullptr ? "the program is not linked to libgomp" : "";
    core::write_file_atomically(expand_path(info), render_info(empty));
  } catch (...) {
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

}  // extern "C"
