// The interpolation in x = 1 / sqrt(V) (the hybrid method's part for many visits past the exact chain):
// with exponential service, as the visits V grow each task's service becomes deterministic (its coefficient
// of variation is 1 / sqrt(V) per resource) and cut so fine that the network of the active tasks is in
// equilibrium between two ends of tasks: the completion time tends to the network limit (network_limit.hpp,
// x = 0), and its fluctuation terms are of order x. The figures at V are interpolated, not extrapolated,
// between that limit and a prediction at one or two smaller visit counts (x = 1, 1/sqrt(2), 1/sqrt(3)): a
// line through one, a parabola through two. Equations and the measured errors: docs/tspp.md, "The hybrid method".
#pragma once

#include <functional>
#include <optional>
#include <vector>

#include "augur/tspp_predictor.hpp"

namespace augur::tspp {

// The visit counts tried for the exact anchors (at most this many, and fewer than V).
constexpr int interpolation_anchor_visits = 3;

// The Lagrange weights at x of the nodes (the polynomial through (nodes[j], y_j) at x is sum_j w_j y_j).
[[nodiscard]] std::vector<double> lagrange_weights(const std::vector<double>& nodes, double x);

// The interpolated prediction at options.visits (at least 2, one stage), or nothing when `at` gives nothing
// for one visit. at(v) is the prediction with v visits (the exact chain's, in the hybrid), or nothing past its
// budget; it is asked for v = 1, 2, ... up to min(interpolation_anchor_visits, V - 1) and stops at the first
// that gives nothing; the two largest given are taken.
[[nodiscard]] std::optional<Prediction> predict_interpolated(const TaskSystem& system, const PredictorOptions& options,
                                                             const std::function<std::optional<Prediction>(int)>& at);

}  // namespace augur::tspp
