// Small statistics shared by every tool.
#pragma once

#include <vector>

namespace augur::core {

// Median of the values (mean of the two middle ones for an even count); NaN when empty.
[[nodiscard]] double median(std::vector<double> values);
// Arithmetic mean; NaN when empty.
[[nodiscard]] double mean(const std::vector<double>& values);

}  // namespace augur::core
