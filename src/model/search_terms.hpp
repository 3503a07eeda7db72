// The building blocks of the model search (private to src/model): each variable's terms x^i·log2(x)^j,
// restricted where its values are ≤ 0, and their ranking on the lines of the measurement grid along which
// only that variable varies.
#pragma once

#include <string>
#include <vector>

#include "model/search.hpp"

namespace augur::model::detail {

struct Block {
  std::string text;        // "p^(3/2) * log2(p)"
  Eigen::VectorXd column;  // its value at each measured point
};

// The blocks of one variable: Extra-P's 42 (those with a logarithm only when every value is ≥ 1), the
// negative exponents where the values fall (or as `negative` asks). A variable with the value 0 gets the
// powers x^i (i > 0) without logarithms, one with a negative value the polynomial terms x, x², x³; `note`
// then says so. Empty when the variable takes a single value.
[[nodiscard]] std::vector<Block> variable_blocks(const SearchVariable& variable, const Eigen::VectorXd& values,
                                                 NegativeExponents negative, std::string& note);

// The blocks of variable `v`, best first, by the mean leave-one-out SMAPE of c0 + c·block over the lines of
// the grid where every other parameter is fixed (lines of at least 4 points), or over all the points when
// `v` is derived, the only parameter, or has no such line. `points` is set to the number of distinct values
// of `v` on the longest line used (all its distinct values otherwise): what bounds its terms.
[[nodiscard]] std::vector<int> rank_blocks(const std::vector<SearchVariable>& variables, std::size_t v,
                                           const std::vector<Block>& blocks, const Eigen::VectorXd& values,
                                           const FitOptions& fit, int& points);

// The per-point leave-one-out errors 2|y − ŷ₋ᵢ| / (|y| + |ŷ₋ᵢ|) of a fit, in percent; empty when one of
// them is undefined.
[[nodiscard]] std::vector<double> loo_errors(const LinearFit& fit, const Eigen::VectorXd& values);

}  // namespace augur::model::detail
