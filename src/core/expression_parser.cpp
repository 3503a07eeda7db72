// The parser of the one expression language (augur/core/expression.hpp): precedence climbing over the
// source text, errors at the offset of what is wrong.
#include "augur/core/expression.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <string>

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

}  // namespace

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

}  // namespace augur::core
