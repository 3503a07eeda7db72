// Open-addressing hash tables keyed by line numbers (linear probing, backward-shift deletion): the index of a
// fully associative cache and of the 3C classifier's shadow cache, and the set of lines ever touched.
// O(1) expected per operation, no allocation per access (the set grows by doubling).
#pragma once

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

// A set of line numbers (the lines a level ever accessed, for the compulsory misses): bitmaps of 4096
// consecutive lines found through a LineTable, the last one used kept at hand. Accesses near each other
// (most of a trace) cost a shift and a bit test; memory is 512 bytes per 4096-line page touched.
class LineSet {
public:
  // Adds the line; returns true when it was not in the set.
  bool insert(std::uint64_t line) {
    const std::uint64_t page = line >> page_bits;
    if (page != last_page_) {
      std::uint32_t index = pages_.find(page);
      if (index == LineTable::absent) {
        index = static_cast<std::uint32_t>(bits_.size() / words_per_page);
        bits_.resize(bits_.size() + words_per_page, 0);
        pages_.insert(page, index);
      }
      last_page_ = page;
      last_index_ = index;
    }
    const std::uint64_t offset = line & ((std::uint64_t{1} << page_bits) - 1);
    std::uint64_t& word = bits_[std::size_t{last_index_} * words_per_page + offset / 64];
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
  LineTable pages_{64};
  std::vector<std::uint64_t> bits_;
  std::uint64_t last_page_ = LineTable::empty_key;
  std::uint32_t last_index_ = 0;
  std::uint64_t size_ = 0;
};

// A fully associative LRU cache of `capacity` lines that only answers hit or miss (the 3C classifier's
// reference): a hash index and a doubly linked recency list in arrays, O(1) per access.
class LruShadow {
public:
  explicit LruShadow(std::uint64_t capacity);
  // Touches the line; returns true on a hit. On a miss the line is inserted only when `allocate`.
  bool access(std::uint64_t line, bool allocate);

private:
  void unlink(std::uint32_t node);
  void push_front(std::uint32_t node);

  LineTable index_;
  std::vector<std::uint64_t> lines_;
  std::vector<std::uint32_t> previous_;
  std::vector<std::uint32_t> next_;
  std::uint32_t head_ = LineTable::absent;  // most recently used
  std::uint32_t tail_ = LineTable::absent;  // least recently used
  std::uint32_t used_ = 0;
  std::uint32_t capacity_;
};

// Inline: called on every line access when the misses are classified.
inline void LruShadow::unlink(std::uint32_t node) {
  const std::uint32_t before = previous_[node];
  const std::uint32_t after = next_[node];
  if (before != LineTable::absent) next_[before] = after; else head_ = after;
  if (after != LineTable::absent) previous_[after] = before; else tail_ = before;
}

inline void LruShadow::push_front(std::uint32_t node) {
  previous_[node] = LineTable::absent;
  next_[node] = head_;
  if (head_ != LineTable::absent) previous_[head_] = node; else tail_ = node;
  head_ = node;
}

inline bool LruShadow::access(std::uint64_t line, bool allocate) {
  if (used_ > 0 && lines_[head_] == line) return true;  // the most recent line again (a sweep within a line)
  const std::uint32_t node = index_.find(line);
  if (node != LineTable::absent) {
    if (node != head_) {
      unlink(node);
      push_front(node);
    }
    return true;
  }
  if (!allocate) return false;
  std::uint32_t slot = 0;
  if (used_ < capacity_) {
    slot = used_++;
  } else {
    slot = tail_;
    unlink(slot);
    index_.erase(lines_[slot]);
  }
  lines_[slot] = line;
  index_.insert(line, slot);
  push_front(slot);
  return false;
}

}  // namespace augur::sim::cache
