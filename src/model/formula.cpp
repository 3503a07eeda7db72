#include "model/formula.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <regex>
#include <set>

namespace augur::model {
namespace {

using core::Expression;

bool contains_constant(const Expression& node) {
  if (node.kind == Expression::Kind::Constant) return true;
  return std::any_of(node.operands.begin(), node.operands.end(),
                     [](const auto& operand) { return contains_constant(*operand); });
}

// Where a node's text starts: binary nodes sit at their operator.
std::size_t leftmost(const Expression& node) {
  switch (node.kind) {
    case Expression::Kind::Add:
    case Expression::Kind::Subtract:
    case Expression::Kind::Multiply:
    case Expression::Kind::Divide:
    case Expression::Kind::Power: return std::min(node.offset, leftmost(*node.operands[0]));
    case Expression::Kind::Number:
    case Expression::Kind::Name:
    case Expression::Kind::Constant:
    case Expression::Kind::Negate:
    case Expression::Kind::Call: return node.offset;
  }
  return node.offset;
}

const Expression* first_constant(const Expression& node) {
  if (node.kind == Expression::Kind::Constant) return &node;
  for (const auto& operand : node.operands) {
    if (const Expression* found = first_constant(*operand)) return found;
  }
  return nullptr;
}

void collect_names(const Expression& node, std::set<std::string>& names) {
  if (node.kind == Expression::Kind::Name) names.insert(node.name);
  for (const auto& operand : node.operands) collect_names(*operand, names);
}

struct Factor {
  const Expression* node;
  bool divides;
};

// A term flattened into its factors: a product and quotient chain, with unary minus taken out.
void flatten_product(const Expression& node, bool divides, double& sign, std::vector<Factor>& factors) {
  switch (node.kind) {
    case Expression::Kind::Multiply:
      flatten_product(*node.operands[0], divides, sign, factors);
      flatten_product(*node.operands[1], divides, sign, factors);
      return;
    case Expression::Kind::Divide:
      flatten_product(*node.operands[0], divides, sign, factors);
      flatten_product(*node.operands[1], !divides, sign, factors);
      return;
    case Expression::Kind::Negate:
      sign = -sign;
      flatten_product(*node.operands[0], divides, sign, factors);
      return;
    case Expression::Kind::Number:
    case Expression::Kind::Name:
    case Expression::Kind::Constant:
    case Expression::Kind::Add:
    case Expression::Kind::Subtract:
    case Expression::Kind::Power:
    case Expression::Kind::Call: factors.push_back({&node, divides}); return;
  }
}

// The terms of the sum, each with its sign.
void flatten_sum(const Expression& node, double sign, std::vector<std::pair<const Expression*, double>>& terms) {
  if (node.kind == Expression::Kind::Add || node.kind == Expression::Kind::Subtract) {
    flatten_sum(*node.operands[0], sign, terms);
    flatten_sum(*node.operands[1], node.kind == Expression::Kind::Add ? sign : -sign, terms);
    return;
  }
  if (node.kind == Expression::Kind::Negate && node.operands[0]->kind != Expression::Kind::Number) {
    // -(a + b) distributes; -(c[1]*x) is the term c[1]*x with sign -1
    flatten_sum(*node.operands[0], -sign, terms);
    return;
  }
  terms.emplace_back(&node, sign);
}

std::unique_ptr<Expression> combine(Expression::Kind kind, std::unique_ptr<Expression> left, std::unique_ptr<Expression> right) {
  auto node = std::make_unique<Expression>();
  node->kind = kind;
  node->offset = left->offset;
  node->depth = std::max(left->depth, right->depth) + 1;
  node->operands.push_back(std::move(left));
  node->operands.push_back(std::move(right));
  return node;
}

std::string format_value(double value, core::ExpressionStyle style) {
  if (style == core::ExpressionStyle::Python) return core::format_shortest(value);
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.4g", value);
  return buffer;
}

// Names such as c0 or c12 written for constants: "c0 + c1 * P" becomes "c[0] + c[1] * P" (names before a
// '(' or a '[' are functions or constants already).
std::string with_bracketed_constants(const std::string& text) {
  static const std::regex numbered(R"(\b([A-Za-z_]+)([0-9]+)\b(?!\s*[(\[]))");
  return std::regex_replace(text, numbered, "$1[$2]");
}

// The message for a term without a constant; when the term is a name like c0, the whole formula as it was
// meant.
std::string no_constant_message(const Expression& term, const Expression& whole) {
  const std::string written = core::write_expression(term, core::ExpressionStyle::Readable);
  std::string message = "the term " + written + " has no constant; write it as name[i] * (" + written + ")";
  if (with_bracketed_constants(written) != written) {
    message += "; constants take brackets: " + with_bracketed_constants(core::write_expression(whole, core::ExpressionStyle::Readable));
  }
  return message;
}

}  // namespace

Formula Formula::parse(const core::SourceText& source) {
  const auto shared_source = std::make_shared<const core::SourceText>(source);
  const auto tree = core::parse_expression(*shared_source);
  std::vector<std::pair<const Expression*, double>> sum;
  flatten_sum(*tree, 1.0, sum);

  Formula formula;
  std::set<std::string> used;
  for (const auto& [term, term_sign] : sum) {
    double sign = term_sign;
    std::vector<Factor> factors;
    flatten_product(*term, false, sign, factors);
    const Expression* constant = nullptr;
    for (const Factor& factor : factors) {
      if (!contains_constant(*factor.node)) continue;
      const Expression* inner = first_constant(*factor.node);
      if (factor.node->kind != Expression::Kind::Constant) {
        source.fail(leftmost(*factor.node), "the constant " + inner->name + " must multiply its term, not stand inside " +
                                             core::write_expression(*factor.node, core::ExpressionStyle::Readable) +
                                             " (canonical form: a sum of terms constant * expression)");
      }
      if (factor.divides) source.fail(inner->offset, "the constant " + inner->name + " divides its term; a canonical term is constant * expression");
      if (constant != nullptr) {
        source.fail(inner->offset, "the term has two constants, " + constant->name + " and " + inner->name +
                                       "; each term of a canonical formula has exactly one");
      }
      constant = factor.node;
    }
    if (constant == nullptr) {
      source.fail(leftmost(*term), no_constant_message(*term, *tree));
    }
    if (!used.insert(constant->name).second) {
      source.fail(constant->offset, "the constant " + constant->name + " is used in two terms; each term needs its own constant");
    }

    // The factors in their written order, multiplied or divided in place: (N/P)*log(N/P) stays N / P * log(N / P).
    std::unique_ptr<Expression> product;
    for (const Factor& factor : factors) {
      if (factor.node == constant) continue;
      if (!product) {
        if (!factor.divides) {
          product = factor.node->clone();
          continue;
        }
        product = std::make_unique<Expression>();
        product->number = 1.0;
        product->offset = factor.node->offset;
      }
      product = combine(factor.divides ? Expression::Kind::Divide : Expression::Kind::Multiply, std::move(product), factor.node->clone());
    }
    FormulaTerm result;
    result.constant = constant->name;
    result.sign = sign;
    result.factor = std::shared_ptr<const Expression>(std::move(product));
    result.source = shared_source;
    formula.terms_.push_back(std::move(result));
  }
  return formula;
}

Formula Formula::from_factors(const std::vector<std::string>& factor_texts, const std::string& prefix) {
  Formula formula;
  for (std::size_t index = 0; index < factor_texts.size(); ++index) {
    FormulaTerm term;
    term.constant = prefix + "[" + std::to_string(index) + "]";
    if (!factor_texts[index].empty() && factor_texts[index] != "1") {
      term.source = std::make_shared<const core::SourceText>("model", factor_texts[index]);
      term.factor = std::shared_ptr<const Expression>(core::parse_expression(*term.source));
    }
    formula.terms_.push_back(std::move(term));
  }
  return formula;
}

namespace {

std::unique_ptr<Expression> replace_names(const Expression& node, const std::vector<std::pair<std::string, std::unique_ptr<Expression>>>& trees) {
  if (node.kind == Expression::Kind::Name) {
    for (const auto& [name, tree] : trees) {
      if (name == node.name) return tree->clone();
    }
  }
  auto copy = std::make_unique<Expression>();
  copy->kind = node.kind;
  copy->number = node.number;
  copy->name = node.name;
  copy->offset = node.offset;
  copy->depth = node.depth;
  for (const auto& operand : node.operands) copy->operands.push_back(replace_names(*operand, trees));
  return copy;
}

}  // namespace

Formula Formula::substituted(const std::vector<std::pair<std::string, std::string>>& replacements) const {
  std::vector<std::pair<std::string, std::unique_ptr<Expression>>> trees;
  for (const auto& [name, text] : replacements) {
    trees.emplace_back(name, core::parse_expression(core::SourceText("--variable " + name, text)));
  }
  Formula result = *this;
  for (FormulaTerm& term : result.terms_) {
    if (term.factor) term.factor = std::shared_ptr<const Expression>(replace_names(*term.factor, trees));
  }
  return result;
}

std::vector<std::string> Formula::variables() const {
  std::set<std::string> names;
  for (const FormulaTerm& term : terms_) {
    if (term.factor) collect_names(*term.factor, names);
  }
  return {names.begin(), names.end()};
}

double Formula::regressor(std::size_t term, const core::Bindings& bindings) const {
  const FormulaTerm& chosen = terms_.at(term);
  if (!chosen.factor) return chosen.sign;
  return chosen.sign * core::evaluate(*chosen.factor, bindings, *chosen.source);
}

namespace {

// " * factor", in parentheses when the factor is a sum, a difference or a negation: "c[1] * (P - 1)", never
// "c[1] * P - 1", which reads as another formula.
std::string times_factor(const FormulaTerm& term, core::ExpressionStyle style) {
  if (!term.factor) return "";
  const std::string text = core::write_expression(*term.factor, style);
  const auto kind = term.factor->kind;
  const bool loose = kind == Expression::Kind::Add || kind == Expression::Kind::Subtract || kind == Expression::Kind::Negate;
  return loose ? " * (" + text + ")" : " * " + text;
}

}  // namespace

std::string Formula::text() const {
  std::string text;
  for (const FormulaTerm& term : terms_) {
    const std::string factor = times_factor(term, core::ExpressionStyle::Readable);
    if (text.empty()) {
      text = (term.sign < 0 ? "-" : "") + term.constant + factor;
    } else {
      text += (term.sign < 0 ? " - " : " + ") + term.constant + factor;
    }
  }
  return text;
}

std::string Formula::with_values(const std::vector<double>& constants, core::ExpressionStyle style) const {
  std::string text;
  for (std::size_t index = 0; index < terms_.size(); ++index) {
    const FormulaTerm& term = terms_[index];
    const double value = term.sign * (index < constants.size() ? constants[index] : std::nan(""));
    const std::string magnitude = format_value(std::fabs(value), style);
    const std::string factor = times_factor(term, style);
    if (text.empty()) {
      text = (value < 0 ? "-" : "") + magnitude + factor;
    } else {
      text += (value < 0 ? " - " : " + ") + magnitude + factor;
    }
  }
  return text.empty() ? "0" : text;
}

}  // namespace augur::model
