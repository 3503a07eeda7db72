// The one expression language (augur/core/expression.hpp): its text, its copies and its value; the parser is
// in expression_parser.cpp.
#include "augur/core/expression.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>

namespace augur::core {
namespace {

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
