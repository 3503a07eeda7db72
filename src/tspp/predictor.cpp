#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "augur/tspp_predictor.hpp"
#include "decomposition.hpp"
#include "exact.hpp"
#include "hybrid.hpp"
#include "pruned.hpp"
#include "predictor_steps.hpp"
#include "transient.hpp"

namespace augur::tspp {
namespace {

bool finite(const Moments& m) { return std::isfinite(m.mean) && std::isfinite(m.variance); }
bool finite(const std::vector<double>& values) {
  return std::all_of(values.begin(), values.end(), [](double v) { return std::isfinite(v); });
}
bool finite(const Prediction& prediction) {
  if (!finite(prediction.completion)) return false;
  for (const TaskPrediction& task : prediction.tasks) {
    if (!finite(task.start) || !finite(task.residence) || !finite(task.end) || !finite(task.residence_at) ||
        !finite(task.arrival_queue) || !finite(task.queue_of_task)) {
      return false;
    }
  }
  return std::all_of(prediction.resources.begin(), prediction.resources.end(), [](const ResourcePrediction& r) {
    return std::isfinite(r.utilization) && std::isfinite(r.queue_length);
  });
}

Moments add(const Moments& x, const Moments& y) { return {x.mean + y.mean, x.variance + y.variance}; }

// How two tasks relate in the series-parallel structure.
enum class Relation { SameFork, Concurrent };  // (ordered pairs are never visited)

// The structure flattened: every node's parent, depth and range of tasks in depth-first order.
struct Flat {
  const Node* node = nullptr;
  int parent = -1;
  int depth = 0;
  std::size_t child = 0;  // index among the parent's children
  std::size_t lo = 0;     // tasks in depth-first positions [lo, hi)
  std::size_t hi = 0;
};

class Predictor {
public:
  Predictor(const TaskSystem& system, const PredictorOptions& options)
      : system_(system), options_(options), tasks_(system.tasks.size()), resources_(system.resources.size()) {
    leaf_.assign(tasks_, -1);
    std::vector<int> at_position;
    flatten(system.structure, -1, 0, 0, at_position);
    order_.resize(tasks_);
    for (std::size_t p = 0; p < tasks_; ++p) {
      order_[p] = static_cast<std::size_t>(flat_[static_cast<std::size_t>(at_position[p])].node->task);
      if (p > 0 && order_[p] < order_[p - 1]) monotone_ = false;
    }
    // The depth of the deepest serial group in which a task is not the first child (-1: none).
    not_first_.assign(tasks_, -1);
    for (std::size_t i = 0; i < tasks_; ++i) {
      for (int v = leaf_[i]; flat_[static_cast<std::size_t>(v)].parent >= 0; v = flat_[static_cast<std::size_t>(v)].parent) {
        const Flat& parent = flat_[static_cast<std::size_t>(flat_[static_cast<std::size_t>(v)].parent)];
        if (parent.node->kind == Node::Kind::Serial && flat_[static_cast<std::size_t>(v)].child != 0) {
          not_first_[i] = parent.depth;
          break;
        }
      }
    }
    // The pairs that siblings() reduces: the first two children of a parallel group, both tasks.
    sibling_.assign(tasks_, tasks_);
    sibling_theta_.assign(tasks_, 0.0);
    for (const Flat& flat : flat_) {
      const Node& node = *flat.node;
      if (node.kind != Node::Kind::Parallel || node.children.size() < 2) continue;
      if (node.children[0].kind != Node::Kind::Task || node.children[1].kind != Node::Kind::Task) continue;
      const auto a = static_cast<std::size_t>(node.children[0].task);
      const auto b = static_cast<std::size_t>(node.children[1].task);
      sibling_[a] = b;
      sibling_[b] = a;
    }
  }

  Prediction run() {
    Prediction prediction;
    prediction.tasks.resize(tasks_);
    residence_.assign(tasks_ * resources_, 0.0);
    arrival_.assign(tasks_ * resources_, 0.0);
    for (std::size_t i = 0; i < tasks_; ++i) {
      for (std::size_t k = 0; k < resources_; ++k) residence_[i * resources_ + k] = system_.tasks[i].demands[k];
    }
    double previous = -1.0;
    for (int iteration = 1; iteration <= options_.max_iterations; ++iteration) {
      prediction.iterations = iteration;
      // Step 2: start and end times from the current residence times.
      prediction.completion = reduce(system_.structure, Moments{}, prediction);
      const double completion = prediction.completion.mean;
      if (!std::isfinite(completion)) break;  // an overflow: predict() refuses the result
      if (previous >= 0.0 && std::fabs(completion - previous) <= options_.tolerance * std::max(previous, 1e-300)) {
        prediction.converged = true;
        break;
      }
      previous = completion;
      // Step 1: residence times from the overlaps the start and end times imply.
      update_residence_times(prediction);
    }
    // Not converged: the loop ended on a step 1; one more step 2 makes the times agree with it.
    if (!prediction.converged) prediction.completion = reduce(system_.structure, Moments{}, prediction);
    fill_outputs(prediction);
    return prediction;
  }

  // Step 2 alone on given residence times, with the sibling rule's overlap factors from one step 1 on them.
  Moments reduce_given(const std::vector<double>& given) {
    Prediction prediction;
    prediction.tasks.resize(tasks_);
    residence_ = given;
    arrival_.assign(tasks_ * resources_, 0.0);
    (void)reduce(system_.structure, Moments{}, prediction);
    update_residence_times(prediction);
    residence_ = given;
    return reduce(system_.structure, Moments{}, prediction);
  }

private:
  // Returns the end of the node's range of depth-first positions.
  std::size_t flatten(const Node& node, int parent, std::size_t child, std::size_t lo, std::vector<int>& at_position) {
    const int id = static_cast<int>(flat_.size());
    const int depth = parent < 0 ? 0 : flat_[static_cast<std::size_t>(parent)].depth + 1;
    flat_.push_back({&node, parent, depth, child, lo, lo});
    std::size_t hi = lo;
    if (node.kind == Node::Kind::Task) {
      leaf_[static_cast<std::size_t>(node.task)] = id;
      at_position.push_back(id);
      hi = lo + 1;
    } else {
      for (std::size_t c = 0; c < node.children.size(); ++c) hi = flatten(node.children[c], id, c, hi, at_position);
    }
    flat_[static_cast<std::size_t>(id)].hi = hi;
    return hi;
  }

  // The tasks j that are not ordered with task i (ordered pairs have theta_ij = 0), in increasing
  // order, each with the depth of the parallel group that is their lowest common ancestor with i.
  void partners(std::size_t i, std::vector<std::pair<std::size_t, int>>& out) const {
    out.clear();
    struct Range {
      std::size_t lo, hi;
      int depth;
    };
    std::vector<Range> ranges;  // at most two per ancestor, disjoint
    for (int v = leaf_[i]; flat_[static_cast<std::size_t>(v)].parent >= 0; v = flat_[static_cast<std::size_t>(v)].parent) {
      const Flat& child = flat_[static_cast<std::size_t>(v)];
      const Flat& parent = flat_[static_cast<std::size_t>(child.parent)];
      if (parent.node->kind != Node::Kind::Parallel) continue;
      if (parent.lo < child.lo) ranges.push_back({parent.lo, child.lo, parent.depth});
      if (child.hi < parent.hi) ranges.push_back({child.hi, parent.hi, parent.depth});
    }
    std::sort(ranges.begin(), ranges.end(), [](const Range& a, const Range& b) { return a.lo < b.lo; });
    for (const Range& range : ranges) {
      for (std::size_t p = range.lo; p < range.hi; ++p) out.emplace_back(order_[p], range.depth);
    }
    // Tasks declared in depth-first order (as gen-tasks writes them) come out in order already.
    if (!monotone_) std::sort(out.begin(), out.end());
  }

  // Below their common ancestor, a parallel group at `depth`: forked from the same point if each
  // task is first in every serial group between the ancestor and itself.
  [[nodiscard]] Relation relate(std::size_t i, std::size_t j, int depth) const {
    return not_first_[i] <= depth && not_first_[j] <= depth ? Relation::SameFork : Relation::Concurrent;
  }

  [[nodiscard]] double task_residence(std::size_t i) const {
    double sum = 0.0;
    for (std::size_t k = 0; k < resources_; ++k) sum += residence_[i * resources_ + k];
    return sum;
  }
  [[nodiscard]] double queue_share(std::size_t i, std::size_t k) const {
    const double total = task_residence(i);
    return total > 0.0 ? residence_[i * resources_ + k] / total : 0.0;
  }

  // Step 2 on one node starting at `start`; returns the node's duration and records the tasks' times.
  Moments reduce(const Node& node, const Moments& start, Prediction& prediction) {
    if (node.kind == Node::Kind::Task) {
      const auto i = static_cast<std::size_t>(node.task);
      const double r = task_residence(i);
      Moments residence{r, r * r};  // residence times taken as exponential (the seed's Figure 12)
      if (options_.residence == ResidenceDistribution::Phases) {
        // One exponential phase per resource: the variance is the sum of the phases' squares.
        residence.variance = 0.0;
        for (std::size_t k = 0; k < resources_; ++k) residence.variance += residence_[i * resources_ + k] * residence_[i * resources_ + k];
      }
      TaskPrediction& task = prediction.tasks[i];
      task.start = start;
      task.residence = residence;
      task.end = add(start, residence);
      return residence;
    }
    if (node.kind == Node::Kind::Serial) {
      Moments at = start;
      Moments total;
      for (const Node& child : node.children) {
        const Moments duration = reduce(child, at, prediction);
        at = add(at, duration);
        total = add(total, duration);
      }
      return total;
    }
    // Parallel: the children's durations share the group's start; reduce them two at a time.
    Moments combined = reduce(node.children[0], start, prediction);
    bool single_task = node.children[0].kind == Node::Kind::Task;
    for (std::size_t child = 1; child < node.children.size(); ++child) {
      const Moments next = reduce(node.children[child], start, prediction);
      if (single_task && node.children[child].kind == Node::Kind::Task) {
        combined = siblings(static_cast<std::size_t>(node.children[0].task), static_cast<std::size_t>(node.children[child].task));
      } else {
        combined = maximum(combined, next);
      }
      single_task = false;
    }
    return combined;
  }

  // Two sibling tasks: the first of the two to end (exponentials), then the survivor, which no longer
  // waits for its sibling: its residence time less half the queueing delay the sibling caused it.
  Moments siblings(std::size_t i, std::size_t j) const {
    const double ri = task_residence(i);
    const double rj = task_residence(j);
    if (ri <= 0.0 || rj <= 0.0) return maximum({ri, ri * ri}, {rj, rj * rj});
    const double rate_i = 1.0 / ri;
    const double rate_j = 1.0 / rj;
    const double both = rate_i + rate_j;
    auto survivor = [&](std::size_t survivor_task, std::size_t ended) {
      double delay = 0.0;  // sum_k D_sk * theta_se * Q_ek
      for (std::size_t k = 0; k < resources_; ++k) {
        if (system_.resources[k].kind == Resource::Kind::Delay) continue;
        // The queueing part of R_sk is D_sk / c x A_sk (Seidmann's form; c = 1 for one server).
        const double theta = sibling_[survivor_task] == ended ? sibling_theta_[survivor_task] : 0.0;
        delay += system_.tasks[survivor_task].demands[k] / system_.resources[k].servers * theta * queue_share(ended, k);
      }
      return std::max(0.0, task_residence(survivor_task) - 0.5 * delay);
    };
    const double after_i = survivor(j, i);  // i ended first, j goes on
    const double after_j = survivor(i, j);
    const double i_first = rate_i / both;
    const double j_first = rate_j / both;
    const double survivor_mean = i_first * after_i + j_first * after_j;
    const double survivor_square = 2.0 * (i_first * after_i * after_i + j_first * after_j * after_j);
    return {1.0 / both + survivor_mean, 1.0 / (both * both) + survivor_square - survivor_mean * survivor_mean};
  }

  // Step 1: overlap factors and residence times (approximate MVA). Only the pairs that are not
  // ordered are visited (theta_ij = 0 for the others), in the order of j, so that the sums are the
  // same, to the bit, as over every pair; nothing is kept per pair.
  void update_residence_times(const Prediction& prediction) {
    std::vector<double> total(tasks_);                   // R_j
    std::vector<double> share(tasks_ * resources_);      // Q_jk
    for (std::size_t j = 0; j < tasks_; ++j) {
      total[j] = task_residence(j);
      for (std::size_t k = 0; k < resources_; ++k) share[j * resources_ + k] = queue_share(j, k);
    }
    std::vector<double> residence(tasks_ * resources_);
    std::vector<std::pair<std::size_t, int>> others;
    std::vector<double> arrival(resources_);  // A_ik = sum_j theta_ij Q_jk
    for (std::size_t i = 0; i < tasks_; ++i) {
      const double ri = total[i];
      std::fill(arrival.begin(), arrival.end(), 0.0);
      sibling_theta_[i] = 0.0;
      others.clear();
      if (ri > 0.0) partners(i, others);
      for (const auto& [j, depth] : others) {
        const double rj = total[j];
        if (rj <= 0.0) continue;
        double overlap = 1.0;  // p_ij: 1 for two tasks forked from the same point
        if (relate(i, j, depth) == Relation::Concurrent) {
          const TaskPrediction& a = prediction.tasks[i];
          const TaskPrediction& b = prediction.tasks[j];
          // p_ij = 1 - Pr(E_j < S_i) - Pr(E_i < S_j)
          overlap = std::clamp(1.0 - probability_less(b.end, a.start) - probability_less(a.end, b.start), 0.0, 1.0);
        }
        const double expected_overlap = 1.0 / (1.0 / ri + 1.0 / rj);  // d_ij
        const double theta = overlap * expected_overlap / ri;          // theta_ij = p_ij d_ij / R_i
        if (j == sibling_[i]) sibling_theta_[i] = theta;
        for (std::size_t k = 0; k < resources_; ++k) arrival[k] += theta * share[j * resources_ + k];
      }
      for (std::size_t k = 0; k < resources_; ++k) {
        arrival_[i * resources_ + k] = arrival[k];
        const Resource& resource = system_.resources[k];
        const double demand = system_.tasks[i].demands[k];
        if (resource.kind == Resource::Kind::Delay) {
          residence[i * resources_ + k] = demand;  // R_ik = D_ik
        } else {
          // R_ik = D_ik (1 + A_ik) for one server; c servers (Seidmann's approximation): a single
          // server c times faster plus a delay of the remaining (c - 1) / c of the demand.
          const double servers = resource.servers;
          residence[i * resources_ + k] = demand / servers * (1.0 + arrival[k]) + demand * (servers - 1.0) / servers;
        }
      }
    }
    residence_ = std::move(residence);
  }

  void fill_outputs(Prediction& prediction) const {
    const double completion = prediction.completion.mean;
    prediction.resources.assign(resources_, {});
    for (std::size_t i = 0; i < tasks_; ++i) {
      TaskPrediction& task = prediction.tasks[i];
      task.residence_at.assign(residence_.begin() + static_cast<long>(i * resources_),
                               residence_.begin() + static_cast<long>((i + 1) * resources_));
      task.arrival_queue.assign(arrival_.begin() + static_cast<long>(i * resources_),
                                arrival_.begin() + static_cast<long>((i + 1) * resources_));
      task.queue_of_task.resize(resources_);
      for (std::size_t k = 0; k < resources_; ++k) {
        task.queue_of_task[k] = queue_share(i, k);
        if (completion <= 0.0) continue;
        const Resource& resource = system_.resources[k];
        const double servers = resource.kind == Resource::Kind::Delay ? 1.0 : resource.servers;
        prediction.resources[k].utilization += system_.tasks[i].demands[k] / (servers * completion);
        prediction.resources[k].queue_length += residence_[i * resources_ + k] / completion;
      }
    }
  }

  const TaskSystem& system_;
  PredictorOptions options_;
  std::size_t tasks_;
  std::size_t resources_;
  std::vector<Flat> flat_;           // the structure's nodes, depth-first
  std::vector<int> leaf_;            // task -> its node in flat_
  std::vector<std::size_t> order_;   // depth-first position -> task
  bool monotone_ = true;             // order_ increases: tasks declared in depth-first order
  std::vector<int> not_first_;       // task -> depth of the deepest serial group it is not first in
  std::vector<std::size_t> sibling_;       // task -> the other task of its siblings() pair (tasks_: none)
  std::vector<double> sibling_theta_;      // task -> theta with that sibling
  std::vector<double> residence_;  // R_ik
  std::vector<double> arrival_;    // A_ik
};

}  // namespace

unsigned long long concurrent_pairs(const TaskSystem& system) {
  unsigned long long pairs = 0;
  // Returns the number of tasks under the node.
  const auto count = [&pairs](const auto& self, const Node& node) -> unsigned long long {
    if (node.kind == Node::Kind::Task) return 1;
    unsigned long long size = 0;
    unsigned long long within = 0;  // sum of the children's sizes squared
    for (const Node& child : node.children) {
      const unsigned long long part = self(self, child);
      size += part;
      within += part * part;
    }
    if (node.kind == Node::Kind::Parallel) pairs += (size * size - within) / 2;
    return size;
  };
  (void)count(count, system.structure);
  return pairs;
}

Moments reduce_with_residence_times(const TaskSystem& system, const PredictorOptions& options,
                                    const std::vector<double>& residence_at) {
  return Predictor(system, options).reduce_given(residence_at);
}

Prediction predict(const TaskSystem& system, const PredictorOptions& options) {
  Prediction prediction;
  if (options.method == Method::Transient) {
    prediction = predict_transient(system, options);
  } else if (options.method == Method::Exact) {
    prediction = predict_exact(system, options);
  } else if (options.method == Method::Decomposition) {
    prediction = predict_decomposition(system, options);
  } else if (options.method == Method::Hybrid) {
    prediction = predict_hybrid(system, options);
  } else if (options.method == Method::Pruned) {
    prediction = predict_pruned(system, options);
  } else {
    if (const unsigned long long pairs = concurrent_pairs(system); pairs > max_concurrent_pairs) {
      throw std::invalid_argument("the seed's method handles at most " + std::to_string(max_concurrent_pairs) +
                                  " pairs of tasks that may run at the same time (this system has " + std::to_string(pairs) +
                                  "; its time grows with their number)");
    }
    prediction = Predictor(system, options).run();
  }
  if (!finite(prediction)) {
    throw std::runtime_error("the prediction is not finite (an overflow in the iteration after " +
                             std::to_string(prediction.iterations) + " iterations)");
  }
  return prediction;
}

}  // namespace augur::tspp
