// Intervals of validity (CALL's llac): the points are split into contiguous ranges of one parameter,
// each with its own constants for the same formula, by dynamic programming over the sorted distinct
// values of that parameter. The number of segments (no fixed maximum) and the parameter are chosen by
// BIC = n ln(WRSS/n) + (s·k + s − 1) ln n (s segments of k constants and s − 1 change points);
// automatic segmentation then tries to split each segment along the other parameters in turn.
#pragma once

#include <vector>

#include "model/fit.hpp"

namespace augur::model {

struct SegmentOptions {
  int segments = 1;        // the number of segments along the first split; 0: choose by BIC
  int max_segments = 8;    // the most segments the automatic choice considers per split
  int parameter = -1;      // split along this parameter only; -1: the best one
  FitOptions fit;
};

struct Segment {
  std::vector<double> lower;  // per parameter: the smallest and largest measured value in the segment
  std::vector<double> upper;
  std::vector<int> members;   // indices of the points
  LinearFit fit;
};

struct Segmentation {
  std::vector<Segment> segments;  // at least one
  double bic = 0.0;
};

// design: n × k terms at the points; parameters: n × p parameter values (for the splits). Throws
// std::invalid_argument when `segments` > 1 cannot be made with at least k + 2 points in each.
[[nodiscard]] Segmentation segment_fit(const Eigen::MatrixXd& design, const Eigen::VectorXd& values,
                                       const Eigen::MatrixXd& parameters, const SegmentOptions& options);

// The segment that holds the point, or the nearest one (distance summed over parameters in log
// scale outside each segment's bounds, so that a gap between segments is split at the geometric mean).
[[nodiscard]] std::size_t segment_for(const Segmentation& segmentation, const std::vector<double>& point);

}  // namespace augur::model
