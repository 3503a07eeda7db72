// Reduces an expression of the core language to an affine form of loop variables (the program model's
// indices and loop bounds). Private to sim/cache.
#pragma once

#include <string>
#include <vector>

#include "augur/core/expression.hpp"
#include "sim/cache/model.hpp"

namespace augur::sim::cache {

// `expression` as constant + Σ_d c_d × x_d, where x_d is the loop variable named loop_variables[d] and every
// other name is a parameter of `parameters`. Subexpressions without loop variables are evaluated whole (any
// function of the language); with them, only +, -, unary -, × by a constant and ÷ by a constant are affine.
// The coefficients and the constant must come out as integers of at most 2^47 in magnitude. Errors are
// core::InputError at the place in `source` (an unknown name, a product of loop variables, a fraction).
[[nodiscard]] AffineForm reduce_to_affine(const core::Expression& expression, const core::SourceText& source,
                                          const std::vector<std::string>& loop_variables,
                                          const core::Bindings& parameters);

}  // namespace augur::sim::cache
