// The exact method: with exponential service, a task system on its queueing network is a
// continuous-time Markov chain (exact_chain.hpp); its mean time to absorption is the exact mean
// completion time, and the same chain gives each task's start, residence and end times (mean and
// variance). For small systems: the states grow exponentially with the tasks that may run together.
// Equations: docs/tspp.md, "The exact method".
#pragma once

#include "augur/tspp_predictor.hpp"

namespace augur::tspp {

// Throws std::invalid_argument, naming the limit, past options.max_states states (0: max_exact_states).
[[nodiscard]] Prediction predict_exact(const TaskSystem& system, const PredictorOptions& options);

}  // namespace augur::tspp
