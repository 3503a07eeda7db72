#include "model/segment_search.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <optional>
#include <stdexcept>
#include <string>

#include "augur/core/diagnostics.hpp"
#include "model/formula.hpp"
#include "segment_splitter.hpp"

namespace augur::model {
namespace {

using detail::Candidate;
using detail::Piece;

constexpr double infinity = std::numeric_limits<double>::infinity();

// The value of a search's chosen hypothesis at point i of the variables (its factors evaluated there);
// NaN where a factor is undefined.
double predict_at(const SearchResult& found, const std::vector<SearchVariable>& variables, Eigen::Index i) {
  const Formula formula = Formula::from_factors(found.factors, "c");
  core::Bindings bindings;
  for (const SearchVariable& variable : variables) {
    if (variable.parameter) bindings[variable.text] = variable.values(i);
  }
  double value = 0.0;
  try {
    for (std::size_t t = 0; t < formula.terms().size(); ++t) value += found.fit.constants(static_cast<Eigen::Index>(t)) * formula.regressor(t, bindings);
  } catch (const core::InputError&) {
    return std::nan("");  // a term undefined at the held-out point (log2 of 0): the worst error
  }
  return value;
}

double error_of(double value, double prediction) {
  const double scale = std::fabs(value) + std::fabs(prediction);
  if (!std::isfinite(prediction)) return 200.0;
  return scale > 0 ? 200.0 * std::fabs(value - prediction) / scale : 0.0;
}

// The folds of the cross-validation: the distinct values of the split parameter dealt in turn into at most
// this many folds (each value its own fold up to 16 values).
constexpr std::size_t cross_validation_folds = 16;

// The cross-validation of the whole choice (see search_segments): per held-out point, the error of the
// split into `segments` chosen again without its fold, and of one search without it.
struct Honest {
  std::vector<double> split;
  std::vector<double> single;
  int hypotheses = 0;
};

Honest cross_validate(const std::vector<SearchVariable>& variables, const Eigen::VectorXd& values, const Eigen::MatrixXd& parameters,
                      const SearchOptions& search, int parameter, int segments) {
  std::vector<double> distinct(values.size());
  for (Eigen::Index i = 0; i < values.size(); ++i) distinct[static_cast<std::size_t>(i)] = parameters(i, parameter);
  std::sort(distinct.begin(), distinct.end());
  distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
  const std::size_t folds = std::min(distinct.size(), cross_validation_folds);
  Honest result;
  for (std::size_t fold = 0; fold < folds; ++fold) {
    std::vector<int> training;
    std::vector<int> held;
    for (Eigen::Index i = 0; i < values.size(); ++i) {
      const auto index = static_cast<std::size_t>(std::lower_bound(distinct.begin(), distinct.end(), parameters(i, parameter)) - distinct.begin());
      (index % folds == fold ? held : training).push_back(static_cast<int>(i));
    }
    detail::Splitter splitter(variables, values, parameters, search, training, segment_search_points - 1);
    const Candidate one = splitter.exactly(parameter, 1);
    const Candidate split = splitter.exactly(parameter, segments);
    result.hypotheses += splitter.hypotheses;
    if (one.pieces.empty()) continue;
    Segmentation pieces;
    for (const Piece* piece : split.pieces) pieces.segments.push_back(detail::segment_of(*piece, parameters));
    for (int i : held) {
      std::vector<double> point(static_cast<std::size_t>(parameters.cols()));
      for (Eigen::Index p = 0; p < parameters.cols(); ++p) point[static_cast<std::size_t>(p)] = parameters(i, p);
      const double alone = predict_at(one.pieces.front()->found, variables, i);
      const double piecewise = split.pieces.empty() ? alone : predict_at(split.pieces[segment_for(pieces, point)]->found, variables, i);
      result.single.push_back(error_of(values(i), alone));
      result.split.push_back(error_of(values(i), piecewise));
    }
  }
  return result;
}

// The split holds when it lowers the cross-validated SMAPE and predicts the held-out points better more
// often than worse by a sign test: (better − worse) / √(better + worse) > split_margin (points predicted
// equally well do not count). A count, not the mean's standard error: one point at the change, which either
// law may claim, must not outweigh all the others.
constexpr double split_margin = 1.5;

bool split_holds(const Honest& honest) {
  double gain = 0.0;
  int better = 0;
  int worse = 0;
  for (std::size_t i = 0; i < honest.split.size(); ++i) {
    const double difference = honest.single[i] - honest.split[i];
    gain += difference;
    if (difference > 1e-9) ++better;
    if (difference < -1e-9) ++worse;
  }
  return gain > 0 && better - worse > split_margin * std::sqrt(static_cast<double>(better + worse));
}

}  // namespace

SegmentedSearch search_segments(const std::vector<SearchVariable>& variables, const Eigen::VectorXd& values,
                                const Eigen::MatrixXd& parameters, const SegmentOptions& segmenting, const SearchOptions& search) {
  std::vector<int> everyone(static_cast<std::size_t>(values.size()));
  std::iota(everyone.begin(), everyone.end(), 0);
  detail::Splitter splitter(variables, values, parameters, search, everyone, segment_search_points);
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
    result.segmentation.segments.push_back(detail::segment_of(whole, parameters));
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
  const Candidate* whole = nullptr;
  for (const Candidate& candidate : candidates) {
    if (candidate.pieces.size() == 1) whole = &candidate;
  }
  int checking = 0;
  if (chosen->press > single) chosen = whole;
  if (whole && chosen->pieces.size() > 1 && segmenting.segments == 0) {
    // More than two segments are checked as two: is the data one law at all (the number of segments is
    // the one-standard-error rule's); each fold then searches 2m ranges, not m²/2.
    const Honest honest = cross_validate(variables, values, parameters, search, chosen->parameter, 2);
    checking = honest.hypotheses;
    if (!split_holds(honest)) chosen = whole;
  }
  SegmentedSearch result;
  for (const Piece* piece : chosen->pieces) {
    result.segmentation.segments.push_back(detail::segment_of(*piece, parameters));
    result.found.push_back(piece->found);
  }
  result.hypotheses = splitter.hypotheses + checking;
  result.loo_smape = chosen->mean;
  result.loo_smape_se = chosen->se;
  return result;
}

}  // namespace augur::model
