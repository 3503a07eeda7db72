#include "model/holdout.hpp"

#include <algorithm>
#include <cmath>
#include <exception>

#include "core/json_text.hpp"

namespace augur::model {

HeldOutSplit hold_out(const Series& series, const std::vector<Exclusion>& exclusions) {
  const auto& parameters = series.parameters;
  for (const Exclusion& exclusion : exclusions) {
    for (const auto& [name, value] : exclusion.values) {
      if (std::find(parameters.begin(), parameters.end(), name) != parameters.end()) continue;
      std::string known;
      for (const std::string& parameter : parameters) known += (known.empty() ? "" : ", ") + parameter;
      throw core::InputError({exclusion.origin, 0, 0}, "'" + name + "' is not a parameter of " + series.region +
                                                           " (it has " + (known.empty() ? "none" : known) + ")");
    }
  }
  HeldOutSplit split;
  split.kept = series;
  split.matched.assign(exclusions.size(), false);
  if (exclusions.empty()) return split;
  split.kept.measurements.clear();
  for (const Measurement& measurement : series.measurements) {
    bool left_out = false;
    for (std::size_t index = 0; index < exclusions.size(); ++index) {
      const auto& values = exclusions[index].values;
      const bool matches = std::all_of(values.begin(), values.end(), [&](const auto& item) {
        const auto at = std::find(parameters.begin(), parameters.end(), item.first);
        return measurement.point[static_cast<std::size_t>(at - parameters.begin())] == item.second;
      });
      if (matches) split.matched[index] = true;
      left_out = left_out || matches;
    }
    (left_out ? split.held_out : split.kept.measurements).push_back(measurement);
  }
  return split;
}

double measured_at(const SeriesModel& model, const std::vector<Measurement>& held_out, const std::vector<double>& point,
                   Aggregate how) {
  for (std::size_t index = 0; index < model.points.size(); ++index) {
    if (model.points[index] == point) return model.values[index];
  }
  for (const Measurement& measurement : held_out) {
    if (measurement.point == point) return aggregate(measurement.values, how);
  }
  return std::nan("");
}

DatasetFit fit_dataset(const Dataset& dataset, const std::string& region, const std::string& metric,
                       const std::vector<Exclusion>& exclusions, const ModelOptions& options,
                       const std::function<void(int done, int total)>& progress) {
  DatasetFit fit;
  fit.matched.assign(exclusions.size(), false);
  const auto chosen = [&](const Series& series) {
    return (region.empty() || series.region == region) && (metric.empty() || series.metric == metric);
  };
  int total = 0;
  for (const Series& series : dataset.series) total += chosen(series) ? 1 : 0;
  if (progress) progress(0, total);
  for (const Series& series : dataset.series) {
    if (!chosen(series)) continue;
    FittedSeries result;
    result.region = series.region;
    result.metric = series.metric;
    HeldOutSplit split = hold_out(series, exclusions);
    result.held_out = std::move(split.held_out);
    for (std::size_t index = 0; index < exclusions.size(); ++index) {
      if (split.matched[index]) fit.matched[index] = true;
    }
    try {
      result.model = build_model(split.kept, options);
    } catch (const SearchInterrupted& stop) {
      std::rethrow_exception(stop.reason);  // the caller's own exception (Ctrl-C): the whole command stops
    } catch (const core::InputError&) {
      throw;  // a bad formula or option: the whole command fails
    } catch (const std::exception& error) {
      result.error = core::describe_error(error);
    }
    fit.series.push_back(std::move(result));
    if (progress) progress(static_cast<int>(fit.series.size()), total);
  }
  return fit;
}

}  // namespace augur::model
