// libaugur's timeline of the run (option `trace`, AUGUR_TRACE; docs/self-analysis.md#timelines): the
// recorder (trace_recorder.hpp) made when the settings are first loaded and the option names a file, the
// probes' hooks, and the file written at exit. When the option is empty each hook costs the caller one
// load and one branch (`if (TraceRecorder* trace = run_trace())`). Private to src/runtime.
#pragma once

#include <atomic>
#include <cstdint>
#include <string>

#include "augur/selfanalysis.hpp"
#include "trace_recorder.hpp"

namespace augur::runtime {

extern std::atomic<TraceRecorder*> run_trace_recorder;
inline TraceRecorder* run_trace() { return run_trace_recorder.load(std::memory_order_acquire); }

// Makes the recorder and registers the writer at exit when `pattern` is not empty (the first load of
// the settings calls it once). Warns once and records nothing when it cannot.
void start_run_trace(const std::string& pattern);

// The hooks of the C API's probes, on the calling thread's track (each keeps the slices nested: a region
// entered again ends the open one, an iteration's close ends its loop).
void trace_region_begin(TraceRecorder& trace, std::uint64_t ipr);
void trace_region_end(TraceRecorder& trace);
// `warming_up`: the region's warm-up iterations were not over before the iteration opened.
void trace_iteration_begin(TraceRecorder& trace, const selfanalysis::Analyzer& analyzer, bool warming_up,
                           const selfanalysis::Config& config);
void trace_iteration_end(TraceRecorder& trace);
void trace_loop_begin(TraceRecorder& trace);
void trace_loop_end(TraceRecorder& trace);

// The phase of an iteration that opened on `threads`: "warm-up", "baseline" (a window measuring T(B)),
// "sweep" (SA(1 exec)) or "allocated".
const char* iteration_phase(const selfanalysis::Region& region, int threads, bool warming_up, const selfanalysis::Config& config);

}  // namespace augur::runtime
