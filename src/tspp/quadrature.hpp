// The quadrature of the transient method's step 1 (docs/tspp.md, "The transient method").
#pragma once

#include <vector>

namespace augur::tspp {

// A composite Gauss-Legendre rule on [0, 1] whose panels crowd towards 1: E[1 / (1 + N)] is the
// integral over [0, 1] of the generating function of N, which behaves like x^N; with 4 nodes on
// each of 5 panels, the integral of x^n is within 1.5e-4 of 1 / (n + 1) for every n up to 300.
struct Quadrature {
  std::vector<double> nodes;
  std::vector<double> weights;
};

[[nodiscard]] Quadrature make_quadrature();

}  // namespace augur::tspp
