#include "augur/core/expression.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>

namespace augur::core {
namespace {

class Parser {
public:
  Parser(const SourceText& source, std::size_t position) : source_(source), text_(source.text()), position_(position) {}

  std::unique_ptr<Expression> expression() {
    auto left = term();
    for (;;) {
      skip_space();
      const char c = peek();
      if (c != '+' && c != '-') return left;
      const std::size_t at = position_++;
      left = binary(c == '+' ? Expression::Kind::Add : Expression::Kind::Subtract, std::move(left), term(), at);
    }
  }

  [[nodiscard]] std::size_t position() const { return position_; }

private:
  std::unique_ptr<Expression> term() {
    auto left = power();
    for (;;) {
      skip_space();
      const char c = peek();
      if (c != '*' && c != '/') return left;
      const std::size_t at = position_++;
      left = binary(c == '*' ? Expression::Kind::Multiply : Expression::Kind::Divide, std::move(left), power(), at);
    }
  }

  std::unique_ptr<Expression> power() {
    auto base = unary();
    skip_space();
    if (peek() != '^') return base;
    const std::size_t at = position_++;
    const Depth depth(depth_, *this);
    return binary(Expression::Kind::Power, std::move(base), power(), at);
  }

  std::unique_ptr<Expression> unary() {
    skip_space();
    // Parentheses, signs and calls nest through here, powers through power(): bound the recursion.
    const Depth depth(depth_, *this);
    const char c = peek();
    if (c == '-' || c == '+') {
      const std::size_t at = position_++;
      auto operand = unary();
      if (c == '+') return operand;
      auto node = std::make_unique<Expression>();
      node->kind = Expression::Kind::Negate;
      node->offset = at;
      node->depth = operand->depth + 1;
      node->operands.push_back(std::move(operand));
      check_depth(*node);
      return node;
    }
    return primary();
  }

  std::unique_ptr<Expression> primary() {
    skip_space();
    const std::size_t start = position_;
    const char c = peek();
    if (c == '(') {
      ++position_;
      auto inner = expression();
      expect(')', "a ')' to close the '(' at " + where(start));
      return inner;
    }
    if (std::isdigit(static_cast<unsigned char>(c)) || c == '.') return number();
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') return name_or_call();
    if (c == '\0') source_.fail(start, "expected a number, a name or '(' but the text ends");
    source_.fail(start, std::string("expected a number, a name or '(' but found '") + c + "'");
  }

  std::unique_ptr<Expression> number() {
    const std::size_t start = position_;
    std::size_t end = position_;
    while (end < text_.size() && (std::isdigit(static_cast<unsigned char>(text_[end])) || text_[end] == '.')) ++end;
    if (end < text_.size() && (text_[end] == 'e' || text_[end] == 'E')) {
      std::size_t exponent = end + 1;
      if (exponent < text_.size() && (text_[exponent] == '+' || text_[exponent] == '-')) ++exponent;
      if (exponent < text_.size() && std::isdigit(static_cast<unsigned char>(text_[exponent]))) {
        end = exponent;
        while (end < text_.size() && std::isdigit(static_cast<unsigned char>(text_[end]))) ++end;
      }
    }
    double value = 0.0;
    const auto result = std::from_chars(text_.data() + start, text_.data() + end, value);
    if (result.ec != std::errc() || result.ptr != text_.data() + end) {
      source_.fail(start, "'" + text_.substr(start, end - start) + "' is not a number");
    }
    position_ = end;
    auto node = std::make_unique<Expression>();
    node->kind = Expression::Kind::Number;
    node->number = value;
    node->offset = start;
    return node;
  }

  std::unique_ptr<Expression> name_or_call() {
    const std::size_t start = position_;
    while (position_ < text_.size() &&
           (std::isalnum(static_cast<unsigned char>(text_[position_])) || text_[position_] == '_')) {
      ++position_;
    }
    auto node = std::make_unique<Expression>();
    node->name = text_.substr(start, position_ - start);
    node->offset = start;
    skip_space();
    if (peek() == '[') return constant(std::move(node));
    if (peek() != '(') {
      node->kind = Expression::Kind::Name;
      return node;
    }
    node->kind = Expression::Kind::Call;
    const std::size_t open = position_++;
    node->operands.push_back(expression());
    skip_space();
    while (peek() == ',') {
      ++position_;
      node->operands.push_back(expression());
      skip_space();
    }
    expect(')', "a ')' to close the call of " + node->name + " at " + where(open));
    for (const auto& operand : node->operands) node->depth = std::max(node->depth, operand->depth + 1);
    check_depth(*node);
    return node;
  }

  // NAME '[' INTEGER ']': a constant of a complexity formula, named "NAME[INTEGER]".
  std::unique_ptr<Expression> constant(std::unique_ptr<Expression> node) {
    const std::size_t open = position_++;
    skip_space();
    const std::size_t start = position_;
    while (position_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[position_]))) ++position_;
    if (position_ == start) {
      source_.fail(start, "expected the index of the constant " + node->name + "[...] (a whole number)" +
                              (peek() == '\0' ? std::string(" but the text ends") : std::string(" but found '") + peek() + "'"));
    }
    const std::string digits = text_.substr(start, position_ - start);
    if (digits.size() > 6) source_.fail(start, "the index " + digits + " of " + node->name + "[] is too large");
    expect(']', "a ']' to close the '[' at " + where(open));
    node->kind = Expression::Kind::Constant;
    node->number = std::stod(digits);
    node->name += "[" + std::to_string(std::stol(digits)) + "]";
    return node;
  }

  std::unique_ptr<Expression> binary(Expression::Kind kind, std::unique_ptr<Expression> left,
                                     std::unique_ptr<Expression> right, std::size_t at) {
    auto node = std::make_unique<Expression>();
    node->kind = kind;
    node->offset = at;
    node->depth = std::max(left->depth, right->depth) + 1;
    node->operands.push_back(std::move(left));
    node->operands.push_back(std::move(right));
    check_depth(*node);
    return node;
  }

  // Long chains (1 + 1 + ... ) build deep trees without deep parsing: bound the tree too, since
  // evaluating and printing it recurse.
  void check_depth(const Expression& node) const {
    if (node.depth > max_nesting) source_.fail(node.offset, "expression nested more than " + std::to_string(max_nesting) + " deep");
  }

  struct Depth {
    int& value;
    Depth(int& counter, const Parser& parser) : value(++counter) {
      if (value > max_nesting) {
        parser.source_.fail(parser.position_, "expression nested more than " + std::to_string(max_nesting) + " deep");
      }
    }
    ~Depth() { --value; }
    Depth(const Depth&) = delete;
    Depth& operator=(const Depth&) = delete;
  };

  void expect(char wanted, const std::string& what) {
    skip_space();
    if (peek() == wanted) {
      ++position_;
      return;
    }
    source_.fail(position_, "expected " + what + (peek() == '\0' ? std::string(" but the text ends")
                                                                 : std::string(" but found '") + peek() + "'"));
  }

  [[nodiscard]] std::string where(std::size_t offset) const {
    const SourceLocation location = source_.locate(offset);
    return std::to_string(location.line) + ":" + std::to_string(location.column);
  }

  void skip_space() {
    while (position_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[position_]))) ++position_;
  }
  [[nodiscard]] char peek() const { return position_ < text_.size() ? text_[position_] : '\0'; }

  static constexpr int max_nesting = 1000;
  const SourceText& source_;
  const std::string& text_;
  std::size_t position_;
  int depth_ = 0;
};

const char* symbol(Expression::Kind kind) {
  switch (kind) {
    case Expression::Kind::Add: return " + ";
    case Expression::Kind::Subtract: return " - ";
    case Expression::Kind::Multiply: return " * ";
    case Expression::Kind::Divide: return " / ";
    case Expression::Kind::Power: return "^";
    case Expression::Kind::Number:
    case Expression::Kind::Name:
    case Expression::Kind::Constant:
    case Expression::Kind::Negate:
    case Expression::Kind::Call: return "";
  }
  return "";
}

double call(const Expression& node, const std::vector<double>& arguments, const SourceText& source) {
  const std::string& name = node.name;
  auto need = [&](std::size_t count) {
    if (arguments.size() != count) {
      source.fail(node.offset, name + "() takes " + std::to_string(count) + " argument" + (count == 1 ? "" : "s") +
                                   ", not " + std::to_string(arguments.size()));
    }
  };
  if (name == "sqrt") return need(1), std::sqrt(arguments[0]);
  if (name == "log" || name == "log2") return need(1), std::log2(arguments[0]);
  if (name == "ln") return need(1), std::log(arguments[0]);
  if (name == "log10") return need(1), std::log10(arguments[0]);
  if (name == "exp") return need(1), std::exp(arguments[0]);
  if (name == "abs") return need(1), std::fabs(arguments[0]);
  if (name == "pow") return need(2), std::pow(arguments[0], arguments[1]);
  if (name == "min" || name == "max") {
    double result = arguments[0];
    for (double argument : arguments) result = name == "min" ? std::fmin(result, argument) : std::fmax(result, argument);
    return result;
  }
  source.fail(node.offset, "unknown function '" + name + "' (known: sqrt, log, log2, ln, log10, exp, abs, min, max, pow)");
}

}  // namespace

bool is_name(std::string_view text) {
  const auto letter = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; };
  if (text.empty() || !letter(text.front())) return false;
  return std::all_of(text.begin(), text.end(), [&](char c) { return letter(c) || (c >= '0' && c <= '9'); });
}

std::string format_shortest(double value) {
  char buffer[64];
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
  return std::string(buffer, result.ptr);
}

std::string Expression::to_string() const {
  switch (kind) {
    case Kind::Number: return format_shortest(number);
    case Kind::Name:
    case Kind::Constant: return name;
    case Kind::Negate: return "-(" + operands[0]->to_string() + ")";
    case Kind::Call: {
      std::string text = name + "(";
      for (std::size_t index = 0; index < operands.size(); ++index) text += (index ? ", " : "") + operands[index]->to_string();
      return text + ")";
    }
    case Kind::Add:
    case Kind::Subtract:
    case Kind::Multiply:
    case Kind::Divide:
    case Kind::Power: return "(" + operands[0]->to_string() + symbol(kind) + operands[1]->to_string() + ")";
  }
  return "";
}

std::unique_ptr<Expression> Expression::clone() const {
  auto copy = std::make_unique<Expression>();
  copy->kind = kind;
  copy->number = number;
  copy->name = name;
  copy->offset = offset;
  copy->depth = depth;
  for (const auto& operand : operands) copy->operands.push_back(operand->clone());
  return copy;
}

namespace {

// Binding strength: sums 1, products 2, unary minus 3, powers 4, atoms 5.
int precedence(const Expression& node) {
  switch (node.kind) {
    case Expression::Kind::Add:
    case Expression::Kind::Subtract: return 1;
    case Expression::Kind::Multiply:
    case Expression::Kind::Divide: return 2;
    case Expression::Kind::Negate: return 3;
    case Expression::Kind::Power: return 4;
    case Expression::Kind::Number: return node.number < 0 ? 3 : 5;
    case Expression::Kind::Name:
    case Expression::Kind::Constant:
    case Expression::Kind::Call: return 5;
  }
  return 5;
}

std::string python_function(const std::string& name) {
  if (name == "log" || name == "log2") return "math.log2";
  if (name == "ln") return "math.log";
  if (name == "sqrt" || name == "log10" || name == "exp" || name == "pow") return "math." + name;
  return name;  // abs, min, max are Python built-ins
}

std::string write(const Expression& node, ExpressionStyle style);

std::string operand(const Expression& node, int needed, ExpressionStyle style) {
  const std::string text = write(node, style);
  return precedence(node) < needed ? "(" + text + ")" : text;
}

std::string write(const Expression& node, ExpressionStyle style) {
  const bool python = style == ExpressionStyle::Python;
  switch (node.kind) {
    case Expression::Kind::Number: return format_shortest(node.number);
    case Expression::Kind::Name:
    case Expression::Kind::Constant: return node.name;
    // -(a^b) keeps its parentheses: the language reads -a^b as (-a)^b (power := unary ('^' power)?)
    case Expression::Kind::Negate:
      return "-" + operand(*node.operands[0], node.operands[0]->kind == Expression::Kind::Power ? 5 : 3, style);
    case Expression::Kind::Call: {
      std::string text = (python ? python_function(node.name) : node.name) + "(";
      for (std::size_t index = 0; index < node.operands.size(); ++index) {
        text += (index ? ", " : "") + write(*node.operands[index], style);
      }
      return text + ")";
    }
    case Expression::Kind::Add: return write(*node.operands[0], style) + " + " + operand(*node.operands[1], 1, style);
    // a - (b + c) and a - (b - c) keep their parentheses
    case Expression::Kind::Subtract: return write(*node.operands[0], style) + " - " + operand(*node.operands[1], 2, style);
    case Expression::Kind::Multiply: return operand(*node.operands[0], 2, style) + " * " + operand(*node.operands[1], 2, style);
    // a / (b * c) keeps its parentheses
    case Expression::Kind::Divide: return operand(*node.operands[0], 2, style) + " / " + operand(*node.operands[1], 3, style);
    // right-associative: (a^b)^c keeps its parentheses; Python's ** binds tighter than unary minus on its left
    case Expression::Kind::Power:
      return operand(*node.operands[0], 5, style) + (python ? "**" : "^") + operand(*node.operands[1], 4, style);
  }
  return "";
}

}  // namespace

std::string write_expression(const Expression& expression, ExpressionStyle style) { return write(expression, style); }

std::unique_ptr<Expression> parse_expression(const SourceText& source, std::size_t& position) {
  Parser parser(source, position);
  auto expression = parser.expression();
  position = parser.position();
  return expression;
}

std::unique_ptr<Expression> parse_expression(const SourceText& source) {
  std::size_t position = 0;
  auto expression = parse_expression(source, position);
  while (position < source.text().size() && std::isspace(static_cast<unsigned char>(source.text()[position]))) ++position;
  if (position < source.text().size()) {
    source.fail(position, std::string("unexpected '") + source.text()[position] + "' after the expression");
  }
  return expression;
}

double evaluate(const Expression& node, const Bindings& bindings, const SourceText& source) {
  double result = 0.0;
  switch (node.kind) {
    case Expression::Kind::Number: return node.number;
    case Expression::Kind::Name:
    case Expression::Kind::Constant: {
      const auto found = bindings.find(node.name);
      if (found == bindings.end()) source.fail(node.offset, "unknown name '" + node.name + "'");
      return found->second;
    }
    case Expression::Kind::Negate: return -evaluate(*node.operands[0], bindings, source);
    case Expression::Kind::Call: {
      std::vector<double> arguments;
      for (const auto& operand : node.operands) arguments.push_back(evaluate(*operand, bindings, source));
      result = call(node, arguments, source);
      break;
    }
    case Expression::Kind::Add:
    case Expression::Kind::Subtract:
    case Expression::Kind::Multiply:
    case Expression::Kind::Divide:
    case Expression::Kind::Power: {
      const double left = evaluate(*node.operands[0], bindings, source);
      const double right = evaluate(*node.operands[1], bindings, source);
      if (node.kind == Expression::Kind::Divide && right == 0.0) source.fail(node.offset, "division by zero");
      result = node.kind == Expression::Kind::Add        ? left + right
               : node.kind == Expression::Kind::Subtract ? left - right
               : node.kind == Expression::Kind::Multiply ? left * right
               : node.kind == Expression::Kind::Divide   ? left / right
                                                         : std::pow(left, right);
      break;
    }
  }
  if (!std::isfinite(result)) source.fail(node.offset, "the value of " + node.to_string() + " is not a finite number");
  return result;
}

}  // namespace augur::core
