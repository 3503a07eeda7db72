// The values a Region and its ProcessorStats derive from their measurements (the thesis' equations),
// apart from the engine that measures them (analyzer.cpp).
#include "augur/selfanalysis.hpp"

#include <algorithm>

namespace augur::selfanalysis {

int BaselinePolicy::resolve(int allocated) const {
  const int wanted = kind == Kind::Half        ? allocated / 2
                     : kind == Kind::Automatic ? std::min(automatic_limit, allocated / 2)
                                               : processors;
  // Thesis 4.3.1: "If the number of allocated processors (P) is less than baseline, the
  // SelfAnalyzer will use P as baseline."
  return std::clamp(wanted, 1, std::max(allocated, 1));
}

std::string BaselinePolicy::describe() const {
  switch (kind) {
    case Kind::Automatic: return "auto";
    case Kind::Half: return "half";
    case Kind::Fixed: break;
  }
  return std::to_string(processors);
}

double ProcessorStats::self_tuning_speedup() const {
  // ST'(p) = Efficiency(p) x p, Efficiency(p) = 1 - IdleTime / (p x WallTime) (seed 000, Figure 5),
  // with IdleTime = p x WallTime - BusyCpuTime: the speedup reduces to BusyCpuTime / WallTime.
  return self_tuning_wall > 0.0 ? self_tuning_cpu / self_tuning_wall : 0.0;
}

double amdahl_factor(double sequential_fraction, int baseline_processors) {
  if (baseline_processors <= 1) return 1.0;  // AF(1) = 1 (thesis Figure 4.5 (3))
  // AF(B) = 1 / (f + (1 - f) / B)  (thesis Figure 4.5 (2))
  const double f = std::clamp(sequential_fraction, 0.0, 1.0);
  return 1.0 / (f + (1.0 - f) / baseline_processors);
}

double Region::sequential_fraction() const {
  // f = SequentialTime / (SequentialTime + ParallelTime x CPUS)  (thesis Figure 4.6)
  const double denominator = sequential_time + parallel_cpu_time;
  if (!parallel_loops_seen || denominator <= 0.0) return -1.0;
  return sequential_time / denominator;
}

double Region::amdahl_factor() const {
  const double f = sequential_fraction();
  return selfanalysis::amdahl_factor(f < 0.0 ? 0.0 : f, baseline_processors);
}

double Region::mean_speedup(int processors) const {
  const ProcessorStats* found = stats(processors);
  if (!baseline_done || found == nullptr || found->iterations == 0 || found->measured_time <= 0.0) return 0.0;
  if (processors == baseline_processors) return amdahl_factor();
  // T(B) / mean T(p) x AF(B), with T(p) averaged over every measured iteration on p processors.
  return baseline_time / (found->measured_time / static_cast<double>(found->iterations)) * amdahl_factor();
}

double Region::speedup(int processors) const {
  const ProcessorStats* found = stats(processors);
  if (found == nullptr || found->state != SpeedupState::Calculated) return 0.0;
  return baseline_done && processors == baseline_processors ? amdahl_factor() : found->speedup;
}

const ProcessorStats* Region::stats(int processors) const {
  if (processors < 1 || processors >= static_cast<int>(by_processors.size())) return nullptr;
  return &by_processors[static_cast<std::size_t>(processors)];
}

void WindowLog::reserve() {
  means.reserve(max_kept_windows);
  switches.reserve(max_kept_windows);
}

void WindowLog::add(double mean, long switched) {
  if (means.size() < max_kept_windows) {
    if (means.capacity() == 0) reserve();  // once: no allocation after it
    means.push_back(mean);
    switches.push_back(switched);
  } else {
    // Beyond the cap the oldest window is overwritten: the statistics are of the last 256 windows.
    const auto slot = static_cast<std::size_t>(total) % max_kept_windows;
    means[slot] = mean;
    switches[slot] = switched;
  }
  ++total;
}

}  // namespace augur::selfanalysis
