#include "model/search.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
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

// The blocks of parameter `v` scored on the lines of the grid where every other parameter is fixed:
// the mean leave-one-out SMAPE of c0 + c1·block over the lines with at least 4 points. Empty when
// `v` is derived, the only parameter, or no line is long enough.
std::map<int, double> rank_on_lines(const std::vector<SearchVariable>& variables, std::size_t v, const std::vector<int>& blocks,
                                    const std::vector<Candidate>& candidates, const Eigen::VectorXd& values, const FitOptions& fit) {
  std::map<int, double> scores;
  if (!variables[v].parameter) return scores;
  std::map<std::vector<double>, std::vector<Eigen::Index>> lines;
  bool others = false;
  for (Eigen::Index i = 0; i < values.size(); ++i) {
    std::vector<double> key;
    for (std::size_t w = 0; w < variables.size(); ++w) {
      if (w == v || !variables[w].parameter) continue;
      key.push_back(variables[w].values(i));
      others = true;
    }
    lines[key].push_back(i);
  }
  if (!others) return scores;
  int used = 0;
  for (const auto& [key, members] : lines) {
    if (members.size() < 4) continue;
    ++used;
    const Eigen::Index rows = static_cast<Eigen::Index>(members.size());
    Eigen::VectorXd line_values(rows);
    for (Eigen::Index r = 0; r < rows; ++r) line_values(r) = values(members[static_cast<std::size_t>(r)]);
    for (int block : blocks) {
      Eigen::MatrixXd design(rows, 2);
      for (Eigen::Index r = 0; r < rows; ++r) design.row(r) << 1.0, candidates[static_cast<std::size_t>(block)].column(members[static_cast<std::size_t>(r)]);
      const LinearFit line_fit = fit_linear(design, line_values, fit);
      scores[block] += line_fit.full_rank() && std::isfinite(line_fit.loo_smape) ? line_fit.loo_smape : 1e6;
    }
  }
  if (used == 0) scores.clear();
  return scores;
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
      const std::map<int, double> line_scores = rank_on_lines(variables, v, own, searcher.candidates, values, options.fit);
      std::sort(own.begin(), own.end(), [&](int left, int right) {
        if (!line_scores.empty() && line_scores.at(left) != line_scores.at(right)) return line_scores.at(left) < line_scores.at(right);
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

  // Select. Within each size: the lowest leave-one-out SMAPE, and among those within 5% (+0.01
  // points) of it the lowest BIC. Across sizes: a larger model replaces a smaller one only when it
  // cuts the leave-one-out SMAPE by the factor `parsimony` (noise alone lets extra terms shave a little).
  std::vector<const Hypothesis*> best_of_size;
  for (const Hypothesis& hypothesis : finalists) {
    const std::size_t size = hypothesis.terms.size();
    if (best_of_size.size() <= size) best_of_size.resize(size + 1, nullptr);
    if (!std::isfinite(hypothesis.fit.loo_smape)) continue;
    const Hypothesis*& best = best_of_size[size];
    if (best == nullptr || better(hypothesis, *best)) best = &hypothesis;
  }
  for (std::size_t size = 0; size < best_of_size.size(); ++size) {
    const Hypothesis* leader = best_of_size[size];
    if (leader == nullptr) continue;
    for (const Hypothesis& hypothesis : finalists) {
      if (hypothesis.terms.size() != size || hypothesis.fit.loo_smape > leader->fit.loo_smape * 1.05 + 0.01) continue;
      if (hypothesis.bic < best_of_size[size]->bic) best_of_size[size] = &hypothesis;
    }
  }
  const Hypothesis* chosen = &finalists.front();
  for (const Hypothesis* candidate : best_of_size) {
    if (candidate == nullptr || candidate == chosen) continue;
    if (!std::isfinite(chosen->fit.loo_smape) || candidate->fit.loo_smape < chosen->fit.loo_smape * options.parsimony) chosen = candidate;
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
