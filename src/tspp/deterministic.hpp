// The deterministic limit: service without variability (the limit of the exact chain as the stages per
// visit grow), where the task system follows one trajectory. The method follows it event by event: each
// task visits its resources V times in declaration order, each visit of work D_ik / V, served at its
// share of the servers (processor sharing: min(1, c / n); FCFS: the first c in the queue; a delay centre:
// at once). Equations and the reasons: docs/tspp.md, "The hybrid method".
#pragma once

#include "augur/tspp_predictor.hpp"

namespace augur::tspp {

// Start, residence and end times (variances 0), each task's time at each resource and the customers it
// finds on arrival there (mean over its V visits), the utilizations and queue lengths.
[[nodiscard]] Prediction predict_deterministic(const TaskSystem& system, const PredictorOptions& options);

}  // namespace augur::tspp
