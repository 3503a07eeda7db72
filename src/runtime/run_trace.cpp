#include "run_trace.hpp"

#include <unistd.h>

#include <cstdlib>
#include <exception>

#include "core/json_text.hpp"
#include "internal.hpp"

namespace augur::runtime {

std::atomic<TraceRecorder*> run_trace_recorder{nullptr};

namespace {

std::string trace_pattern;
double trace_origin = 0.0;

// What is open on this thread's track, so that the slices stay nested whatever order the probes come in.
struct OpenSlices {
  bool region = false;
  bool iteration = false;
  bool loop = false;
};
thread_local OpenSlices open_slices;

void write_at_exit() {
  TraceRecorder* trace = run_trace();
  if (trace == nullptr) return;
  try {
    const std::string path = expand_path(trace_pattern);
    write_trace_file(*trace, path, trace_origin, monotonic_seconds(), static_cast<long>(::getpid()), program_invocation_short_name);
  } catch (const std::exception& error) {
    warn("AUGUR_TRACE: " + core::describe_error(error) + "; no timeline written");
  }
}

}  // namespace

void start_run_trace(const std::string& pattern) {
  if (pattern.empty() || run_trace() != nullptr) return;
  try {
    trace_pattern = pattern;
    trace_origin = monotonic_seconds();
    auto* recorder = new TraceRecorder();  // never destroyed: threads may record while the program exits
    run_trace_recorder.store(recorder, std::memory_order_release);
    std::atexit(write_at_exit);
  } catch (const std::exception& error) {
    warn("AUGUR_TRACE: " + core::describe_error(error) + "; no timeline");
  }
}

const char* iteration_phase(const selfanalysis::Region& region, int threads, bool warming_up, const selfanalysis::Config& config) {
  if (warming_up) return "warm-up";
  if ((!region.baseline_done || region.remeasuring) && threads == region.baseline_processors) return "baseline";
  if (!config.sweep.empty() && region.sweep_index < config.sweep.size()) return "sweep";
  return "allocated";
}

void trace_region_begin(TraceRecorder& trace, std::uint64_t ipr) {
  trace_region_end(trace);
  trace.begin("region", "region", monotonic_seconds(), ipr, TraceNumber::Hex);
  open_slices.region = true;
}

void trace_region_end(TraceRecorder& trace) {
  trace_iteration_end(trace);
  if (!open_slices.region) return;
  const double now = monotonic_seconds();
  trace.end(now);
  trace.phase(nullptr, now);  // between regions the program runs no phase
  open_slices.region = false;
}

void trace_iteration_begin(TraceRecorder& trace, const selfanalysis::Analyzer& analyzer, bool warming_up,
                           const selfanalysis::Config& config) {
  const selfanalysis::Region* region = analyzer.current();
  if (!open_slices.region || region == nullptr) return;
  trace_iteration_end(trace);
  const double now = monotonic_seconds();
  const int threads = analyzer.active_threads();
  if (config.analyze && threads > 0) {
    trace.phase(iteration_phase(*region, threads, warming_up, config), now);
    trace.counter("threads", now, threads);
  }
  trace.begin("iteration", "iteration", now, static_cast<std::uint64_t>(region->iterations_opened), TraceNumber::Decimal, threads);
  open_slices.iteration = true;
}

void trace_iteration_end(TraceRecorder& trace) {
  trace_loop_end(trace);
  if (!open_slices.iteration) return;
  trace.end(monotonic_seconds());
  open_slices.iteration = false;
}

void trace_loop_begin(TraceRecorder& trace) {
  if (!open_slices.iteration) return;
  trace_loop_end(trace);
  trace.begin("parallel loop", "loop", monotonic_seconds());
  open_slices.loop = true;
}

void trace_loop_end(TraceRecorder& trace) {
  if (!open_slices.loop) return;
  trace.end(monotonic_seconds());
  open_slices.loop = false;
}

}  // namespace augur::runtime
