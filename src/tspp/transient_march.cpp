// The transient predictor's step 2 (docs/tspp.md, "The transient method"): every task's start, phase and
// end distributions marched through the series-parallel structure under the current service rates.
#include <algorithm>
#include <cmath>

#include "transient_model.hpp"

namespace augur::tspp::transient_model {

// Mass flows are per bin, spread evenly over it. march() returns the mass that leaves the node
// in each bin; with `record`, the tasks keep their distributions for step 1 and the outputs.
std::vector<double> Transient::march(int v, const std::vector<double>& in, bool record) {
  const FlatNode& node = nodes_[static_cast<std::size_t>(v)];
  switch (node.kind) {
    case Node::Kind::Task: return march_task(node.task, in, record);
    case Node::Kind::Serial: {
      std::vector<double> flow = in;
      for (int child : node.children) flow = march(child, flow, record);
      return flow;
    }
    case Node::Kind::Parallel: return march_parallel(node, in, record);
  }
  return in;
}

std::vector<double> Transient::march_task(int index, const std::vector<double>& in, bool record) {
  TaskModel& task = tasks_[static_cast<std::size_t>(index)];
  const std::size_t bins = in.size();
  std::vector<double> out(bins, 0.0);
  std::size_t first = 0;
  while (first < bins && in[first] <= 0.0) ++first;
  std::size_t last_in = bins;
  while (last_in > first && in[last_in - 1] <= 0.0) --last_in;
  double total_in = 0.0;
  for (std::size_t n = first; n < last_in; ++n) total_in += in[n];
  std::vector<std::vector<double>> occupancy;
  if (record) occupancy.assign(task.resources.size(), std::vector<double>(bins, 0.0));
  std::size_t last = first;
  if (task.phases.empty()) {
    out = in;
    last = last_in == 0 ? 0 : last_in - 1;
  } else {
    std::vector<double> present(task.phases.size(), 0.0);
    for (std::size_t n = first; n < bins; ++n) {
      double flow = in[n];
      double inside = 0.0;
      for (std::size_t p = 0; p < task.phases.size(); ++p) {
        const Phase& phase = task.phases[p];
        const double x = phase.rate * factor_at(task, phase.slot, static_cast<int>(n)) * step_;
        // Over one bin: of the mass present at its start, e stays and `kept` is there on average;
        // of the mass arriving evenly during it, `stays` stays and `arrived` is there on average.
        double e, kept, arrived;
        if (x < 1e-6) {
          e = 1.0 - x;
          kept = 1.0 - 0.5 * x;
          arrived = 0.5 - x / 6.0;
        } else {
          e = std::exp(-x);
          kept = (1.0 - e) / x;
          arrived = (x - 1.0 + e) / (x * x);
        }
        const double now = present[p] * e + flow * kept;  // the arrivals that stay: flow (1 - e) / x
        if (record) occupancy[static_cast<std::size_t>(phase.slot)][n] += present[p] * kept + flow * arrived;
        const double leaving = present[p] + flow - now;
        present[p] = now;
        flow = leaving;
        inside += now;
      }
      out[n] = flow;
      last = n;
      if (n + 1 >= last_in && inside <= negligible * std::max(total_in, negligible)) break;
    }
  }
  if (record) {
    task.mass = total_in;
    task.start = moments_of(in, step_, 0.5 * step_);
    task.end = moments_of(out, step_, 0.5 * step_);
    // The window: the bins where the task is at a resource with a probability that matters.
    std::size_t low = first;
    std::size_t high = last;
    auto there = [&occupancy](std::size_t n) {
      double sum = 0.0;
      for (const auto& slot : occupancy) sum += slot[n];
      return sum;
    };
    while (low < high && there(low) < present_threshold) ++low;
    while (high > low && there(high) < present_threshold) --high;
    task.occ_lo = static_cast<int>(low);
    task.occ_hi = total_in > 0.0 && there(low) >= present_threshold ? static_cast<int>(high) : -1;
    // A task much shorter than a bin is present with less than the threshold in every bin: the
    // window drops it, but its time at each resource is the whole sum (issue 15, item 10).
    task.time_at.assign(task.resources.size(), 0.0);
    for (std::size_t slot = 0; slot < occupancy.size(); ++slot) {
      for (double present : occupancy[slot]) task.time_at[slot] += present;
    }
    task.occupancy.assign(task.resources.size(), {});
    for (std::size_t slot = 0; slot < task.resources.size(); ++slot) {
      if (task.occ_hi < task.occ_lo) continue;
      task.occupancy[slot].assign(occupancy[slot].begin() + task.occ_lo, occupancy[slot].begin() + task.occ_hi + 1);
    }
  }
  return out;
}

// A parallel group ends when its last child does. The children share the group's start, so the
// maximum is taken over their durations from one start (the group's mean start bin), where they
// are independent given the service rates, and the result is convolved with the start.
std::vector<double> Transient::march_parallel(const FlatNode& node, const std::vector<double>& in, bool record) {
  const std::size_t bins = in.size();
  if (record) {
    for (int child : node.children) (void)march(child, in, true);
  }
  double total = 0.0;
  double weighted = 0.0;
  for (std::size_t n = 0; n < bins; ++n) {
    total += in[n];
    weighted += in[n] * static_cast<double>(n);
  }
  std::vector<double> out(bins, 0.0);
  if (total <= 0.0) return out;
  const auto origin = static_cast<std::size_t>(std::clamp(std::floor(weighted / total + 0.5), 0.0, static_cast<double>(bins - 1)));
  std::vector<double> impulse(bins, 0.0);
  impulse[origin] = 1.0;
  const std::size_t span = bins - origin;
  std::vector<double> both(span, 1.0);  // Pr(every child has ended within tau bins of the start)
  for (int child : node.children) {
    const std::vector<double> ended = march(child, impulse, false);
    double cumulative = 0.0;
    for (std::size_t tau = 0; tau < span; ++tau) {
      cumulative += ended[origin + tau];
      both[tau] *= std::min(cumulative, 1.0);
    }
  }
  std::vector<double> duration(span, 0.0);  // mass of the group's duration per bin
  std::size_t longest = 0;
  for (std::size_t tau = 0; tau < span; ++tau) {
    duration[tau] = std::max(0.0, both[tau] - (tau > 0 ? both[tau - 1] : 0.0));
    if (duration[tau] > negligible) longest = tau;
  }
  for (std::size_t m = 0; m < bins; ++m) {
    if (in[m] <= negligible * total) continue;
    const std::size_t limit = std::min(longest + 1, bins - m);
    for (std::size_t tau = 0; tau < limit; ++tau) out[m + tau] += in[m] * duration[tau];
  }
  return out;
}

}  // namespace augur::tspp::transient_model
