// The splits of a segmented search (private to src/model): the points, or a subset of them, split into
// contiguous ranges of one parameter's sorted distinct values, each range with its own search. A range's
// search runs once, when a split first needs it.
#pragma once

#include <memory>
#include <vector>

#include "model/search.hpp"
#include "model/segment.hpp"

namespace augur::model::detail {

// One range's search: its chosen hypothesis and the per-point leave-one-out errors (empty: undefined).
struct Piece {
  std::vector<int> members;  // indices into all the points
  SearchResult found;
  std::vector<double> errors;
  double total = 0.0;        // Σ errors; +inf when undefined
};

// A split: its pieces in order and the whole piecewise model's leave-one-out SMAPE.
struct Candidate {
  std::vector<const Piece*> pieces;  // empty: impossible
  double mean = 0.0;
  double se = 0.0;
  double press = 0.0;  // Σ over the segments of their weighted PRESS
  int parameter = -1;  // split along
};

class Splitter {
public:
  // members: the points to split (indices into values and parameters); fewest: the least points of a range.
  Splitter(const std::vector<SearchVariable>& variables, const Eigen::VectorXd& values, const Eigen::MatrixXd& parameters,
           const SearchOptions& search, std::vector<int> members, int fewest);
  ~Splitter();
  Splitter(const Splitter&) = delete;
  Splitter& operator=(const Splitter&) = delete;

  // The best split along `parameter` into exactly s segments, result[s − 1] for s = 1..most (no pieces
  // when impossible): dynamic programming over the sorted distinct values, every range searched.
  // Between equal totals the later change point wins (a point both pieces fit goes to the earlier segment).
  [[nodiscard]] std::vector<Candidate> along(int parameter, int most);
  // The best split into exactly `segments`, searching only the ranges that split needs (2 segments:
  // the ranges that start at the first value or end at the last).
  [[nodiscard]] Candidate exactly(int parameter, int segments);

  int hypotheses = 0;  // fitted by all the searches so far

private:
  struct Axis;
  Axis& axis(int parameter);
  const Piece* piece(Axis& axis, std::size_t a, std::size_t b);
  double least(Axis& axis, std::size_t level, std::size_t b);
  Candidate candidate(Axis& axis, std::size_t segments);

  const std::vector<SearchVariable>& variables_;
  const Eigen::VectorXd& values_;
  const Eigen::MatrixXd& parameters_;
  const SearchOptions& search_;
  std::vector<int> members_;
  int fewest_;
  std::vector<std::unique_ptr<Axis>> axes_;  // per parameter, made when first split along
};

// A segment of the segmentation from a piece: its members, fit and measured bounds per parameter.
[[nodiscard]] Segment segment_of(const Piece& piece, const Eigen::MatrixXd& parameters);

}  // namespace augur::model::detail
