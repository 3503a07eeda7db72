// What augur couple computes from measured runs: src/coupling/analysis.hpp.
#include "coupling/analysis.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <tuple>

namespace augur::coupling {

namespace {

bool has_length(const Run& run, int length) {
  const auto lengths = run.complete_lengths();
  return std::find(lengths.begin(), lengths.end(), length) != lengths.end();
}

}  // namespace

int longest_length(const Run& run) {
  const auto lengths = run.complete_lengths();
  return lengths.empty() ? 0 : lengths.back();
}

int chosen_length(const Run& run, std::optional<int> asked) {
  if (!asked) return longest_length(run);
  return has_length(run, *asked) ? *asked : 0;
}

Spread widest_interval(const Run& run) {
  Spread widest;
  const auto consider = [&](const Timing& timing, const std::string& where) {
    if (timing.seconds <= 0) return;
    const double width = (timing.ci_high - timing.ci_low) / timing.seconds;
    if (width > widest.width) widest = {width, where};
  };
  for (const auto& [chain, timing] : run.chains) consider(timing, chain_name(run, chain));
  if (run.loop) consider(*run.loop, "the whole loop");
  return widest;
}

const Prediction* Analysis::chosen() const {
  for (const Prediction& prediction : predictions) {
    if (prediction.length == length) return &prediction;
  }
  return nullptr;
}

const std::vector<ChainCoupling>* Analysis::couplings_of(int chain_length) const {
  for (const LengthCouplings& values : couplings) {
    if (values.length == chain_length) return &values.chains;
  }
  return nullptr;
}

Analysis analyse(const Run& run, std::optional<int> length) {
  Analysis analysis;
  analysis.length = chosen_length(run, length);
  analysis.summation = summation(run);
  for (const int complete : run.complete_lengths()) {
    analysis.predictions.push_back(predict(run, complete));
    analysis.couplings.push_back({complete, couplings(run, complete)});
  }
  analysis.widest = widest_interval(run);
  return analysis;
}

void MeanErrors::add(const Prediction& summation, const Prediction* method) {
  if (!summation.error || method == nullptr || !method->error) return;
  method_total += std::abs(*method->error);
  summation_total += std::abs(*summation.error);
  ++runs;
}

MeanErrors mean_errors(const std::vector<Analysis>& analyses) {
  MeanErrors means;
  for (const Analysis& analysis : analyses) means.add(analysis.summation, analysis.chosen());
  return means;
}

int reuse_length(const Run& target, const std::vector<Run>& sources) {
  int length = 0;
  for (const Run& source : sources) {
    if (source.application == target.application && source.kernels.size() == target.kernels.size()) {
      length = std::max(length, longest_length(source));
    }
  }
  return length;
}

Isocoupling isocouple(const Run& target, const std::vector<Run>& sources, std::optional<int> length) {
  if (target.problem_size <= 0) {
    throw std::invalid_argument(
        "the target has no problem size (augur_coupling_set_problem), so no "
        "configuration is nearer than another");
  }
  Isocoupling result;
  result.length = length ? *length : reuse_length(target, sources);
  if (result.length == 0) {
    throw std::invalid_argument("no configuration of '" + target.application +
                                "' with the same kernels has a complete set of chains to reuse");
  }
  result.candidates = reusable_runs(target, sources, result.length);
  result.summation = summation(target);
  if (has_length(target, result.length)) result.own = predict(target, result.length);
  for (const Candidate& candidate : result.candidates) {
    result.reused.push_back(predict_reusing(target, couplings(sources[candidate.index], result.length), result.length));
  }
  std::vector<bool> used(sources.size(), false);
  for (const Candidate& candidate : result.candidates) used[candidate.index] = true;
  for (std::size_t index = 0; index < sources.size(); ++index) {
    if (!used[index]) result.not_reusable.push_back(index);
  }
  return result;
}

std::vector<Reuse> reuse_each(const std::vector<Run>& runs, std::optional<int> length) {
  std::vector<Reuse> reuses;
  for (const Run& run : runs) {
    Reuse reuse;
    reuse.length = length.value_or(static_cast<int>(run.kernels.size()) - 1);
    const auto candidates = reusable_runs(run, runs, reuse.length);
    reuse.summation = summation(run);
    if (has_length(run, reuse.length)) reuse.own = predict(run, reuse.length);
    // The mean |error| of the sources with the target's processor count and with another.
    double same = 0, other = 0;
    int same_count = 0, other_count = 0;
    for (const Candidate& candidate : candidates) {
      const Prediction reused = predict_reusing(run, couplings(runs[candidate.index], reuse.length), reuse.length);
      if (!reuse.reused) {
        reuse.nearest = candidate.index;
        reuse.reused = reused;
      }
      if (!reused.error) continue;
      if (runs[candidate.index].processors() == run.processors()) {
        same += std::abs(*reused.error);
        ++same_count;
      } else {
        other += std::abs(*reused.error);
        ++other_count;
      }
    }
    if (same_count > 0) reuse.same_processors_error = same / same_count;
    if (other_count > 0) reuse.other_processors_error = other / other_count;
    reuses.push_back(std::move(reuse));
  }
  return reuses;
}

MeanErrors mean_errors(const std::vector<Reuse>& reuses) {
  MeanErrors means;
  for (const Reuse& reuse : reuses) means.add(reuse.summation, reuse.reused ? &*reuse.reused : nullptr);
  return means;
}

SizeSeries along_size(const std::vector<Run>& runs, std::optional<int> length, double threshold) {
  SizeSeries series;
  series.length = length.value_or(0);
  if (series.length == 0) {
    for (const Run& run : runs) series.length = std::max(series.length, longest_length(run));
  }
  if (series.length == 0) throw std::invalid_argument("no run has a complete set of chains");
  series.transitions = transitions(runs, series.length, threshold);
  for (std::size_t index = 0; index < runs.size(); ++index) series.order.push_back(index);
  const auto key = [&](std::size_t index) {
    const Run& run = runs[index];
    return std::make_tuple(run.application, run.machine.machine_class(), run.processors(), run.problem_size);
  };
  std::stable_sort(series.order.begin(), series.order.end(),
                   [&](std::size_t a, std::size_t b) { return key(a) < key(b); });
  for (const Run& run : runs) {
    if (!has_length(run, series.length)) {
      series.mean_coupling.push_back(std::nan(""));
      continue;
    }
    double sum = 0;
    const auto chains = couplings(run, series.length);
    for (const ChainCoupling& chain : chains) sum += chain.value;
    series.mean_coupling.push_back(sum / static_cast<double>(chains.size()));
  }
  return series;
}

}  // namespace augur::coupling
