// The exact trace-driven cache simulator (issue 17 part 1, docs/cache.md "Exact simulation"): a hierarchy of
// set-associative levels (LRU, FIFO, random, tree pseudo-LRU; write-back or write-through; write-allocate or
// not), fed by an AccessSource, with per-level counts and the 3C classification of the misses.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "sim/cache/access.hpp"
#include "sim/cache/cache_spec.hpp"
#include "sim/cache/line_table.hpp"
#include "sim/cache/lru_reference.hpp"
#include "sim/cache/replacement.hpp"
#include "augur/sim/engine.hpp"

namespace augur::sim::cache {

// A replacement policy known when the simulator is compiled (static_cast<int>(ReplacementPolicy)), or any:
// the level's own, read per access.
constexpr int any_policy = -1;

struct LevelStatistics {
  std::uint64_t accesses = 0;  // line accesses: an access that straddles k lines counts k times
  std::uint64_t reads = 0;     // instruction fetches count as reads
  std::uint64_t writes = 0;
  std::uint64_t read_misses = 0;
  std::uint64_t write_misses = 0;
  // The 3C classification of the misses (when classified): compulsory = the first access to the line at this
  // level; capacity = a miss that a fully associative LRU cache of the same number of lines, fed the same
  // accesses, also misses; conflict = the other misses (that cache would have hit).
  std::uint64_t compulsory = 0;
  std::uint64_t capacity = 0;
  std::uint64_t conflict = 0;
  std::uint64_t writebacks = 0;  // dirty lines evicted (written to the next level)

  [[nodiscard]] std::uint64_t misses() const { return read_misses + write_misses; }
  [[nodiscard]] double miss_rate() const { return accesses == 0 ? 0.0 : static_cast<double>(misses()) / static_cast<double>(accesses); }
};

// One level: its geometry, state and counts. Used through CacheHierarchy.
class CacheLevel {
public:
  // `stream`: the random policy's stream of the engine's generator (seed, stream): the level's position, so that
  // two random levels with the same seed draw different numbers.
  CacheLevel(const CacheSpec& spec, bool classify, std::uint64_t stream = 0);

  // The result of one line access: hit or miss, and the dirty line written back (if any).
  struct Outcome {
    bool hit = false;
    bool installed = false;  // the line was brought in (a miss with allocation)
    std::optional<std::uint64_t> written_back;  // line number of the evicted dirty line
  };
  Outcome access_line(std::uint64_t line, bool write);
  // The same for a level whose policy is `Policy` (or any_policy).
  template <int Policy>
  Outcome access_line_as(std::uint64_t line, bool write);

  [[nodiscard]] const CacheSpec& spec() const { return spec_; }
  [[nodiscard]] LevelStatistics statistics() const;
  [[nodiscard]] int line_shift() const { return line_shift_; }

private:
  [[nodiscard]] std::uint32_t find_way(std::uint64_t set, std::uint64_t line) const;
  template <int Policy>
  [[nodiscard]] ReplacementPolicy policy_of() const {
    if constexpr (Policy == any_policy) {
      return spec_.policy;
    } else {
      return static_cast<ReplacementPolicy>(Policy);
    }
  }
  template <int Policy>
  void touch(std::uint64_t set, std::uint32_t way);    // the replacement state after a hit or a fill
  template <int Policy>
  std::uint32_t victim_of(std::uint64_t set);          // the way to replace in a full set
  std::uint32_t victim(std::uint64_t set);             // victim_of's call for LRU and FIFO
  void classify_miss(std::uint64_t line, bool fa_hit);

  CacheSpec spec_;
  int line_shift_ = 6;
  std::uint64_t set_mask_ = 0;     // sets - 1 when sets is a power of two
  bool sets_power_of_two_ = true;
  std::uint64_t sets_ = 1;
  std::uint32_t assoc_ = 1;
  bool indexed_ = false;  // ways found through a hash index (many ways) instead of a scan

  std::vector<std::uint64_t> tags_;    // sets x assoc line numbers
  std::vector<std::uint8_t> dirty_;    // sets x assoc
  std::vector<std::uint32_t> filled_;  // per set: ways in use (ways fill in order and are never invalidated)
  LineTable index_;                    // line -> way, when indexed_
  // LRU with a scanned set: the time of each way's last use (the victim has the smallest).
  std::vector<std::uint64_t> lru_stamps_;
  std::uint64_t lru_clock_ = 0;
  // LRU with a hash index (many ways): a recency list per set (previous/next way, head = most recent,
  // tail = least recent), O(1) per access.
  std::vector<std::uint32_t> lru_previous_, lru_next_, lru_head_, lru_tail_;
  std::vector<std::uint32_t> fifo_next_;   // FIFO: the next way to replace per set
  std::optional<PlruTrees> plru_;           // PLRU: a tree per set
  std::unique_ptr<RandomVictims> random_;  // random: the victims of the seeded stream (seed, the level's position)

  // The line of the level's last access while it is in the cache, and its slot: accessed again, it is a hit
  // that changes no replacement state (it is already its set's most recent), so only the counts move.
  std::uint64_t last_line_ = LineTable::empty_key;
  std::size_t last_slot_ = 0;
  std::uint32_t write_back_mask_ = 1;  // 1 when spec_.write is WritePolicy::Back
  bool allocate_ = true;    // spec_.allocate

  bool classify_ = true;
  // 3C: the fully associative LRU of the same capacity (none for a fully associative LRU level: its own).
  std::optional<LruReference> reference_;
  // last_line_ may not be the reference's newest line (its last access did not reach the reference, or a
  // write without allocation of another line did since): the next access of last_line_ must go to the
  // reference; otherwise a repeated access costs the reference nothing.
  bool reference_behind_ = false;
  LineSet touched_;                         // 3C: lines ever accessed
  LevelStatistics statistics_;  // the 3C and the writebacks; the other counts:
  std::array<std::uint64_t, 2> accesses_by_write_{};  // [0] reads (instruction fetches too), [1] writes
  std::array<std::uint64_t, 2> misses_by_write_{};    // indexed by the write flag: no branch on it
};

// A hierarchy of levels, first the closest to the processor. Two first levels named "l1i" and "l1d" make a
// split first level: instruction fetches go to l1i, loads and stores to l1d, and both miss into the third
// level. Each level's access stream is the level above's fetches (misses that allocate), write-throughs,
// writes that do not allocate, and writebacks; the levels are neither inclusive nor exclusive.
class CacheHierarchy {
public:
  // `classify`: count the 3C (costs a stamp per line access, a hash lookup per miss and the memory of the lines
  // touched).
  explicit CacheHierarchy(const std::vector<CacheSpec>& levels, bool classify = true);

  void access(const Access& access);
  // Every access of the source, in batches; `progress(accesses so far)` is called every `progress_every`
  // accesses (0: never).
  void run(AccessSource& source, const std::function<void(std::uint64_t)>& progress = {},
           std::uint64_t progress_every = 0);

  [[nodiscard]] std::uint64_t accesses() const { return accesses_; }
  [[nodiscard]] const std::vector<CacheLevel>& levels() const { return levels_; }
  [[nodiscard]] bool classified() const { return classify_; }

private:
  template <int Policy>
  void access_one(const Access& access);  // access() inlined into run()'s loop
  template <int Policy>
  void run_as(AccessSource& source, const std::function<void(std::uint64_t)>& progress, std::uint64_t progress_every);
  void access_level(std::size_t level, std::uint64_t address, std::uint64_t size, bool write);
  void forward(std::size_t next, std::uint64_t line, int shift, const CacheLevel::Outcome& outcome,
               std::uint64_t address, std::uint64_t last_byte, bool write, bool through);

  std::vector<CacheLevel> levels_;
  std::vector<std::size_t> next_;  // the level each level misses into; levels_.size() = memory
  std::size_t instruction_entry_ = 0;
  std::size_t data_entry_ = 0;
  bool classify_ = true;
  std::uint64_t accesses_ = 0;
};

// Throws core::InputError (at `origin`) when the levels cannot form a hierarchy: no level, two levels of the
// same name, l1i without l1d (or the reverse) or not first.
void check_hierarchy(const std::vector<CacheSpec>& levels, const std::string& origin);

}  // namespace augur::sim::cache
