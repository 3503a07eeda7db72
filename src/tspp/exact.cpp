#include "exact.hpp"

#include <algorithm>

#include "exact_chain.hpp"

namespace augur::tspp {
namespace {

using exact::Chain;

// R_ik: the mean time task i spends at resource k, sum over the states where it is there of
// Pr(pass through s) / q(s).
std::vector<double> residence_at(const Chain& chain) {
  std::vector<double> residence(chain.tasks * chain.resources, 0.0);
  for (std::size_t s = 0; s < chain.states(); ++s) {
    if (chain.exit_rate[s] <= 0.0) continue;
    const double sojourn = chain.reach[s] / chain.exit_rate[s];
    const std::uint16_t* state = chain.state(s);
    for (std::size_t i = 0; i < chain.tasks; ++i) {
      if (state[i] == exact::not_started || state[i] == exact::ended) continue;
      const auto k = static_cast<std::size_t>(chain.phases[i][static_cast<std::size_t>(state[i] - 1)].resource);
      residence[i * chain.resources + k] += sojourn;
    }
  }
  return residence;
}

}  // namespace

namespace exact {

void fill_outputs(const TaskSystem& system, const std::vector<double>& residence, const std::vector<double>& arrival_found, int visits,
                  Prediction& prediction) {
  const std::size_t resources = system.resources.size();
  const double completion = prediction.completion.mean;
  prediction.resources.assign(resources, {});
  for (std::size_t i = 0; i < system.tasks.size(); ++i) {
    TaskPrediction& task = prediction.tasks[i];
    task.residence_at.assign(residence.begin() + static_cast<std::ptrdiff_t>(i * resources),
                             residence.begin() + static_cast<std::ptrdiff_t>((i + 1) * resources));
    double total = 0.0;
    for (double value : task.residence_at) total += value;
    task.arrival_queue.assign(resources, 0.0);
    task.queue_of_task.assign(resources, 0.0);
    for (std::size_t k = 0; k < resources; ++k) {
      if (system.tasks[i].demands[k] > 0.0) task.arrival_queue[k] = arrival_found[i * resources + k] / visits;
      if (total > 0.0) task.queue_of_task[k] = task.residence_at[k] / total;
      if (completion <= 0.0) continue;
      const Resource& resource = system.resources[k];
      const double servers = resource.kind == Resource::Kind::Delay ? 1.0 : resource.servers;
      prediction.resources[k].utilization += system.tasks[i].demands[k] / (servers * completion);
      prediction.resources[k].queue_length += task.residence_at[k] / completion;
    }
  }
}

void fill_times(const Chain& chain, Prediction& prediction) {
  std::vector<double> first;
  std::vector<double> second;
  prediction.completion = time_in(chain, [](const std::uint16_t*) { return true; }, first, second);
  prediction.tasks.resize(chain.tasks);
  for (std::size_t i = 0; i < chain.tasks; ++i) {
    TaskPrediction& task = prediction.tasks[i];
    task.start = time_in(chain, [i](const std::uint16_t* state) { return state[i] == not_started; }, first, second);
    task.end = time_in(chain, [i](const std::uint16_t* state) { return state[i] != ended; }, first, second);
    task.residence = time_in(
        chain, [i](const std::uint16_t* state) { return state[i] != not_started && state[i] != ended; }, first, second);
  }
}

}  // namespace exact

Prediction predict_exact(const TaskSystem& system, const PredictorOptions& options) {
  const std::size_t limit = options.max_states > 0 ? options.max_states : max_exact_states;
  const Chain chain = exact::build_chain(system, options, limit);
  Prediction prediction;
  prediction.states = chain.states();
  prediction.converged = true;
  prediction.iterations = 0;
  exact::fill_times(chain, prediction);
  exact::fill_outputs(system, residence_at(chain), chain.arrival_found, std::max(options.visits, 1), prediction);
  return prediction;
}

}  // namespace augur::tspp
