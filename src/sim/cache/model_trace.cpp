#include "sim/cache/model_trace.hpp"

#include <algorithm>
#include <cmath>

namespace augur::sim::cache {
namespace {

bool holds_references_only(const Block& block) {
  return std::all_of(block.begin(), block.end(),
                     [](const Statement& statement) { return std::holds_alternative<Reference>(statement.node); });
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
      run((*frame.block)[frame.next++], out, end);  // may push a frame: `frame` is not used after it
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

void ModelTrace::run(const Statement& statement, Access*& out, const Access* end) {
  if (const auto* reference = std::get_if<Reference>(&statement.node)) {
    emit(*reference, stack_.back().variables, out);
  } else if (const auto* loop = std::get_if<Loop>(&statement.node)) {
    enter_loop(*loop);
  } else if (const auto* branch = std::get_if<Branch>(&statement.node)) {
    enter_branch(*branch, out, end);
  } else if (const auto* call = std::get_if<Call>(&statement.node)) {
    enter_call(*call);
  }
}

void ModelTrace::emit(const Reference& reference, std::size_t variables, Access*& out) {
  if (reference.through_pointer) {
    *out++ = pointer_access(reference);
    return;
  }
  const std::span<const std::int64_t> values(variables_.data() + variables, variables_.size() - variables);
  *out++ = Access{static_cast<std::uint64_t>(reference.address.evaluate(values)),
                  model_.arrays[reference.array].element_size, reference.kind};
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
  frame.direct = holds_references_only(loop.body);
  stack_.push_back(frame);
}

// The arm drawn runs in a frame of its own, or at once when it is references only and they fit the buffer.
void ModelTrace::enter_branch(const Branch& branch, Access*& out, const Access* end) {
  const double draw = random_.uniform();
  double cumulative = 0.0;
  for (const BranchArm& arm : branch.arms) {
    cumulative += arm.probability;
    if (draw < cumulative || arm.is_else) {
      if (arm.body.empty()) return;
      const std::size_t variables = stack_.back().variables;
      if (holds_references_only(arm.body) && static_cast<std::size_t>(end - out) >= arm.body.size()) {
        for (const Statement& statement : arm.body) emit(std::get<Reference>(statement.node), variables, out);
      } else {
        push_block(arm.body, variables, false);
      }
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

// At the start of an iteration of a loop whose body is references only: as many whole iterations as fit,
// each direct reference's address stepping by its stride (its coefficient of the loop variable × the step),
// each pointer reference drawn in turn (iteration by iteration, as the statement-by-statement path draws).
std::size_t ModelTrace::run_direct_iterations(Frame& frame, Access* out, std::size_t room) {
  const Block& body = *frame.block;
  const std::size_t count = body.size();
  if (room < count) return 0;
  const auto iterations =
      static_cast<std::size_t>(std::min<std::int64_t>(frame.remaining + 1, static_cast<std::int64_t>(room / count)));
  const std::span<const std::int64_t> variables(variables_.data() + frame.variables,
                                                variables_.size() - frame.variables);
  const std::size_t depth = frame.loop->depth;
  scratch_.resize(count);
  for (std::size_t r = 0; r < count; ++r) {
    const Reference& reference = std::get<Reference>(body[r].node);
    const AffineForm& address = reference.address;
    DirectReference& direct = scratch_[r];
    direct.reference = reference.through_pointer ? &reference : nullptr;
    direct.address = address.evaluate(variables);
    direct.stride = depth < address.coefficients.size() ? address.coefficients[depth] * frame.loop->step : 0;
    direct.size = model_.arrays[reference.array].element_size;
    direct.kind = reference.kind;
  }
  for (std::size_t i = 0; i < iterations; ++i) {
    for (DirectReference& direct : scratch_) {
      if (direct.reference != nullptr) {
        *out++ = pointer_access(*direct.reference);
      } else {
        *out++ = Access{static_cast<std::uint64_t>(direct.address), direct.size, direct.kind};
        direct.address += direct.stride;
      }
    }
  }
  const auto advanced = static_cast<std::int64_t>(iterations) - 1;
  variables_[frame.variables + depth] += advanced * frame.loop->step;
  frame.remaining -= advanced;
  frame.next = count;
  return iterations * count;
}

}  // namespace augur::sim::cache
