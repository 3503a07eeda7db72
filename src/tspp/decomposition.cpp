#include "decomposition.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <unordered_map>

#include "exact_chain.hpp"
#include "network_limit.hpp"
#include "structure_walk.hpp"

namespace augur::tspp {

// The residence times R_ik of the active tasks in their closed network, each task a class of one customer
// that cycles over its resources (Bard-Schweitzer MVA: a customer finds the others' mean queues,
// A_ik = sum_{j != i} Q_jk with Q_jk = R_jk / R_j). Into `residence`, |active| x resources.
void closed_network(const TaskSystem& system, const std::vector<int>& active, std::vector<double>& residence) {
  const std::size_t resources = system.resources.size();
  const std::size_t count = active.size();
  residence.assign(count * resources, 0.0);
  for (std::size_t a = 0; a < count; ++a) {
    for (std::size_t k = 0; k < resources; ++k) residence[a * resources + k] = system.tasks[static_cast<std::size_t>(active[a])].demands[k];
  }
  if (count < 2) return;
  std::vector<double> share(count * resources);
  std::vector<double> queue(resources);
  for (int iteration = 0; iteration < 500; ++iteration) {
    std::fill(queue.begin(), queue.end(), 0.0);
    for (std::size_t a = 0; a < count; ++a) {
      double total = 0.0;
      for (std::size_t k = 0; k < resources; ++k) total += residence[a * resources + k];
      for (std::size_t k = 0; k < resources; ++k) {
        share[a * resources + k] = total > 0.0 ? residence[a * resources + k] / total : 0.0;
        queue[k] += share[a * resources + k];
      }
    }
    double change = 0.0;
    for (std::size_t a = 0; a < count; ++a) {
      for (std::size_t k = 0; k < resources; ++k) {
        const Resource& resource = system.resources[k];
        const double demand = system.tasks[static_cast<std::size_t>(active[a])].demands[k];
        double next = demand;
        if (resource.kind == Resource::Kind::Queuing && demand > 0.0) {
          const double servers = resource.servers;
          const double found = queue[k] - share[a * resources + k];
          next = demand / servers * (1.0 + found) + demand * (servers - 1.0) / servers;  // Seidmann for c servers
        }
        double& current = residence[a * resources + k];
        change = std::max(change, std::fabs(next - current) / std::max(next, 1e-300));
        current = next;
      }
    }
    if (change < 1e-10) return;
  }
}

namespace {

using exact::Chain;
using exact::ended;
using exact::not_started;
using exact::StateIndex;

// The number of exponential phases of each task: the inverse of the squared coefficient of variation of
// its service alone (V visit cycles of S stages over its resources), at most `cap`; 0 for no demand.
std::vector<int> phase_counts(const TaskSystem& system, const PredictorOptions& options, int cap) {
  std::vector<int> phases;
  const double visits_stages = static_cast<double>(std::max(options.visits, 1)) * std::max(options.stages, 1);
  for (const Task& task : system.tasks) {
    double total = 0.0;
    double squares = 0.0;
    for (double demand : task.demands) {
      total += demand;
      squares += demand * demand;
    }
    if (total <= 0.0) {
      phases.push_back(0);
      continue;
    }
    const double variation = squares / (visits_stages * total * total);  // SCV of the service
    phases.push_back(std::clamp(static_cast<int>(std::lround(1.0 / variation)), 1, cap));
  }
  return phases;
}

// The chain of the decomposition: a state holds each task's status (not started, phase p of m_i, ended);
// in a state, task i leaves its phase at rate m_i / R_i(A), R_i(A) its residence time in the closed
// network of the active tasks A. Alongside, the time-weighted R_ik / R_i and queues found, per task.
class DecompositionBuilder {
public:
  DecompositionBuilder(const TaskSystem& system, std::vector<int> phases)
      : system_(system), walk_(system), phases_(std::move(phases)), index_(chain_, ~std::size_t{0}, "the decomposition method") {
    chain_.tasks = system.tasks.size();
    chain_.resources = system.resources.size();
    chain_.width = chain_.tasks;
    share_time.assign(chain_.tasks * chain_.resources, 0.0);
    found_time.assign(chain_.tasks * chain_.resources, 0.0);
  }

  Chain build() {
    std::vector<std::uint16_t> state(chain_.width, not_started);
    std::vector<int> started;
    walk_.start(StructureWalk::root, started);
    begin(state, started);
    index_.intern(state);
    chain_.reach[0] = 1.0;
    chain_.first.push_back(0);
    std::vector<std::uint16_t> current(chain_.width);
    for (std::size_t s = 0; s < chain_.states(); ++s) {
      std::copy_n(chain_.state(s), chain_.width, current.begin());
      expand(s, current);
    }
    return std::move(chain_);
  }

  std::vector<double> share_time;  // task x resource: sum over states of time x R_ik / R_i
  std::vector<double> found_time;  // task x resource: sum over states of time x A_ik

private:
  const TaskSystem& system_;
  StructureWalk walk_;
  std::vector<int> phases_;
  Chain chain_;
  StateIndex index_;
  std::unordered_map<std::string, std::vector<double>> networks_;  // active set -> R_ik
  std::vector<int> active_;
  std::vector<std::uint16_t> next_;
  std::vector<std::pair<std::uint32_t, double>> successors_;

  [[nodiscard]] static bool running(std::uint16_t status) { return status != not_started && status != ended; }

  void begin(std::vector<std::uint16_t>& state, std::vector<int>& started) const {
    for (std::size_t next = 0; next < started.size(); ++next) {
      const auto task = static_cast<std::size_t>(started[next]);
      if (phases_[task] == 0) {
        state[task] = ended;
        walk_.after_end(static_cast<int>(task), [&state](int j) { return state[static_cast<std::size_t>(j)] == ended; }, started);
      } else {
        state[task] = 1;
      }
    }
  }

  const std::vector<double>& network(const std::vector<std::uint16_t>& state) {
    std::string key(chain_.tasks, '0');
    for (int task : active_) key[static_cast<std::size_t>(task)] = '1';
    auto [where, added] = networks_.try_emplace(std::move(key));
    if (added) closed_network(system_, active_, where->second);
    (void)state;
    return where->second;
  }

  void expand(std::size_t s, const std::vector<std::uint16_t>& current) {
    active_.clear();
    for (std::size_t task = 0; task < chain_.tasks; ++task) {
      if (running(current[task])) active_.push_back(static_cast<int>(task));
    }
    const std::vector<double>& residence = network(current);
    const std::size_t resources = chain_.resources;
    successors_.clear();
    double total = 0.0;
    std::vector<double> cycle(active_.size(), 0.0);
    for (std::size_t a = 0; a < active_.size(); ++a) {
      const auto task = static_cast<std::size_t>(active_[a]);
      for (std::size_t k = 0; k < resources; ++k) cycle[a] += residence[a * resources + k];
      const double rate = phases_[task] / cycle[a];
      next_ = current;
      if (next_[task] < phases_[task]) {
        ++next_[task];
      } else {
        next_[task] = ended;
        std::vector<int> started;
        walk_.after_end(static_cast<int>(task), [this](int j) { return next_[static_cast<std::size_t>(j)] == ended; }, started);
        begin(next_, started);
      }
      successors_.emplace_back(index_.intern(next_), rate);
      total += rate;
    }
    chain_.exit_rate[s] = total;
    if (total > 0.0) account(s, residence, cycle, total);
    for (const auto& [target, rate] : successors_) {
      chain_.target.push_back(target);
      chain_.probability.push_back(rate / total);
      chain_.reach[target] += chain_.reach[s] * rate / total;
    }
    chain_.first.push_back(static_cast<std::uint32_t>(chain_.target.size()));
  }

  // The time in state s, shared out over the resources of each active task, and the queues it finds there.
  void account(std::size_t s, const std::vector<double>& residence, const std::vector<double>& cycle, double total) {
    const double time = chain_.reach[s] / total;
    const std::size_t resources = chain_.resources;
    for (std::size_t a = 0; a < active_.size(); ++a) {
      const auto task = static_cast<std::size_t>(active_[a]);
      for (std::size_t k = 0; k < resources; ++k) {
        const double demand = system_.tasks[task].demands[k];
        share_time[task * resources + k] += time * residence[a * resources + k] / cycle[a];
        if (demand > 0.0) found_time[task * resources + k] += time * (residence[a * resources + k] / demand - 1.0);
      }
    }
  }
};

}  // namespace

double chain_states(const Node& node, const std::vector<int>& phases) {
  if (node.kind == Node::Kind::Task) return std::max(phases[static_cast<std::size_t>(node.task)], 1);
  double count = node.kind == Node::Kind::Serial ? 0.0 : 1.0;
  for (const Node& child : node.children) {
    if (node.kind == Node::Kind::Serial) count += chain_states(child, phases);
    else count *= chain_states(child, phases) + 1.0;
  }
  return node.kind == Node::Kind::Serial ? count : count - 1.0;
}

bool decomposition_fits_uncapped(const TaskSystem& system, const PredictorOptions& options, std::size_t max_states) {
  const std::vector<int> wanted = phase_counts(system, options, 1 << 20);
  if (std::any_of(wanted.begin(), wanted.end(), [](int phases) { return phases > max_decomposition_phases; })) return false;
  return chain_states(system.structure, wanted) + 1.0 <= static_cast<double>(max_states);
}

int decomposition_phase_cap(const TaskSystem& system, const PredictorOptions& options, std::size_t max_states) {
  for (int cap = max_decomposition_phases; cap >= 1; --cap) {
    if (chain_states(system.structure, phase_counts(system, options, cap)) + 1.0 <= static_cast<double>(max_states)) return cap;
  }
  return 0;
}

}  // namespace augur::tspp

namespace augur::tspp {
namespace {

// The chain for these phases: the times, and each task's share of its time at each resource and the
// queues it finds there (time averages over its residence) in residence_at and arrival_queue.
Prediction solve(const TaskSystem& system, const std::vector<int>& phases) {
  DecompositionBuilder builder(system, phases);
  const Chain chain = builder.build();
  Prediction prediction;
  prediction.states = chain.states();
  prediction.converged = true;
  exact::fill_times(chain, prediction);
  const std::size_t resources = chain.resources;
  for (std::size_t i = 0; i < chain.tasks; ++i) {
    TaskPrediction& task = prediction.tasks[i];
    task.residence_at.assign(resources, 0.0);
    task.arrival_queue.assign(resources, 0.0);
    const double active = task.residence.mean;
    if (active <= 0.0) continue;
    for (std::size_t k = 0; k < resources; ++k) {
      task.residence_at[k] = builder.share_time[i * resources + k] / active;
      task.arrival_queue[k] = builder.found_time[i * resources + k] / active;
    }
  }
  return prediction;
}

// The demand-weighted mean of 1 / m_i over the tasks: the variability the phases give the work.
double inverse_phases(const TaskSystem& system, const std::vector<int>& phases) {
  double weighted = 0.0;
  double total = 0.0;
  for (std::size_t i = 0; i < system.tasks.size(); ++i) {
    if (phases[i] == 0) continue;
    double demand = 0.0;
    for (double value : system.tasks[i].demands) demand += value;
    weighted += demand / phases[i];
    total += demand;
  }
  return total > 0.0 ? weighted / total : 0.0;
}

// The completion time's and every task's start and end means, each combine(own, the other prediction's);
// a task ends no earlier than it starts.
template <typename Combine>
void combine_means(Prediction& prediction, const Prediction& other, Combine combine) {
  prediction.completion.mean = combine(prediction.completion.mean, other.completion.mean);
  for (std::size_t i = 0; i < prediction.tasks.size(); ++i) {
    TaskPrediction& task = prediction.tasks[i];
    task.start.mean = combine(task.start.mean, other.tasks[i].start.mean);
    task.end.mean = std::max(task.start.mean, combine(task.end.mean, other.tasks[i].end.mean));
    task.residence.mean = task.end.mean - task.start.mean;
  }
}

// One phase per task when more are wanted: the means are interpolated in x = sqrt(mean 1 / m) (the tasks'
// coefficient of variation) between the chain's (x_1) and the network limit's (x = 0: with m -> infinity
// each task does its work at the steady rate 1 / R_i(A), network_limit.hpp), at the phases wanted.
void interpolate_from_limit(const TaskSystem& system, double here, double wanted, Prediction& prediction) {
  const double weight = std::sqrt(wanted / here);  // of the chain; 1 - weight of the limit
  combine_means(prediction, network_limit(system), [weight](double chain, double steady) { return std::max(0.0, steady + weight * (chain - steady)); });
}

// When the limit of states capped the phases, the means are carried on, linearly in the mean 1 / m,
// from a chain with half the cap and this one to the phases wanted; with one phase per task, interpolated
// from the network limit instead.
void extrapolate(const TaskSystem& system, const PredictorOptions& options, int cap, Prediction& prediction) {
  const double wanted = inverse_phases(system, phase_counts(system, options, 1 << 20));
  const double here = inverse_phases(system, phase_counts(system, options, cap));
  if (here <= wanted * (1.0 + 1e-12)) return;
  if (cap < 2) {
    interpolate_from_limit(system, here, wanted, prediction);
    return;
  }
  const int coarse_cap = cap / 2;
  const Prediction coarse = solve(system, phase_counts(system, options, coarse_cap));
  const double there = inverse_phases(system, phase_counts(system, options, coarse_cap));
  if (there <= here) return;
  const double step = (wanted - here) / (here - there);  // in units of the last difference
  combine_means(prediction, coarse, [step](double fine, double coarser) { return std::max(0.0, fine + step * (fine - coarser)); });
}

}  // namespace

Prediction predict_decomposition(const TaskSystem& system, const PredictorOptions& options) {
  const std::size_t limit = options.max_states > 0 ? options.max_states : max_decomposition_states;
  const int cap = decomposition_phase_cap(system, options, limit);
  if (cap == 0) {
    throw std::invalid_argument("the decomposition method handles at most " + std::to_string(limit) +
                                " states, and this system has more even with one phase per task (use another method)");
  }
  Prediction prediction = solve(system, phase_counts(system, options, cap));
  extrapolate(system, options, cap, prediction);
  const std::size_t resources = system.resources.size();
  const double completion = prediction.completion.mean;
  prediction.resources.assign(resources, {});
  for (std::size_t i = 0; i < system.tasks.size(); ++i) {
    TaskPrediction& task = prediction.tasks[i];
    task.queue_of_task = task.residence_at;  // the shares, so far
    for (std::size_t k = 0; k < resources; ++k) {
      task.residence_at[k] = task.queue_of_task[k] * task.residence.mean;
      if (completion <= 0.0) continue;
      const Resource& resource = system.resources[k];
      const double servers = resource.kind == Resource::Kind::Delay ? 1.0 : resource.servers;
      prediction.resources[k].utilization += system.tasks[i].demands[k] / (servers * completion);
      prediction.resources[k].queue_length += task.residence_at[k] / completion;
    }
  }
  return prediction;
}

}  // namespace augur::tspp
