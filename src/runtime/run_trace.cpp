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

AnalysisTrace& thread_analysis_trace() {
  thread_local AnalysisTrace trace;
  return trace;
}

}  // namespace augur::runtime
