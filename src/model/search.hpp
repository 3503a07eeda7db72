// Automatic model search in the performance model normal form (PMNF):
//   f(x) = c0 + Σ_k c_k · Π_l x_l^(i_kl) · log2(x_l)^(j_kl)
// Each variable's building blocks (Extra-P's 42, negative exponents where the values fall, powers only for
// a variable with values ≤ 0) are ranked on the grid lines where only that variable varies; the best few
// of each are combined, one block per variable, additively and multiplicatively over any number of
// variables (every set of product terms that covers the variables used), up to `max_terms` terms. A
// variable measured at 8 or more values along its lines may also contribute a sum of (m − 2) / 3 of its
// own blocks. Every hypothesis is scored by its exact leave-one-out SMAPE; the chosen one is the simplest
// (fewest terms) whose leave-one-out SMAPE is within one standard error of the best one's (the
// one-standard-error rule), so the constant model loses when some hypothesis beats it by more than one
// standard error. docs/modeling.md has the equations.
#pragma once

#include <exception>
#include <functional>
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
  NegativeExponents negative = NegativeExponents::Automatic;
  int alternatives = 16;  // the most competitive hypotheses kept besides the chosen one
  double band = 1.0;      // competitive: leave-one-out SMAPE within this many standard errors of the best
  FitOptions fit;
  // If set, called before each hypothesis is fitted; it throws to stop the search (Ctrl-C). What it throws
  // leaves the search as a SearchInterrupted, which fit_dataset passes on as the original exception.
  std::function<void()> interruption;
};

// What SearchOptions::interruption threw, carried out of the search. It is no std::exception, so that the
// handling that turns a series' failure into its error message lets it through (holdout.hpp).
struct SearchInterrupted {
  std::exception_ptr reason;
};

// A hypothesis of the search: its factors (one per term; "" for the constant c0) and its fit.
struct Hypothesis {
  std::vector<std::string> factors;
  LinearFit fit;
  double loo_smape = 0.0;     // mean of the per-point leave-one-out errors, percent
  double loo_smape_se = 0.0;  // their standard error (sample standard deviation / √n)
};

struct SearchResult {
  std::vector<std::string> factors;  // one per term; "" for the constant c0
  LinearFit fit;
  int hypotheses = 0;  // how many were fitted
  double loo_smape_se = 0.0;  // the chosen hypothesis's standard error of its leave-one-out SMAPE
  // The competitive hypotheses besides the chosen one: those whose leave-one-out SMAPE is within one
  // standard error of the best one's, best first (at most SearchOptions::alternatives). Prediction
  // intervals span theirs too, so that they account for the choice among them.
  std::vector<Hypothesis> alternatives;
  std::vector<std::string> notes;  // how variables with values ≤ 0 were restricted
};

// values: the aggregated measurement at each point (all > 0 for a relative fit).
[[nodiscard]] SearchResult search_model(const std::vector<SearchVariable>& variables, const Eigen::VectorXd& values,
                                        const SearchOptions& options = {});

}  // namespace augur::model
