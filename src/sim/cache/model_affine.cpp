#include "sim/cache/model_affine.hpp"

#include <algorithm>
#include <cmath>

namespace augur::sim::cache {
namespace {

using Kind = core::Expression::Kind;

std::string text_of(const core::Expression& expression) {
  return core::write_expression(expression, core::ExpressionStyle::Readable);
}

// The form with real coefficients while it is being reduced.
struct Linear {
  double constant = 0.0;
  std::vector<double> coefficients;

  [[nodiscard]] bool is_constant() const {
    return std::all_of(coefficients.begin(), coefficients.end(), [](double c) { return c == 0.0; });
  }
  void scale(double factor) {
    constant *= factor;
    for (double& c : coefficients) c *= factor;
  }
  void add(const Linear& other, double sign) {
    constant += sign * other.constant;
    if (coefficients.size() < other.coefficients.size()) coefficients.resize(other.coefficients.size(), 0.0);
    for (std::size_t d = 0; d < other.coefficients.size(); ++d) coefficients[d] += sign * other.coefficients[d];
  }
};

class Reducer {
 public:
  Reducer(const core::SourceText& source, const std::vector<std::string>& loop_variables,
          const core::Bindings& parameters)
      : source_(source), loop_variables_(loop_variables), parameters_(parameters) {}

  Linear reduce(const core::Expression& expression) const {
    if (!mentions_loop_variable(expression)) {
      return Linear{core::evaluate(expression, parameters_, source_), {}};
    }
    switch (expression.kind) {
      case Kind::Name: {
        Linear variable;
        variable.coefficients.assign(loop_index(expression.name) + 1, 0.0);
        variable.coefficients.back() = 1.0;
        return variable;
      }
      case Kind::Negate: {
        Linear operand = reduce(*expression.operands[0]);
        operand.scale(-1.0);
        return operand;
      }
      case Kind::Add:
      case Kind::Subtract: {
        Linear left = reduce(*expression.operands[0]);
        left.add(reduce(*expression.operands[1]), expression.kind == Kind::Add ? 1.0 : -1.0);
        return left;
      }
      case Kind::Multiply:
        return product(expression);
      case Kind::Divide:
        return quotient(expression);
      default:
        source_.fail(expression.offset, "'" + text_of(expression) + "' is not affine in the loop variables");
    }
  }

 private:
  [[nodiscard]] std::size_t loop_index(const std::string& name) const {
    return static_cast<std::size_t>(std::find(loop_variables_.begin(), loop_variables_.end(), name) -
                                    loop_variables_.begin());
  }

  [[nodiscard]] bool mentions_loop_variable(const core::Expression& expression) const {
    if (expression.kind == Kind::Name && loop_index(expression.name) < loop_variables_.size()) return true;
    return std::any_of(expression.operands.begin(), expression.operands.end(),
                       [this](const auto& operand) { return mentions_loop_variable(*operand); });
  }

  [[nodiscard]] Linear product(const core::Expression& expression) const {
    Linear left = reduce(*expression.operands[0]);
    Linear right = reduce(*expression.operands[1]);
    if (!left.is_constant() && !right.is_constant()) {
      source_.fail(expression.offset,
                   "'" + text_of(expression) + "' is not affine: it multiplies loop variables together");
    }
    if (left.is_constant()) std::swap(left, right);
    left.scale(right.constant);
    return left;
  }

  [[nodiscard]] Linear quotient(const core::Expression& expression) const {
    Linear left = reduce(*expression.operands[0]);
    const Linear right = reduce(*expression.operands[1]);
    if (!right.is_constant()) {
      source_.fail(expression.offset, "'" + text_of(expression) + "' is not affine: it divides by a loop variable");
    }
    if (right.constant == 0.0) source_.fail(expression.offset, "division by zero");
    left.scale(1.0 / right.constant);
    return left;
  }

  const core::SourceText& source_;
  const std::vector<std::string>& loop_variables_;
  const core::Bindings& parameters_;
};

constexpr double integer_limit = 140737488355328.0;  // 2^47

bool is_small_integer(double value) {
  return std::abs(value) <= integer_limit &&
         std::abs(value - std::round(value)) <= 1e-9 * std::max(1.0, std::abs(value));
}

}  // namespace

AffineForm reduce_to_affine(const core::Expression& expression, const core::SourceText& source,
                            const std::vector<std::string>& loop_variables, const core::Bindings& parameters) {
  const Linear linear = Reducer(source, loop_variables, parameters).reduce(expression);
  AffineForm form;
  bool small = std::abs(linear.constant) <= integer_limit;
  for (const double c : linear.coefficients) small = small && std::abs(c) <= integer_limit;
  if (!small) source.fail(expression.offset, "'" + text_of(expression) + "' goes beyond 2^47 in magnitude");
  bool integral = is_small_integer(linear.constant);
  for (const double c : linear.coefficients) integral = integral && is_small_integer(c);
  if (!integral) {
    source.fail(expression.offset, "'" + text_of(expression) +
                                       "' does not reduce to integer coefficients (indices and bounds are integers)");
  }
  form.constant = static_cast<std::int64_t>(std::llround(linear.constant));
  for (const double c : linear.coefficients) form.coefficients.push_back(static_cast<std::int64_t>(std::llround(c)));
  while (!form.coefficients.empty() && form.coefficients.back() == 0) form.coefficients.pop_back();
  return form;
}

}  // namespace augur::sim::cache
