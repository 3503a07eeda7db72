// The walker of the stochastic cache simulator (stochastic.hpp) over a program model: its loop facts, the
// ring of snapshots of its counters, its frames and its state. Private to stochastic.cpp (references,
// branches, calls) and stochastic_loops.cpp (loops: the single pass, the fixed point, the jumps).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <unordered_map>
#include <variant>
#include <vector>

#include "sim/cache/stochastic.hpp"
#include "sim/cache/stochastic_history.hpp"

namespace augur::sim::cache::stochastic_detail {

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

}  // namespace augur::sim::cache::stochastic_detail
