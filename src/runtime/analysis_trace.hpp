// The self-analysis on a timeline (trace_recorder.hpp), shared by libaugur (the C API's probes) and the
// interposition libraries (the calls of Figure 4.11's engine): the region, its iterations (with the threads
// each ran on and its phase: warm-up, baseline, sweep or allocated, on the process's phase track and a
// `threads` counter) and the parallel loops in them, kept nested on the thread's track whatever order the
// calls come in (a region entered again ends the open one, an iteration's close ends its loop). One
// AnalysisTrace per thread that drives the analysis.
#pragma once

#include <cstdint>

#include "augur/selfanalysis.hpp"
#include "trace_recorder.hpp"

namespace augur::runtime {

// The phase of an iteration that opened on `threads`: "warm-up", "baseline" (a window measuring T(B)),
// "sweep" (SA(1 exec)) or "allocated".
const char* iteration_phase(const selfanalysis::Region& region, int threads, bool warming_up, const selfanalysis::Config& config);

class AnalysisTrace {
public:
  // `loop_name`: what a parallel loop is called on the track ("parallel loop", "parallel region").
  explicit AnalysisTrace(const char* loop_name = "parallel loop") : loop_name_(loop_name) {}
  void region_begin(TraceRecorder& trace, std::uint64_t ipr, double now);
  void region_end(TraceRecorder& trace, double now);
  // After the analyzer opened the iteration; `warming_up`: the region's warm-up was not over before.
  void iteration_begin(TraceRecorder& trace, const selfanalysis::Analyzer& analyzer, bool warming_up,
                       const selfanalysis::Config& config, double now);
  void iteration_end(TraceRecorder& trace, double now);
  void loop_begin(TraceRecorder& trace, double now);
  void loop_end(TraceRecorder& trace, double now);

private:
  const char* loop_name_;
  bool region_ = false;
  bool iteration_ = false;
  bool loop_ = false;
};

}  // namespace augur::runtime
