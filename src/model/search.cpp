#include "model/search.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <set>
#include <utility>

#include "search_terms.hpp"

namespace augur::model {
namespace {

using detail::Block;

// A term: the blocks it multiplies, as (variable, block) pairs in variable order.
using Term = std::vector<std::pair<int, int>>;

struct Scored {
  std::vector<Term> terms;
  LinearFit fit;
  double mean = 0.0;  // leave-one-out SMAPE
  double se = 0.0;    // its standard error
};

class Searcher {
public:
  Searcher(const std::vector<std::vector<Block>>& blocks, const Eigen::VectorXd& values, const FitOptions& fit,
           const std::function<void()>& interruption)
      : blocks_(blocks), values_(values), fit_(fit), interruption_(interruption) {}

  std::vector<Scored> pool;
  int fitted = 0;

  // Fits c0 + Σ c_k · term_k and keeps it when its leave-one-out predictions all exist.
  void consider(std::vector<Term> terms) {
    for (Term& term : terms) std::sort(term.begin(), term.end());
    std::sort(terms.begin(), terms.end());
    if (!seen_.insert(terms).second) return;
    if (interruption_) {
      try {
        interruption_();
      } catch (...) {
        throw SearchInterrupted{std::current_exception()};
      }
    }
    const Eigen::Index rows = values_.size();
    Eigen::MatrixXd design(rows, static_cast<Eigen::Index>(terms.size()) + 1);
    design.col(0).setOnes();
    for (std::size_t k = 0; k < terms.size(); ++k) {
      auto column = design.col(static_cast<Eigen::Index>(k) + 1);
      column.setOnes();
      for (const auto& [variable, block] : terms[k]) column.array() *= blocks_[static_cast<std::size_t>(variable)][static_cast<std::size_t>(block)].column.array();
    }
    Scored scored;
    scored.fit = fit_linear(design, values_, fit_);
    ++fitted;
    const std::vector<double> errors = detail::loo_errors(scored.fit, values_);
    if (errors.empty()) return;
    const double n = static_cast<double>(errors.size());
    scored.mean = std::accumulate(errors.begin(), errors.end(), 0.0) / n;
    double squares = 0.0;
    for (double error : errors) squares += (error - scored.mean) * (error - scored.mean);
    scored.se = n > 1 ? std::sqrt(squares / (n - 1.0) / n) : 0.0;
    // A score that overflowed (measurements near 1e308) ranks nothing: no hypothesis would be competitive.
    if (!std::isfinite(scored.mean) || !std::isfinite(scored.se)) return;
    scored.terms = std::move(terms);
    pool.push_back(std::move(scored));
  }

  [[nodiscard]] std::vector<std::string> factors(const Scored& scored) const {
    std::vector<std::string> result{""};
    for (const Term& term : scored.terms) {
      std::string text;
      for (const auto& [variable, block] : term) {
        text += (text.empty() ? "" : " * ") + blocks_[static_cast<std::size_t>(variable)][static_cast<std::size_t>(block)].text;
      }
      result.push_back(text);
    }
    return result;
  }

private:
  const std::vector<std::vector<Block>>& blocks_;
  const Eigen::VectorXd& values_;
  const FitOptions& fit_;
  const std::function<void()>& interruption_;
  std::set<std::vector<Term>> seen_;
};

// Every set of at most `most` non-empty subsets (bit masks) of u variables that together cover all u.
void coverings(int u, int most, int start, std::vector<int>& current, int covered, std::vector<std::vector<int>>& out) {
  const int full = (1 << u) - 1;
  if (!current.empty() && covered == full) out.push_back(current);
  if (static_cast<int>(current.size()) == most) return;
  for (int mask = start; mask <= full; ++mask) {
    current.push_back(mask);
    coverings(u, most, mask + 1, current, covered | mask, out);
    current.pop_back();
  }
}

// The hypotheses that combine the best `keep` blocks of the variables in `used` (one block per variable,
// the same in every term that uses it) in every covering set of product terms.
void combine(Searcher& searcher, const std::vector<int>& used, const std::vector<std::vector<int>>& best, int most) {
  const int u = static_cast<int>(used.size());
  std::vector<std::vector<int>> structures;
  std::vector<int> current;
  coverings(u, most, 1, current, 0, structures);
  std::vector<std::size_t> choice(used.size(), 0);
  while (true) {
    for (const std::vector<int>& structure : structures) {
      std::vector<Term> terms;
      for (int mask : structure) {
        Term term;
        for (int bit = 0; bit < u; ++bit) {
          if ((mask >> bit & 1) != 0) term.emplace_back(used[static_cast<std::size_t>(bit)], best[static_cast<std::size_t>(used[static_cast<std::size_t>(bit)])][choice[static_cast<std::size_t>(bit)]]);
        }
        terms.push_back(std::move(term));
      }
      searcher.consider(std::move(terms));
    }
    std::size_t digit = 0;
    while (digit < used.size() && ++choice[digit] == best[static_cast<std::size_t>(used[digit])].size()) choice[digit++] = 0;
    if (digit == used.size()) break;
  }
}

// Sums of 2..most blocks of one variable, from its best `from` blocks.
void sums_of(Searcher& searcher, int variable, const std::vector<int>& ranked, int most, std::size_t from) {
  const std::size_t count = std::min(from, ranked.size());
  for (int size = 2; size <= most; ++size) {
    std::vector<bool> pick(count, false);
    std::fill(pick.begin(), pick.begin() + std::min<std::ptrdiff_t>(size, static_cast<std::ptrdiff_t>(count)), true);
    if (static_cast<std::size_t>(size) > count) return;
    do {
      std::vector<Term> terms;
      for (std::size_t b = 0; b < count; ++b) {
        if (pick[b]) terms.push_back({{variable, ranked[b]}});
      }
      searcher.consider(std::move(terms));
    } while (std::prev_permutation(pick.begin(), pick.end()));
  }
}

// The hypotheses of one to `most` terms: each block alone, the best blocks of every subset of the variables
// combined, and sums of a variable's own blocks.
void consider_combinations(Searcher& searcher, const std::vector<SearchVariable>& variables,
                           const std::vector<std::vector<Block>>& blocks, const Eigen::VectorXd& values,
                           const FitOptions& fit, int most) {
  std::vector<int> usable;
  std::vector<std::vector<int>> ranked(variables.size());
  std::vector<int> points(variables.size(), 0);
  for (std::size_t v = 0; v < variables.size(); ++v) {
    if (blocks[v].empty()) continue;
    usable.push_back(static_cast<int>(v));
    ranked[v] = detail::rank_blocks(variables, v, blocks[v], values, fit, points[v]);
    for (std::size_t b = 0; b < blocks[v].size(); ++b) searcher.consider({{{static_cast<int>(v), static_cast<int>(b)}}});
  }
  // How many blocks of each variable enter the combinations: fewer as there are more variables.
  const std::size_t keep = usable.size() <= 3 ? 3 : usable.size() == 4 ? 2 : 1;
  std::vector<std::vector<int>> best(variables.size());
  for (int v : usable) best[static_cast<std::size_t>(v)].assign(ranked[static_cast<std::size_t>(v)].begin(), ranked[static_cast<std::size_t>(v)].begin() + static_cast<std::ptrdiff_t>(std::min(keep, ranked[static_cast<std::size_t>(v)].size())));
  const int count = static_cast<int>(usable.size());
  for (int subset = 1; subset < (1 << count); ++subset) {
    std::vector<int> used;
    for (int bit = 0; bit < count; ++bit) {
      if ((subset >> bit & 1) != 0) used.push_back(usable[static_cast<std::size_t>(bit)]);
    }
    combine(searcher, used, best, most);
  }
  // A variable measured at enough values may carry a sum of its own blocks: (m − 2) / 3 of them.
  for (int v : usable) {
    const int own = std::min(most, (points[static_cast<std::size_t>(v)] - 2) / 3);
    if (own >= 2) sums_of(searcher, v, ranked[static_cast<std::size_t>(v)], own, 6);
  }
}

}  // namespace

SearchResult search_model(const std::vector<SearchVariable>& variables, const Eigen::VectorXd& values, const SearchOptions& options) {
  SearchResult found;
  std::vector<std::vector<Block>> blocks(variables.size());
  for (std::size_t v = 0; v < variables.size(); ++v) {
    std::string note;
    blocks[v] = detail::variable_blocks(variables[v], values, options.negative, note);
    if (!blocks[v].empty() && !note.empty()) found.notes.push_back(note);
  }
  Searcher searcher(blocks, values, options.fit, options.interruption);
  searcher.consider({});  // the constant model
  // Keep n − k ≥ 2 degrees of freedom, but let 3 points have one term (n − k = 1).
  const int rows = static_cast<int>(values.size());
  const int most = std::min(options.max_terms, rows >= 3 ? std::max(1, rows - 3) : 0);

  if (most >= 1) consider_combinations(searcher, variables, blocks, values, options.fit, most);

  // The one-standard-error rule: the fewest terms among the hypotheses whose leave-one-out SMAPE is
  // within one standard error of the lowest; among those, the lowest leave-one-out SMAPE.
  const auto& pool = searcher.pool;
  std::size_t best_index = 0;
  for (std::size_t i = 1; i < pool.size(); ++i) {
    if (pool[i].mean < pool[best_index].mean) best_index = i;
  }
  found.hypotheses = searcher.fitted;
  if (pool.empty()) {  // even the constant has no leave-one-out prediction (a single point)
    found.factors = {""};
    Eigen::MatrixXd ones = Eigen::MatrixXd::Ones(values.size(), 1);
    found.fit = fit_linear(ones, values, options.fit);
    return found;
  }
  const double threshold = pool[best_index].mean + pool[best_index].se + 1e-9;
  const double band = pool[best_index].mean + options.band * pool[best_index].se + 1e-9;
  std::vector<std::size_t> competitive;
  std::vector<std::size_t> banded;
  for (std::size_t i = 0; i < pool.size(); ++i) {
    if (pool[i].mean <= threshold) competitive.push_back(i);
    else if (pool[i].mean <= band) banded.push_back(i);
  }
  std::sort(competitive.begin(), competitive.end(), [&](std::size_t a, std::size_t b) {
    if (pool[a].terms.size() != pool[b].terms.size()) return pool[a].terms.size() < pool[b].terms.size();
    return pool[a].mean < pool[b].mean;
  });
  const Scored& chosen = pool[competitive.front()];
  found.factors = searcher.factors(chosen);
  found.fit = chosen.fit;
  found.loo_smape_se = chosen.se;
  competitive.insert(competitive.end(), banded.begin(), banded.end());
  std::sort(competitive.begin() + 1, competitive.end(), [&](std::size_t a, std::size_t b) { return pool[a].mean < pool[b].mean; });
  for (std::size_t k = 1; k < competitive.size() && found.alternatives.size() < static_cast<std::size_t>(options.alternatives); ++k) {
    const Scored& other = pool[competitive[k]];
    found.alternatives.push_back({searcher.factors(other), other.fit, other.mean, other.se});
  }
  return found;
}

}  // namespace augur::model
