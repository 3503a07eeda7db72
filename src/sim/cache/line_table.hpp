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

}  // namespace augur::sim::cache
