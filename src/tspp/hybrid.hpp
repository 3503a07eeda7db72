// The hybrid method: each system answered by the most accurate of augur's methods that can take it, in
// this order: the deterministic limit for service of little variability, the exact chain where it fits,
// for many visits (hybrid_interpolation_visits) the interpolation between the sharing limit and the exact chains
// at fewer visits (interpolation.hpp), the pruned pass of the chain where its cost allows (pruned.hpp), then
// the interpolation from the decomposition with one visit, the decomposition method where it fits (with more than one visit or
// stage: where its phases fit uncapped),
// the transient method for up to
// hybrid_transient_tasks tasks, the seed's method (one exponential phase per resource) past that.
// Prediction::part names the one that answered. The reasons for the order: docs/tspp.md, "The hybrid method".
#pragma once

#include "augur/tspp_predictor.hpp"

namespace augur::tspp {

[[nodiscard]] Prediction predict_hybrid(const TaskSystem& system, const PredictorOptions& options);

}  // namespace augur::tspp
