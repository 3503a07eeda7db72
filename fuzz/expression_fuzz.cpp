// The expression language (src/core/expression.cpp): parse; an expression that parses is written back in
// both styles' readable form and to_string, each must parse to the same text again, and it is evaluated
// with every name bound (an InputError there is a documented outcome: a domain error, a non-finite result).
#include <functional>
#include <memory>
#include <string>

#include "augur/core/expression.hpp"
#include "fuzz_common.hpp"

namespace {

using augur::core::Expression;

void bind_names(const Expression& expression, augur::core::Bindings& bindings, double value) {
  if (expression.kind == Expression::Kind::Name || expression.kind == Expression::Kind::Constant)
    bindings.emplace(expression.name, value);
  for (const auto& operand : expression.operands) bind_names(*operand, bindings, value);
}

// Reads `text` back: it must parse, and write the same.
void reads_back(const std::string& text, const std::string& original) {
  using namespace augur;
  const core::SourceText source("written", text);
  std::unique_ptr<Expression> again;
  try {
    again = core::parse_expression(source);
  } catch (const core::InputError& error) {
    fuzz::fail("a written expression does not parse",
               std::string(error.what()) + "\n--- written\n" + text + "\n--- original\n" + original);
  }
  fuzz::expect(core::write_expression(*again, core::ExpressionStyle::Readable) == text,
               "a written expression reads back differently", text + "\n--- original\n" + original);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace augur;
  if (size > 4096) return 0;
  const std::string text = fuzz::text_of(data, size);
  const core::SourceText source("input", text);
  std::unique_ptr<Expression> expression;
  try {
    expression = core::parse_expression(source);
  } catch (const core::InputError&) {
    return 0;
  }
  reads_back(core::write_expression(*expression, core::ExpressionStyle::Readable), text);
  (void)core::write_expression(*expression, core::ExpressionStyle::Python);
  (void)expression->to_string();
  const std::unique_ptr<Expression> copy = expression->clone();
  fuzz::expect(copy->to_string() == expression->to_string(), "a clone writes differently", text);
  for (const double value : {0.0, 1.0, 2.5, -3.0, 1e300}) {
    core::Bindings bindings;
    bind_names(*expression, bindings, value);
    try {
      (void)core::evaluate(*expression, bindings, source);
    } catch (const core::InputError&) {
    }
  }
  // The prefix form (TSPP demands, CALL formulas followed by more text) must stop inside the text.
  std::size_t position = 0;
  try {
    (void)core::parse_expression(source, position);
    fuzz::expect(position <= text.size(), "the parser ran past the end of its text", text);
  } catch (const core::InputError&) {
  }
  return 0;
}
