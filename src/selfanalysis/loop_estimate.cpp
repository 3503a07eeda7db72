// The estimates of a time loop's execution time, first and re-made (team.hpp: pace_estimate, LoopEstimates;
// docs/self-analysis.md, "The estimate of the execution time").
#include "selfanalysis/team.hpp"

namespace augur::selfanalysis {

double pace_estimate(const LoopPace& pace, double consumed, long iterations, long expected, bool quarter) {
  const long remaining = expected - iterations;
  if (remaining < 0 || pace.clean_stretches() < (quarter ? 1 : 2)) return -1.0;
  const double per_step = pace.seconds_per_step();
  return per_step < 0.0 ? -1.0 : consumed + static_cast<double>(remaining) * per_step;
}

void LoopEstimates::record(double seconds, long iterations) {
  if (seconds < 0.0) return;
  latest_ = TimeEstimate{seconds, iterations};
  if (!first_.made()) first_ = latest_;
  ++count_;
}

}  // namespace augur::selfanalysis
