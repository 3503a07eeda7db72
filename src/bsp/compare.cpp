// What `augur bsp` reports: both models against the measured times, and g and L from the records of
// an h-relation benchmark.
#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "bsp/bsp.hpp"

namespace augur::bsp {

HRelationFit fit_hrelation_records(const model::Dataset& dataset, const std::string& records,
                                   const std::string& experiment, Combine combine) {
  const model::Series* series = nullptr;
  std::string found;
  for (const model::Series& candidate : dataset.series) {
    if (candidate.metric != "time") continue;
    if (candidate.region == experiment) series = &candidate;
    found += (found.empty() ? "" : ", ") + candidate.region;
  }
  if (series == nullptr) {
    throw core::InputError({records, 0, 0}, "no experiment '" + experiment + "' with times in the records" +
                                                (found.empty() ? std::string() : " (found: " + found + ")"));
  }
  try {
    return fit_hrelation(*series, combine);
  } catch (const core::InputError&) {
    throw;
  } catch (const std::exception& error) {
    throw std::runtime_error("cannot fit g and L to experiment '" + experiment + "' of " + records + ": " + error.what());
  }
}

double error_percent(double predicted, double measured) {
  if (!std::isfinite(predicted) || measured == 0.0) return std::nan("");
  return 100.0 * (measured - predicted) / measured;
}

Comparison compare(const Trace& trace, const CostParameters& parameters) {
  Comparison comparison{predict_obsp(trace, parameters), predict_bsp(trace, parameters), measured_rank_times(trace), 0.0};
  for (const double time : comparison.measured) comparison.measured_program = std::max(comparison.measured_program, time);
  return comparison;
}

}  // namespace augur::bsp
