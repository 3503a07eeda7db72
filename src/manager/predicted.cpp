// The policies that hand out processors one at a time on predicted speedups: equal efficiency and augur's
// marginal gain. An application's speedup at any P is predicted from the points it reported as calculated
// through Amdahl's law fitted by least squares (thesis §4.2: S(P) = 1 / (f + (1 - f) / P)).
#include <algorithm>
#include <cstdio>

#include "policies.hpp"

namespace augur::manager {

std::optional<double> fitted_serial_fraction(const ApplicationReport& report) {
  // 1/S - 1/P = f (1 - 1/P): least squares of y = f x through the origin, x = 1 - 1/P, y = 1/S - 1/P.
  double xy = 0.0;
  double xx = 0.0;
  for (const SpeedupEntry& entry : report.speedups) {
    if (entry.state != SpeedupState::calculated || entry.processors < 2 || !(entry.speedup > 0.0)) continue;
    const double x = 1.0 - 1.0 / entry.processors;
    const double y = 1.0 / entry.speedup - 1.0 / entry.processors;
    xy += x * y;
    xx += x * x;
  }
  if (xx == 0.0) return std::nullopt;
  return std::clamp(xy / xx, 0.0, 1.0);
}

double amdahl_speedup(double serial_fraction, int processors) {
  if (processors <= 0) return 0.0;
  return 1.0 / (serial_fraction + (1.0 - serial_fraction) / processors);
}

namespace {

struct Candidate {
  double serial_fraction = 0.0;  // fitted f, or 0 (linear) before any measurement
  double weight = 1.0;           // marginal gain: 1 / remaining work, when the application predicted it
  int limit = 0;
};

std::string fraction_text(const std::optional<double>& fraction) {
  if (!fraction) return "no speedup measured yet, taken as linear";
  char text[48];
  std::snprintf(text, sizeof text, "fitted f = %.3f", *fraction);
  return text;
}

}  // namespace

std::vector<Allocation> decide_predicted(const PolicyParameters& parameters,
                                         std::span<const ApplicationReport> reports) {
  const bool equal_efficiency = parameters.policy == PolicyKind::equal_efficiency;
  const std::size_t count = reports.size();
  std::vector<Candidate> candidates(count);
  std::vector<std::optional<double>> fractions(count);
  for (std::size_t index = 0; index < count; ++index) {
    const ApplicationReport& report = reports[index];
    fractions[index] = fitted_serial_fraction(report);
    Candidate& candidate = candidates[index];
    candidate.serial_fraction = fractions[index].value_or(0.0);
    candidate.limit = report.max_processors > 0 ? std::min(report.max_processors, parameters.cpus) : parameters.cpus;
    if (!equal_efficiency && report.predicted_time > 0.0 && report.allocation > 0) {
      // Remaining work in one-processor seconds: the predicted time times the speedup it runs at.
      const double remaining = report.predicted_time * amdahl_speedup(candidate.serial_fraction, report.allocation);
      candidate.weight = 1.0 / remaining;
    }
  }
  // One processor each (the earliest first when they outnumber the machine), then one at a time to the
  // best score: equal efficiency, the highest efficiency after the gift, S(P+1) / (P+1); marginal gain,
  // the largest gain in speedup per remaining work, (S(P+1) - S(P)) / W.
  std::vector<int> processors(count, 0);
  int free_processors = parameters.cpus;
  for (std::size_t index = 0; index < count && free_processors > 0; ++index) {
    processors[index] = 1;
    --free_processors;
  }
  hand_out_one_at_a_time(processors, free_processors, [&](std::size_t index, int now) -> std::optional<double> {
    const Candidate& candidate = candidates[index];
    if (now == 0 || now >= candidate.limit) return std::nullopt;
    const double after = amdahl_speedup(candidate.serial_fraction, now + 1);
    const double gain = after - amdahl_speedup(candidate.serial_fraction, now);
    if (gain < parameters.minimum_gain) return std::nullopt;
    return equal_efficiency ? after / (now + 1) : gain * candidate.weight;
  });
  std::vector<Allocation> allocations;
  for (std::size_t index = 0; index < count; ++index) {
    std::string reason;
    if (processors[index] == 0) {
      reason = "waits: more applications than processors";
    } else {
      char efficiency[64];
      std::snprintf(efficiency, sizeof efficiency, "predicted efficiency %.2f",
                    amdahl_speedup(candidates[index].serial_fraction, processors[index]) / processors[index]);
      reason = std::string(equal_efficiency ? "equal efficiency: " : "marginal gain: ") + efficiency + " (" +
               fraction_text(fractions[index]) + ")";
    }
    allocations.push_back(next_allocation(reports[index], processors[index], reports[index].memory.phase, reason));
  }
  return allocations;
}

}  // namespace augur::manager
