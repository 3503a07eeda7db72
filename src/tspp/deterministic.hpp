// The deterministic limit: service without variability (the limit of the exact chain as the stages per
// visit grow), where the task system follows one trajectory. The method follows it event by event: each
// task visits its resources V times in declaration order, each visit of work D_ik / V, served at its
// share of the servers (processor sharing: min(1, c / n); FCFS: the first c in the queue; a delay centre:
// at once). Equations and the reasons: docs/tspp.md, "The hybrid method".
#pragma once

#include <vector>

#include "augur/tspp_predictor.hpp"

namespace augur::tspp {

// The figures of one trajectory (deterministic times): each task's start and end, per task and resource
// (task-major) its time there and the customers it found there on arrival, the completion time.
struct TrajectoryFigures {
  const std::vector<double>& start;
  const std::vector<double>& end;
  const std::vector<double>& time_at;
  const std::vector<double>& arrival_queue;
  double completion = 0.0;
};

// The prediction of a trajectory (variances 0): R_ik the time at k, Q_ik = R_ik / sum_k R_ik, the
// utilizations (demands over servers x completion) and queue lengths (sum_i R_ik over the completion).
[[nodiscard]] Prediction trajectory_prediction(const TaskSystem& system, const TrajectoryFigures& figures);

// Start, residence and end times (variances 0), each task's time at each resource and the customers it
// finds on arrival there (mean over its V visits), the utilizations and queue lengths.
[[nodiscard]] Prediction predict_deterministic(const TaskSystem& system, const PredictorOptions& options);

}  // namespace augur::tspp
