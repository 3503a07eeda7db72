#include "sim/cache/model_range.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>

namespace augur::sim::cache {
namespace {

// Σ_d coefficients[d] × x_d + constant ≥ 0, over x_0 .. x_{n-1} and, at index n, the objective's bound t.
struct Constraint {
  std::vector<double> coefficients;
  double constant = 0.0;
};

// Enough for any nest a person writes; past it, constraints that do not bound the objective are dropped,
// which only widens the range (a relaxation), never narrows it.
constexpr std::size_t max_constraints = 4096;

Constraint from_form(const AffineForm& form, double sign, std::size_t width) {
  Constraint constraint;
  constraint.coefficients.assign(width, 0.0);
  for (std::size_t d = 0; d < form.coefficients.size() && d < width; ++d) {
    constraint.coefficients[d] = sign * static_cast<double>(form.coefficients[d]);
  }
  constraint.constant = sign * static_cast<double>(form.constant);
  return constraint;
}

// x_d - lower ≥ 0 and upper - x_d ≥ 0 for every loop, the upper bound pulled down to the last value the
// step reaches when the bounds differ by a constant. False when a loop visibly never runs.
bool add_loop_constraints(const std::vector<LoopBounds>& loops, std::size_t width, std::vector<Constraint>& out) {
  for (std::size_t d = 0; d < loops.size(); ++d) {
    const LoopBounds& loop = loops[d];
    AffineForm first = *loop.first;
    AffineForm last = *loop.last;
    AffineForm difference = last;
    difference.constant -= first.constant;
    difference.coefficients.resize(std::max(first.coefficients.size(), last.coefficients.size()), 0);
    for (std::size_t k = 0; k < first.coefficients.size(); ++k) difference.coefficients[k] -= first.coefficients[k];
    if (difference.is_constant()) {
      const std::int64_t span = loop.step > 0 ? difference.constant : -difference.constant;
      if (span < 0) return false;
      const std::int64_t magnitude = loop.step > 0 ? loop.step : -loop.step;
      last = first;
      last.constant += (loop.step > 0 ? 1 : -1) * (span / magnitude) * magnitude;
    }
    const AffineForm& lower = loop.step > 0 ? first : last;
    const AffineForm& upper = loop.step > 0 ? last : first;
    Constraint above = from_form(lower, -1.0, width);  // x_d - lower ≥ 0
    above.coefficients[d] += 1.0;
    Constraint below = from_form(upper, 1.0, width);  // upper - x_d ≥ 0
    below.coefficients[d] -= 1.0;
    out.push_back(std::move(above));
    out.push_back(std::move(below));
  }
  return true;
}

void normalise(Constraint& constraint) {
  double largest = 0.0;
  for (const double c : constraint.coefficients) largest = std::max(largest, std::abs(c));
  if (largest > 0.0) {
    for (double& c : constraint.coefficients) c /= largest;
    constraint.constant /= largest;
  }
}

void eliminate(std::vector<Constraint>& constraints, std::size_t variable, std::size_t objective) {
  std::vector<Constraint> kept;
  std::vector<const Constraint*> lower;  // coefficient > 0
  std::vector<const Constraint*> upper;  // coefficient < 0
  for (const Constraint& constraint : constraints) {
    const double c = constraint.coefficients[variable];
    if (c > 0.0) {
      lower.push_back(&constraint);
    } else if (c < 0.0) {
      upper.push_back(&constraint);
    } else {
      kept.push_back(constraint);
    }
  }
  for (const Constraint* low : lower) {
    for (const Constraint* high : upper) {
      const double a = low->coefficients[variable];
      const double b = -high->coefficients[variable];
      Constraint combined;
      combined.coefficients.resize(low->coefficients.size());
      for (std::size_t k = 0; k < combined.coefficients.size(); ++k) {
        combined.coefficients[k] = b * low->coefficients[k] + a * high->coefficients[k];
      }
      combined.coefficients[variable] = 0.0;
      combined.constant = b * low->constant + a * high->constant;
      normalise(combined);
      if (kept.size() < max_constraints || combined.coefficients[objective] != 0.0) kept.push_back(std::move(combined));
    }
  }
  constraints = std::move(kept);
}

// max over the nest of `form`, or nothing when the nest is empty.
std::optional<double> maximum(const AffineForm& form, double sign, const std::vector<LoopBounds>& loops) {
  const std::size_t width = loops.size() + 1;
  std::vector<Constraint> constraints;
  Constraint objective = from_form(form, sign, width);  // sign × form - t ≥ 0
  objective.coefficients[width - 1] = -1.0;
  constraints.push_back(std::move(objective));
  if (!add_loop_constraints(loops, width, constraints)) return std::nullopt;
  for (std::size_t variable = loops.size(); variable-- > 0;) eliminate(constraints, variable, width - 1);
  constexpr double tolerance = 1e-9;
  double best = std::numeric_limits<double>::infinity();
  for (const Constraint& constraint : constraints) {
    const double t = constraint.coefficients[width - 1];
    if (t == 0.0) {
      if (constraint.constant < -tolerance * std::max(1.0, std::abs(constraint.constant))) return std::nullopt;
    } else {
      best = std::min(best, constraint.constant / -t);  // t ≤ constant / -t
    }
  }
  return best;
}

}  // namespace

std::optional<ValueRange> affine_range(const AffineForm& form, const std::vector<LoopBounds>& loops) {
  const std::optional<double> high = maximum(form, 1.0, loops);
  if (!high) return std::nullopt;
  const std::optional<double> low = maximum(form, -1.0, loops);
  if (!low) return std::nullopt;
  return ValueRange{-*low, *high};
}

}  // namespace augur::sim::cache
