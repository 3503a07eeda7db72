// The transient predictor: the two steps of Mak and Lundstrom's iteration resolved in time.
// Step 1 turns, at every instant of a time grid, the probabilities that the other tasks are at a
// resource into the rate at which a task is served there; step 2 propagates every task's start,
// phase and end distributions through the series-parallel structure with those rates.
// Equations and the reasons for each choice: docs/tspp.md, "The transient method".
#pragma once

#include "augur/tspp_predictor.hpp"

namespace augur::tspp {

// Its work: every task's phases (V x S per resource it uses) marched over the time grid, summed; predict_transient()
// refuses past max_transient_phase_bins, hybrid takes the seed's method there.
[[nodiscard]] double transient_phase_bins(const TaskSystem& system, const PredictorOptions& options);
inline constexpr double max_transient_phase_bins = 5e7;

[[nodiscard]] Prediction predict_transient(const TaskSystem& system, const PredictorOptions& options);

}  // namespace augur::tspp
