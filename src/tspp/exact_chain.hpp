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
#include <cstdint>
#include <vector>

#include "augur/tspp_predictor.hpp"

namespace augur::tspp::exact {

// The status word of a task: 0 before it starts, 0xFFFF once it has ended, else 1 + its phase.
constexpr std::uint16_t not_started = 0;
constexpr std::uint16_t ended = 0xFFFF;

// One exponential phase of a task's service: the resource, the rate of the phase when served alone,
// and whether the phase begins a visit (the task arrives at the resource anew: at a FCFS centre, at
// the tail of its queue).
struct Phase {
  int resource = 0;
  double rate = 0.0;
  bool arrives = false;
};

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

// Builds the chain; throws std::invalid_argument, naming the limit, past `max_states` states, or for a
// task of more than 65 000 phases (visits x resources used x stages).
[[nodiscard]] Chain build_chain(const TaskSystem& system, const PredictorOptions& options, std::size_t max_states);

}  // namespace augur::tspp::exact
