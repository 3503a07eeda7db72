#include "sim/cache/cache_sim.hpp"

#include <algorithm>
#include <bit>
#include <cassert>
#include <limits>
#include <set>
#include <string>

#include "augur/core/diagnostics.hpp"

namespace augur::sim::cache {
namespace {

constexpr std::uint32_t no_way = LineTable::absent;
#if defined(__GNUC__)
#define AUGUR_CACHE_INLINE [[gnu::always_inline]] inline  // the per-access path, inlined into the hierarchy's loop
#else
#define AUGUR_CACHE_INLINE inline
#endif
constexpr std::uint32_t scan_limit = 32;  // more ways than this: found through a hash index

// The way of `line` among `ways` tags. For the common associativities (a constant) every way is compared
// without a branch, into a mask of the matches: where the line is is not predictable, and a mispredicted
// early exit costs more than the comparisons (a line is in at most one way, so the match is the same).
template <std::uint32_t Ways>
AUGUR_CACHE_INLINE std::uint32_t scan_ways(const std::uint64_t* tags, std::uint64_t line, std::uint32_t ways) {
  if constexpr (Ways == 0) {
    for (std::uint32_t way = 0; way < ways; ++way) {
      if (tags[way] == line) return way;
    }
    return no_way;
  } else {
    std::uint32_t matches = 0;
    for (std::uint32_t way = 0; way < Ways; ++way) matches |= static_cast<std::uint32_t>(tags[way] == line) << way;
    return matches == 0 ? no_way : static_cast<std::uint32_t>(std::countr_zero(matches));
  }
}

// The way with the oldest stamp among `ways` (the first of equal stamps).
template <std::uint32_t Ways>
AUGUR_CACHE_INLINE std::uint32_t oldest_way(const std::uint64_t* stamps, std::uint32_t ways) {
  const std::uint32_t count = Ways == 0 ? ways : Ways;
  std::uint32_t oldest = 0;
  for (std::uint32_t way = 1; way < count; ++way) {
    if (stamps[way] < stamps[oldest]) oldest = way;
  }
  return oldest;
}

}  // namespace

CacheLevel::CacheLevel(const CacheSpec& spec, bool classify, std::uint64_t stream)
    : spec_(spec), line_shift_(std::countr_zero(spec.line)), sets_(spec.sets()),
      assoc_(static_cast<std::uint32_t>(spec.assoc)), indexed_(spec.assoc > scan_limit),
      index_(indexed_ ? static_cast<std::size_t>(spec.lines()) : 1), classify_(classify) {
  assert(sets_ >= 1 && assoc_ >= 1 && "CacheLevel: a checked spec (parse_cache_spec)");
  write_back_mask_ = spec.write == WritePolicy::Back ? 1 : 0;
  allocate_ = spec.allocate;
  sets_power_of_two_ = std::has_single_bit(sets_);
  set_mask_ = sets_ - 1;
  const std::size_t slots = static_cast<std::size_t>(sets_ * assoc_);
  tags_.assign(slots, LineTable::empty_key);
  dirty_.assign(slots, 0);
  filled_.assign(static_cast<std::size_t>(sets_), 0);
  switch (spec.policy) {
    case ReplacementPolicy::Lru:
      if (!indexed_) {
        lru_stamps_.assign(slots, 0);
        break;
      }
      lru_previous_.assign(slots, no_way);
      lru_next_.assign(slots, no_way);
      lru_head_.assign(static_cast<std::size_t>(sets_), no_way);
      lru_tail_.assign(static_cast<std::size_t>(sets_), no_way);
      break;
    case ReplacementPolicy::Fifo: fifo_next_.assign(static_cast<std::size_t>(sets_), 0); break;
    case ReplacementPolicy::Random: random_ = std::make_unique<RandomVictims>(spec.seed, stream, assoc_); break;
    case ReplacementPolicy::Plru: plru_.emplace(sets_, assoc_); break;
  }
  // A fully associative LRU level is its own reference cache (the same lines, the same decisions): it needs
  // no reference, and its misses are compulsory or capacity, never conflict.
  if (classify_ && !(spec.policy == ReplacementPolicy::Lru && sets_ == 1)) reference_.emplace(spec.lines(), sets_, assoc_);
}


AUGUR_CACHE_INLINE std::uint32_t CacheLevel::find_way(std::uint64_t set, std::uint64_t line) const {
  if (indexed_) return index_.find(line);
  const std::uint64_t* tags = tags_.data() + set * assoc_;
  switch (assoc_) {
    case 4: return scan_ways<4>(tags, line, assoc_);
    case 8: return scan_ways<8>(tags, line, assoc_);
    case 16: return scan_ways<16>(tags, line, assoc_);
    default: return scan_ways<0>(tags, line, assoc_);
  }
}

template <int Policy>
AUGUR_CACHE_INLINE void CacheLevel::touch(std::uint64_t set, std::uint32_t way) {
  switch (policy_of<Policy>()) {
    case ReplacementPolicy::Lru: {
      const std::size_t base = static_cast<std::size_t>(set * assoc_);
      if (!indexed_) {
        lru_stamps_[base + way] = ++lru_clock_;
        return;
      }
      std::uint32_t& head = lru_head_[set];
      if (head == way) return;
      std::uint32_t& tail = lru_tail_[set];
      const std::uint32_t before = lru_previous_[base + way];
      const std::uint32_t after = lru_next_[base + way];
      // Unlink (a way not yet in the list has no neighbours and is neither head nor tail).
      if (before != no_way) lru_next_[base + before] = after;
      if (after != no_way) lru_previous_[base + after] = before;
      else if (tail == way) tail = before;
      // Push to the front.
      lru_previous_[base + way] = no_way;
      lru_next_[base + way] = head;
      if (head != no_way) lru_previous_[base + head] = way;
      head = way;
      if (tail == no_way) tail = way;
      return;
    }
    case ReplacementPolicy::Plru: plru_->touch(set, way); return;
    case ReplacementPolicy::Fifo:
    case ReplacementPolicy::Random: return;
  }
}

std::uint32_t CacheLevel::victim(std::uint64_t set) {
  switch (spec_.policy) {
    case ReplacementPolicy::Lru: {
      if (indexed_) return lru_tail_[set];
      const std::uint64_t* stamps = lru_stamps_.data() + set * assoc_;
      // Not unrolled: on loop nests (matmul's trace) the unrolled scan ran 27% slower (mispredictions).
      return oldest_way<0>(stamps, assoc_);
    }
    case ReplacementPolicy::Fifo: {
      const std::uint32_t way = fifo_next_[set];
      fifo_next_[set] = way + 1 == assoc_ ? 0 : way + 1;
      return way;
    }
    case ReplacementPolicy::Random: return random_->next();
    case ReplacementPolicy::Plru: return plru_->victim(set);
  }
  return 0;
}

template <int Policy>
AUGUR_CACHE_INLINE std::uint32_t CacheLevel::victim_of(std::uint64_t set) {
  // Random's and tree-PLRU's victims inline; LRU's scan stays a call (inlined, it ran loop nests slower).
  if constexpr (Policy == static_cast<int>(ReplacementPolicy::Random)) return random_->next();
  if constexpr (Policy == static_cast<int>(ReplacementPolicy::Plru)) return plru_->victim(set);
  return victim(set);
}

AUGUR_CACHE_INLINE void CacheLevel::classify_miss(std::uint64_t line, bool fa_hit) {
  // A line the reference cache holds was accessed before: the set of lines touched is asked only when the
  // reference missed too (every first access misses in both, so every line touched gets into the set).
  if (fa_hit) {
    ++statistics_.conflict;
  } else if (touched_.insert(line)) {
    ++statistics_.compulsory;
  } else {
    ++statistics_.capacity;
  }
}

// Branch-light: whether an access writes is a coin toss in most traces, so the counts and the dirty bit
// follow it by arithmetic, not by branches (the flag is hidden from the optimiser, which would otherwise
// split the whole access into a read path and a write path behind one unpredictable branch).
template <int Policy>
AUGUR_CACHE_INLINE CacheLevel::Outcome CacheLevel::access_line_as(std::uint64_t line, bool write) {
  std::uint32_t writes = write ? 1 : 0;
#if defined(__GNUC__)
  asm("" : "+r"(writes));
#endif
  ++accesses_by_write_[writes];
  const bool allocates = (writes == 0) | allocate_;
  const auto dirties = static_cast<std::uint8_t>(writes & write_back_mask_);
  Outcome outcome;
  if (line == last_line_) {
    // The reference cache already has this line as its newest unless the last access did not reach it.
    if (reference_behind_) [[unlikely]] reference_behind_ = !reference_->hit(last_slot_, allocates) && !allocates;
    dirty_[last_slot_] |= dirties;
    outcome.hit = true;
    return outcome;
  }
  const std::uint64_t set = sets_power_of_two_ ? (line & set_mask_) : (line % sets_);
  const std::uint32_t found = find_way(set, line);
  if (found != no_way) {
    touch<Policy>(set, found);
    last_line_ = line;
    last_slot_ = static_cast<std::size_t>(set * assoc_ + found);
    if (reference_) reference_behind_ = !reference_->hit(last_slot_, allocates) && !allocates;
    dirty_[last_slot_] |= dirties;
    outcome.hit = true;
    return outcome;
  }
  // The reference cache's last stamp of the line, and whether it holds the line (it was accessed before).
  const std::uint64_t stamp = reference_ ? reference_->lookup(set, line) : 0;
  const bool fa_hit = reference_ && reference_->holds(stamp);
  ++misses_by_write_[writes];
  if (classify_) classify_miss(line, fa_hit);
  if (!allocates) {
    if (reference_) {
      reference_->bypass(line, stamp);
      reference_behind_ = true;  // the reference's newest line may now be this one, not last_line_
    }
    return outcome;
  }
  std::uint32_t way = filled_[set];
  const bool evicts = way >= assoc_;
  if (!evicts) {
    ++filled_[set];
  } else {
    way = victim_of<Policy>(set);
    const std::size_t slot = static_cast<std::size_t>(set * assoc_ + way);
    if (dirty_[slot] != 0) {
      outcome.written_back = tags_[slot];
      ++statistics_.writebacks;
    }
    if (indexed_) index_.erase(tags_[slot]);
  }
  const std::size_t slot = static_cast<std::size_t>(set * assoc_ + way);
  if (reference_) {
    reference_->fill(slot, set, line, stamp, evicts, tags_[slot]);
    reference_behind_ = false;
  }
  tags_[slot] = line;
  dirty_[slot] = dirties;
  if (indexed_) index_.insert(line, way);
  touch<Policy>(set, way);
  last_line_ = line;
  last_slot_ = slot;
  outcome.installed = true;
  return outcome;
}

CacheLevel::Outcome CacheLevel::access_line(std::uint64_t line, bool write) { return access_line_as<any_policy>(line, write); }

LevelStatistics CacheLevel::statistics() const {
  LevelStatistics statistics = statistics_;
  statistics.reads = accesses_by_write_[0];
  statistics.writes = accesses_by_write_[1];
  statistics.accesses = statistics.reads + statistics.writes;
  statistics.read_misses = misses_by_write_[0];
  statistics.write_misses = misses_by_write_[1];
  return statistics;
}

void check_hierarchy(const std::vector<CacheSpec>& levels, const std::string& origin) {
  const auto fail = [&origin](const std::string& message) { throw core::InputError(core::SourceLocation{origin, 0, 0}, message); };
  if (levels.empty()) fail("no cache level (give --cache NAME:size=... or --machine)");
  std::set<std::string> names;
  for (const CacheSpec& level : levels) {
    if (!names.insert(level.name).second) fail("two levels named '" + level.name + "'");
  }
  const bool split = levels.size() >= 2 && ((levels[0].name == "l1i" && levels[1].name == "l1d") ||
                                            (levels[0].name == "l1d" && levels[1].name == "l1i"));
  if (names.contains("l1i") && !split) fail("l1i needs l1d: give them together as the first two levels (a split first level)");
}

CacheHierarchy::CacheHierarchy(const std::vector<CacheSpec>& levels, bool classify) : classify_(classify) {
  check_hierarchy(levels, "--cache");
  levels_.reserve(levels.size());
  for (std::size_t i = 0; i < levels.size(); ++i) levels_.emplace_back(levels[i], classify, i);
  const bool split = levels.size() >= 2 && (levels[0].name == "l1i" || levels[1].name == "l1i");  // checked above
  next_.resize(levels_.size());
  for (std::size_t i = 0; i < levels_.size(); ++i) next_[i] = i + 1;
  if (split) {
    next_[0] = 2;
    instruction_entry_ = levels[0].name == "l1i" ? 0 : 1;
    data_entry_ = 1 - instruction_entry_;
  }
}

// What a line access of `level` sends on to the next level `next`: the fetch of the line it brought in, the
// dirty line it wrote back, and the written bytes of a write-through or of a write miss without allocation.
void CacheHierarchy::forward(std::size_t next, std::uint64_t line, int shift, const CacheLevel::Outcome& outcome,
                             std::uint64_t address, std::uint64_t last_byte, bool write, bool through) {
  const std::uint64_t line_bytes = std::uint64_t{1} << shift;
  if (outcome.installed) access_level(next, line << shift, line_bytes, false);  // the fetch
  if (outcome.written_back) access_level(next, *outcome.written_back << shift, line_bytes, true);
  if (write && (through || (!outcome.hit && !outcome.installed))) {
    const std::uint64_t low = std::max(address, line << shift);
    const std::uint64_t high = std::min(last_byte, (line << shift) + (line_bytes - 1));
    access_level(next, low, high - low + 1, true);
  }
}

void CacheHierarchy::access_level(std::size_t level, std::uint64_t address, std::uint64_t size, bool write) {
  if (level >= levels_.size() || size == 0) return;
  CacheLevel& cache = levels_[level];
  const int shift = cache.line_shift();
  const std::uint64_t last_byte = size - 1 > std::numeric_limits<std::uint64_t>::max() - address
                                      ? std::numeric_limits<std::uint64_t>::max()
                                      : address + (size - 1);
  const std::uint64_t first_line = address >> shift;
  const std::uint64_t last_line = last_byte >> shift;
  const std::size_t next = next_[level];
  const bool through = cache.spec().write == WritePolicy::Through;
  for (std::uint64_t line = first_line;; ++line) {
    const CacheLevel::Outcome outcome = cache.access_line(line, write);
    if (next < levels_.size()) forward(next, line, shift, outcome, address, last_byte, write, through);
    if (line == last_line) break;
  }
}

template <int Policy>
AUGUR_CACHE_INLINE void CacheHierarchy::access_one(const Access& access) {
  ++accesses_;
  const std::size_t level = access.kind == AccessKind::Instruction ? instruction_entry_ : data_entry_;
  const bool write = access.kind == AccessKind::Write;
  const std::uint64_t size = access.size == 0 ? 1 : access.size;
  CacheLevel& cache = levels_[level];
  const int shift = cache.line_shift();
  const std::uint64_t line = access.address >> shift;
  // Most accesses touch one line, and most of those hit in a write-back level: the line access alone, no
  // call per level (access_level does the same for any access).
  const std::uint64_t line_bytes = std::uint64_t{1} << shift;
  if ((access.address & (line_bytes - 1)) + size <= line_bytes) {
    const CacheLevel::Outcome outcome = cache.access_line_as<Policy>(line, write);
    const bool through = cache.spec().write == WritePolicy::Through;
    if ((outcome.hit && !(through && write)) || next_[level] >= levels_.size()) return;
    forward(next_[level], line, shift, outcome, access.address, access.address + (size - 1), write, through);
    return;
  }
  access_level(level, access.address, size, write);
}

void CacheHierarchy::access(const Access& access) { access_one<any_policy>(access); }

void CacheHierarchy::run(AccessSource& source, const std::function<void(std::uint64_t)>& progress,
                         std::uint64_t progress_every) {
  // The first level's policy a constant of the loop (both halves' when it is split and they agree): its
  // replacement code inlined with no switch per access.
  const ReplacementPolicy policy = levels_[data_entry_].spec().policy;
  if (levels_[instruction_entry_].spec().policy != policy) return run_as<any_policy>(source, progress, progress_every);
  switch (policy) {
    case ReplacementPolicy::Lru: return run_as<static_cast<int>(ReplacementPolicy::Lru)>(source, progress, progress_every);
    case ReplacementPolicy::Fifo: return run_as<static_cast<int>(ReplacementPolicy::Fifo)>(source, progress, progress_every);
    case ReplacementPolicy::Random: return run_as<static_cast<int>(ReplacementPolicy::Random)>(source, progress, progress_every);
    case ReplacementPolicy::Plru: return run_as<static_cast<int>(ReplacementPolicy::Plru)>(source, progress, progress_every);
  }
}

template <int Policy>
void CacheHierarchy::run_as(AccessSource& source, const std::function<void(std::uint64_t)>& progress,
                            std::uint64_t progress_every) {
  std::vector<Access> buffer(1 << 14);
  std::uint64_t next_report = progress_every == 0 ? std::numeric_limits<std::uint64_t>::max() : accesses_ + progress_every;
  for (;;) {
    const std::size_t count = source.read(buffer);
    if (count == 0) break;
    for (std::size_t i = 0; i < count; ++i) access_one<Policy>(buffer[i]);
    if (accesses_ >= next_report) {
      if (progress) progress(accesses_);
      next_report = accesses_ + progress_every;
    }
  }
}

}  // namespace augur::sim::cache
