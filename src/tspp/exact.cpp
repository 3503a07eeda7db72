#include "exact.hpp"

#include <algorithm>

#include "exact_chain.hpp"

namespace augur::tspp {
namespace {

using exact::Chain;

// The time X the chain spends in the states of a set before absorption, from the start: mean and variance.
// Backwards over the states (every transition goes to a higher number), with h ~ Exp(q(s)) the time in s:
//   m1(s) = [s in set] / q(s) + sum_t p(s, t) m1(t)
//   m2(s) = [s in set] (2 / q(s)^2 + 2 m1'(s) / q(s)) + sum_t p(s, t) m2(t),  m1'(s) = sum_t p(s, t) m1(t).
template <typename InSet>
Moments time_in(const Chain& chain, InSet in_set, std::vector<double>& first, std::vector<double>& second) {
  const std::size_t states = chain.states();
  first.assign(states, 0.0);
  second.assign(states, 0.0);
  for (std::size_t s = states; s-- > 0;) {
    double next_first = 0.0;
    double next_second = 0.0;
    for (std::uint32_t t = chain.first[s]; t < chain.first[s + 1]; ++t) {
      next_first += chain.probability[t] * first[chain.target[t]];
      next_second += chain.probability[t] * second[chain.target[t]];
    }
    if (chain.exit_rate[s] > 0.0 && in_set(chain.state(s))) {
      const double hold = 1.0 / chain.exit_rate[s];
      first[s] = hold + next_first;
      second[s] = 2.0 * hold * hold + 2.0 * hold * next_first + next_second;
    } else {
      first[s] = next_first;
      second[s] = next_second;
    }
  }
  return {first[0], std::max(0.0, second[0] - first[0] * first[0])};
}

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

void fill_outputs(const TaskSystem& system, const Chain& chain, int visits, Prediction& prediction) {
  const std::vector<double> residence = residence_at(chain);
  const std::size_t resources = chain.resources;
  const double completion = prediction.completion.mean;
  prediction.resources.assign(resources, {});
  for (std::size_t i = 0; i < chain.tasks; ++i) {
    TaskPrediction& task = prediction.tasks[i];
    task.residence_at.assign(residence.begin() + static_cast<std::ptrdiff_t>(i * resources),
                             residence.begin() + static_cast<std::ptrdiff_t>((i + 1) * resources));
    double total = 0.0;
    for (double value : task.residence_at) total += value;
    task.arrival_queue.assign(resources, 0.0);
    task.queue_of_task.assign(resources, 0.0);
    for (std::size_t k = 0; k < resources; ++k) {
      if (system.tasks[i].demands[k] > 0.0) task.arrival_queue[k] = chain.arrival_found[i * resources + k] / visits;
      if (total > 0.0) task.queue_of_task[k] = task.residence_at[k] / total;
      if (completion <= 0.0) continue;
      const Resource& resource = system.resources[k];
      const double servers = resource.kind == Resource::Kind::Delay ? 1.0 : resource.servers;
      prediction.resources[k].utilization += system.tasks[i].demands[k] / (servers * completion);
      prediction.resources[k].queue_length += task.residence_at[k] / completion;
    }
  }
}

}  // namespace

Prediction predict_exact(const TaskSystem& system, const PredictorOptions& options) {
  const std::size_t limit = options.max_states > 0 ? options.max_states : max_exact_states;
  const Chain chain = exact::build_chain(system, options, limit);
  Prediction prediction;
  prediction.states = chain.states();
  prediction.converged = true;
  prediction.iterations = 0;
  std::vector<double> first;
  std::vector<double> second;
  prediction.completion = time_in(chain, [](const std::uint16_t*) { return true; }, first, second);
  prediction.tasks.resize(chain.tasks);
  for (std::size_t i = 0; i < chain.tasks; ++i) {
    TaskPrediction& task = prediction.tasks[i];
    task.start = time_in(chain, [i](const std::uint16_t* state) { return state[i] == exact::not_started; }, first, second);
    task.end = time_in(chain, [i](const std::uint16_t* state) { return state[i] != exact::ended; }, first, second);
    task.residence = time_in(
        chain, [i](const std::uint16_t* state) { return state[i] != exact::not_started && state[i] != exact::ended; }, first,
        second);
  }
  fill_outputs(system, chain, std::max(options.visits, 1), prediction);
  return prediction;
}

}  // namespace augur::tspp
