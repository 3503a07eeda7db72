// Expressions written back (write_expression) read back as the same expression: regressions found by
// fuzz/expression_fuzz.cpp.
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "augur/core/expression.hpp"

namespace {

using namespace augur::core;

std::string written(const std::string& text, ExpressionStyle style = ExpressionStyle::Readable) {
  return write_expression(*parse_expression(SourceText("input", text)), style);
}

double value_of(const std::string& text) {
  const SourceText source("input", text);
  return evaluate(*parse_expression(source), {{"x", 3.0}, {"P", 2.0}}, source);
}

// -(a^b) was written -a^b, which the language reads as (-a)^b.
TEST(ExpressionWrite, TheNegationOfAPowerKeepsItsParentheses) {
  EXPECT_EQ(written("-(x^2)"), "-(x^2)");
  EXPECT_EQ(value_of(written("-(x^2)")), -9.0);
  EXPECT_EQ(written("(-x)^2"), "(-x)^2");
  EXPECT_EQ(value_of(written("(-x)^2")), 9.0);
  EXPECT_EQ(written("-(x^2)", ExpressionStyle::Python), "-(x**2)");
  // The input the fuzzer found, and its fixed point.
  const std::string once = written("lo--(1^aN)/P");
  EXPECT_EQ(once, "lo - -(1^aN) / P");
  EXPECT_EQ(written(once), once);
}

}  // namespace
