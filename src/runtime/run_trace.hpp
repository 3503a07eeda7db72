// libaugur's timeline of the run (option `trace`, AUGUR_TRACE; docs/self-analysis.md#timelines): the
// recorder (trace_recorder.hpp) made when the settings are first loaded and the option names a file, the
// probes' hooks, and the file written at exit. When the option is empty each hook costs the caller one
// load and one branch (`if (TraceRecorder* trace = run_trace())`). Private to src/runtime.
#pragma once

#include <atomic>
#include <cstdint>
#include <string>

#include "analysis_trace.hpp"
#include "trace_recorder.hpp"

namespace augur::runtime {

extern std::atomic<TraceRecorder*> run_trace_recorder;
inline TraceRecorder* run_trace() { return run_trace_recorder.load(std::memory_order_acquire); }

// Makes the recorder and registers the writer at exit when `pattern` is not empty (the first load of
// the settings calls it once). Warns once and records nothing when it cannot.
void start_run_trace(const std::string& pattern);

// The self-analysis' slices of the calling thread (analysis_trace.hpp): the C API's probes call it with
// monotonic_seconds().
AnalysisTrace& thread_analysis_trace();

}  // namespace augur::runtime
