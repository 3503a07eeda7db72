// Open-addressing hash tables keyed by line numbers (linear probing, backward-shift deletion): the index of a
// fully associative cache, and the set of lines ever touched (the 3C's compulsory misses).
// O(1) expected per operation, no allocation per access (the set grows by doubling).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace augur::sim::cache {

class LineTable {
public:
  static constexpr std::uint64_t empty_key = ~std::uint64_t{0};  // never a line number (addresses are < 2^64)
  static constexpr std::uint32_t absent = ~std::uint32_t{0};

  // A table for up to `expected` keys; it grows when more are inserted.
  explicit LineTable(std::size_t expected = 16);

  [[nodiscard]] std::uint32_t find(std::uint64_t key) const {
    for (std::size_t slot = home(key);; slot = (slot + 1) & mask_) {
      if (keys_[slot] == key) return values_[slot];
      if (keys_[slot] == empty_key) return absent;
    }
  }
  // Inserts key -> value (the key must be absent).
  void insert(std::uint64_t key, std::uint32_t value);
  // Inserts the key with value 0 if absent; returns true when it was absent.
  bool insert_if_absent(std::uint64_t key);
  void erase(std::uint64_t key);
  void assign(std::uint64_t key, std::uint32_t value);  // the key must be present
  [[nodiscard]] std::size_t size() const { return size_; }

private:
  [[nodiscard]] std::size_t home(std::uint64_t key) const {
    return static_cast<std::size_t>((key * 0x9E3779B97F4A7C15ULL) >> shift_);
  }
  void grow();

  std::vector<std::uint64_t> keys_;
  std::vector<std::uint32_t> values_;
  std::size_t mask_ = 0;
  int shift_ = 64;
  std::size_t size_ = 0;
};

// Inline: a fully associative level inserts and erases a line on most of its misses.
inline void LineTable::insert(std::uint64_t key, std::uint32_t value) {
  if ((size_ + 1) * 2 > keys_.size()) grow();  // load factor at most 1/2
  std::size_t slot = home(key);
  while (keys_[slot] != empty_key) slot = (slot + 1) & mask_;
  keys_[slot] = key;
  values_[slot] = value;
  ++size_;
}

inline void LineTable::erase(std::uint64_t key) {
  std::size_t slot = home(key);
  while (keys_[slot] != key) {
    if (keys_[slot] == empty_key) return;
    slot = (slot + 1) & mask_;
  }
  // Backward-shift deletion: move later members of the probe run into the hole when their home allows it.
  std::size_t hole = slot;
  for (std::size_t next = (hole + 1) & mask_; keys_[next] != empty_key; next = (next + 1) & mask_) {
    const std::size_t wanted = home(keys_[next]);
    // keys_[next] may move to the hole when the hole lies cyclically in [wanted, next).
    if (((next - wanted) & mask_) >= ((next - hole) & mask_)) {
      keys_[hole] = keys_[next];
      values_[hole] = values_[next];
      hole = next;
    }
  }
  keys_[hole] = empty_key;
  --size_;
}

// A set of line numbers (the lines a level ever accessed, for the compulsory misses): bitmaps of 4096
// consecutive lines found through a LineTable, the pages used last kept at hand in a small direct-mapped
// table (a trace's misses alternate between a few arrays). Accesses near each other (most of a trace) cost a
// shift and a bit test; memory is 512 bytes per 4096-line page touched.
class LineSet {
public:
  LineSet() { recent_.fill(RecentPage{LineTable::empty_key, 0}); }

  // Adds the line; returns true when it was not in the set.
  bool insert(std::uint64_t line) {
    const std::uint64_t page = line >> page_bits;
    RecentPage& recent = recent_[page & (recent_pages - 1)];
    if (recent.page != page) [[unlikely]] recent = RecentPage{page, page_index(page)};
    const std::uint64_t offset = line & ((std::uint64_t{1} << page_bits) - 1);
    std::uint64_t& word = bits_[std::size_t{recent.index} * words_per_page + offset / 64];
    const std::uint64_t bit = std::uint64_t{1} << (offset % 64);
    if ((word & bit) != 0) return false;
    word |= bit;
    ++size_;
    return true;
  }
  [[nodiscard]] std::uint64_t size() const { return size_; }

private:
  static constexpr int page_bits = 12;
  static constexpr std::size_t words_per_page = (std::size_t{1} << page_bits) / 64;
  static constexpr std::size_t recent_pages = 64;
  struct RecentPage {
    std::uint64_t page;
    std::uint32_t index;
  };

  // The index of the page's bitmap, added (empty) when absent.
  std::uint32_t page_index(std::uint64_t page) {
    std::uint32_t index = pages_.find(page);
    if (index == LineTable::absent) {
      index = static_cast<std::uint32_t>(bits_.size() / words_per_page);
      bits_.resize(bits_.size() + words_per_page, 0);
      pages_.insert(page, index);
    }
    return index;
  }

  LineTable pages_{64};
  std::vector<std::uint64_t> bits_;
  std::array<RecentPage, recent_pages> recent_{};
  std::uint64_t size_ = 0;
};

}  // namespace augur::sim::cache
