#include "segment_splitter.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include "search_terms.hpp"

namespace augur::model::detail {
namespace {

constexpr double infinity = std::numeric_limits<double>::infinity();

void score(Candidate& candidate) {
  std::vector<double> errors;
  for (const Piece* piece : candidate.pieces) errors.insert(errors.end(), piece->errors.begin(), piece->errors.end());
  const double n = static_cast<double>(errors.size());
  candidate.mean = std::accumulate(errors.begin(), errors.end(), 0.0) / n;
  double squares = 0.0;
  for (double error : errors) squares += (error - candidate.mean) * (error - candidate.mean);
  candidate.se = n > 1 ? std::sqrt(squares / (n - 1.0) / n) : 0.0;
  for (const Piece* piece : candidate.pieces) candidate.press += piece->found.fit.press;
}

}  // namespace

// One parameter's sorted distinct values (among the members), the members at each, the ranges searched
// so far and the dynamic programming's memo: best[level][b], the least total of level + 1 segments over
// values 0..b (NaN: not computed yet), from[level][b] where the last of them starts.
struct Splitter::Axis {
  std::vector<std::vector<int>> at;
  std::vector<std::vector<std::unique_ptr<Piece>>> pieces;
  std::vector<std::vector<char>> searched;
  std::vector<std::vector<double>> best;
  std::vector<std::vector<std::size_t>> from;
};

Splitter::Splitter(const std::vector<SearchVariable>& variables, const Eigen::VectorXd& values, const Eigen::MatrixXd& parameters,
                   const SearchOptions& search, std::vector<int> members, int fewest)
    : variables_(variables), values_(values), parameters_(parameters), search_(search), members_(std::move(members)), fewest_(fewest),
      axes_(static_cast<std::size_t>(parameters.cols())) {}

Splitter::~Splitter() = default;

Splitter::Axis& Splitter::axis(int parameter) {
  auto& slot = axes_[static_cast<std::size_t>(parameter)];
  if (slot) return *slot;
  slot = std::make_unique<Axis>();
  std::vector<double> distinct;
  for (int member : members_) distinct.push_back(parameters_(member, parameter));
  std::sort(distinct.begin(), distinct.end());
  distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
  const std::size_t m = distinct.size();
  slot->at.resize(m);
  for (int member : members_) {
    const auto index = std::lower_bound(distinct.begin(), distinct.end(), parameters_(member, parameter)) - distinct.begin();
    slot->at[static_cast<std::size_t>(index)].push_back(member);
  }
  slot->pieces.resize(m);
  for (auto& row : slot->pieces) row.resize(m);
  slot->searched.assign(m, std::vector<char>(m, 0));
  return *slot;
}

const Piece* Splitter::piece(Axis& axis, std::size_t a, std::size_t b) {
  if (axis.searched[a][b]) return axis.pieces[a][b].get();
  axis.searched[a][b] = 1;
  std::vector<int> members;
  for (std::size_t v = a; v <= b; ++v) members.insert(members.end(), axis.at[v].begin(), axis.at[v].end());
  if (static_cast<int>(members.size()) < fewest_) return nullptr;
  const Eigen::Index rows = static_cast<Eigen::Index>(members.size());
  Eigen::VectorXd values(rows);
  std::vector<SearchVariable> variables = variables_;
  for (SearchVariable& variable : variables) variable.values.resize(rows);
  for (Eigen::Index i = 0; i < rows; ++i) {
    const int member = members[static_cast<std::size_t>(i)];
    values(i) = values_(member);
    for (std::size_t v = 0; v < variables.size(); ++v) variables[v].values(i) = variables_[v].values(member);
  }
  auto result = std::make_unique<Piece>(Piece{std::move(members), search_model(variables, values, search_), {}, infinity});
  hypotheses += result->found.hypotheses;
  result->errors = loo_errors(result->found.fit, values);
  if (!result->errors.empty()) result->total = std::accumulate(result->errors.begin(), result->errors.end(), 0.0);
  axis.pieces[a][b] = std::move(result);
  return axis.pieces[a][b].get();
}

double Splitter::least(Axis& axis, std::size_t level, std::size_t b) {
  const std::size_t m = axis.at.size();
  while (axis.best.size() <= level) {
    axis.best.emplace_back(m, std::nan(""));
    axis.from.emplace_back(m, 0);
  }
  if (!std::isnan(axis.best[level][b])) return axis.best[level][b];
  double best = infinity;
  if (level == 0) {
    const Piece* whole = piece(axis, 0, b);
    best = whole ? whole->total : infinity;
  } else {
    const double tolerance = 1e-9 * static_cast<double>(members_.size());
    for (std::size_t a = level; a <= b; ++a) {
      const Piece* last = piece(axis, a, b);
      if (!last || !std::isfinite(last->total)) continue;
      const double before = least(axis, level - 1, a - 1);
      if (!std::isfinite(before)) continue;
      if (before + last->total <= best + tolerance) best = std::min(best, before + last->total), axis.from[level][b] = a;
    }
  }
  axis.best[level][b] = best;
  return best;
}

Candidate Splitter::candidate(Axis& axis, std::size_t segments) {
  Candidate result;
  const std::size_t m = axis.at.size();
  if (segments == 0 || segments > m || !std::isfinite(least(axis, segments - 1, m - 1))) return result;
  std::size_t end = m - 1;
  for (std::size_t level = segments; level-- > 0;) {
    const std::size_t start = level == 0 ? 0 : axis.from[level][end];
    result.pieces.push_back(piece(axis, start, end));
    end = start == 0 ? 0 : start - 1;
  }
  std::reverse(result.pieces.begin(), result.pieces.end());
  score(result);
  return result;
}

std::vector<Candidate> Splitter::along(int parameter, int most) {
  Axis& chosen = axis(parameter);
  std::vector<Candidate> result;
  for (std::size_t s = 1; s <= static_cast<std::size_t>(std::max(most, 1)); ++s) {
    result.push_back(candidate(chosen, s));
    result.back().parameter = parameter;
  }
  return result;
}

Candidate Splitter::exactly(int parameter, int segments) { return candidate(axis(parameter), static_cast<std::size_t>(segments)); }

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

}  // namespace augur::model::detail
