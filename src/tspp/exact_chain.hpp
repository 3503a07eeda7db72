// The continuous-time Markov chain of a task system with exponential service, for the exact method
// (exact.hpp). Private to augur_tspp. The chain and its equations: docs/tspp.md, "The exact method".
//
// A state holds, for every task, whether it has started, which exponential phase of its service it
// is in, whether it has finished, and under FCFS its place in the queue of the resource it is at.
// Every transition ends one phase of one task, so the phases completed grow by one at each step: the
// chain is acyclic, and the builder numbers the states level by level (breadth first from the start),
// which is an order in which every transition goes from a lower number to a higher one.
#pragma once

#include <cstddef>
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "augur/tspp_predictor.hpp"
#include "chain_step.hpp"

namespace augur::tspp::exact {

struct Chain {
  std::size_t tasks = 0;
  std::size_t resources = 0;
  std::size_t width = 0;                 // words per state: the tasks' status, then (FCFS) their places
  std::vector<std::vector<Phase>> phases;  // per task
  std::vector<std::uint16_t> words;      // state s: words[s * width, (s + 1) * width)
  std::vector<std::uint32_t> first;      // the transitions of s: [first[s], first[s + 1])
  std::vector<std::uint32_t> target;
  std::vector<double> probability;       // of each transition, once s is left
  std::vector<double> exit_rate;         // q(s), the total rate out of s (0: the final state)
  std::vector<double> reach;             // the probability that the chain passes through s
  std::vector<double> arrival_found;     // task x resource: sum over arrivals of Pr x customers found

  [[nodiscard]] std::size_t states() const { return exit_rate.size(); }
  [[nodiscard]] const std::uint16_t* state(std::size_t s) const { return words.data() + s * width; }
};

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

// The numbers of the states: a state is added to the chain (its words, q = 0, reach = 0) when first met.
class StateIndex {
public:
  // Past `max_states` states, intern() throws std::invalid_argument naming `method` and the limit.
  StateIndex(Chain& chain, std::size_t max_states, std::string method);
  std::uint32_t intern(const std::vector<std::uint16_t>& state);

private:
  static constexpr std::uint32_t empty_slot = 0xFFFFFFFFU;
  Chain& chain_;
  std::size_t max_states_;
  std::string method_;
  std::vector<std::uint32_t> slots_;  // open addressing: state numbers, or empty_slot
  [[nodiscard]] std::uint64_t hash(const std::uint16_t* words) const;
  void grow();
};

// The completion time and every task's start, end and residence time (mean and variance) of a built chain,
// into `prediction` (its tasks resized).
void fill_times(const Chain& chain, Prediction& prediction);

// The other outputs, from R_ik (`residence`, task x resource) and the sums over arrivals of Pr x customers
// found (`arrival_found`, task x resource): R_ik, A_ik, Q_ik, utilizations and queue lengths, given the
// completion time and the tasks already in `prediction`.
void fill_outputs(const TaskSystem& system, const std::vector<double>& residence, const std::vector<double>& arrival_found, int visits,
                  Prediction& prediction);

// Builds the chain; throws std::invalid_argument, naming the limit, past `max_states` states, or for a
// task of more than 65 000 phases (visits x resources used x stages).
[[nodiscard]] Chain build_chain(const TaskSystem& system, const PredictorOptions& options, std::size_t max_states);

}  // namespace augur::tspp::exact
