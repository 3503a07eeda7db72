// The statements of a procedure: loops, references, branches, calls (docs/formats.md, "Program models").
#include <algorithm>
#include <cctype>
#include <cmath>

#include "sim/cache/model_affine.hpp"
#include "sim/cache/model_parser.hpp"

namespace augur::sim::cache {
namespace {

// Loops and branches open at once in one procedure: deeper would exhaust the stack of the recursive parser.
constexpr std::size_t max_nesting = 64;
// Loops around one reference: enough for any nest, and it keeps the range check's elimination small.
constexpr std::size_t max_loop_nesting = 16;

}  // namespace

// Statements until a line that starts with `end` or `else` (left for the caller) or the end of the text.
Block ModelParser::block(BlockContext& context) {
  Block body;
  while (at_line()) {
    begin_line();
    const std::size_t at = position_;
    const std::string keyword = peek_word();
    if (keyword == "end" || keyword == "else") return body;
    if (keyword == "for") {
      body.push_back(loop(context));
    } else if (keyword == "read" || keyword == "write") {
      body.push_back(reference(context, keyword == "read" ? AccessKind::Read : AccessKind::Write));
    } else if (keyword == "if") {
      body.push_back(branch(context));
    } else if (keyword == "call") {
      body.push_back(call(context));
    } else if (keyword == "param" || keyword == "array" || keyword == "proc" || keyword == "max_depth") {
      fail(at, "'" + keyword + "' inside procedure '" + model_.procedures[context.procedure].name +
                   "' (is an 'end' missing?)");
    } else {
      fail(at, "expected a statement (for, read, write, if, call) or 'end'" + found_text());
    }
  }
  return body;
}

Statement ModelParser::loop(BlockContext& context) {
  const std::size_t at = position_;
  const std::size_t opening = line_;
  if (context.nesting >= max_nesting) fail(at, "loops and branches nested more than 64 deep");
  if (context.loops.size() >= max_loop_nesting) fail(at, "loops nested more than 16 deep in one procedure");
  position_ += 3;
  Loop loop;
  loop.where = locate(at);
  const std::size_t variable_at = (skip_spaces(), position_);
  loop.variable = word("a loop variable");
  if (is_keyword(loop.variable) || parameter_values_.count(loop.variable) != 0 ||
      array_index_.count(loop.variable) != 0 ||
      std::find(context.loop_variables.begin(), context.loop_variables.end(), loop.variable) !=
          context.loop_variables.end()) {
    fail(variable_at,
         "loop variable '" + loop.variable + "' is already a keyword, parameter, array or outer loop variable");
  }
  expect_char('=', "after the loop variable");
  loop.first =
      reduce_to_affine(*expression("the loop's first value"), source_, context.loop_variables, parameter_values_);
  expect_word("to", "after the loop's first value");
  loop.last =
      reduce_to_affine(*expression("the loop's last value"), source_, context.loop_variables, parameter_values_);
  if (peek_word() == "step") {
    position_ += 4;
    const std::size_t step_at = (skip_spaces(), position_);
    loop.step = integer("the step", -(std::int64_t{1} << 40), std::int64_t{1} << 40);
    if (loop.step == 0) fail(step_at, "the step must not be 0");
  }
  loop.depth = context.loops.size();
  check_loop_runs(loop, context, at);
  check_magnitude(loop.first, context, at, "the first value of loop '" + loop.variable + "'");
  check_magnitude(loop.last, context, at, "the last value of loop '" + loop.variable + "'");
  const double magnitude = loop_magnitude(loop, context, at);
  expect_line_end("the loop's bounds");
  context.magnitudes.push_back(magnitude);
  context.loop_variables.push_back(loop.variable);
  context.loops.push_back(LoopBounds{&loop.first, &loop.last, loop.step});
  context.deepest = std::max(context.deepest, context.loops.size());
  ++context.nesting;
  loop.body = block(context);
  --context.nesting;
  context.loops.pop_back();
  context.loop_variables.pop_back();
  context.magnitudes.pop_back();
  close_block(opening, at, "loop '" + loop.variable + "'");
  if (loop.body.empty()) {
    line_ = opening;
    fail(at, "loop '" + loop.variable + "' has an empty body");
  }
  return Statement{std::move(loop)};
}

void ModelParser::check_loop_runs(const Loop& loop, const BlockContext& context, std::size_t at) {
  std::vector<LoopBounds> nest = context.loops;
  nest.push_back(LoopBounds{&loop.first, &loop.last, loop.step});
  if (!affine_range(AffineForm{}, nest)) {
    fail(at,
         "loop '" + loop.variable + "' never runs (its bounds are empty on every iteration of the loops around it)");
  }
}

// The largest |x| the loop's variable takes; beyond 2^47 it is refused, so that every affine form of the
// model evaluates in 64-bit integers.
double ModelParser::loop_magnitude(const Loop& loop, const BlockContext& context, std::size_t at) {
  std::vector<LoopBounds> nest = context.loops;
  nest.push_back(LoopBounds{&loop.first, &loop.last, loop.step});
  AffineForm variable;
  variable.coefficients.assign(loop.depth + 1, 0);
  variable.coefficients.back() = 1;
  const std::optional<ValueRange> range = affine_range(variable, nest);
  const double magnitude = range ? std::max(std::abs(range->minimum), std::abs(range->maximum)) : 0.0;
  if (magnitude > 140737488355328.0) fail(at, "loop '" + loop.variable + "' goes beyond 2^47 in magnitude");
  return magnitude;
}

// |constant| + Σ |c_d| × max |x_d| must stay below 2^61: every partial sum of the form, and the difference
// of two such forms (a trip count), fits in 64 bits.
void ModelParser::check_magnitude(const AffineForm& form, const BlockContext& context, std::size_t at,
                                  const std::string& what) {
  double bound = std::abs(static_cast<double>(form.constant));
  for (std::size_t d = 0; d < form.coefficients.size() && d < context.magnitudes.size(); ++d) {
    bound += std::abs(static_cast<double>(form.coefficients[d])) * context.magnitudes[d];
  }
  if (bound > 2305843009213693952.0) fail(at, what + " is too large to compute in 64 bits");
}

Statement ModelParser::reference(const BlockContext& context, AccessKind kind) {
  const std::size_t at = position_;
  position_ += kind == AccessKind::Read ? 4 : 5;
  Reference reference;
  reference.kind = kind;
  reference.where = locate(at);
  const bool through_pointer = peek() == '*';
  if (through_pointer) ++position_;
  const std::size_t name_at = (skip_spaces(), position_);
  const std::string name = word("an array name");
  const auto found = array_index_.find(name);
  if (found == array_index_.end()) fail(name_at, "unknown array '" + name + "'");
  reference.array = found->second;
  const ModelArray& array = model_.arrays[reference.array];
  if (through_pointer) {
    reference.through_pointer = true;
    reference.address.constant = static_cast<std::int64_t>(array.base);
    expect_word("miss", "after a reference through a pointer (read *" + name + " miss P)");
    reference.miss_probability = probability("the miss probability");
  } else {
    direct_indices(reference, array, context);
    if (reference.indices.size() != array.dimensions.size()) {
      fail(name_at, "array '" + name + "' has " + std::to_string(array.dimensions.size()) + " dimension" +
                        (array.dimensions.size() == 1 ? "" : "s") + " but the reference gives " +
                        std::to_string(reference.indices.size()) + " ind" +
                        (reference.indices.size() == 1 ? "ex" : "ices"));
    }
    address_of(reference, array, name_at);
    check_magnitude(reference.address, context, name_at, "the address of the reference to '" + name + "'");
  }
  expect_line_end("the reference");
  reference.id = model_.reference_count++;
  return Statement{std::move(reference)};
}

void ModelParser::direct_indices(Reference& reference, const ModelArray& array, const BlockContext& context) {
  while (peek() == '[') {
    ++position_;
    const std::size_t at = (skip_spaces(), position_);
    const auto written = expression("an index");
    AffineForm index = reduce_to_affine(*written, source_, context.loop_variables, parameter_values_);
    expect_char(']', "to close the index");
    const std::size_t dimension = reference.indices.size();
    if (dimension < array.dimensions.size()) {
      check_index(index, array.dimensions[dimension], dimension, array, context, at);
    }
    reference.indices.push_back(std::move(index));
  }
}

void ModelParser::check_index(const AffineForm& index, std::int64_t extent, std::size_t dimension,
                              const ModelArray& array, const BlockContext& context, std::size_t at) {
  const std::optional<ValueRange> range = affine_range(index, context.loops);
  if (!range) return;
  constexpr double tolerance = 1e-6;
  const double highest = std::floor(range->maximum + tolerance);
  const double lowest = std::ceil(range->minimum - tolerance);
  if (lowest >= 0.0 && highest <= static_cast<double>(extent - 1)) return;
  const double reached = lowest < 0.0 ? lowest : highest;
  std::size_t end = at;
  while (end < limit_ && text_[end] != ']') ++end;
  while (end > at && std::isspace(static_cast<unsigned char>(text_[end - 1]))) --end;
  fail(at, "index '" + text_.substr(at, end - at) + "' of array '" + array.name + "' reaches " +
               core::format_shortest(reached) + " on some iteration, outside 0.." + std::to_string(extent - 1) +
               (array.dimensions.size() > 1 ? " (dimension " + std::to_string(dimension + 1) + ")" : ""));
}

// base + element_size × Σ_k index_k × Π_{j>k} dimensions[j], as an affine form.
void ModelParser::address_of(Reference& reference, const ModelArray& array, std::size_t at) {
  AffineForm& address = reference.address;
  address.constant = static_cast<std::int64_t>(array.base);
  std::int64_t stride = array.element_size;
  bool overflow = false;
  for (std::size_t k = reference.indices.size(); k-- > 0;) {
    const AffineForm& index = reference.indices[k];
    std::int64_t term = 0;
    overflow |= __builtin_mul_overflow(index.constant, stride, &term);
    overflow |= __builtin_add_overflow(address.constant, term, &address.constant);
    if (address.coefficients.size() < index.coefficients.size())
      address.coefficients.resize(index.coefficients.size(), 0);
    for (std::size_t d = 0; d < index.coefficients.size(); ++d) {
      overflow |= __builtin_mul_overflow(index.coefficients[d], stride, &term);
      overflow |= __builtin_add_overflow(address.coefficients[d], term, &address.coefficients[d]);
    }
    if (k > 0) overflow |= __builtin_mul_overflow(stride, array.dimensions[k], &stride);
  }
  if (overflow) fail(at, "the indices of array '" + array.name + "' are too large to give an address");
  while (!address.coefficients.empty() && address.coefficients.back() == 0) address.coefficients.pop_back();
}

Statement ModelParser::branch(BlockContext& context) {
  const std::size_t at = position_;
  const std::size_t opening = line_;
  if (context.nesting >= max_nesting) fail(at, "loops and branches nested more than 64 deep");
  position_ += 2;
  Branch branch;
  branch.where = locate(at);
  BranchArm arm;
  arm.where = branch.where;
  double sum = 0.0;
  const auto arm_probability = [&](BranchArm& next) {
    const std::size_t probability_at = (skip_spaces(), position_);
    next.probability = probability("the branch probability");
    sum += next.probability;
    if (sum > 1.0 + 1e-9) {
      fail(probability_at, "the branch's probabilities sum to " + core::format_shortest(sum) + ", over 1");
    }
    expect_line_end("the branch probability");
  };
  arm_probability(arm);
  const bool guarded = context.guarded;
  context.guarded = true;
  ++context.nesting;
  for (;;) {
    arm.body = block(context);
    branch.arms.push_back(std::move(arm));
    if (!at_line()) {
      line_ = opening;
      fail(at, "'if' has no 'end'");
    }
    begin_line();
    const std::size_t here = position_;
    if (peek_word() == "end") break;
    if (branch.arms.back().is_else) fail(here, "expected 'end' after the branch's 'else' arm" + found_text());
    position_ += 4;
    arm = BranchArm{};
    arm.where = locate(here);
    if (peek_word() == "if") {
      position_ += 2;
      arm_probability(arm);
    } else {
      arm.is_else = true;
      expect_line_end("'else'");
    }
  }
  close_block(opening, at, "'if'");
  --context.nesting;
  context.guarded = guarded;
  if (branch.arms.back().is_else) branch.arms.back().probability = std::max(0.0, 1.0 - sum);
  return Statement{std::move(branch)};
}

Statement ModelParser::call(const BlockContext& context) {
  const std::size_t at = position_;
  position_ += 4;
  Call call;
  call.where = locate(at);
  const std::size_t name_at = (skip_spaces(), position_);
  const std::string name = word("a procedure name");
  const auto found = procedure_index_.find(name);
  if (found == procedure_index_.end()) fail(name_at, "unknown procedure '" + name + "'");
  call.procedure = found->second;
  expect_line_end("the procedure name");
  calls_[context.procedure].push_back(CallEdge{call.procedure, context.guarded, call.where});
  return Statement{std::move(call)};
}

}  // namespace augur::sim::cache
