// The decomposition method: the task system as a Markov chain over which tasks are active and how far
// each has gone (a few exponential phases per task), in which each active task advances at the rate its
// residence time in the closed queueing network of the active tasks (solved by MVA) gives.
// Equations and the reasons for each choice: docs/tspp.md, "The decomposition method".
#pragma once

#include "augur/tspp_predictor.hpp"

namespace augur::tspp {

// At most this many exponential phases per task.
constexpr int max_decomposition_phases = 16;

// The largest cap on the phases per task for which the chain has at most `max_states` states (0: none).
[[nodiscard]] int decomposition_phase_cap(const TaskSystem& system, const PredictorOptions& options, std::size_t max_states);

// Throws std::invalid_argument, naming the limit, when the chain has more than options.max_states states
// (0: max_decomposition_states) even with one phase per task.
[[nodiscard]] Prediction predict_decomposition(const TaskSystem& system, const PredictorOptions& options);

}  // namespace augur::tspp
