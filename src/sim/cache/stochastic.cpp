// The stochastic cache simulator's walk over a program model (seed 004 §2.2): references update the
// history, branches combine their arms' histories, calls run their procedure in a new frame, and loops are
// solved at their fixed point or in the seed's single extra pass. Equations: docs/cache.md.
#include "sim/cache/stochastic.hpp"

#include <cmath>
#include <cstdint>
#include <variant>
#include <vector>

#include "sim/cache/stochastic_history.hpp"
#include "sim/cache/stochastic_predictor.hpp"

namespace augur::sim::cache {

double StochasticReference::hit_probability(std::size_t level) const {
  const double reaching = level == 0 ? accesses : misses[level - 1];
  return reaching > 0.0 ? 1.0 - misses[level] / reaching : 1.0;
}

namespace stochastic_detail {

void Predictor::run(const Reference& reference, Frame& frame) {
  ++result_.simulated_accesses;
  double* counters = &counters_[reference.id * stride_];
  counters[0] += weight_;
  double reaching = 1.0;  // probability that the access reaches the level
  if (reference.through_pointer) {
    // The seed: a dynamic reference misses with a stated probability; its line, unknown, ages every set.
    for (std::size_t level = 0; level < history_.level_count() && reaching > 0.0; ++level) {
      const double miss = reaching * reference.miss_probability;
      counters[1 + level] += weight_ * miss;
      history_.age_unknown(level, miss);
      reaching = miss;
    }
    return;
  }
  const std::int64_t address = reference.address.evaluate(frame.variables);
  const std::uint64_t size = model_.arrays[reference.array].element_size;
  const Tag tag{static_cast<std::uint32_t>(reference.id), frame.serial, sequence_++};
  for (std::size_t level = 0; level < history_.level_count() && reaching > 0.0; ++level) {
    const int shift = history_.line_shift(level);  // lines are powers of two: no division per reference
    const auto first = static_cast<std::uint64_t>(address) >> shift;
    const auto last = (static_cast<std::uint64_t>(address) + size - 1) >> shift;
    double hit = 1.0;  // an access straddling lines hits when all of them do (taken as the least P)
    for (std::uint64_t line = first; line <= last; ++line) {
      hit = std::min(hit, history_.access(level, line, reaching, tag));
    }
    counters[1 + level] += weight_ * reaching * (1.0 - hit);
    reaching *= 1.0 - hit;
  }
}

// The seed: H_block = Σ_θ p_θ H_θ over the entrances; here the arms (and the fall-through without `else`).
void Predictor::run(const Branch& branch, Frame& frame) {
  const double base = weight_;
  double rest = 1.0;
  std::vector<std::pair<double, stochastic_detail::Snapshot>> outcomes;
  for (const BranchArm& arm : branch.arms) {
    rest -= arm.probability;
    if (arm.probability <= 0.0) continue;
    history_.begin();
    weight_ = base * arm.probability;
    const double path = path_;
    path_ *= arm.probability;
    run_block(arm.body, frame);
    path_ = path;
    outcomes.emplace_back(arm.probability, history_.rollback());
  }
  weight_ = base;
  history_.combine(outcomes, std::max(0.0, rest));
}

void Predictor::run(const Call& call, Frame& frame) {
  if (frame.depth >= model_.max_depth) return;  // the model's rule: the call is skipped
  if (call.recursive && path_ < recursion_floor) {
    count_unwalked_call(call.procedure, frame.depth + 1);
    return;
  }
  const Procedure& procedure = model_.procedures[call.procedure];
  Frame callee{std::vector<std::int64_t>(procedure.loop_depth + 1, 0), next_frame_++, frame.depth + 1};
  run_block(procedure.body, callee);
}

void Predictor::count_unwalked_call(std::size_t procedure, std::size_t depth) {
  const std::vector<double>& executions = expected_executions(procedure, depth);
  for (std::size_t r = 0; r < executions.size(); ++r) {
    if (executions[r] <= 0.0) continue;
    double* counters = &counters_[r * stride_];
    double reaching = executions[r];
    std::vector<double> rates(history_.level_count(), 1.0);
    for (std::size_t level = 0; level < rates.size(); ++level) {
      const double before = level == 0 ? counters[0] : counters[level];
      if (references_[r]->through_pointer) {
        rates[level] = references_[r]->miss_probability;
      } else if (before > 0.0) {
        rates[level] = counters[1 + level] / before;
      }
    }
    counters[0] += weight_ * reaching;
    for (std::size_t level = 0; level < rates.size(); ++level) {
      reaching *= rates[level];
      counters[1 + level] += weight_ * reaching;
    }
  }
}

// The expected executions of each reference in one call of `procedure` running as frame `depth` (its calls
// run while depth < max_depth), loops at their trip counts from their first iteration's bounds.
const std::vector<double>& Predictor::expected_executions(std::size_t procedure, std::size_t depth) {
  const std::uint64_t key = (static_cast<std::uint64_t>(procedure) << 32) | depth;
  if (const auto found = executions_.find(key); found != executions_.end()) return found->second;
  std::vector<double> executions(model_.reference_count, 0.0);
  std::vector<std::int64_t> variables(model_.procedures[procedure].loop_depth + 1, 0);
  add_executions(model_.procedures[procedure].body, 1.0, depth, variables, executions);
  return executions_.emplace(key, std::move(executions)).first->second;
}

void Predictor::add_executions(const Block& block, double times, std::size_t depth,
                               std::vector<std::int64_t>& variables, std::vector<double>& executions) {
  for (const Statement& statement : block) {
    if (const auto* reference = std::get_if<Reference>(&statement.node)) {
      executions[reference->id] += times;
    } else if (const auto* loop = std::get_if<Loop>(&statement.node)) {
      variables[loop->depth] = loop->first.evaluate(variables);
      add_executions(loop->body, times * static_cast<double>(trip_count(*loop, variables)), depth, variables, executions);
    } else if (const auto* branch = std::get_if<Branch>(&statement.node)) {
      for (const BranchArm& arm : branch->arms) add_executions(arm.body, times * arm.probability, depth, variables, executions);
    } else if (const auto* call = std::get_if<Call>(&statement.node)) {
      if (depth >= model_.max_depth || depth >= deepest_counted_call) continue;
      const std::vector<double> callee = expected_executions(call->procedure, depth + 1);
      for (std::size_t r = 0; r < executions.size(); ++r) executions[r] += times * callee[r];
    }
  }
}

}  // namespace stochastic_detail

StochasticResult predict_stochastic(const Model& model, std::span<const StochasticLevel> levels,
                                    const StochasticOptions& options) {
  stochastic_detail::Predictor predictor(model, levels, options);
  return predictor.run();
}

}  // namespace augur::sim::cache
