// The stochastic cache simulator's loops (docs/cache.md): the seed's single extra pass, and the fixed point
// of a loop's history with its steady-state jumps.
#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <span>
#include <utility>
#include <variant>
#include <vector>

#include "sim/cache/stochastic_history.hpp"
#include "sim/cache/stochastic_predictor.hpp"

namespace augur::sim::cache::stochastic_detail {

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

}  // namespace augur::sim::cache::stochastic_detail
