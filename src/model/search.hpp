// Automatic model search in the performance model normal form (PMNF):
//   f(x) = c0 + Σ_k c_k · Π_l x_l^(i_kl) · log2(x_l)^(j_kl)
// with Extra-P's 42 default (i, j) building blocks per variable, negative exponents for a variable along
// which the values fall (strong scaling), products of two parameters' best blocks (ranked on the grid
// lines where only that parameter varies), and up to three terms by beam search. Within one size the
// lowest leave-one-out SMAPE wins (exact, from one QR each), a tie (within 5% + 0.01 points) going to
// the lowest BIC; a larger model replaces a smaller one only when its leave-one-out SMAPE is below
// `parsimony` times the smaller one's; terms contributing under 1% of the largest prediction are
// dropped and the model refitted. docs/modeling.md has the equations.
#pragma once

#include <string>
#include <vector>

#include "model/fit.hpp"

namespace augur::model {

// A variable the search may use: its name in the formula text (a parameter name, or a parenthesised
// derived expression such as "(N/P)") and its value at each measured point.
struct SearchVariable {
  std::string text;
  Eigen::VectorXd values;
  // A measured parameter (not a derived variable): the blocks of a parameter are ranked on the lines
  // of the measurement grid along which only it varies, as Extra-P's multi-parameter modeler does.
  bool parameter = true;
};

enum class NegativeExponents { Automatic, Always, Never };

struct SearchOptions {
  int max_terms = 3;  // terms besides the constant c0
  int beam = 8;       // hypotheses kept per size
  NegativeExponents negative = NegativeExponents::Automatic;
  // A model with more terms is chosen only when its leave-one-out SMAPE is below this fraction of
  // the smaller model's.
  double parsimony = 0.2;
  FitOptions fit;
};

struct SearchResult {
  std::vector<std::string> factors;  // one per term; "" for the constant c0
  LinearFit fit;
  int hypotheses = 0;  // how many were fitted
};

// values: the aggregated measurement at each point (all > 0 for a relative fit).
[[nodiscard]] SearchResult search_model(const std::vector<SearchVariable>& variables, const Eigen::VectorXd& values,
                                        const SearchOptions& options = {});

}  // namespace augur::model
