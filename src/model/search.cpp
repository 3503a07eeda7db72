#include "augur/model/search.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <set>

namespace augur::model {
namespace {

constexpr double infinity = std::numeric_limits<double>::infinity();

struct Block {
  int numerator;    // exponent i = numerator / denominator
  int denominator;
  int log_power;    // j
};

// Extra-P's default single-parameter building blocks (i, j).
constexpr Block extrap_blocks[] = {
    {0, 1, 1}, {0, 1, 2}, {1, 4, 0}, {1, 3, 0}, {1, 4, 1}, {1, 3, 1}, {1, 4, 2}, {1, 3, 2}, {1, 2, 0},
    {1, 2, 1}, {1, 2, 2}, {2, 3, 0}, {3, 4, 0}, {2, 3, 1}, {3, 4, 1}, {4, 5, 0}, {2, 3, 2}, {3, 4, 2},
    {1, 1, 0}, {1, 1, 1}, {1, 1, 2}, {5, 4, 0}, {5, 4, 1}, {4, 3, 0}, {4, 3, 1}, {3, 2, 0}, {3, 2, 1},
    {3, 2, 2}, {5, 3, 0}, {7, 4, 0}, {2, 1, 0}, {2, 1, 1}, {2, 1, 2}, {9, 4, 0}, {7, 3, 0}, {5, 2, 0},
    {5, 2, 1}, {5, 2, 2}, {8, 3, 0}, {11, 4, 0}, {3, 1, 0}, {3, 1, 1}};

// For values that fall as the variable grows (times under strong scaling): x^-i, and 1/x · log2 x.
constexpr Block negative_blocks[] = {{-1, 4, 0}, {-1, 3, 0}, {-1, 2, 0}, {-2, 3, 0}, {-3, 4, 0}, {-1, 1, 0},
                                     {-1, 1, 1}, {-3, 2, 0}, {-2, 1, 0}};

struct Candidate {
  std::string text;
  Eigen::VectorXd column;
  std::vector<int> variables;  // which variables it uses
};

std::string exponent_text(const Block& block) {
  if (block.denominator == 1) return std::to_string(block.numerator);
  return "(" + std::to_string(block.numerator) + "/" + std::to_string(block.denominator) + ")";
}

std::string block_text(const std::string& variable, const Block& block) {
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

struct Hypothesis {
  std::vector<int> terms;  // candidate indices, sorted
  LinearFit fit;
  double bic = infinity;
};

double bic(const LinearFit& fit) {
  const double n = fit.observations;
  const double k = fit.free_constants;
  const double floor = 1e-300;
  return n * std::log(std::max(fit.weighted_rss / n, floor)) + k * std::log(n);
}

class Searcher {
public:
  Searcher(const Eigen::VectorXd& values, const SearchOptions& options) : values_(values), options_(options) {}

  std::vector<Candidate> candidates;
  int fitted = 0;

  Hypothesis evaluate(std::vector<int> terms) {
    std::sort(terms.begin(), terms.end());
    const Eigen::Index rows = values_.size();
    Eigen::MatrixXd design(rows, static_cast<Eigen::Index>(terms.size()) + 1);
    design.col(0).setOnes();
    for (std::size_t index = 0; index < terms.size(); ++index) {
      design.col(static_cast<Eigen::Index>(index) + 1) = candidates[static_cast<std::size_t>(terms[index])].column;
    }
    Hypothesis hypothesis;
    hypothesis.terms = std::move(terms);
    hypothesis.fit = fit_linear(design, values_, options_.fit);
    ++fitted;
    if (!hypothesis.fit.full_rank()) {
      hypothesis.fit.loo_smape = infinity;
      return hypothesis;
    }
    hypothesis.bic = bic(hypothesis.fit);
    return hypothesis;
  }

private:
  const Eigen::VectorXd& values_;
  const SearchOptions& options_;
};

bool better(const Hypothesis& left, const Hypothesis& right) {
  if (left.fit.loo_smape != right.fit.loo_smape) return left.fit.loo_smape < right.fit.loo_smape;
  return left.bic < right.bic;
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

}  // namespace

SearchResult search_model(const std::vector<SearchVariable>& variables, const Eigen::VectorXd& values, const SearchOptions& options) {
  Searcher searcher(values, options);
  const int rows = static_cast<int>(values.size());

  // Single-variable building blocks.
  std::vector<std::vector<int>> by_variable(variables.size());
  for (std::size_t v = 0; v < variables.size(); ++v) {
    const Eigen::VectorXd& x = variables[v].values;
    if (x.size() != values.size() || x.minCoeff() <= 0.0 || x.minCoeff() == x.maxCoeff()) continue;
    const bool logs = x.minCoeff() >= 1.0;
    std::vector<Block> blocks(std::begin(extrap_blocks), std::end(extrap_blocks));
    const bool negative = options.negative == NegativeExponents::Always ||
                          (options.negative == NegativeExponents::Automatic && falls_along(x, values));
    if (negative) blocks.insert(blocks.end(), std::begin(negative_blocks), std::end(negative_blocks));
    for (const Block& block : blocks) {
      if (block.log_power > 0 && !logs) continue;
      Candidate candidate;
      candidate.text = block_text(variables[v].text, block);
      const double exponent = static_cast<double>(block.numerator) / block.denominator;
      candidate.column = x.unaryExpr([&](double value) {
        double result = block.numerator == 0 ? 1.0 : std::pow(value, exponent);
        if (block.log_power > 0) result *= std::pow(std::log2(value), block.log_power);
        return result;
      });
      candidate.variables = {static_cast<int>(v)};
      by_variable[v].push_back(static_cast<int>(searcher.candidates.size()));
      searcher.candidates.push_back(std::move(candidate));
    }
  }

  std::vector<Hypothesis> finalists;
  finalists.push_back(searcher.evaluate({}));  // the constant model
  const int most_terms = std::min(options.max_terms, rows - 3);  // keep n − k ≥ 2

  // Rank every single term; the best few of each variable also form products of two variables.
  std::vector<Hypothesis> level;
  if (most_terms >= 1) {
    for (int index = 0; index < static_cast<int>(searcher.candidates.size()); ++index) level.push_back(searcher.evaluate({index}));
    std::vector<std::vector<int>> best_of(variables.size());
    for (std::size_t v = 0; v < variables.size(); ++v) {
      std::vector<int> own = by_variable[v];
      std::sort(own.begin(), own.end(), [&](int left, int right) {
        return better(level[static_cast<std::size_t>(left)], level[static_cast<std::size_t>(right)]);
      });
      own.resize(std::min<std::size_t>(own.size(), 5));
      best_of[v] = own;
    }
    for (std::size_t a = 0; a < variables.size(); ++a) {
      for (std::size_t b = a + 1; b < variables.size(); ++b) {
        for (int left : best_of[a]) {
          for (int right : best_of[b]) {
            const Candidate& first = searcher.candidates[static_cast<std::size_t>(left)];
            const Candidate& second = searcher.candidates[static_cast<std::size_t>(right)];
            Candidate product;
            product.text = first.text + " * " + second.text;
            product.column = first.column.cwiseProduct(second.column);
            product.variables = {static_cast<int>(a), static_cast<int>(b)};
            searcher.candidates.push_back(std::move(product));
            level.push_back(searcher.evaluate({static_cast<int>(searcher.candidates.size()) - 1}));
          }
        }
      }
    }
  }

  // Beam search: extend the best hypotheses of each size by one term.
  for (int size = 1; size <= most_terms && !level.empty(); ++size) {
    std::sort(level.begin(), level.end(), better);
    if (level.size() > static_cast<std::size_t>(options.beam)) level.resize(static_cast<std::size_t>(options.beam));
    finalists.insert(finalists.end(), level.begin(), level.end());
    if (size == most_terms) break;
    std::vector<Hypothesis> next;
    std::set<std::vector<int>> seen;
    for (const Hypothesis& base : level) {
      if (!std::isfinite(base.fit.loo_smape)) continue;
      for (int index = 0; index < static_cast<int>(searcher.candidates.size()); ++index) {
        if (std::find(base.terms.begin(), base.terms.end(), index) != base.terms.end()) continue;
        std::vector<int> terms = base.terms;
        terms.push_back(index);
        std::sort(terms.begin(), terms.end());
        if (!seen.insert(terms).second) continue;
        next.push_back(searcher.evaluate(terms));
      }
    }
    level = std::move(next);
  }

  // Select: the lowest leave-one-out SMAPE; among those within 5% (+0.01 points) of it, the lowest BIC.
  double best_smape = infinity;
  for (const Hypothesis& hypothesis : finalists) best_smape = std::min(best_smape, hypothesis.fit.loo_smape);
  const Hypothesis* chosen = &finalists.front();
  if (std::isfinite(best_smape)) {
    chosen = nullptr;
    for (const Hypothesis& hypothesis : finalists) {
      if (hypothesis.fit.loo_smape > best_smape * 1.05 + 0.01) continue;
      if (chosen == nullptr || hypothesis.bic < chosen->bic) chosen = &hypothesis;
    }
  }
  Hypothesis result = *chosen;

  // Drop terms whose largest contribution is under 1% of the largest prediction, then refit.
  for (bool dropped = true; dropped && !result.terms.empty();) {
    dropped = false;
    const double largest = result.fit.fitted.cwiseAbs().maxCoeff();
    for (std::size_t index = 0; index < result.terms.size(); ++index) {
      const Candidate& term = searcher.candidates[static_cast<std::size_t>(result.terms[index])];
      const double contribution = (term.column * result.fit.constants(static_cast<Eigen::Index>(index) + 1)).cwiseAbs().maxCoeff();
      if (contribution < 0.01 * largest) {
        std::vector<int> kept = result.terms;
        kept.erase(kept.begin() + static_cast<std::ptrdiff_t>(index));
        result = searcher.evaluate(kept);
        dropped = true;
        break;
      }
    }
  }

  SearchResult found;
  found.factors.emplace_back();
  for (int index : result.terms) found.factors.push_back(searcher.candidates[static_cast<std::size_t>(index)].text);
  found.fit = result.fit;
  found.hypotheses = searcher.fitted;
  return found;
}

}  // namespace augur::model
