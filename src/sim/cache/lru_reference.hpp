// The 3C classifier's reference cache (issue 17, docs/cache.md "Exact simulation"): a fully associative LRU
// cache of C lines that only answers hit or miss, kept as stamps rather than a recency list.
//
// Every access the reference sees (a hit, or a miss that allocates) gives its line the next stamp of a clock.
// A fully associative LRU cache of C lines holds exactly the C lines with the newest last stamps, so a line
// is held iff its last stamp is at least `oldest_`, the oldest last stamp of a held line. A byte per stamp
// over a window of the clock marks the live stamps (each held line's last one); an access to a held line
// clears its old stamp's byte, an insertion into a full reference clears the oldest's (the eviction), and
// `oldest_` moves forward to the next live byte. No list moves, no hash erase per eviction: an evicted line's stamp
// simply falls behind `oldest_`. When the live stamps spread over the whole window they are renumbered,
// in order, just past the clock (rare: the window is 16 C).
//
// Where a line's last stamp is kept: for a line the simulated cache holds, in the simulated cache's slot
// (`slot_stamps_`, indexed like its tags: a hit there costs no lookup). When the simulated cache evicts a
// line the reference still holds, the line and its stamp go to its set's few "kept" entries (the set's last
// evictions, replaced in turn: no hash); a kept entry replaced while its line is still held moves to an
// overflow hash map, and the map's entries of lines the reference has evicted since are purged when it
// reaches 2 C entries. A miss of the simulated cache looks in its set's kept entries, then (unless every
// line in it was evicted since) in the map; a line found there and brought back into the simulated cache
// leaves them.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "sim/cache/line_map.hpp"

namespace augur::sim::cache {

class LruReference {
public:
  // A reference of `capacity` lines beside a simulated cache of `sets` sets of `ways` ways (slot = set x ways
  // + way).
  LruReference(std::uint64_t capacity, std::uint64_t sets, std::uint64_t ways);

  // The simulated cache hit the line in `slot`: returns whether the reference holds it too. The line is
  // touched when the reference holds it, inserted when it does not and the access `allocates`.
  bool hit(std::size_t slot, bool allocates) {
    if (slot_stamps_[slot] == clock_) return true;  // the newest line again: nothing moves
    make_room();
    const std::uint64_t previous = slot_stamps_[slot];
    const bool held = previous >= oldest_;
    if (held || allocates) slot_stamps_[slot] = next_stamp(previous, held);
    return held;
  }

  // The simulated cache missed `line` (of set `set`): its last stamp (0: none, or none that counts). Then
  // `fill` or `bypass` with this stamp, before any other call.
  [[nodiscard]] std::uint64_t lookup(std::uint64_t set, std::uint64_t line) {
    make_room();
    const Kept* kept = kept_.data() + set * kept_ways;
    std::size_t found = kept_ways;
    for (std::size_t entry = 0; entry < kept_ways; ++entry) found = kept[entry].line == line ? entry : found;
    if (found < kept_ways) {
      found_ = static_cast<std::size_t>(set * kept_ways + found);
      return kept[found].stamp;
    }
    found_ = nowhere;
    if (overflow_newest_ < oldest_) return 0;  // the map is empty, or every line in it was evicted since
    const std::uint64_t* stamp = overflow_.find(line);
    if (stamp == nullptr) return 0;
    found_ = in_overflow;
    return *stamp;
  }
  // Whether the reference holds a line of last stamp `stamp`.
  [[nodiscard]] bool holds(std::uint64_t stamp) const { return stamp >= oldest_; }

  // The simulated cache put the missed line (last stamp `previous`, from lookup) into `slot` of `set`,
  // evicting `victim` from it when `evicted`.
  void fill(std::size_t slot, std::uint64_t set, std::uint64_t line, std::uint64_t previous, bool evicted,
            std::uint64_t victim) {
    if (found_ < kept_.size()) {
      kept_[found_] = Kept{};  // back in the simulated cache: its stamp lives in the slot
    } else if (found_ == in_overflow) {
      overflow_.erase(line);
    }
    if (evicted && slot_stamps_[slot] >= oldest_) keep(set, victim, slot_stamps_[slot]);
    slot_stamps_[slot] = next_stamp(previous, previous >= oldest_);
  }
  // The simulated cache missed `line` and did not allocate it (a write without allocation): a held line is
  // touched (its stamp, `previous` from lookup, lives in a kept entry or the map); a line not held stays out.
  void bypass(std::uint64_t line, std::uint64_t previous);

  // How often the stamps were renumbered, kept entries overflowed and the map was purged (the rare paths,
  // for the tests).
  [[nodiscard]] std::uint64_t renumberings() const { return renumberings_; }
  [[nodiscard]] std::uint64_t overflows() const { return overflows_; }
  [[nodiscard]] std::uint64_t purges() const { return purges_; }

private:
  // The stamp of the line accessed now, whose last stamp was `previous` (`held`: the reference holds it).
  std::uint64_t next_stamp(std::uint64_t previous, bool held) {
    const std::uint64_t stamp = ++clock_;
    set_live(stamp);
    if (held) {
      clear_live(previous);
      if (previous == oldest_) advance_oldest();
    } else if (held_ == capacity_) {
      clear_live(oldest_);  // the least recent line is evicted
      advance_oldest();
    } else {
      ++held_;
    }
    return stamp;
  }
  // A byte per stamp rather than a bit: setting and clearing one is a store.
  void set_live(std::uint64_t stamp) { live_[stamp & window_mask_] = 1; }
  void clear_live(std::uint64_t stamp) { live_[stamp & window_mask_] = 0; }
  [[nodiscard]] bool live(std::uint64_t stamp) const {
    return stamp >= oldest_ && stamp <= clock_ && live_[stamp & window_mask_] != 0;
  }
  // `oldest_` to the next live stamp (there is one: the newest), eight bytes at a time (the window is whole
  // words, so a word never straddles its end).
  void advance_oldest() {
    std::uint64_t stamp = oldest_ + 1;
    for (;;) {
      const std::uint64_t position = stamp & window_mask_;
      const std::uint64_t word = live_word(position >> 3) >> (8 * (position & 7));
      if (word != 0) {
        oldest_ = stamp + static_cast<std::uint64_t>(std::countr_zero(word) / 8);
        return;
      }
      stamp += 8 - (position & 7);
    }
  }
  // Eight bytes of live_ as a word, the first byte lowest.
  [[nodiscard]] std::uint64_t live_word(std::uint64_t word) const {
    std::uint64_t value = 0;
    if constexpr (std::endian::native == std::endian::little) {
      std::memcpy(&value, live_.data() + 8 * word, sizeof value);
    } else {
      for (int byte = 7; byte >= 0; --byte) value = (value << 8) | live_[8 * word + static_cast<std::uint64_t>(byte)];
    }
    return value;
  }
  // Before a new stamp: renumbers the live stamps when the next one would not fit the window.
  void make_room() {
    if (clock_ >= horizon_) [[unlikely]] renumber_if_full();
  }
  void renumber_if_full();
  // A line leaving the simulated cache while the reference holds it: into its set's next kept entry; the
  // entry's line, if the reference still holds it, into the map.
  void keep(std::uint64_t set, std::uint64_t line, std::uint64_t stamp) {
    std::uint8_t& next = kept_next_[set];
    Kept& entry = kept_[set * kept_ways + next];
    next = static_cast<std::uint8_t>((next + 1) % kept_ways);
    if (entry.stamp >= oldest_) overflow(entry);
    entry = Kept{line, stamp};
  }
  struct Kept {
    std::uint64_t line = ~std::uint64_t{0};  // never a line number
    std::uint64_t stamp = 0;
  };
  void overflow(const Kept& entry);
  void purge();  // drops the map's entries of lines not held

  static constexpr std::size_t kept_ways = 4;                    // kept entries per set
  static constexpr std::size_t nowhere = ~std::size_t{0};        // found_: the line has no stamp kept
  static constexpr std::size_t in_overflow = ~std::size_t{0} - 1;  // found_: its stamp is in the map

  std::uint64_t capacity_;             // C lines
  std::uint64_t held_ = 0;             // lines held (C once full: an insertion then evicts)
  std::uint64_t clock_ = 0;            // the newest stamp (stamps start at 1; 0 is none)
  std::uint64_t oldest_ = 1;           // the oldest live stamp (clock_ + 1 when none)
  std::uint64_t horizon_ = 0;          // the clock at which the window may be full: checked then
  std::uint64_t window_mask_;          // the window's stamps - 1 (a power of two, at least 64)
  std::vector<std::uint8_t> live_;     // one byte per stamp of the window, 1 = the last stamp of a held line
  std::vector<std::uint64_t> slot_stamps_;  // the last stamp of each slot's line (0: an empty slot)
  std::vector<Kept> kept_;             // per set, kept_ways lines the simulated cache evicted while held
  std::vector<std::uint8_t> kept_next_;  // per set, the kept entry the next eviction replaces
  std::size_t found_ = nowhere;        // where lookup found the line's stamp: a kept entry, the map, nowhere
  LineMap overflow_;                   // line -> last stamp, for held lines out of the simulated cache and its kept entries
  LineMap spare_;                      // the purge's second table
  std::uint64_t overflow_newest_ = 0;  // at least the newest live stamp in the map
  std::uint64_t map_limit_;            // entries before a purge
  std::vector<std::uint64_t> ranks_;   // renumbering: live stamps before each word of the window
  std::uint64_t renumberings_ = 0;
  std::uint64_t overflows_ = 0;
  std::uint64_t purges_ = 0;
};

}  // namespace augur::sim::cache
