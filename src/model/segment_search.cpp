#include "model/segment_search.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <optional>
#include <stdexcept>
#include <string>

#include "search_terms.hpp"

namespace augur::model {
namespace {

constexpr double infinity = std::numeric_limits<double>::infinity();

// One range's search: its chosen hypothesis and the per-point leave-one-out errors (empty: undefined).
struct Piece {
  std::vector<int> members;
  SearchResult found;
  std::vector<double> errors;
  double total = infinity;
};

struct Candidate {
  std::vector<const Piece*> pieces;
  double mean = infinity;
  double se = 0.0;
  double press = 0.0;  // Σ over the segments of their weighted PRESS
};

class Splitter {
public:
  Splitter(const std::vector<SearchVariable>& variables, const Eigen::VectorXd& values, const Eigen::MatrixXd& parameters,
           const SearchOptions& search)
      : variables_(variables), values_(values), parameters_(parameters), search_(search) {}

  // The best split of all the points along `parameter` into exactly 1..most segments: result[s − 1]
  // (no pieces when impossible), by dynamic programming over its sorted distinct values. Between equal
  // totals the later change point wins (a point both pieces fit goes to the earlier segment).
  int hypotheses = 0;

  std::vector<Candidate> along(int parameter, int most) {
    std::vector<double> distinct(parameters_.rows());
    for (Eigen::Index i = 0; i < parameters_.rows(); ++i) distinct[static_cast<std::size_t>(i)] = parameters_(i, parameter);
    std::sort(distinct.begin(), distinct.end());
    distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
    const auto m = distinct.size();
    std::vector<std::vector<int>> at(m);
    for (Eigen::Index i = 0; i < parameters_.rows(); ++i) {
      at[static_cast<std::size_t>(std::lower_bound(distinct.begin(), distinct.end(), parameters_(i, parameter)) - distinct.begin())].push_back(static_cast<int>(i));
    }
    auto& pieces = pieces_.emplace_back(m, std::vector<std::optional<Piece>>(m));
    for (std::size_t a = 0; a < m; ++a) {
      std::vector<int> range;
      for (std::size_t b = a; b < m; ++b) {
        range.insert(range.end(), at[b].begin(), at[b].end());
        if (static_cast<int>(range.size()) >= segment_search_points) pieces[a][b] = piece(range);
      }
    }
    const double tolerance = 1e-9 * static_cast<double>(values_.size());
    const std::size_t limit = std::min(static_cast<std::size_t>(std::max(most, 1)), m);
    // best[s][b]: the least total error of s + 1 segments over values 0..b; from[s][b]: where the last starts
    std::vector<std::vector<double>> best(limit, std::vector<double>(m, infinity));
    std::vector<std::vector<std::size_t>> from(limit, std::vector<std::size_t>(m, 0));
    for (std::size_t b = 0; b < m; ++b) best[0][b] = pieces[0][b] ? pieces[0][b]->total : infinity;
    for (std::size_t s = 1; s < limit; ++s) {
      for (std::size_t b = s; b < m; ++b) {
        for (std::size_t a = s; a <= b; ++a) {
          if (!pieces[a][b] || !std::isfinite(best[s - 1][a - 1])) continue;
          const double total = best[s - 1][a - 1] + pieces[a][b]->total;
          if (total <= best[s][b] + tolerance) best[s][b] = std::min(total, best[s][b]), from[s][b] = a;
        }
      }
    }
    std::vector<Candidate> result(static_cast<std::size_t>(std::max(most, 1)));
    for (std::size_t s = 0; s < limit; ++s) {
      if (!std::isfinite(best[s][m - 1])) continue;
      Candidate& candidate = result[s];
      std::size_t end = m - 1;
      for (std::size_t level = s + 1; level-- > 0;) {
        const std::size_t start = level == 0 ? 0 : from[level][end];
        candidate.pieces.push_back(&*pieces[start][end]);
        end = start == 0 ? 0 : start - 1;
      }
      std::reverse(candidate.pieces.begin(), candidate.pieces.end());
      score(candidate);
    }
    return result;
  }

private:
  Piece piece(const std::vector<int>& members) {
    const Eigen::Index rows = static_cast<Eigen::Index>(members.size());
    Eigen::VectorXd values(rows);
    std::vector<SearchVariable> variables = variables_;
    for (SearchVariable& variable : variables) variable.values.resize(rows);
    for (Eigen::Index i = 0; i < rows; ++i) {
      const int member = members[static_cast<std::size_t>(i)];
      values(i) = values_(member);
      for (std::size_t v = 0; v < variables.size(); ++v) variables[v].values(i) = variables_[v].values(member);
    }
    Piece result{members, search_model(variables, values, search_), {}, infinity};
    hypotheses += result.found.hypotheses;
    result.errors = detail::loo_errors(result.found.fit, values);
    if (!result.errors.empty()) result.total = std::accumulate(result.errors.begin(), result.errors.end(), 0.0);
    return result;
  }

  static void score(Candidate& candidate) {
    std::vector<double> errors;
    for (const Piece* piece : candidate.pieces) errors.insert(errors.end(), piece->errors.begin(), piece->errors.end());
    const double n = static_cast<double>(errors.size());
    candidate.mean = std::accumulate(errors.begin(), errors.end(), 0.0) / n;
    double squares = 0.0;
    for (double error : errors) squares += (error - candidate.mean) * (error - candidate.mean);
    candidate.se = n > 1 ? std::sqrt(squares / (n - 1.0) / n) : 0.0;
    for (const Piece* piece : candidate.pieces) candidate.press += piece->found.fit.press;
  }

  const std::vector<SearchVariable>& variables_;
  const Eigen::VectorXd& values_;
  const Eigen::MatrixXd& parameters_;
  const SearchOptions& search_;
  std::vector<std::vector<std::vector<std::optional<Piece>>>> pieces_;  // per parameter tried: [a][b]
};

Segment segment_of(const Piece& piece, const Eigen::MatrixXd& parameters) {
  Segment segment;
  segment.members = piece.members;
  segment.fit = piece.found.fit;
  const auto count = static_cast<std::size_t>(parameters.cols());
  segment.lower.assign(count, infinity);
  segment.upper.assign(count, -infinity);
  for (int member : piece.members) {
    for (std::size_t p = 0; p < count; ++p) {
      segment.lower[p] = std::min(segment.lower[p], parameters(member, static_cast<Eigen::Index>(p)));
      segment.upper[p] = std::max(segment.upper[p], parameters(member, static_cast<Eigen::Index>(p)));
    }
  }
  return segment;
}

}  // namespace

SegmentedSearch search_segments(const std::vector<SearchVariable>& variables, const Eigen::VectorXd& values,
                                const Eigen::MatrixXd& parameters, const SegmentOptions& segmenting, const SearchOptions& search) {
  Splitter splitter(variables, values, parameters, search);
  const int most = segmenting.segments > 0 ? segmenting.segments : segmenting.max_segments;
  const int first = segmenting.parameter >= 0 ? segmenting.parameter : 0;
  const int last = segmenting.parameter >= 0 ? segmenting.parameter : static_cast<int>(parameters.cols()) - 1;
  std::vector<Candidate> candidates;  // every parameter's best split for each number of segments
  for (int parameter = first; parameter <= last; ++parameter) {
    for (Candidate& candidate : splitter.along(parameter, most)) {
      if (candidate.pieces.empty()) continue;
      if (segmenting.segments > 0 && static_cast<int>(candidate.pieces.size()) != segmenting.segments) continue;
      candidates.push_back(std::move(candidate));
    }
  }
  if (candidates.empty() && segmenting.segments == 0) {  // too few points to split: one search on them all
    SegmentedSearch result;
    result.found.push_back(search_model(variables, values, search));
    Piece whole{{}, result.found.front(), {}, infinity};
    for (Eigen::Index i = 0; i < values.size(); ++i) whole.members.push_back(static_cast<int>(i));
    result.segmentation.segments.push_back(segment_of(whole, parameters));
    result.hypotheses = result.found.front().hypotheses;
    result.loo_smape = result.loo_smape_se = std::nan("");
    return result;
  }
  if (candidates.empty()) {
    throw std::invalid_argument("cannot make " + std::to_string(std::max(segmenting.segments, 1)) + " segments with at least " +
                                std::to_string(segment_search_points) + " points each and a leave-one-out error in each (a search per segment)");
  }
  // The lowest leave-one-out SMAPE, then the fewest segments within one standard error of it; a split is
  // kept only if it also lowers the fits' own leave-one-out loss, the weighted PRESS Σ w (y − ŷ₋ᵢ)², below
  // that of one search on all the points (else a law whose absolute fit leaves large relative errors at
  // small values would be split for them).
  const Candidate* lowest = &candidates.front();
  for (const Candidate& candidate : candidates) {
    if (candidate.mean < lowest->mean) lowest = &candidate;
  }
  const double threshold = lowest->mean + lowest->se + 1e-9;
  double single = infinity;
  for (const Candidate& candidate : candidates) {
    if (candidate.pieces.size() == 1) single = candidate.press;
  }
  const Candidate* chosen = lowest;
  for (const Candidate& candidate : candidates) {
    if (candidate.mean > threshold) continue;
    if (candidate.pieces.size() < chosen->pieces.size() ||
        (candidate.pieces.size() == chosen->pieces.size() && candidate.mean < chosen->mean)) {
      chosen = &candidate;
    }
  }
  if (chosen->press > single) {
    for (const Candidate& candidate : candidates) {
      if (candidate.pieces.size() == 1) chosen = &candidate;
    }
  }
  SegmentedSearch result;
  for (const Piece* piece : chosen->pieces) {
    result.segmentation.segments.push_back(segment_of(*piece, parameters));
    result.found.push_back(piece->found);
  }
  result.hypotheses = splitter.hypotheses;
  result.loo_smape = chosen->mean;
  result.loo_smape_se = chosen->se;
  return result;
}

}  // namespace augur::model
