// The 3C classifier's reference cache (issue 17, docs/cache.md "Exact simulation"): a fully associative LRU
// cache of C lines that only answers hit or miss, kept as stamps rather than a recency list.
//
// Every access the reference sees (a hit, or a miss that allocates) gives its line the next stamp of a clock.
// A fully associative LRU cache of C lines holds exactly the C lines with the newest last stamps, so a line
// is held iff its last stamp is at least `oldest_`, the oldest last stamp of a held line. A bitmap over a
// window of the clock marks the live stamps (each held line's last one); an access to a held line clears
// its old stamp's bit, an insertion into a full reference clears the oldest's (the eviction), and `oldest_`
// moves forward to the next live bit. No list moves, no hash erase per eviction: an evicted line's stamp
// simply falls behind `oldest_`. When the live stamps spread over the whole window they are renumbered,
// in order, just past the clock (rare: the window is 16 C).
//
// Where a line's last stamp is kept: for a line the simulated cache holds, in the simulated cache's slot
// (`slot_stamps_`, indexed like its tags: a hit there costs no lookup); for any other line, in a hash map
// line -> stamp, written when the simulated cache evicts a line the reference still holds. A line coming
// back into the simulated cache leaves a stale entry in the map: never read (a line the simulated cache holds
// is found through its slot), rewritten when the line leaves again, dropped when the map is purged of the
// lines the reference no longer holds.
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
  // A reference of `capacity` lines beside a simulated cache of `slots` slots.
  LruReference(std::uint64_t capacity, std::size_t slots);

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

  // The simulated cache missed `line`: its last stamp (0: none, or none that counts). Then `fill` or
  // `bypass` with this stamp, before any other call.
  [[nodiscard]] std::uint64_t lookup(std::uint64_t line) {
    make_room();
    const std::uint64_t* stamp = map_.find(line);
    return stamp == nullptr ? 0 : *stamp;
  }
  // Whether the reference holds a line of last stamp `stamp`.
  [[nodiscard]] bool holds(std::uint64_t stamp) const { return stamp >= oldest_; }

  // The simulated cache put the missed line (last stamp `previous`, from lookup) into `slot`, evicting
  // `victim` from it when `evicted`.
  void fill(std::size_t slot, std::uint64_t previous, bool evicted, std::uint64_t victim) {
    if (evicted && slot_stamps_[slot] >= oldest_) keep(victim, slot_stamps_[slot]);
    slot_stamps_[slot] = next_stamp(previous, previous >= oldest_);
  }
  // The simulated cache missed `line` and did not allocate it (a write without allocation): a held line is
  // touched (its stamp, `previous` from lookup, lives in the map); a line not held stays out.
  void bypass(std::uint64_t line, std::uint64_t previous);

  // How often the stamps were renumbered and the map purged (the rare paths, for the tests).
  [[nodiscard]] std::uint64_t renumberings() const { return renumberings_; }
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
  // The map's stamp of a line leaving the simulated cache while the reference holds it.
  void keep(std::uint64_t line, std::uint64_t stamp) {
    bool inserted = false;
    *map_.find_or_insert(line, inserted) = stamp;
    if (inserted && map_.size() > map_limit_) purge();
  }
  void purge();                                        // drops the map's entries of lines not held

  std::uint64_t capacity_;             // C lines
  std::uint64_t held_ = 0;             // lines held (C once full: an insertion then evicts)
  std::uint64_t clock_ = 0;            // the newest stamp (stamps start at 1; 0 is none)
  std::uint64_t oldest_ = 1;           // the oldest live stamp (clock_ + 1 when none)
  std::uint64_t horizon_ = 0;          // the clock at which the window may be full: checked then
  std::uint64_t window_mask_;          // the window's stamps - 1 (a power of two, at least 64)
  std::vector<std::uint8_t> live_;     // one byte per stamp of the window, 1 = the last stamp of a held line
  std::vector<std::uint64_t> slot_stamps_;  // the last stamp of each slot's line (0: an empty slot)
  LineMap map_;                        // line -> last stamp, for lines outside the simulated cache
  LineMap spare_;                      // the purge's second table (the same size)
  std::uint64_t map_limit_;            // entries before a purge
  std::vector<std::uint64_t> ranks_;   // renumbering: live stamps before each word of the window
  std::uint64_t renumberings_ = 0;
  std::uint64_t purges_ = 0;
};

}  // namespace augur::sim::cache
