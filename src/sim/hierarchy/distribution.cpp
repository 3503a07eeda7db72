// Distributions of the program behaviour models (model.hpp): draws on a seeded stream, means, minima.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

#include "sim/hierarchy/model.hpp"

namespace augur::sim::hierarchy {
namespace {

std::string text_of(double value) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.10g", value);
  return buffer;
}

// Poisson by inversion (sequential search) up to a mean of 500; beyond, the normal approximation rounded
// (exp(-mean) underflows near 745, and the two agree to a few parts in a thousand there).
double poisson(RandomStream& random, double mean) {
  if (mean <= 0) return 0.0;
  if (mean > 500) {
    const double z = std::sqrt(-2.0 * std::log(random.uniform())) * std::cos(2.0 * M_PI * random.uniform());
    return std::max(0.0, std::round(mean + std::sqrt(mean) * z));
  }
  const double u = random.uniform();
  double probability = std::exp(-mean);
  double cumulative = probability;
  double k = 0;
  while (u > cumulative && k < 10 * mean + 100) {
    k += 1;
    probability *= mean / k;
    cumulative += probability;
  }
  return k;
}

}  // namespace

double Distribution::draw(RandomStream& random, bool whole) const {
  double value = 0.0;
  switch (kind) {
    case Kind::Deterministic: value = a; break;
    case Kind::Uniform:
      value = whole ? a + std::floor(random.uniform() * (b - a + 1)) : a + (b - a) * random.uniform();
      if (whole && value > b) value = b;  // uniform() < 1, but keep the bound under rounding
      break;
    case Kind::Exponential: value = random.exponential(a); break;
    case Kind::Poisson: value = poisson(random, a); break;
    case Kind::Empirical: {
      const double u = random.uniform();
      double cumulative = 0.0;
      value = empirical.back().first;
      for (const auto& [v, weight] : empirical) {
        cumulative += weight;
        if (u <= cumulative) {
          value = v;
          break;
        }
      }
      break;
    }
  }
  value += shift;
  return whole ? std::round(value) : value;
}

double Distribution::mean() const {
  switch (kind) {
    case Kind::Deterministic: return shift + a;
    case Kind::Uniform: return shift + (a + b) / 2;
    case Kind::Exponential:
    case Kind::Poisson: return shift + a;
    case Kind::Empirical: {
      double sum = 0.0;
      for (const auto& [v, weight] : empirical) sum += v * weight;
      return shift + sum;
    }
  }
  return shift;
}

double Distribution::minimum() const {
  switch (kind) {
    case Kind::Deterministic:
    case Kind::Uniform: return shift + a;
    case Kind::Exponential: return shift;
    case Kind::Poisson: return shift;
    case Kind::Empirical: {
      double least = empirical.front().first;
      for (const auto& pair : empirical) least = std::min(least, pair.first);
      return shift + least;
    }
  }
  return shift;
}

std::string Distribution::describe() const {
  std::ostringstream out;
  if (shift != 0) out << text_of(shift) << " + ";
  switch (kind) {
    case Kind::Deterministic: out << "deterministic " << text_of(a); break;
    case Kind::Uniform: out << "uniform " << text_of(a) << " " << text_of(b); break;
    case Kind::Exponential: out << "exponential " << text_of(a); break;
    case Kind::Poisson: out << "poisson " << text_of(a); break;
    case Kind::Empirical:
      out << "empirical";
      for (const auto& [v, weight] : empirical) out << " " << text_of(v) << ":" << text_of(weight);
      break;
  }
  return out.str();
}

}  // namespace augur::sim::hierarchy
