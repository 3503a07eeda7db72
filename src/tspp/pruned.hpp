// The pruned method: the exact method's chain (exact_chain.hpp) passed forwards level by level (a level:
// the states with a given number of phases completed), keeping at each level only the K states the chain
// is most likely to pass through (K = PredictorOptions::beam), their probabilities renormalised to 1.
// Only two levels are in memory; every output is a forward sum. With K at least every level's width it is
// the exact method; below that, the error comes from the pruning alone. Equations: docs/tspp.md, "The
// pruned method".
#pragma once

#include "augur/tspp_predictor.hpp"

namespace augur::tspp {

// Throws std::invalid_argument for a beam past max_pruned_beam or a task of more than 65 000 phases.
[[nodiscard]] Prediction predict_pruned(const TaskSystem& system, const PredictorOptions& options);

}  // namespace augur::tspp
