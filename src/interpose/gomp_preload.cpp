// libaugur_preload.so: loaded with LD_PRELOAD into an unmodified program built with gcc -fopenmp, it
// wraps libgomp's entry points of parallel regions, feeds the address of each region's outlined
// function to the periodicity detector (augur_dpd), and drives the self-analysis engine with the
// logic of the thesis' Figure 4.11 (dynamic_regions.hpp). It also wraps the calls that end worksharing
// constructs (GOMP_barrier, GOMP_loop_end, ...): on the master thread of a measured region their call
// sites feed a second detector (worksharing_periods.hpp), for a program with one parallel region around
// its time loop. Method and limits: docs/run.md.
//
// It goes into the user's process: C ABI, hidden symbols except the GOMP_* wrappers, nothing thrown
// across them, the program never stopped (one warning, then the calls are only forwarded), no
// allocation on the path of a parallel region after the region's first detection, no libgomp link
// (omp_* and the real GOMP_* are found with dlsym), no SQLite, no Eigen.
//
// Options: libaugur's (docs/self-analysis.md, "Options") and the run set (docs/run.md: dpd.window,
// run.iterations, run.info), declared in runtime/options.cpp, as AUGUR_<KEY> or in the tool channel.
//
// This file: the state of the preload, its start at the first region and its report at exit. The GOMP_*
// wrappers: gomp_wrappers.cpp; the real libgomp and the thread control: gomp_preload.hpp.
#include "interpose/gomp_preload.hpp"

#include <dlfcn.h>
#include <pthread.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <exception>
#include <string>
#include <vector>

#include "core/files.hpp"
#include "interpose/pc_sampler.hpp"
#include "interpose/session.hpp"

namespace augur::interpose::gomp {

RealGomp real;

Preload* preload = nullptr;
std::atomic<bool> started{false};
std::atomic<bool> active{false};     // the engine may be driven
pthread_t owner{};                   // the thread that drives the engine
bool pending_start = false;          // GOMP_parallel_start instrumented, waiting for its end
std::atomic<const SpinLoops*> spin_loops{nullptr};

namespace {

// ---- The report ----------------------------------------------------------------------------------

void finish_at_exit() {
  if (preload == nullptr) return;
  active.store(false, std::memory_order_relaxed);
  interpose::finish_session(preload->session);
}

// The program's spin loops (spin_loops.hpp), sampled when the kernel lets this thread sample itself and
// AUGUR_SPIN_SAMPLING is not 0 (the samples cost a sampled thread some 2% of its time: docs/run.md).
void scan_spin_loops(Session& session) {
  const char* setting = std::getenv("AUGUR_SPIN_SAMPLING");
  if (setting != nullptr && std::string(setting) == "0") {
    session.spin_note = "spin loops in the code not sampled (AUGUR_SPIN_SAMPLING=0): spins on flags count as work";
    return;
  }
  // Not in this library, libgomp or the C library, wherever they are installed.
  const std::vector<const void*> skip{reinterpret_cast<const void*>(&scan_spin_loops), real.parallel.load(std::memory_order_relaxed),
                                      reinterpret_cast<const void*>(&::getpid)};
  auto* loops = new SpinLoops(SpinLoops::of_process(skip));
  if (loops->empty()) {
    delete loops;
    return;
  }
  PcSampler probe;
  std::string reason;
  if (!probe.open(&reason)) {
    session.spin_note = std::to_string(loops->size()) + " spin loops in the code (fences or pauses in short loops) not sampled (" +
                        reason + "): spins on flags count as work";
    delete loops;
    return;
  }
  session.sees_spins = true;
  session.spin_source = "samples";
  spin_loops.store(loops, std::memory_order_release);
}

}  // namespace

void start_once() {
  Preload* state = new Preload();
  interpose::start_session(state->session, state->threads, max_threads(), /*worksharing=*/true);
  state->threads.manage(interpose::managed_allocation(state->session));
  preload = state;
  owner = pthread_self();
  std::atexit(finish_at_exit);
  if (state->session.worksharing != nullptr) scan_spin_loops(state->session);
  active.store(state->session.engine != nullptr, std::memory_order_release);
}

void disable_after(const char* what) {
  active.store(false, std::memory_order_relaxed);
  if (preload != nullptr) preload->session.disabled_reason = std::string("measurement stopped: ") + what;
  warn(std::string("libaugur_preload: ") + what + "; the program goes on unmeasured");
}

namespace {

// Looks the real functions up at load, when libgomp (a dependency of the program) is mapped already.
__attribute__((constructor)) void resolve_at_load() {
  const auto look_up = [](std::atomic<void*>& slot, const char* name) {
    slot.store(dlsym(RTLD_NEXT, name), std::memory_order_relaxed);
  };
  look_up(real.parallel, "GOMP_parallel");
  look_up(real.omp_get_max_threads, "omp_get_max_threads");
  look_up(real.omp_get_level, "omp_get_level");
  look_up(real.omp_get_num_threads, "omp_get_num_threads");
}

// A program that never ran a parallel region still gets its information file.
__attribute__((destructor)) void write_info_at_unload() {
  if (preload != nullptr) return;
  try {
    const std::string info = interpose::info_path_from_environment();
    if (info.empty()) return;
    Preload empty;
    empty.session.disabled_reason = real.parallel.load() == nullptr ? "the program is not linked to libgomp" : "";
    core::write_file_atomically(interpose::expand_path(info), interpose::render_info(empty.session));
  } catch (...) {
  }
}

}  // namespace
}  // namespace augur::interpose::gomp
