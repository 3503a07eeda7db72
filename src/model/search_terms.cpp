#include "search_terms.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <set>

namespace augur::model::detail {
namespace {

struct Exponents {
  int numerator;    // exponent i = numerator / denominator
  int denominator;
  int log_power;    // j
};

// Extra-P's default single-parameter building blocks (i, j).
constexpr Exponents extrap_blocks[] = {
    {0, 1, 1}, {0, 1, 2}, {1, 4, 0}, {1, 3, 0}, {1, 4, 1}, {1, 3, 1}, {1, 4, 2}, {1, 3, 2}, {1, 2, 0},
    {1, 2, 1}, {1, 2, 2}, {2, 3, 0}, {3, 4, 0}, {2, 3, 1}, {3, 4, 1}, {4, 5, 0}, {2, 3, 2}, {3, 4, 2},
    {1, 1, 0}, {1, 1, 1}, {1, 1, 2}, {5, 4, 0}, {5, 4, 1}, {4, 3, 0}, {4, 3, 1}, {3, 2, 0}, {3, 2, 1},
    {3, 2, 2}, {5, 3, 0}, {7, 4, 0}, {2, 1, 0}, {2, 1, 1}, {2, 1, 2}, {9, 4, 0}, {7, 3, 0}, {5, 2, 0},
    {5, 2, 1}, {5, 2, 2}, {8, 3, 0}, {11, 4, 0}, {3, 1, 0}, {3, 1, 1}};

// For values that fall as the variable grows (times under strong scaling): x^-i, and 1/x · log2 x.
constexpr Exponents negative_blocks[] = {{-1, 4, 0}, {-1, 3, 0}, {-1, 2, 0}, {-2, 3, 0}, {-3, 4, 0}, {-1, 1, 0},
                                         {-1, 1, 1}, {-3, 2, 0}, {-2, 1, 0}};

// For a variable with negative values: the powers defined everywhere.
constexpr Exponents polynomial_blocks[] = {{1, 1, 0}, {2, 1, 0}, {3, 1, 0}};

std::string exponent_text(const Exponents& block) {
  if (block.denominator == 1) return std::to_string(block.numerator);
  return "(" + std::to_string(block.numerator) + "/" + std::to_string(block.denominator) + ")";
}

std::string block_text(const std::string& variable, const Exponents& block) {
  std::string text;
  if (block.numerator != 0) {
    text = variable;
    if (!(block.numerator == 1 && block.denominator == 1)) text += "^" + exponent_text(block);
  }
  if (block.log_power > 0) {
    // log2 of a parenthesised derived variable needs no second pair of parentheses
    const bool wrapped = variable.size() > 1 && variable.front() == '(' && variable.back() == ')';
    std::string log = "log2" + (wrapped ? variable : "(" + variable + ")");
    if (block.log_power > 1) log += "^" + std::to_string(block.log_power);
    text += (text.empty() ? "" : " * ") + log;
  }
  return text;
}

// True when the values fall from the smallest to the largest value of the variable.
bool falls_along(const Eigen::VectorXd& variable, const Eigen::VectorXd& values) {
  const double low = variable.minCoeff();
  const double high = variable.maxCoeff();
  double at_low = 0.0;
  double at_high = 0.0;
  int count_low = 0;
  int count_high = 0;
  for (Eigen::Index i = 0; i < variable.size(); ++i) {
    if (variable(i) == low) at_low += values(i), ++count_low;
    if (variable(i) == high) at_high += values(i), ++count_high;
  }
  return at_high / count_high < at_low / count_low;
}

int distinct(const Eigen::VectorXd& values, const std::vector<Eigen::Index>& members) {
  std::set<double> seen;
  for (Eigen::Index i : members) seen.insert(values(i));
  return static_cast<int>(seen.size());
}

}  // namespace

std::vector<Block> variable_blocks(const SearchVariable& variable, const Eigen::VectorXd& values, NegativeExponents negative,
                                   std::string& note) {
  std::vector<Block> result;
  const Eigen::VectorXd& x = variable.values;
  if (x.size() != values.size() || x.size() == 0 || x.minCoeff() == x.maxCoeff()) return result;
  std::vector<Exponents> chosen;
  if (x.minCoeff() < 0.0) {
    chosen.assign(std::begin(polynomial_blocks), std::end(polynomial_blocks));
    note = variable.text + " has values below 0: its terms are restricted to " + variable.text + ", " + variable.text + "^2, " +
           variable.text + "^3";
  } else if (x.minCoeff() == 0.0) {
    for (const Exponents& block : extrap_blocks) {
      if (block.log_power == 0) chosen.push_back(block);
    }
    note = variable.text + " has the value 0: its terms are restricted to powers " + variable.text + "^i without logarithms";
  } else {
    const bool logs = x.minCoeff() >= 1.0;
    for (const Exponents& block : extrap_blocks) {
      if (block.log_power == 0 || logs) chosen.push_back(block);
    }
    const bool falling = negative == NegativeExponents::Always || (negative == NegativeExponents::Automatic && falls_along(x, values));
    if (falling) chosen.insert(chosen.end(), std::begin(negative_blocks), std::end(negative_blocks));
  }
  for (const Exponents& block : chosen) {
    const double exponent = static_cast<double>(block.numerator) / block.denominator;
    Block made;
    made.text = block_text(variable.text, block);
    made.column = x.unaryExpr([&](double value) {
      double term = block.numerator == 0 ? 1.0 : std::pow(value, exponent);
      if (block.log_power > 0) term *= std::pow(std::log2(value), block.log_power);
      return term;
    });
    result.push_back(std::move(made));
  }
  return result;
}

std::vector<double> loo_errors(const LinearFit& fit, const Eigen::VectorXd& values) {
  std::vector<double> errors;
  if (!fit.full_rank()) return errors;
  for (Eigen::Index i = 0; i < values.size(); ++i) {
    const double predicted = fit.loo_predictions(i);
    if (!std::isfinite(predicted)) return {};
    const double scale = std::fabs(values(i)) + std::fabs(predicted);
    errors.push_back(scale > 0 ? 200.0 * std::fabs(values(i) - predicted) / scale : 0.0);
  }
  return errors;
}

std::vector<int> rank_blocks(const std::vector<SearchVariable>& variables, std::size_t v, const std::vector<Block>& blocks,
                             const Eigen::VectorXd& values, const FitOptions& fit, int& points) {
  std::map<std::vector<double>, std::vector<Eigen::Index>> lines;
  for (Eigen::Index i = 0; i < values.size(); ++i) {
    std::vector<double> key;
    if (variables[v].parameter) {
      for (std::size_t w = 0; w < variables.size(); ++w) {
        if (w != v && variables[w].parameter) key.push_back(variables[w].values(i));
      }
    }
    lines[key].push_back(i);
  }
  std::vector<std::vector<Eigen::Index>> used;
  for (auto& [key, members] : lines) {
    if (lines.size() == 1 || distinct(variables[v].values, members) >= 4) used.push_back(std::move(members));
  }
  if (used.empty()) {
    std::vector<Eigen::Index> all(static_cast<std::size_t>(values.size()));
    std::iota(all.begin(), all.end(), Eigen::Index{0});
    used.push_back(std::move(all));
  }
  points = 0;
  std::vector<double> scores(blocks.size(), 0.0);
  for (const auto& members : used) {
    points = std::max(points, distinct(variables[v].values, members));
    const Eigen::Index rows = static_cast<Eigen::Index>(members.size());
    Eigen::VectorXd line_values(rows);
    for (Eigen::Index r = 0; r < rows; ++r) line_values(r) = values(members[static_cast<std::size_t>(r)]);
    Eigen::MatrixXd design(rows, 2);
    design.col(0).setOnes();
    for (std::size_t b = 0; b < blocks.size(); ++b) {
      for (Eigen::Index r = 0; r < rows; ++r) design(r, 1) = blocks[b].column(members[static_cast<std::size_t>(r)]);
      const LinearFit line_fit = fit_linear(design, line_values, fit);
      scores[b] += line_fit.full_rank() && std::isfinite(line_fit.loo_smape) ? line_fit.loo_smape : 1e6;
    }
  }
  std::vector<int> order(blocks.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return scores[static_cast<std::size_t>(a)] < scores[static_cast<std::size_t>(b)]; });
  return order;
}

}  // namespace augur::model::detail
