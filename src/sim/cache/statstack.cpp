#include "sim/cache/statstack.hpp"

#include <algorithm>
#include <cassert>
#include <cmath>

namespace augur::sim::cache {

StatStackEstimate::StatStackEstimate(std::vector<std::uint64_t> reuse_distances, std::uint64_t unfinished)
    : unfinished_(unfinished) {
  std::sort(reuse_distances.begin(), reuse_distances.end());
  const double finished = static_cast<double>(reuse_distances.size());
  const double samples = finished + static_cast<double>(unfinished);
  stack_distances_.reserve(reuse_distances.size());
  // E[sd(d)] = sum_{k=1}^{d-1} P(D > k), accumulated over the sorted distances: between two consecutive
  // distinct distances v' < v, P(D > k) for k in [v', v) is the share of samples at or beyond v (the
  // finished ones from index i on, and the unfinished ones).
  double sum = 0.0;
  std::uint64_t previous = 1;
  for (std::size_t index = 0; index < reuse_distances.size(); ++index) {
    const std::uint64_t distance = reuse_distances[index];
    if (distance != previous) {
      const double beyond = finished - static_cast<double>(index) + static_cast<double>(unfinished);
      sum += static_cast<double>(distance - previous) * (beyond / samples);
      previous = distance;
    }
    stack_distances_.push_back(sum);
  }
}

double StatStackEstimate::miss_rate(std::uint64_t lines) const {
  if (samples() == 0) return 0.0;
  // Ascending expected stack distances: the misses are those from the first at or above `lines`.
  const auto first_miss = std::lower_bound(stack_distances_.begin(), stack_distances_.end(), static_cast<double>(lines));
  const auto misses = static_cast<std::uint64_t>(stack_distances_.end() - first_miss) + unfinished_;
  return static_cast<double>(misses) / static_cast<double>(samples());
}

std::uint64_t StatStackEstimate::floor_lines() const {
  if (stack_distances_.empty()) return 1;
  return static_cast<std::uint64_t>(std::floor(stack_distances_.back())) + 1;
}

StatStackSampler::StatStackSampler(std::uint64_t line_size, double sample_rate, std::uint64_t seed)
    : line_shift_(log2_of_power_of_two(line_size)), sample_rate_(sample_rate),
      log_keep_(sample_rate < 1.0 ? std::log1p(-sample_rate) : 0.0), random_(seed, 0) {
  assert(sample_rate > 0.0 && sample_rate <= 1.0 && "a sampling rate in (0, 1]");
  assert(line_size >= 2 && "a line of at least 2 bytes, so that line numbers stay below 2^63");
  next_sample_ = gap();
}

std::uint64_t StatStackSampler::gap() {
  if (sample_rate_ >= 1.0) return 0;
  // The number of failures before the first success of Bernoulli(sample_rate) trials: geometric.
  const double failures = std::floor(std::log(random_.uniform()) / log_keep_);
  constexpr double largest = 4.0e18;
  return failures >= largest ? static_cast<std::uint64_t>(largest) : static_cast<std::uint64_t>(failures);
}

void StatStackSampler::reference(std::uint64_t line) {
  const std::uint64_t position = references_++;
  if (!open_.empty()) {
    if (const std::uint64_t* start = open_.find(line)) {
      reuse_distances_.push_back(position - *start);
      open_.erase(line);
    }
  }
  if (position == next_sample_) {
    bool inserted = false;
    *open_.find_or_insert(line, inserted) = position;
    next_sample_ = position + 1 + gap();
  }
}

void StatStackSampler::add(std::span<const Access> accesses) {
  accesses_ += accesses.size();
  for (const Access& access : accesses) for_each_line(access, line_shift_, [this](std::uint64_t line) { reference(line); });
}

StatStackEstimate StatStackSampler::estimate() const { return StatStackEstimate(reuse_distances_, open_.size()); }

StatStackCurve statstack_curve(const StatStackSampler& sampler) {
  const StatStackEstimate estimate = sampler.estimate();
  StatStackCurve result;
  result.sample_rate = sampler.sample_rate();
  result.samples = estimate.samples();
  result.unfinished = estimate.unfinished();
  MissRateCurve& curve = result.curve;
  curve.line_size = std::uint64_t{1} << sampler.line_shift();
  curve.sets = 1;
  curve.accesses = sampler.accesses();
  curve.references = sampler.references();
  curve.cold_misses = 0;  // not measured: StatStack sees only its samples
  for (std::uint64_t lines : curve_ways(estimate.floor_lines(), false)) {
    curve.points.push_back(CurvePoint{lines * curve.line_size, lines, estimate.miss_rate(lines)});
  }
  return result;
}

StatStackCurve statstack_curve(AccessSource& source, std::uint64_t line_size, double sample_rate, std::uint64_t seed,
                               const std::function<void(std::uint64_t)>& progress) {
  StatStackSampler sampler(line_size, sample_rate, seed);
  read_batches(source, [&sampler](std::span<const Access> batch) { sampler.add(batch); }, progress);
  return statstack_curve(sampler);
}

}  // namespace augur::sim::cache
