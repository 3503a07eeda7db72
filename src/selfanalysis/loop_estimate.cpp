// The estimates of a time loop's execution time, first and re-made (team.hpp: pace_estimate, LoopEstimates;
// docs/self-analysis.md, "The estimate of the execution time").
#include "selfanalysis/team.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

namespace augur::selfanalysis {

double pace_estimate(const LoopPace& pace, double consumed, long iterations, long expected, bool quarter, double precision,
                     int least) {
  const long remaining = expected - iterations;
  if (remaining < 0 || pace.clean_stretches() < (quarter ? 1 : std::max(2, least))) return -1.0;
  if (!quarter && !(pace.relative_error() <= precision)) return -1.0;
  const double per_step = pace.seconds_per_step();
  return per_step < 0.0 ? -1.0 : consumed + static_cast<double>(remaining) * per_step;
}

double StepTimeSums::relative_standard_error() const {
  const double mean_time = mean();
  if (count_ < 2 || mean_time <= 0.0) return std::numeric_limits<double>::infinity();
  const double n = static_cast<double>(count_);
  const double variance = std::max(0.0, (squares_ - sum_ * mean_time) / (n - 1.0));
  return std::sqrt(variance / n) / mean_time;
}

bool first_estimate_ready(const StepTimeSums& parallel, long iterations, long expected, const TeamPolicy& policy) {
  const long wanted = std::clamp<long>(expected / 3, policy.min_steps, std::max(policy.min_steps, policy.first_estimate_steps));
  if (parallel.count() < wanted) return false;
  return parallel.relative_standard_error() <= policy.first_estimate_error || iterations * 2 >= expected;
}

void LoopEstimates::record(double seconds, long iterations) {
  if (seconds < 0.0) return;
  latest_ = TimeEstimate{seconds, iterations};
  latest_deferred_ = DeferredEstimate{};
  if (!first_made()) first_ = latest_;
  ++count_;
}

void LoopEstimates::defer(const DeferredEstimate& estimate, long iterations) {
  if (estimate.steps < 0) return;
  latest_ = TimeEstimate{-1.0, iterations};
  latest_deferred_ = estimate;
  if (!first_made()) {
    first_ = latest_;
    first_deferred_ = estimate;
  }
  ++count_;
}

void LoopEstimates::resolve(const TeamAnalysis& analysis, const TeamPolicy& policy) {
  for (auto [estimate, deferred] : {std::pair{&first_, &first_deferred_}, std::pair{&latest_, &latest_deferred_}}) {
    if (deferred->steps < 0) continue;
    estimate->seconds = estimate_time_from(analysis, deferred->steps, deferred->consumed, deferred->remaining,
                                           deferred->baseline_share, policy);
    *deferred = DeferredEstimate{};
  }
}

}  // namespace augur::selfanalysis
