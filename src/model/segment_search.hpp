// Segmented search: the points are split into contiguous ranges of one parameter and each range gets its
// own searched formula (search_model on that range's points alone), so that the shape may change between
// segments. The split is chosen by the criterion of the search itself: the leave-one-out SMAPE of the whole
// piecewise model (each point left out of its own segment's chosen hypothesis), the best split for each
// number of segments found by dynamic programming over the sorted distinct values (the per-point errors
// add up), then the fewest segments within one standard error of the best (the one-standard-error rule),
// proposed only when the split also lowers the weighted PRESS (the fits' own leave-one-out loss) below one
// search's on all the points. With `auto`, a proposed split is kept only when a cross-validation of the
// whole choice (up to 16 folds of the split parameter's distinct values; without each fold, one search and
// the best two-segment split are redone) predicts the held-out points better than one search by a sign
// test, so that the choice among many change points and hypotheses does not split one noisy law.
// docs/modeling.md (section 4) has the equations.
#pragma once

#include <vector>

#include "model/search.hpp"
#include "model/segment.hpp"

namespace augur::model {

struct SegmentedSearch {
  Segmentation segmentation;        // each segment's fit is its chosen hypothesis's
  std::vector<SearchResult> found;  // per segment: the search's result on its points
  int hypotheses = 0;               // fitted by all the searches (every range tried)
  double loo_smape = 0.0;           // of the whole piecewise model, percent
  double loo_smape_se = 0.0;        // its standard error
};

// The fewest points a segment of a segmented search holds (Extra-P asks 5 per parameter of a search).
inline constexpr int segment_search_points = 5;

// parameters: n × p parameter values (the splits). `segmenting.segments`: 0 chooses 1..max_segments by the
// rule above, S > 1 asks for exactly S; `segmenting.parameter` restricts the split to one parameter.
// Throws std::invalid_argument when S segments of at least segment_search_points points cannot be made.
[[nodiscard]] SegmentedSearch search_segments(const std::vector<SearchVariable>& variables, const Eigen::VectorXd& values,
                                              const Eigen::MatrixXd& parameters, const SegmentOptions& segmenting,
                                              const SearchOptions& search);

}  // namespace augur::model
