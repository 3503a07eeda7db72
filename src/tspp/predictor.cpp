#include <algorithm>
#include <cmath>

#include "augur/tspp_predictor.hpp"
#include "transient.hpp"

namespace augur::tspp {
namespace {

constexpr int max_erlang_stages = 200;
// Above this many stages in total, Pr(X < Y) uses the normal approximation of the two Erlangs.
constexpr int normal_stages = 60;

struct Erlang {
  int stages = 1;
  double rate = 0.0;  // 0: the distribution is a point mass at 0
};

// The Erlang distribution with the mean and (as nearly as whole stages allow) the variance given.
Erlang fit(const Moments& moments) {
  if (moments.mean <= 0.0) return {1, 0.0};
  const double stages = moments.variance > 0.0 ? moments.mean * moments.mean / moments.variance : max_erlang_stages;
  Erlang erlang;
  erlang.stages = static_cast<int>(std::clamp(std::round(stages), 1.0, static_cast<double>(max_erlang_stages)));
  erlang.rate = erlang.stages / moments.mean;
  return erlang;
}

// E[min(X, Y)^r] for independent Erlangs X, Y:
//   r * sum_{a<k1} sum_{b<k2} l^a m^b (r-1+a+b)! / (a! b! (l+m)^(r+a+b))
double minimum_moment(const Erlang& x, const Erlang& y, int r) {
  const double total = x.rate + y.rate;
  double sum = 0.0;
  for (int a = 0; a < x.stages; ++a) {
    for (int b = 0; b < y.stages; ++b) {
      const double log_term = a * std::log(x.rate) + b * std::log(y.rate) + std::lgamma(r + a + b) - std::lgamma(a + 1) -
                              std::lgamma(b + 1) - (r + a + b) * std::log(total);
      sum += std::exp(log_term);
    }
  }
  return r * sum;
}

Moments add(const Moments& x, const Moments& y) { return {x.mean + y.mean, x.variance + y.variance}; }

// How two tasks relate in the series-parallel structure.
enum class Relation { Ordered, SameFork, Concurrent };

struct Step {
  const Node* node;
  std::size_t child;
};

class Predictor {
public:
  Predictor(const TaskSystem& system, const PredictorOptions& options)
      : system_(system), options_(options), tasks_(system.tasks.size()), resources_(system.resources.size()) {
    paths_.resize(tasks_);
    std::vector<Step> path;
    collect_paths(system.structure, path);
    relation_.assign(tasks_ * tasks_, Relation::Ordered);
    for (std::size_t i = 0; i < tasks_; ++i) {
      for (std::size_t j = 0; j < tasks_; ++j) {
        if (i != j) relation_[i * tasks_ + j] = relate(i, j);
      }
    }
  }

  Prediction run() {
    Prediction prediction;
    prediction.tasks.resize(tasks_);
    residence_.assign(tasks_ * resources_, 0.0);
    arrival_.assign(tasks_ * resources_, 0.0);
    theta_.assign(tasks_ * tasks_, 0.0);
    for (std::size_t i = 0; i < tasks_; ++i) {
      for (std::size_t k = 0; k < resources_; ++k) residence_[i * resources_ + k] = system_.tasks[i].demands[k];
    }
    double previous = -1.0;
    for (int iteration = 1; iteration <= options_.max_iterations; ++iteration) {
      prediction.iterations = iteration;
      // Step 2: start and end times from the current residence times.
      prediction.completion = reduce(system_.structure, Moments{}, prediction);
      const double completion = prediction.completion.mean;
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

private:
  void collect_paths(const Node& node, std::vector<Step>& path) {
    if (node.kind == Node::Kind::Task) {
      paths_[static_cast<std::size_t>(node.task)] = path;
      return;
    }
    for (std::size_t child = 0; child < node.children.size(); ++child) {
      path.push_back({&node, child});
      collect_paths(node.children[child], path);
      path.pop_back();
    }
  }

  // Below their common ancestor: ordered when it is serial; when it is parallel, forked from the
  // same point if each task is first in every serial group between the ancestor and itself.
  Relation relate(std::size_t i, std::size_t j) const {
    const auto& a = paths_[i];
    const auto& b = paths_[j];
    std::size_t depth = 0;
    while (depth < a.size() && depth < b.size() && a[depth].node == b[depth].node && a[depth].child == b[depth].child) ++depth;
    const Node* ancestor = a[depth].node;
    if (ancestor->kind == Node::Kind::Serial) return Relation::Ordered;
    auto first_everywhere = [depth](const std::vector<Step>& path) {
      for (std::size_t level = depth + 1; level < path.size(); ++level) {
        if (path[level].node->kind == Node::Kind::Serial && path[level].child != 0) return false;
      }
      return true;
    };
    return first_everywhere(a) && first_everywhere(b) ? Relation::SameFork : Relation::Concurrent;
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
        delay += system_.tasks[survivor_task].demands[k] / system_.resources[k].servers * theta_[survivor_task * tasks_ + ended] *
                 queue_share(ended, k);
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

  // Step 1: overlap factors and residence times (approximate MVA).
  void update_residence_times(const Prediction& prediction) {
    std::vector<double> residence = residence_;
    for (std::size_t i = 0; i < tasks_; ++i) {
      const double ri = task_residence(i);
      for (std::size_t j = 0; j < tasks_; ++j) {
        double& theta = theta_[i * tasks_ + j];
        theta = 0.0;
        if (i == j || ri <= 0.0) continue;
        const double rj = task_residence(j);
        if (rj <= 0.0) continue;
        double overlap = 0.0;  // p_ij
        switch (relation_[i * tasks_ + j]) {
          case Relation::Ordered: overlap = 0.0; break;
          case Relation::SameFork: overlap = 1.0; break;
          case Relation::Concurrent: {
            const TaskPrediction& a = prediction.tasks[i];
            const TaskPrediction& b = prediction.tasks[j];
            // p_ij = 1 - Pr(E_j < S_i) - Pr(E_i < S_j)
            overlap = std::clamp(1.0 - probability_less(b.end, a.start) - probability_less(a.end, b.start), 0.0, 1.0);
            break;
          }
        }
        const double expected_overlap = 1.0 / (1.0 / ri + 1.0 / rj);  // d_ij
        theta = overlap * expected_overlap / ri;                      // theta_ij = p_ij d_ij / R_i
      }
    }
    for (std::size_t i = 0; i < tasks_; ++i) {
      for (std::size_t k = 0; k < resources_; ++k) {
        double arrival = 0.0;  // A_ik = sum_j theta_ij Q_jk
        for (std::size_t j = 0; j < tasks_; ++j) arrival += theta_[i * tasks_ + j] * queue_share(j, k);
        arrival_[i * resources_ + k] = arrival;
        const Resource& resource = system_.resources[k];
        const double demand = system_.tasks[i].demands[k];
        if (resource.kind == Resource::Kind::Delay) {
          residence[i * resources_ + k] = demand;  // R_ik = D_ik
        } else {
          // R_ik = D_ik (1 + A_ik) for one server; c servers (Seidmann's approximation): a single
          // server c times faster plus a delay of the remaining (c - 1) / c of the demand.
          const double servers = resource.servers;
          residence[i * resources_ + k] = demand / servers * (1.0 + arrival) + demand * (servers - 1.0) / servers;
        }
      }
    }
    residence_ = residence;
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
  std::vector<std::vector<Step>> paths_;
  std::vector<Relation> relation_;
  std::vector<double> residence_;  // R_ik
  std::vector<double> arrival_;    // A_ik
  std::vector<double> theta_;      // theta_ij
};

}  // namespace

double Moments::deviation() const { return std::sqrt(std::max(variance, 0.0)); }

double probability_less(const Moments& x, const Moments& y) {
  if (x.mean <= 0.0) return y.mean > 0.0 ? 1.0 : 0.0;  // Pr(0 < Y)
  if (y.mean <= 0.0) return 0.0;                       // Pr(X < 0)
  const Erlang a = fit(x);
  const Erlang b = fit(y);
  if (a.stages + b.stages > normal_stages) {
    // Many stages: both Erlangs are close to normal; Pr(X < Y) = Phi((E[Y] - E[X]) / sd(Y - X)).
    const double spread = std::sqrt(a.stages / (a.rate * a.rate) + b.stages / (b.rate * b.rate));
    return 0.5 * std::erfc(-(y.mean - x.mean) / (spread * std::sqrt(2.0)));
  }
  // X < Y when, among the first k1 + k2 - 1 events of the two merged Poisson processes, at least k1
  // come from X's: sum over m >= k1 of C(n, m) p^m (1 - p)^(n - m), n = k1 + k2 - 1.
  const int events = a.stages + b.stages - 1;
  const double p = a.rate / (a.rate + b.rate);
  if (p >= 1.0) return 1.0;
  if (p <= 0.0) return 0.0;
  double term = std::exp(std::lgamma(events + 1) - std::lgamma(a.stages + 1) - std::lgamma(events - a.stages + 1) +
                         a.stages * std::log(p) + (events - a.stages) * std::log1p(-p));
  double sum = 0.0;
  for (int m = a.stages; m <= events; ++m) {
    sum += term;
    term *= static_cast<double>(events - m) / (m + 1) * p / (1.0 - p);  // C(n, m+1) / C(n, m) x p / (1 - p)
  }
  return std::clamp(sum, 0.0, 1.0);
}

Moments maximum(const Moments& x, const Moments& y) {
  if (x.mean <= 0.0) return y;
  if (y.mean <= 0.0) return x;
  const Erlang a = fit(x);
  const Erlang b = fit(y);
  const double first = minimum_moment(a, b, 1);
  const double second = minimum_moment(a, b, 2);
  const auto square = [](const Erlang& e) { return e.stages * (e.stages + 1.0) / (e.rate * e.rate); };
  // max = X + Y - min, for the first and the second moments.
  const double mean = x.mean + y.mean - first;
  const double square_mean = square(a) + square(b) - second;
  return {mean, std::max(0.0, square_mean - mean * mean)};
}

Prediction predict(const TaskSystem& system, const PredictorOptions& options) {
  if (options.method == Method::Transient) return predict_transient(system, options);
  return Predictor(system, options).run();
}

}  // namespace augur::tspp
