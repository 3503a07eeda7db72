#include "quadrature.hpp"

#include <cmath>
#include <iterator>

namespace augur::tspp {

Quadrature make_quadrature() {
  constexpr int points = 4;
  constexpr double panels[] = {0.0, 0.6, 0.85, 0.95, 0.985, 1.0};
  // Gauss-Legendre nodes on [-1, 1] by Newton's method on the Legendre polynomial.
  double unit_nodes[points];
  double unit_weights[points];
  for (int i = 0; i < points; ++i) {
    double z = std::cos(M_PI * (i + 0.75) / (points + 0.5));
    double derivative = 1.0;
    for (int step = 0; step < 100; ++step) {
      double p1 = 1.0;
      double p2 = 0.0;
      for (int j = 1; j <= points; ++j) {
        const double p3 = p2;
        p2 = p1;
        p1 = ((2.0 * j - 1.0) * z * p2 - (j - 1.0) * p3) / j;
      }
      derivative = points * (z * p1 - p2) / (z * z - 1.0);
      const double previous = z;
      z = previous - p1 / derivative;
      if (std::fabs(z - previous) < 1e-15) break;
    }
    unit_nodes[i] = z;
    unit_weights[i] = 2.0 / ((1.0 - z * z) * derivative * derivative);
  }
  Quadrature rule;
  for (std::size_t panel = 0; panel + 1 < std::size(panels); ++panel) {
    const double low = panels[panel];
    const double high = panels[panel + 1];
    for (int i = 0; i < points; ++i) {
      rule.nodes.push_back(low + (high - low) * (unit_nodes[i] + 1.0) / 2.0);
      rule.weights.push_back((high - low) / 2.0 * unit_weights[i]);
    }
  }
  return rule;
}

}  // namespace augur::tspp
