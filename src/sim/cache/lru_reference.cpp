#include "sim/cache/lru_reference.hpp"

#include <algorithm>
#include <bit>
#include <cassert>
#include <utility>

namespace augur::sim::cache {
namespace {

// The map's size limit for a reference of `capacity` lines: at most `capacity` entries are lines it holds
// (the others it evicted since), so a purge frees at least half of them.
std::uint64_t map_limit_for(std::uint64_t capacity) { return 2 * capacity + 2; }

// Entries of the map at first: it grows (doubling) only as far as a trace overflows the kept entries.
constexpr std::uint64_t map_entries_at_first = 64;

}  // namespace

LruReference::LruReference(std::uint64_t capacity, std::uint64_t sets, std::uint64_t ways)
    : capacity_(capacity), window_mask_(std::bit_ceil(std::max<std::uint64_t>(16 * capacity, 64)) - 1),
      live_(window_mask_ + 1, 0), slot_stamps_(static_cast<std::size_t>(sets * ways), 0),
      kept_(static_cast<std::size_t>(sets) * kept_ways), kept_next_(static_cast<std::size_t>(sets), 0),
      overflow_(map_entries_at_first), spare_(map_entries_at_first), map_limit_(map_limit_for(capacity)) {
  horizon_ = oldest_ + window_mask_;
}

void LruReference::bypass(std::uint64_t line, std::uint64_t previous) {
  if (previous < oldest_) return;  // not held: a write without allocation leaves it out
  const std::uint64_t stamp = next_stamp(previous, true);
  if (found_ == in_overflow) {
    *overflow_.find(line) = stamp;
    overflow_newest_ = stamp;
  } else {
    kept_[found_].stamp = stamp;  // held: found in a kept entry or the map
  }
}

void LruReference::overflow(const Kept& entry) {
  ++overflows_;
  bool inserted = false;
  *overflow_.find_or_insert(entry.line, inserted) = entry.stamp;
  overflow_newest_ = std::max(overflow_newest_, entry.stamp);
  if (inserted && overflow_.size() > map_limit_) purge();
}

void LruReference::purge() {
  ++purges_;
  spare_.clear();
  overflow_.for_each([this](std::uint64_t line, std::uint64_t stamp) {
    if (!live(stamp)) return;  // a line the reference evicted since
    bool inserted = false;
    *spare_.find_or_insert(line, inserted) = stamp;
  });
  std::swap(overflow_, spare_);
}

// The window holds the stamps from oldest_ to clock_ + 1; when it is full, the held lines' stamps (live_'s
// set bytes, each a held line's last stamp) are renumbered in order from clock_ + 1: stamp s becomes clock_ + 1 +
// the number of live stamps in [oldest_, s). Every other stamp kept (of lines not held, or stale) stays as it
// is, below the new oldest_, so it still reads as not held.
void LruReference::renumber_if_full() {
  horizon_ = oldest_ + window_mask_;
  if (clock_ < horizon_) return;
  ++renumberings_;
  // ranks_[w]: live stamps in the words of 8 bytes before word w of the ring (a live byte is 1: a word's
  // popcount counts its live stamps).
  const std::size_t words = live_.size() / 8;
  ranks_.resize(words + 1);
  ranks_[0] = 0;
  for (std::size_t word = 0; word < words; ++word) {
    ranks_[word + 1] = ranks_[word] + static_cast<std::uint64_t>(std::popcount(live_word(word)));
  }
  assert(ranks_[words] == held_ && "LruReference: one live stamp per held line");
  // Live stamps before a position of the ring, counted from position 0.
  const auto before = [this](std::uint64_t position) {
    const std::uint64_t below = (std::uint64_t{1} << (8 * (position & 7))) - 1;
    return ranks_[position >> 3] + static_cast<std::uint64_t>(std::popcount(live_word(position >> 3) & below));
  };
  const std::uint64_t start = before(oldest_ & window_mask_);
  const std::uint64_t base = clock_ + 1;
  const auto renumbered = [&](std::uint64_t stamp) {
    if (!live(stamp)) return stamp;
    const std::uint64_t position = stamp & window_mask_;
    const std::uint64_t rank = before(position) + (position < (oldest_ & window_mask_) ? held_ : 0) - start;
    return base + rank;
  };
  for (std::uint64_t& stamp : slot_stamps_) stamp = renumbered(stamp);
  for (Kept& entry : kept_) entry.stamp = renumbered(entry.stamp);
  overflow_newest_ = 0;
  overflow_.for_each([&](std::uint64_t, std::uint64_t& stamp) {
    const bool held = live(stamp);
    stamp = renumbered(stamp);
    if (held) overflow_newest_ = std::max(overflow_newest_, stamp);
  });
  std::fill(live_.begin(), live_.end(), 0);
  oldest_ = base;
  clock_ = base + held_ - 1;
  for (std::uint64_t stamp = oldest_; stamp <= clock_; ++stamp) set_live(stamp);
  horizon_ = oldest_ + window_mask_;
}

}  // namespace augur::sim::cache
