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

}  // namespace

CacheLevel::CacheLevel(const CacheSpec& spec, bool classify, std::uint64_t stream)
    : spec_(spec), line_shift_(std::countr_zero(spec.line)), sets_(spec.sets()),
      assoc_(static_cast<std::uint32_t>(spec.assoc)), indexed_(spec.assoc > scan_limit),
      index_(indexed_ ? static_cast<std::size_t>(spec.lines()) : 1), classify_(classify) {
  assert(sets_ >= 1 && assoc_ >= 1 && "CacheLevel: a checked spec (parse_cache_spec)");
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
    case ReplacementPolicy::Random: random_ = std::make_unique<RandomStream>(spec.seed, stream); break;
    case ReplacementPolicy::Plru: plru_bits_.assign(static_cast<std::size_t>(sets_) * (assoc_ - 1), 0); break;
  }
  if (classify_) shadow_ = std::make_unique<LruShadow>(spec.lines());
}

AUGUR_CACHE_INLINE std::uint32_t CacheLevel::find_way(std::uint64_t set, std::uint64_t line) const {
  if (indexed_) return index_.find(line);
  const std::uint64_t* tags = tags_.data() + set * assoc_;
  for (std::uint32_t way = 0; way < assoc_; ++way) {
    if (tags[way] == line) return way;
  }
  return no_way;
}

AUGUR_CACHE_INLINE void CacheLevel::touch(std::uint64_t set, std::uint32_t way) {
  switch (spec_.policy) {
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
    case ReplacementPolicy::Plru: {
      // The tree's node n has children 2n+1 and 2n+2; the leaves are the ways. Each node on the way's path
      // is set to point away from it.
      std::uint8_t* bits = plru_bits_.data() + set * (assoc_ - 1);
      std::uint32_t node = 0;
      for (std::uint32_t span = assoc_; span > 1; span /= 2) {
        const std::uint32_t half = span / 2;
        const std::uint32_t offset = way % span;  // way's position inside this node's span
        const bool right = offset >= half;
        bits[node] = right ? 0 : 1;
        node = 2 * node + (right ? 2 : 1);
      }
      return;
    }
    case ReplacementPolicy::Fifo:
    case ReplacementPolicy::Random: return;
  }
}

std::uint32_t CacheLevel::victim(std::uint64_t set) {
  switch (spec_.policy) {
    case ReplacementPolicy::Lru: {
      if (indexed_) return lru_tail_[set];
      const std::uint64_t* stamps = lru_stamps_.data() + set * assoc_;
      std::uint32_t oldest = 0;
      for (std::uint32_t way = 1; way < assoc_; ++way) {
        if (stamps[way] < stamps[oldest]) oldest = way;
      }
      return oldest;
    }
    case ReplacementPolicy::Fifo: {
      const std::uint32_t way = fifo_next_[set];
      fifo_next_[set] = way + 1 == assoc_ ? 0 : way + 1;
      return way;
    }
    case ReplacementPolicy::Random: {
      const auto way = static_cast<std::uint32_t>(random_->uniform() * static_cast<double>(assoc_));
      return std::min(way, assoc_ - 1);
    }
    case ReplacementPolicy::Plru: {
      const std::uint8_t* bits = plru_bits_.data() + set * (assoc_ - 1);
      std::uint32_t node = 0;
      std::uint32_t way = 0;
      for (std::uint32_t span = assoc_; span > 1; span /= 2) {
        const bool right = bits[node] != 0;
        if (right) way += span / 2;
        node = 2 * node + (right ? 2 : 1);
      }
      return way;
    }
  }
  return 0;
}

void CacheLevel::classify_miss(std::uint64_t line, bool fa_hit) {
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

AUGUR_CACHE_INLINE CacheLevel::Outcome CacheLevel::access_line(std::uint64_t line, bool write) {
  ++statistics_.accesses;
  if (write) ++statistics_.writes; else ++statistics_.reads;
  const bool allocates = !write || spec_.allocate;
  Outcome outcome;
  if (line == last_line_) {
    if (classify_) shadow_->access(line, allocates);
    if (write && spec_.write == WritePolicy::Back) dirty_[last_slot_] = 1;
    outcome.hit = true;
    return outcome;
  }
  const std::uint64_t set = sets_power_of_two_ ? (line & set_mask_) : (line % sets_);
  const std::uint32_t found = find_way(set, line);
  const bool fa_hit = classify_ && shadow_->access(line, allocates);
  if (found != no_way) {
    touch(set, found);
    last_line_ = line;
    last_slot_ = static_cast<std::size_t>(set * assoc_ + found);
    if (write && spec_.write == WritePolicy::Back) dirty_[last_slot_] = 1;
    outcome.hit = true;
    return outcome;
  }
  if (write) ++statistics_.write_misses; else ++statistics_.read_misses;
  if (classify_) classify_miss(line, fa_hit);
  if (!allocates) return outcome;
  std::uint32_t way = filled_[set];
  if (way < assoc_) {
    ++filled_[set];
  } else {
    way = victim(set);
    const std::size_t slot = static_cast<std::size_t>(set * assoc_ + way);
    if (dirty_[slot] != 0) {
      outcome.written_back = tags_[slot];
      ++statistics_.writebacks;
    }
    if (indexed_) index_.erase(tags_[slot]);
  }
  const std::size_t slot = static_cast<std::size_t>(set * assoc_ + way);
  tags_[slot] = line;
  dirty_[slot] = write && spec_.write == WritePolicy::Back ? 1 : 0;
  if (indexed_) index_.insert(line, way);
  touch(set, way);
  last_line_ = line;
  last_slot_ = slot;
  outcome.installed = true;
  return outcome;
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
    if (next < levels_.size()) {
      const std::uint64_t line_bytes = std::uint64_t{1} << shift;
      if (outcome.installed) access_level(next, line << shift, line_bytes, false);  // the fetch
      if (outcome.written_back) access_level(next, *outcome.written_back << shift, line_bytes, true);
      if (write && (through || (!outcome.hit && !outcome.installed))) {
        // The written bytes of this line go on: write-through, or a write miss that does not allocate.
        const std::uint64_t low = std::max(address, line << shift);
        const std::uint64_t high = std::min(last_byte, (line << shift) + (line_bytes - 1));
        access_level(next, low, high - low + 1, true);
      }
    }
    if (line == last_line) break;
  }
}

void CacheHierarchy::access(const Access& access) {
  ++accesses_;
  const bool instruction = access.kind == AccessKind::Instruction;
  access_level(instruction ? instruction_entry_ : data_entry_, access.address, access.size == 0 ? 1 : access.size,
               access.kind == AccessKind::Write);
}

void CacheHierarchy::run(AccessSource& source, const std::function<void(std::uint64_t)>& progress,
                         std::uint64_t progress_every) {
  std::vector<Access> buffer(1 << 14);
  std::uint64_t next_report = progress_every == 0 ? std::numeric_limits<std::uint64_t>::max() : accesses_ + progress_every;
  for (;;) {
    const std::size_t count = source.read(buffer);
    if (count == 0) break;
    for (std::size_t i = 0; i < count; ++i) access(buffer[i]);
    if (accesses_ >= next_report) {
      if (progress) progress(accesses_);
      next_report = accesses_ + progress_every;
    }
  }
}

}  // namespace augur::sim::cache
