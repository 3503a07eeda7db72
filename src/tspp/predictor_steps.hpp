// The seed's method taken apart, to locate its errors (bench_tspp_accuracy, docs/tspp.md "Where the errors
// come from"): step 2 alone on residence times given from elsewhere (the exact method's).
#pragma once

#include <vector>

#include "augur/tspp_predictor.hpp"

namespace augur::tspp {

// The completion time by the seed's step 2 (series-parallel reduction, options.residence) on the given
// residence times R_ik (tasks x resources, row by task), with the sibling rule's overlap factors from one
// step 1 on them.
[[nodiscard]] Moments reduce_with_residence_times(const TaskSystem& system, const PredictorOptions& options,
                                                  const std::vector<double>& residence_at);

}  // namespace augur::tspp
