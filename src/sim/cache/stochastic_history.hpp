// The history of the stochastic cache simulator (seed 004 §2.2, "Histories" and "Replacement policy"): per
// cache level and set, the lines that may be in the cache with P_v and E[d_v|P_v], the seed's update rules
// for one reference, the combination of histories at a join, and a journal of the sets a piece of the
// program changed (so that a branch's arms start from the same history and only the sets they touched are
// combined). Private to the stochastic simulator (stochastic*.cpp).
#pragma once

#include <cstddef>
#include <algorithm>
#include <cstdint>
#include <span>
#include <unordered_map>
#include <utility>
#include <vector>

#include "sim/cache/stochastic.hpp"

namespace augur::sim::cache::stochastic_detail {

// Who put a line where it is: the static reference, the call frame it ran in, and the simulator's access
// number (entries made inside a loop instance have a sequence at or after the loop's start).
struct Tag {
  std::uint32_t reference = 0;
  std::uint32_t frame = 0;
  std::uint64_t sequence = 0;
};

struct Entry {
  std::uint64_t line = 0;     // address / line size
  double probability = 0.0;   // P_v
  double depth = 0.0;         // E[d_v | P_v]: expected number of more recent lines of the set (LRU)
  Tag tag;
  bool demoted = false;       // during a jump: an original whose copy the jump made (older than the loop's lines)
};

using SetHistory = std::vector<Entry>;                         // ordered by depth, most recent first
using SetKey = std::uint64_t;                                  // level << 40 | set
using Snapshot = std::unordered_map<SetKey, SetHistory>;       // sets' contents by key

class History {
public:
  explicit History(std::span<const StochasticLevel> levels);

  [[nodiscard]] std::size_t level_count() const { return levels_.size(); }
  [[nodiscard]] std::uint64_t line_size(std::size_t level) const { return levels_[level].line; }
  [[nodiscard]] int line_shift(std::size_t level) const { return levels_[level].line_shift; }
  [[nodiscard]] std::uint64_t lines(std::size_t level) const { return levels_[level].sets * levels_[level].associativity; }
  [[nodiscard]] SetKey key_of(std::size_t level, std::uint64_t line) const;

  // An access of `line` at `level` that happens with probability `weight` (1 at the first level; the miss
  // probability of the level above at the next one): the seed's rules applied, combined with the history
  // without the access. Returns P_x before the access (the hit probability).
  double access(std::size_t level, std::uint64_t line, double weight, const Tag& tag);
  // A reference through a pointer that misses with probability `miss`: a line of unknown address enters
  // the cache, ageing every set of the level by miss / sets.
  void age_unknown(std::size_t level, double miss);

  // The journal: begin() opens a scope; every set changed inside has its content at begin() recorded.
  void begin();
  // Closes the scope keeping the changes (the outer scope learns which sets changed).
  void commit();
  // Closes the scope undoing the changes; returns the changed sets' contents as they were at the end.
  [[nodiscard]] Snapshot rollback();
  // The largest change of a P_v (or of E[d|P] / associativity) in the open scope since begin().
  [[nodiscard]] double change_in_scope() const;

  // Sets the sets of `outcomes` (key → content per arm) to the seed's combination Σ_h p_h H_h, where an
  // arm that did not change a set contributes the set's current content, and `rest` (the probability that
  // no arm runs) weighs the current content too.
  void combine(std::span<const std::pair<double, Snapshot>> outcomes, double rest);

  // Touches the lines `moves` (level, line → new line) made at or after `minimum_sequence` again at their new
  // lines, and recomputes the depths of the sets involved; then ages the lines older than the loop by the
  // `entered` lines (per level) that the skipped iterations brought in.
  void move_lines(std::span<const std::pair<std::pair<std::size_t, std::uint64_t>, std::uint64_t>> moves,
                  std::uint64_t minimum_sequence, std::span<const double> entered);

  [[nodiscard]] const Entry* find(std::size_t level, std::uint64_t line) const;

  // Calls visit(level, entry) for every entry made at or after `minimum_sequence`.
  template <typename Visit>
  void for_each_entry_since(std::uint64_t minimum_sequence, Visit&& visit) const {
    for (std::size_t level = 0; level < levels_.size(); ++level) {
      const Level& state = levels_[level];
      for (std::size_t index = 0; index < state.set_histories.size(); ++index) {
        if (state.newest[index] < minimum_sequence) continue;  // no entry of the set is that recent
        for (const Entry& entry : state.set_histories[index]) {
          if (entry.tag.sequence >= minimum_sequence) visit(level, entry);
        }
      }
    }
  }
  // The expected number of lines that entered each level so far (misses, weighted).
  [[nodiscard]] const std::vector<double>& insertions() const { return insertions_; }

private:
  struct Level {
    std::uint64_t line = 64;
    int line_shift = 6;  // log2(line)
    std::uint64_t sets = 1;
    std::uint64_t sets_mask = 0;  // sets - 1 when sets is a power of two (above 1), else 0: line % sets
    std::uint64_t associativity = 1;
    StochasticReplacement replacement = StochasticReplacement::Lru;
    std::vector<SetHistory> set_histories;
    // Per set: the largest Tag::sequence ever stored in it, a bound on its entries' sequences (it never
    // goes down: a rollback restores older entries), so that a walk for the recent entries skips the set.
    std::vector<std::uint64_t> newest;
  };
  void note_sequence(SetKey key, std::uint64_t sequence) {
    std::uint64_t& newest = levels_[key >> 40].newest[key & ((std::uint64_t{1} << 40) - 1)];
    newest = std::max(newest, sequence);
  }
  SetHistory& touch(SetKey key);
  SetHistory& set_of(SetKey key);
  void prune(std::size_t level, SetHistory& set) const;
  // `negligible`: the caller knows whether an entry is below the probability prune drops.
  void prune(std::size_t level, SetHistory& set, bool negligible) const;

  std::vector<Level> levels_;
  std::vector<Snapshot> journal_;
  std::vector<double> insertions_;
};

// D_v = Σ P_u over the lines u before v in the set's order (what E[d|P] is when the histories are exact),
// lines at depth ≥ associativity dropped: used after lines moved between sets.
void renormalise(SetHistory& set, std::uint64_t associativity);

}  // namespace augur::sim::cache::stochastic_detail
