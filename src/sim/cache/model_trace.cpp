#include "sim/cache/model_trace.hpp"

#include <algorithm>
#include <cmath>

namespace augur::sim::cache {
namespace {

bool holds_direct_references_only(const Block& block) {
  return std::all_of(block.begin(), block.end(), [](const Statement& statement) {
    const auto* reference = std::get_if<Reference>(&statement.node);
    return reference != nullptr && !reference->through_pointer;
  });
}

}  // namespace

ModelTrace::ModelTrace(const Model& model, RandomStream random) : model_(model), random_(std::move(random)) {
  if (model_.entry >= model_.procedures.size()) return;
  const Procedure& main = model_.procedures[model_.entry];
  variables_.assign(main.loop_depth, 0);
  active_calls_ = 1;
  push_block(main.body, 0, true);
}

void ModelTrace::push_block(const Block& block, std::size_t variables, bool procedure) {
  Frame frame;
  frame.block = &block;
  frame.variables = variables;
  frame.procedure = procedure;
  stack_.push_back(frame);
}

std::size_t ModelTrace::read(std::span<Access> buffer) {
  Access* out = buffer.data();
  Access* const end = out + buffer.size();
  while (out != end && !stack_.empty()) {
    Frame& frame = stack_.back();
    if (frame.direct && frame.next == 0) {
      const std::size_t written = run_direct_iterations(frame, out, static_cast<std::size_t>(end - out));
      if (written > 0) {
        out += written;
        continue;
      }
    }
    if (frame.next < frame.block->size()) {
      run((*frame.block)[frame.next++], out);  // may push a frame: `frame` is not used after it
      continue;
    }
    if (frame.loop != nullptr && frame.remaining > 0) {
      --frame.remaining;
      variables_[frame.variables + frame.loop->depth] += frame.loop->step;
      frame.next = 0;
      continue;
    }
    if (frame.procedure) {
      --active_calls_;
      variables_.resize(frame.variables);
    }
    stack_.pop_back();
  }
  return static_cast<std::size_t>(out - buffer.data());
}

void ModelTrace::run(const Statement& statement, Access*& out) {
  if (const auto* reference = std::get_if<Reference>(&statement.node)) {
    if (reference->through_pointer) {
      *out++ = pointer_access(*reference);
      return;
    }
    const std::size_t base = stack_.back().variables;
    const std::span<const std::int64_t> variables(variables_.data() + base, variables_.size() - base);
    *out++ = Access{static_cast<std::uint64_t>(reference->address.evaluate(variables)),
                    model_.arrays[reference->array].element_size, reference->kind};
  } else if (const auto* loop = std::get_if<Loop>(&statement.node)) {
    enter_loop(*loop);
  } else if (const auto* branch = std::get_if<Branch>(&statement.node)) {
    enter_branch(*branch);
  } else if (const auto* call = std::get_if<Call>(&statement.node)) {
    enter_call(*call);
  }
}

void ModelTrace::enter_loop(const Loop& loop) {
  const std::size_t base = stack_.back().variables;
  const std::span<const std::int64_t> variables(variables_.data() + base, variables_.size() - base);
  const std::int64_t trips = trip_count(loop, variables);
  if (trips <= 0) return;
  variables_[base + loop.depth] = loop.first.evaluate(variables);
  Frame frame;
  frame.block = &loop.body;
  frame.loop = &loop;
  frame.remaining = trips - 1;
  frame.variables = base;
  frame.direct = holds_direct_references_only(loop.body);
  stack_.push_back(frame);
}

void ModelTrace::enter_branch(const Branch& branch) {
  const double draw = random_.uniform();
  double cumulative = 0.0;
  for (const BranchArm& arm : branch.arms) {
    cumulative += arm.probability;
    if (draw < cumulative || arm.is_else) {
      if (!arm.body.empty()) push_block(arm.body, stack_.back().variables, false);
      return;
    }
  }
}

void ModelTrace::enter_call(const Call& call) {
  if (active_calls_ >= model_.max_depth) {
    ++skipped_calls_;
    return;
  }
  const Procedure& procedure = model_.procedures[call.procedure];
  const std::size_t base = variables_.size();
  variables_.resize(base + procedure.loop_depth, 0);
  ++active_calls_;
  push_block(procedure.body, base, true);
}

Access ModelTrace::pointer_access(const Reference& reference) {
  const ModelArray& array = model_.arrays[reference.array];
  const auto element = std::min<std::uint64_t>(
      static_cast<std::uint64_t>(random_.uniform() * static_cast<double>(array.elements)), array.elements - 1);
  return Access{array.base + element * array.element_size, array.element_size, reference.kind};
}

// At the start of an iteration of a loop whose body is direct references only: as many whole iterations as
// fit, each reference's address stepping by its stride (its coefficient of the loop variable × the step).
std::size_t ModelTrace::run_direct_iterations(Frame& frame, Access* out, std::size_t room) {
  const Block& body = *frame.block;
  const std::size_t count = body.size();
  if (room < count) return 0;
  const auto iterations = static_cast<std::size_t>(
      std::min<std::int64_t>(frame.remaining + 1, static_cast<std::int64_t>(room / count)));
  const std::span<const std::int64_t> variables(variables_.data() + frame.variables,
                                                variables_.size() - frame.variables);
  const std::size_t depth = frame.loop->depth;
  addresses_.resize(2 * count);
  for (std::size_t r = 0; r < count; ++r) {
    const Reference& reference = std::get<Reference>(body[r].node);
    const AffineForm& address = reference.address;
    addresses_[2 * r] = address.evaluate(variables);
    addresses_[2 * r + 1] = depth < address.coefficients.size() ? address.coefficients[depth] * frame.loop->step : 0;
    for (std::size_t i = 0; i < iterations; ++i) {
      out[i * count + r] = Access{static_cast<std::uint64_t>(addresses_[2 * r] + static_cast<std::int64_t>(i) *
                                                                                   addresses_[2 * r + 1]),
                                  model_.arrays[reference.array].element_size, reference.kind};
    }
  }
  const auto advanced = static_cast<std::int64_t>(iterations) - 1;
  variables_[frame.variables + depth] += advanced * frame.loop->step;
  frame.remaining -= advanced;
  frame.next = count;
  return iterations * count;
}

}  // namespace augur::sim::cache
