// The decomposition method: the task system as a Markov chain over which tasks are active and how far
// each has gone (a few exponential phases per task), in which each active task advances at the rate its
// residence time in the closed queueing network of the active tasks (solved by MVA) gives.
// Equations and the reasons for each choice: docs/tspp.md, "The decomposition method".
#pragma once

#include <vector>

#include "augur/tspp_predictor.hpp"

namespace augur::tspp {

// At most this many exponential phases per task.
constexpr int max_decomposition_phases = 16;

// The residence times R_ik of the active tasks (indices into system.tasks) in their closed network, each
// task a class of one customer cycling over its resources (Bard-Schweitzer MVA, Seidmann's form at c
// servers). Into `residence`, |active| x resources.
void closed_network(const TaskSystem& system, const std::vector<int>& active, std::vector<double>& residence);

// The largest cap on the phases per task for which the chain has at most `max_states` states (0: none).
[[nodiscard]] int decomposition_phase_cap(const TaskSystem& system, const PredictorOptions& options, std::size_t max_states);

// The states of a chain whose tasks have these phases (0: a task without demand): over the configurations
// of the running system (a serial group: one child at a time; a parallel group: each child running or
// done), the product of the active tasks' phases; the final state not counted.
[[nodiscard]] double chain_states(const Node& node, const std::vector<int>& phases);

// Whether the chain fits in `max_states` with every task's phases uncapped (round(1 / SCV) of its service,
// at most max_decomposition_phases, and that many wanted): then no extrapolation in the phases is needed.
[[nodiscard]] bool decomposition_fits_uncapped(const TaskSystem& system, const PredictorOptions& options, std::size_t max_states);

// Throws std::invalid_argument, naming the limit, when the chain has more than options.max_states states
// (0: max_decomposition_states) even with one phase per task.
[[nodiscard]] Prediction predict_decomposition(const TaskSystem& system, const PredictorOptions& options);

}  // namespace augur::tspp
