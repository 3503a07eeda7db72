// The transitions of the exact method's Markov chain (docs/tspp.md, "The exact method"), state by state:
// the start state and, for a state, every successor with its rate and the arrivals it makes. Shared by
// the chain's builder (exact_chain.cpp) and the pruned forward pass (pruned.cpp). Private to augur_tspp.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "augur/tspp_predictor.hpp"
#include "structure_walk.hpp"

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

// An arrival made by a transition: the task, the resource, the customers it finds there.
struct Arrival {
  int task;
  int resource;
  int found;
};

// The hash of a state's words (the chain's index and the pruned method's levels).
[[nodiscard]] inline std::uint64_t hash_state(const std::uint16_t* words, std::size_t width) {
  std::uint64_t h = 0x9E3779B97F4A7C15ULL;
  for (std::size_t w = 0; w < width; ++w) {
    h = (h ^ words[w]) * 0x100000001B3ULL;
    h ^= h >> 29;
  }
  return h;
}

class Stepper {
public:
  // Throws std::invalid_argument for a task of more than 65 000 phases (visits x resources used x stages).
  Stepper(const TaskSystem& system, const PredictorOptions& options);

  [[nodiscard]] std::size_t tasks() const { return tasks_; }
  [[nodiscard]] std::size_t resources() const { return resources_; }
  // Words per state: the tasks' status, then (FCFS) their places.
  [[nodiscard]] std::size_t width() const { return width_; }
  [[nodiscard]] const std::vector<std::vector<Phase>>& phases() const { return phases_; }
  [[nodiscard]] static bool active(std::uint16_t status) { return status != not_started && status != ended; }
  [[nodiscard]] int resource_of(const std::uint16_t* state, std::size_t task) const {
    return phases_[task][static_cast<std::size_t>(state[task] - 1)].resource;
  }

  // The start state into `state` (width() words), its arrivals into `arrivals` (cleared first).
  void start(std::vector<std::uint16_t>& state, std::vector<Arrival>& arrivals);

  // q(current), the total rate out of `current` (0: the final state).
  [[nodiscard]] double exit_rate(const std::vector<std::uint16_t>& current);

  // Every successor of `current`: visit(next, rate, arrivals) with the successor's words, the rate of
  // the transition and the arrivals it makes (both valid during the call only). Returns q(current).
  template <typename Visit>
  double successors(const std::vector<std::uint16_t>& current, Visit visit) {
    count_customers(current);
    double total = 0.0;
    for (std::size_t task = 0; task < tasks_; ++task) {
      if (!active(current[task])) continue;
      const double rate = service_rate(current, task);
      if (rate <= 0.0) continue;
      next_ = current;
      arrivals_.clear();
      advance(next_, task);
      normalize(next_);
      visit(static_cast<const std::vector<std::uint16_t>&>(next_), rate, static_cast<const std::vector<Arrival>&>(arrivals_));
      total += rate;
    }
    return total;
  }

private:
  const TaskSystem& system_;
  StructureWalk structure_;
  bool fcfs_;
  std::size_t tasks_ = 0;
  std::size_t resources_ = 0;
  std::size_t width_ = 0;
  std::vector<std::vector<Phase>> phases_;
  std::vector<Arrival> arrivals_;    // of the transition being built
  std::vector<int> counts_;          // customers at each resource in the state being expanded
  std::vector<std::uint16_t> next_;  // the successor being built
  std::vector<int> started_;

  [[nodiscard]] bool queues(int resource) const;
  [[nodiscard]] int servers(int resource) const;
  [[nodiscard]] int present(const std::vector<std::uint16_t>& state, int resource) const;
  void count_customers(const std::vector<std::uint16_t>& state);
  void arrive(std::vector<std::uint16_t>& state, std::size_t task);
  void leave(std::vector<std::uint16_t>& state, std::size_t task);
  void begin(std::vector<std::uint16_t>& state, std::vector<int>& started);
  void advance(std::vector<std::uint16_t>& state, std::size_t task);
  void normalize(std::vector<std::uint16_t>& state) const;
  [[nodiscard]] double service_rate(const std::vector<std::uint16_t>& state, std::size_t task) const;
};

}  // namespace augur::tspp::exact
