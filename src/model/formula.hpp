// CALL complexity formulas in canonical form: a sum of terms, each a constant name[i] times an
// expression of the variables, e.g.  fft[0] + fft[1]*log(P) + fft[2]*(N/P)*log(N/P) + fft[3]*N*(P-1)/P.
//
// The constant must be the only multiplicative constant of its term (seed 001, section 2: otherwise
// the multidimensional fit is singular): not inside a function, a power or a sum, not dividing, and
// each constant used once. Numbers may scale a term (2*c[1]*N is the term N with constant c[1]).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "augur/core/expression.hpp"

namespace augur::model {

struct FormulaTerm {
  std::string constant;                               // "fft[2]"
  double sign = 1.0;                                  // -1 for a term written with '-'
  std::shared_ptr<const core::Expression> factor;     // what the constant multiplies; null: the constant alone
  std::shared_ptr<const core::SourceText> source;     // where the factor was written (for messages)
};

class Formula {
public:
  Formula() = default;

  // Parses and checks the canonical form; an InputError points at the offending term or factor.
  [[nodiscard]] static Formula parse(const core::SourceText& source);

  // A formula from terms built by the model search; constants are named `prefix`[0], [1], ...
  [[nodiscard]] static Formula from_factors(const std::vector<std::string>& factor_texts, const std::string& prefix);

  [[nodiscard]] const std::vector<FormulaTerm>& terms() const { return terms_; }
  [[nodiscard]] bool empty() const { return terms_.empty(); }
  // The variable names the formula uses, sorted.
  [[nodiscard]] std::vector<std::string> variables() const;

  // sign × factor at the bindings (1 for a bare constant); an InputError when it is not defined there.
  [[nodiscard]] double regressor(std::size_t term, const core::Bindings& bindings) const;

  // The formula with its constant names: "fft[0] + fft[1] * log(P)".
  [[nodiscard]] std::string text() const;
  // The same formula with each named variable replaced by an expression (derived variables written
  // out in the parameters, so that the Python text needs nothing else).
  [[nodiscard]] Formula substituted(const std::vector<std::pair<std::string, std::string>>& replacements) const;

  // The formula with the constants' values put in, readable or in Python syntax.
  [[nodiscard]] std::string with_values(const std::vector<double>& constants, core::ExpressionStyle style) const;

private:
  std::vector<FormulaTerm> terms_;
};

}  // namespace augur::model
