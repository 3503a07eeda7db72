// The interpolation in x = 1 / sqrt(V) (the hybrid method's part for many visits past the exact chain):
// with exponential service, as the visits V grow each task's service becomes deterministic (its coefficient
// of variation is 1 / sqrt(V) per resource) and cut so fine that every discipline shares its resources, so
// the completion time tends to the deterministic limit under processor sharing (x = 0), and its fluctuation
// terms are of order x. The figures at V are interpolated, not extrapolated, between that limit and the exact
// chain at one or two smaller visit counts whose chains fit (x = 1, 1/sqrt(2), 1/sqrt(3)): a line through one
// chain, a parabola through two. Equations and the measured errors: docs/tspp.md, "The hybrid method".
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

// The limit at x = 0: the deterministic limit under processor sharing, averaged over five visit counts
// from 250 to 1000 (its trajectory shifts by up to about 1% from one count to the next). Throws
// std::invalid_argument past the deterministic limit's size.
[[nodiscard]] Prediction sharing_limit(const TaskSystem& system, const PredictorOptions& options);

// The interpolated prediction at options.visits (at least 2, one stage), or nothing when the exact chain does
// not fit even with one visit. exact(v) is the exact chain's prediction with v visits, or nothing past its
// budget; it is asked for v = 1, 2, ... up to min(interpolation_anchor_visits, V - 1) and stops at the first
// that does not fit; the two largest that fit are taken.
[[nodiscard]] std::optional<Prediction> predict_interpolated(const TaskSystem& system, const PredictorOptions& options,
                                                             const std::function<std::optional<Prediction>(int)>& exact);

}  // namespace augur::tspp
