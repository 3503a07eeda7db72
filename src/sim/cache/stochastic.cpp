// The stochastic cache simulator's walk over a program model (seed 004 §2.2): references update the
// history, branches combine their arms' histories, calls run their procedure in a new frame, and loops are
// solved at their fixed point or in the seed's single extra pass. Equations: docs/cache.md.
#include "sim/cache/stochastic.hpp"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <iterator>
#include <numeric>
#include <unordered_map>

#include "sim/cache/stochastic_history.hpp"

namespace augur::sim::cache {

using stochastic_detail::History;
using stochastic_detail::Tag;

double StochasticReference::hit_probability(std::size_t level) const {
  const double reaching = level == 0 ? accesses : misses[level - 1];
  return reaching > 0.0 ? 1.0 - misses[level] / reaching : 1.0;
}

namespace {

// What the fixed-point walk needs to know of a loop: whether an address or an inner bound in its body
// moves with its variable, and the number of iterations after which every such address has moved by a
// whole number of lines (the shortest period a steady state can have).
struct LoopInfo {
  bool depends = false;
  std::int64_t unit = 0;  // 0: no period found (no steady-state jump)
  // Bytes each reference's address moves per iteration of the loop, inner loops whose bounds move with it
  // moving their variables along (a tiled nest: i from ii to ii + T - 1 moves i with ii).
  std::unordered_map<std::size_t, std::int64_t> shift_of;
};

constexpr std::int64_t largest_unit = 4096;
constexpr std::int64_t unit_doublings = 6;  // windows of unit × 2^k iterations, k ≤ this
constexpr double steady_tolerance = 1e-3;   // per reference, relative to the window's accesses
// A recursive call on a path of branch arms less likely than this is not walked: its references are counted
// (their expected executions) with the hit probabilities their walked executions had.
constexpr double recursion_floor = 1e-3;
constexpr std::size_t deepest_counted_call = 4096;

// The last `capacity` copies of a vector of doubles (a loop's counters, or the lines entered per level, at
// each iteration) in one flat ring: no allocation per copy once it has grown to its capacity.
class Snapshots {
public:
  Snapshots(std::span<const double> first, std::size_t capacity)
      : width_(first.size()), capacity_(std::max<std::size_t>(capacity, 1)) {
    push(first);
  }
  // Adds a copy as the newest, dropping the oldest when the ring is full.
  void push(std::span<const double> values) {
    if (count_ < capacity_) {
      data_.insert(data_.end(), values.begin(), values.end());
      newest_ = count_++;
      return;
    }
    newest_ = newest_ + 1 == capacity_ ? 0 : newest_ + 1;
    std::copy(values.begin(), values.end(), data_.begin() + static_cast<std::ptrdiff_t>(newest_ * width_));
  }
  // The copy pushed `back` copies before the newest (0: the newest; back < size()).
  [[nodiscard]] const double* at(std::size_t back) const {
    const std::size_t index = newest_ >= back ? newest_ - back : newest_ + capacity_ - back;
    return data_.data() + index * width_;
  }
  [[nodiscard]] double* newest() { return data_.data() + newest_ * width_; }
  [[nodiscard]] std::size_t size() const { return count_; }

private:
  std::size_t width_;
  std::size_t capacity_;
  std::size_t count_ = 0;
  std::size_t newest_ = 0;
  std::vector<double> data_;
};

struct Frame {
  std::vector<std::int64_t> variables;
  std::uint32_t serial = 0;
  std::size_t depth = 1;  // frames on the call stack, this one included
};

class Predictor {
public:
  Predictor(const Model& model, std::span<const StochasticLevel> levels, const StochasticOptions& options)
      : model_(model), history_(levels), options_(options), stride_(1 + levels.size()) {
    references_.resize(model.reference_count, nullptr);
    for (const Procedure& procedure : model.procedures) index_references(procedure.body);
    counters_.assign(model.reference_count * stride_, 0.0);
    for (const StochasticLevel& level : levels) largest_line_ = std::max(largest_line_, level.line);
  }

  StochasticResult run() {
    const Procedure& main = model_.procedures[model_.entry];
    Frame frame{std::vector<std::int64_t>(main.loop_depth + 1, 0), next_frame_++, 1};
    run_block(main.body, frame);
    result_.references.resize(model_.reference_count);
    result_.levels.resize(history_.level_count());
    for (std::size_t r = 0; r < model_.reference_count; ++r) {
      StochasticReference& reference = result_.references[r];
      reference.accesses = counters_[r * stride_];
      reference.misses.assign(counters_.begin() + static_cast<std::ptrdiff_t>(r * stride_ + 1),
                              counters_.begin() + static_cast<std::ptrdiff_t>((r + 1) * stride_));
      for (std::size_t level = 0; level < result_.levels.size(); ++level) {
        result_.levels[level].accesses += level == 0 ? reference.accesses : reference.misses[level - 1];
        result_.levels[level].misses += reference.misses[level];
      }
    }
    return std::move(result_);
  }

private:
  void index_references(const Block& block) {
    for (const Statement& statement : block) {
      if (const auto* reference = std::get_if<Reference>(&statement.node)) {
        references_[reference->id] = reference;
      } else if (const auto* loop = std::get_if<Loop>(&statement.node)) {
        index_references(loop->body);
      } else if (const auto* branch = std::get_if<Branch>(&statement.node)) {
        for (const BranchArm& arm : branch->arms) index_references(arm.body);
      }
    }
  }

  // Runs a block; exit_needed_ says whether anything runs after a statement (its history is used).
  void run_block(const Block& block, Frame& frame) {
    const bool outer = exit_needed_;
    for (std::size_t s = 0; s < block.size(); ++s) {
      exit_needed_ = outer || s + 1 < block.size();
      std::visit([&](const auto& node) { run(node, frame); }, block[s].node);
    }
    exit_needed_ = outer;
  }

  void run(const Reference& reference, Frame& frame);
  void run(const Loop& loop, Frame& frame);
  void run(const Branch& branch, Frame& frame);
  void run(const Call& call, Frame& frame);
  void count_unwalked_call(std::size_t procedure, std::size_t depth);
  const std::vector<double>& expected_executions(std::size_t procedure, std::size_t depth);
  void add_executions(const Block& block, double times, std::size_t depth, std::vector<std::int64_t>& variables,
                      std::vector<double>& executions);
  void run_single_pass(const Loop& loop, Frame& frame, std::int64_t trips);
  void run_fixed_point(const Loop& loop, Frame& frame, std::int64_t trips);
  std::int64_t tail_iterations(const Snapshots& insertions, std::int64_t window) const;
  std::int64_t steady_window(const Snapshots& snapshots, std::int64_t done,
                             std::int64_t unit) const;
  void jump(const LoopInfo& info, const Frame& frame, std::int64_t iterations, std::uint64_t start_sequence,
            std::span<const double> entered);
  const LoopInfo& info_of(const Loop& loop);
  void scan_loop_body(const Block& block, std::vector<std::int64_t>& shifts, LoopInfo& info) const;

  const Model& model_;
  History history_;
  StochasticOptions options_;
  std::size_t stride_;                           // counters per reference: accesses, misses per level
  std::vector<double> counters_;
  std::vector<const Reference*> references_;     // by Reference::id
  std::uint64_t largest_line_ = 1;
  double path_ = 1.0;                            // the product of the branch arms' probabilities around here
  std::unordered_map<std::uint64_t, std::vector<double>> executions_;  // (procedure, depth) -> per reference
  bool exit_needed_ = false;                     // the current statement's history is used afterwards
  double weight_ = 1.0;                          // expected executions of the current statement per visit
  std::uint64_t sequence_ = 0;
  std::uint32_t next_frame_ = 0;
  std::size_t open_loops_ = 0;
  std::unordered_map<const Loop*, LoopInfo> infos_;
  StochasticResult result_;
};

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

void Predictor::run(const Loop& loop, Frame& frame) {
  const std::int64_t trips = trip_count(loop, frame.variables);
  if (trips <= 0) return;
  if (options_.loops == LoopMethod::SinglePass) {
    run_single_pass(loop, frame, trips);
  } else {
    run_fixed_point(loop, frame, trips);
  }
}

// The seed's method: the body once from the loop's entrance, then once more from the history it left,
// standing for the other trips - 1 iterations.
void Predictor::run_single_pass(const Loop& loop, Frame& frame, std::int64_t trips) {
  const std::int64_t first = loop.first.evaluate(frame.variables);
  frame.variables[loop.depth] = first;
  run_block(loop.body, frame);
  if (trips < 2) return;
  const double base = weight_;
  frame.variables[loop.depth] = first + loop.step;
  weight_ = base * static_cast<double>(trips - 1);
  run_block(loop.body, frame);
  weight_ = base;
}

// The fixed point of a loop's history (the seed's open problem). A loop whose addresses do not move with its
// variable runs until an iteration changes no P_v by more than the tolerance: every later iteration is that
// one again (the a/b loop: both in the cache after a few iterations). A loop whose addresses move reaches a
// steady state instead: the expected misses of every reference repeat over windows of iterations; then the
// iterations but the last window or two are skipped, counted as copies of the window, and the lines the
// loop put in the history are moved by the distance the skipped iterations would have moved them.
void Predictor::run_fixed_point(const Loop& loop, Frame& frame, std::int64_t trips) {
  const LoopInfo& info = info_of(loop);
  const bool exit_needed = exit_needed_;
  exit_needed_ = true;  // every iteration but the last is followed by another
  const std::int64_t first = loop.first.evaluate(frame.variables);
  ++open_loops_;
  const std::uint64_t start_sequence = sequence_;
  const std::size_t keep = static_cast<std::size_t>(3 * (info.unit << unit_doublings) + 1);
  Snapshots snapshots(counters_, keep);
  Snapshots insertions(history_.insertions(), keep);  // lines entered per level, at each snapshot
  bool steady_checked = false;
  for (std::int64_t done = 0; done < trips;) {
    frame.variables[loop.depth] = first + done * loop.step;
    if (!info.depends) history_.begin();
    run_block(loop.body, frame);
    ++done;
    if (!info.depends) {
      const double change = history_.change_in_scope();
      history_.commit();
      const bool capped = static_cast<std::size_t>(done) >= options_.max_iterations;
      if (done < trips && (change <= options_.tolerance || capped)) {
        result_.capped_loops += change > options_.tolerance ? 1 : 0;
        const double remaining = static_cast<double>(trips - done);
        const double* last = snapshots.at(0);
        for (std::size_t i = 0; i < counters_.size(); ++i) counters_[i] += remaining * (counters_[i] - last[i]);
        break;
      }
      std::copy(counters_.begin(), counters_.end(), snapshots.newest());
      continue;
    }
    if (steady_checked || info.unit == 0) continue;
    snapshots.push(counters_);
    insertions.push(history_.insertions());
    const std::int64_t window = steady_window(snapshots, done, info.unit);
    if (window == 0) continue;
    steady_checked = true;
    // The last `tail` iterations are simulated: enough of them to fill the last cache level with the lines
    // they bring, so that the history the loop leaves holds what the real cache would (one window when
    // nothing runs after the loop).
    const std::int64_t tail = exit_needed ? tail_iterations(insertions, window) : window;
    const std::int64_t skipped = (trips - done - tail) / window * window;
    if (skipped <= 0) continue;
    const double* now = snapshots.at(0);
    const double* before = snapshots.at(static_cast<std::size_t>(window));
    const double copies = static_cast<double>(skipped / window);
    for (std::size_t i = 0; i < counters_.size(); ++i) counters_[i] += copies * (now[i] - before[i]);
    std::vector<double> entered(history_.level_count());
    for (std::size_t level = 0; level < entered.size(); ++level) {
      entered[level] = copies * (insertions.at(0)[level] - insertions.at(static_cast<std::size_t>(window))[level]);
    }
    jump(info, frame, skipped, start_sequence, entered);
    done += skipped;
  }
  --open_loops_;
  exit_needed_ = exit_needed;
}

// Iterations after which the lines the loop brings into each level (per iteration, over the last window)
// fill it, the most over the levels, rounded up to windows, plus one window.
std::int64_t Predictor::tail_iterations(const Snapshots& insertions, std::int64_t window) const {
  double windows = 0.0;
  for (std::size_t level = 0; level < history_.level_count(); ++level) {
    const double entered = insertions.at(0)[level] - insertions.at(static_cast<std::size_t>(window))[level];
    if (entered > 0.0) windows = std::max(windows, std::ceil(static_cast<double>(history_.lines(level)) / entered));
  }
  return (static_cast<std::int64_t>(windows) + 1) * window;
}

// The shortest window (unit × 2^k iterations) over which the last three windows gave every reference the
// same expected accesses and misses; 0 when none did.
std::int64_t Predictor::steady_window(const Snapshots& snapshots, std::int64_t done,
                                      std::int64_t unit) const {
  const auto at = [&](std::int64_t back) { return snapshots.at(static_cast<std::size_t>(back)); };
  for (std::int64_t k = 0, window = unit; k <= unit_doublings; ++k, window *= 2) {
    if (done % window != 0 || static_cast<std::int64_t>(snapshots.size()) <= 3 * window) continue;
    bool steady = true;
    for (std::size_t r = 0; r < model_.reference_count && steady; ++r) {
      const std::size_t base = r * stride_;
      const double accesses = at(0)[base] - at(window)[base];
      const double tolerance = 1e-9 + steady_tolerance * accesses;
      for (std::size_t i = base; i < base + stride_ && steady; ++i) {
        const double w1 = at(0)[i] - at(window)[i];
        const double w2 = at(window)[i] - at(2 * window)[i];
        const double w3 = at(2 * window)[i] - at(3 * window)[i];
        steady = std::abs(w1 - w2) <= tolerance && std::abs(w2 - w3) <= tolerance;
      }
    }
    if (steady) return window;
  }
  return 0;
}

// Moves the lines this loop instance put in the history (references of this frame whose address moves with
// the loop's variable) by the distance `iterations` more iterations move them.
void Predictor::jump(const LoopInfo& info, const Frame& frame, std::int64_t iterations, std::uint64_t start_sequence,
                     std::span<const double> entered) {
  ++result_.loop_jumps;
  std::vector<std::pair<std::pair<std::size_t, std::uint64_t>, std::uint64_t>> moves;
  history_.for_each_entry_since(start_sequence, [&](std::size_t level, const stochastic_detail::Entry& entry) {
    if (entry.tag.frame != frame.serial) return;
    const auto per_iteration = info.shift_of.find(entry.tag.reference);
    if (per_iteration == info.shift_of.end() || per_iteration->second == 0) return;
    const std::int64_t shift = per_iteration->second * iterations;
    const auto line_size = static_cast<std::int64_t>(history_.line_size(level));
    assert(shift % line_size == 0 && "a jump moves lines by whole lines");
    moves.push_back({{level, entry.line}, static_cast<std::uint64_t>(static_cast<std::int64_t>(entry.line) + shift / line_size)});
  });
  history_.move_lines(moves, start_sequence, entered);
}

const LoopInfo& Predictor::info_of(const Loop& loop) {
  const auto found = infos_.find(&loop);
  if (found != infos_.end()) return found->second;
  LoopInfo info;
  info.unit = 1;
  std::vector<std::int64_t> shifts(loop.depth + 1, 0);
  shifts[loop.depth] = loop.step;
  scan_loop_body(loop.body, shifts, info);
  if (info.unit > largest_unit) info.unit = 0;
  return infos_.emplace(&loop, std::move(info)).first->second;
}

// `shifts[d]`: how far loop variable x_d moves per iteration of the loop being scanned.
void Predictor::scan_loop_body(const Block& block, std::vector<std::int64_t>& shifts, LoopInfo& info) const {
  const auto moved = [&shifts](const AffineForm& form) {
    std::int64_t shift = 0;
    for (std::size_t d = 0; d < form.coefficients.size() && d < shifts.size(); ++d) shift += form.coefficients[d] * shifts[d];
    return shift;
  };
  for (const Statement& statement : block) {
    if (const auto* reference = std::get_if<Reference>(&statement.node)) {
      if (reference->through_pointer) continue;
      const std::int64_t stride = moved(reference->address);
      info.shift_of[reference->id] = stride;
      if (stride == 0) continue;
      info.depends = true;
      const auto bytes = static_cast<std::int64_t>(largest_line_);
      const std::int64_t period = bytes / std::gcd(std::abs(stride), bytes);
      if (info.unit != 0) info.unit = std::min<std::int64_t>(std::lcm(info.unit, period), largest_unit + 1);
    } else if (const auto* inner = std::get_if<Loop>(&statement.node)) {
      const std::int64_t first = moved(inner->first);
      if (first != 0 || moved(inner->last) != 0) info.depends = true;
      if (first != moved(inner->last)) info.unit = 0;  // its trip count changes: no steady state to find
      if (shifts.size() <= inner->depth) shifts.resize(inner->depth + 1, 0);
      shifts[inner->depth] = first;
      scan_loop_body(inner->body, shifts, info);
      shifts[inner->depth] = 0;
    } else if (const auto* branch = std::get_if<Branch>(&statement.node)) {
      for (const BranchArm& arm : branch->arms) scan_loop_body(arm.body, shifts, info);
    }
  }
}

}  // namespace

StochasticResult predict_stochastic(const Model& model, std::span<const StochasticLevel> levels,
                                    const StochasticOptions& options) {
  Predictor predictor(model, levels, options);
  return predictor.run();
}

}  // namespace augur::sim::cache
