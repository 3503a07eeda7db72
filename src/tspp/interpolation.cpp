#include "interpolation.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

#include "network_limit.hpp"

namespace augur::tspp {
namespace {

void add_moments(Moments& into, const Moments& from, double weight) {
  into.mean += weight * from.mean;
  into.variance += weight * from.variance;
}

void add_values(std::vector<double>& into, const std::vector<double>& from, double weight) {
  into.resize(from.size(), 0.0);
  for (std::size_t j = 0; j < from.size(); ++j) into[j] += weight * from[j];
}

// sum_j weights[j] * predictions[j], field by field (the variances too, then floored at 0: the weights of a
// parabola are not all positive).
Prediction combine(const std::vector<Prediction>& predictions, const std::vector<double>& weights) {
  Prediction sum;
  sum.converged = true;
  sum.tasks.resize(predictions[0].tasks.size());
  sum.resources.resize(predictions[0].resources.size());
  for (std::size_t j = 0; j < predictions.size(); ++j) {
    const Prediction& term = predictions[j];
    const double weight = weights[j];
    add_moments(sum.completion, term.completion, weight);
    for (std::size_t i = 0; i < sum.tasks.size(); ++i) {
      add_moments(sum.tasks[i].start, term.tasks[i].start, weight);
      add_moments(sum.tasks[i].residence, term.tasks[i].residence, weight);
      add_moments(sum.tasks[i].end, term.tasks[i].end, weight);
      add_values(sum.tasks[i].residence_at, term.tasks[i].residence_at, weight);
      add_values(sum.tasks[i].arrival_queue, term.tasks[i].arrival_queue, weight);
      add_values(sum.tasks[i].queue_of_task, term.tasks[i].queue_of_task, weight);
    }
    for (std::size_t k = 0; k < sum.resources.size(); ++k) {
      sum.resources[k].utilization += weight * term.resources[k].utilization;
      sum.resources[k].queue_length += weight * term.resources[k].queue_length;
    }
  }
  sum.completion.variance = std::max(0.0, sum.completion.variance);
  for (auto& task : sum.tasks) {
    for (Moments* moments : {&task.start, &task.residence, &task.end}) moments->variance = std::max(0.0, moments->variance);
  }
  return sum;
}

}  // namespace

std::vector<double> lagrange_weights(const std::vector<double>& nodes, double x) {
  std::vector<double> weights(nodes.size(), 1.0);
  for (std::size_t j = 0; j < nodes.size(); ++j) {
    for (std::size_t m = 0; m < nodes.size(); ++m) {
      if (m != j) weights[j] *= (x - nodes[m]) / (nodes[j] - nodes[m]);
    }
  }
  return weights;
}

std::optional<Prediction> predict_interpolated(const TaskSystem& system, const PredictorOptions& options,
                                               const std::function<std::optional<Prediction>(int)>& at) {
  const int visits = options.visits;
  if (visits < 2 || options.stages != 1) return std::nullopt;
  std::vector<std::pair<int, Prediction>> anchors;  // the chains that fit, by visits
  for (int v = 1; v <= std::min(interpolation_anchor_visits, visits - 1); ++v) {
    std::optional<Prediction> anchor = at(v);
    if (!anchor) break;
    anchors.emplace_back(v, std::move(*anchor));
  }
  if (anchors.empty()) return std::nullopt;
  if (anchors.size() > 2) anchors.erase(anchors.begin(), anchors.end() - 2);
  std::vector<Prediction> terms = {network_limit(system)};
  std::vector<double> nodes = {0.0};
  for (auto& [v, prediction] : anchors) {
    nodes.push_back(1.0 / std::sqrt(static_cast<double>(v)));
    terms.push_back(std::move(prediction));
  }
  Prediction prediction = combine(terms, lagrange_weights(nodes, 1.0 / std::sqrt(static_cast<double>(visits))));
  for (const Prediction& term : terms) prediction.states += term.states;
  return prediction;
}

}  // namespace augur::tspp
