// The one expression language of augur: TSPP demands, CALL complexity formulas and model terms.
//
//   expression := term (('+' | '-') term)*
//   term       := power (('*' | '/') power)*
//   power      := unary ('^' power)?            right-associative
//   unary      := '-' unary | '+' unary | primary
//   primary    := NUMBER | NAME | NAME '[' INTEGER ']' | NAME '(' expression (',' expression)* ')'
//               | '(' expression ')'
//
// NUMBER: 12, 0.5, .5, 1e-3. NAME: a letter or '_', then letters, digits and '_'. NAME[INTEGER] is a
// constant of a complexity formula (CALL's fft[2]); it evaluates through the binding "fft[2]".
// Functions: sqrt, log (base 2, as in CALL's and Extra-P's formulas), log2, ln (natural), log10, exp,
// abs, min, max, pow. Errors are core::InputError at the file, line and column of the fault.
#pragma once

#include <cstddef>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "augur/core/diagnostics.hpp"

namespace augur::core {

// A text and the name it is reported under (a path, "<stdin>", a variable name).
class SourceText {
public:
  SourceText(std::string file, std::string text) : file_(std::move(file)), text_(std::move(text)) {}
  [[nodiscard]] const std::string& file() const { return file_; }
  [[nodiscard]] const std::string& text() const { return text_; }
  [[nodiscard]] SourceLocation locate(std::size_t offset) const { return locate_offset(file_, text_, offset); }
  [[noreturn]] void fail(std::size_t offset, const std::string& message) const { throw InputError(locate(offset), message); }

private:
  std::string file_;
  std::string text_;
};

struct Expression {
  enum class Kind { Number, Name, Constant, Negate, Add, Subtract, Multiply, Divide, Power, Call };
  Kind kind = Kind::Number;
  double number = 0.0;                       // Kind::Number
  std::string name;                          // Kind::Name, Kind::Call, Kind::Constant ("fft[2]")
  std::vector<std::unique_ptr<Expression>> operands;
  std::size_t offset = 0;                    // where it starts in its SourceText
  int depth = 1;                             // levels of the tree below and including this node

  // The expression written back, fully parenthesised where it matters (for messages and reports).
  [[nodiscard]] std::string to_string() const;

  // A deep copy.
  [[nodiscard]] std::unique_ptr<Expression> clone() const;
};

// How write_expression prints: Readable uses '^' and the language's function names; Python writes
// '**' and math.log2 / math.log / math.sqrt ... so that the text pastes into a Python session after
// 'import math'. Both put parentheses only where precedence needs them.
enum class ExpressionStyle { Readable, Python };
[[nodiscard]] std::string write_expression(const Expression& expression, ExpressionStyle style);

using Bindings = std::map<std::string, double, std::less<>>;

// Parses an expression starting at `position` (spaces and newlines skipped) and leaves `position`
// after it. Stops before the first character that cannot continue the expression (';', ']', ...).
std::unique_ptr<Expression> parse_expression(const SourceText& source, std::size_t& position);

// Parses the whole text as one expression.
std::unique_ptr<Expression> parse_expression(const SourceText& source);

// Whether `text` is a NAME of the language (a letter or '_', then letters, digits and '_', in ASCII), so
// that it can name a variable: the test every reader of parameter names applies (docs/formats.md).
[[nodiscard]] bool is_name(std::string_view text);

// The shortest text that reads back as the same number ("0.42", "1e-05").
[[nodiscard]] std::string format_shortest(double value);

// Evaluates with the names bound in `bindings`; an unknown name, a division by zero, a bad argument
// count or a result that is not finite is an InputError at the place in `source`.
[[nodiscard]] double evaluate(const Expression& expression, const Bindings& bindings, const SourceText& source);

}  // namespace augur::core
