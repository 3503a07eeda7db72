// The evaluation of a compiled program's values (program.hpp, evaluate) while the simulation runs: slots of
// message fields, variables and the player's place instead of names; the functions of core/expression.hpp.
#include <cmath>
#include <numeric>
#include <vector>

#include "sim/actors/program.hpp"

namespace augur::sim::actors {
namespace {

double combine(const Value& value, double left, double right, const core::SourceText& source) {
  switch (value.kind) {
    case Value::Kind::Add: return left + right;
    case Value::Kind::Subtract: return left - right;
    case Value::Kind::Multiply: return left * right;
    case Value::Kind::Divide:
      if (right == 0.0) source.fail(value.offset, "division by zero");
      return left / right;
    default: return std::pow(left, right);
  }
}

double evaluate_unchecked(const Value& value, const Scope& scope, const core::SourceText& source);

// The functions of core/expression.hpp, on arguments whose count was checked when the program was read.
double call(const Value& value, const Scope& scope, const core::SourceText& source) {
  std::vector<double> arguments;
  for (const auto& operand : value.operands) arguments.push_back(evaluate_unchecked(operand, scope, source));
  const std::string& name = value.function;
  const double first = arguments[0];
  if (name == "sqrt") return std::sqrt(first);
  if (name == "log" || name == "log2") return std::log2(first);
  if (name == "ln") return std::log(first);
  if (name == "log10") return std::log10(first);
  if (name == "exp") return std::exp(first);
  if (name == "abs") return std::fabs(first);
  if (name == "pow") return std::pow(first, arguments[1]);
  const bool minimum = name == "min";
  return std::accumulate(arguments.begin(), arguments.end(), first, [minimum](double a, double b) { return minimum ? std::fmin(a, b) : std::fmax(a, b); });
}

double evaluate_unchecked(const Value& value, const Scope& scope, const core::SourceText& source) {
  switch (value.kind) {
    case Value::Kind::Number: return value.number;
    case Value::Kind::Field: return scope.fields[value.slot];
    case Value::Kind::Variable: return scope.variables[value.slot];
    case Value::Kind::Index: return scope.place.index;
    case Value::Kind::Row: return scope.place.row;
    case Value::Kind::Column: return scope.place.column;
    case Value::Kind::Negate: return -evaluate_unchecked(value.operands[0], scope, source);
    case Value::Kind::Call: return call(value, scope, source);
    default:
      return combine(value, evaluate_unchecked(value.operands[0], scope, source), evaluate_unchecked(value.operands[1], scope, source), source);
  }
}

}  // namespace

double evaluate(const Value& value, const Scope& scope, const core::SourceText& source) {
  const double result = evaluate_unchecked(value, scope, source);
  if (!std::isfinite(result)) source.fail(value.offset, "the value is not finite");
  return result;
}

}  // namespace augur::sim::actors
