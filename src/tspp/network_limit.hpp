// The limit of many visits of exponential service: each task's service is cut so fine that, between two ends
// of tasks, the closed queueing network of the active tasks is in equilibrium, and each task does its work at
// the steady rate 1 / R_i(A) its residence time there gives (R_i(A) by the decomposition method's MVA); the
// times are deterministic. Event by event: the next end is the smallest (1 - done_i) R_i(A). Equations:
// docs/tspp.md, "The hybrid method".
#pragma once

#include "augur/tspp_predictor.hpp"

namespace augur::tspp {

// Start, residence and end times (variances 0), each task's time at each resource (R_ik(A) / R_i(A) of its
// time while A is active), the customers it finds there (R_ik(A) / D_ik - 1 weighted by its work), the
// utilizations and queue lengths.
[[nodiscard]] Prediction network_limit(const TaskSystem& system);

}  // namespace augur::tspp
