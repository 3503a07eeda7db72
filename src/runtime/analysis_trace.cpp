#include "analysis_trace.hpp"

namespace augur::runtime {

const char* iteration_phase(const selfanalysis::Region& region, int threads, bool warming_up, const selfanalysis::Config& config) {
  if (warming_up) return "warm-up";
  if ((!region.baseline_done || region.remeasuring) && threads == region.baseline_processors) return "baseline";
  if (!config.sweep.empty() && region.sweep_index < config.sweep.size()) return "sweep";
  return "allocated";
}

void AnalysisTrace::region_begin(TraceRecorder& trace, std::uint64_t ipr, double now) {
  region_end(trace, now);
  trace.begin("region", "region", now, ipr, TraceNumber::Hex);
  region_ = true;
}

void AnalysisTrace::region_end(TraceRecorder& trace, double now) {
  iteration_end(trace, now);
  if (!region_) return;
  trace.end(now);
  trace.phase(nullptr, now);  // between regions the program runs no phase
  region_ = false;
}

void AnalysisTrace::iteration_begin(TraceRecorder& trace, const selfanalysis::Analyzer& analyzer, bool warming_up,
                                    const selfanalysis::Config& config, double now) {
  const selfanalysis::Region* region = analyzer.current();
  if (!region_ || region == nullptr) return;
  iteration_end(trace, now);
  const int threads = analyzer.active_threads();
  if (config.analyze && threads > 0) {
    trace.phase(iteration_phase(*region, threads, warming_up, config), now);
    trace.counter("threads", now, threads);
  }
  trace.begin("iteration", "iteration", now, static_cast<std::uint64_t>(region->iterations_opened), TraceNumber::Decimal, threads);
  iteration_ = true;
}

void AnalysisTrace::iteration_end(TraceRecorder& trace, double now) {
  loop_end(trace, now);
  if (!iteration_) return;
  trace.end(now);
  iteration_ = false;
}

void AnalysisTrace::loop_begin(TraceRecorder& trace, double now) {
  if (!iteration_) return;
  loop_end(trace, now);
  trace.begin(loop_name_, "loop", now);
  loop_ = true;
}

void AnalysisTrace::loop_end(TraceRecorder& trace, double now) {
  if (!loop_) return;
  trace.end(now);
  loop_ = false;
}

}  // namespace augur::runtime
