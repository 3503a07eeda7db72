// An open-addressing hash map from line numbers to one 64-bit value (linear probing, load at most one
// half, deletion by backward shift), for the per-reference look-ups of the curve methods and the 3C
// classifier's reference cache (lru_reference.hpp), where std::unordered_map's node per line would cost a
// cache miss more.
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>
#include <vector>

namespace augur::sim::cache {

class LineMap {
public:
  explicit LineMap(std::uint64_t capacity = 64) { reset(std::bit_ceil(capacity < 4 ? 4 : capacity)); }

  [[nodiscard]] std::uint64_t size() const { return size_; }
  [[nodiscard]] bool empty() const { return size_ == 0; }

  // The value of `line`, or nullptr. The pointer is valid until the next insertion or erasure.
  [[nodiscard]] std::uint64_t* find(std::uint64_t line) {
    const std::uint64_t key = line + 1;
    for (std::uint64_t entry = home(key);; entry = (entry + 1) & mask_) {
      if (entries_[entry].key == key) return &entries_[entry].value;
      if (entries_[entry].key == 0) return nullptr;
    }
  }

  // The value of `line`, inserted as 0 when absent (`inserted` says which).
  std::uint64_t* find_or_insert(std::uint64_t line, bool& inserted) {
    const std::uint64_t key = line + 1;
    std::uint64_t entry = home(key);
    for (; entries_[entry].key != 0; entry = (entry + 1) & mask_) {
      if (entries_[entry].key == key) {
        inserted = false;
        return &entries_[entry].value;
      }
    }
    inserted = true;
    if ((size_ + 1) * 2 > entries_.size()) {
      grow();
      for (entry = home(key); entries_[entry].key != 0; entry = (entry + 1) & mask_) {
      }
    }
    entries_[entry] = Entry{key, 0};
    ++size_;
    return &entries_[entry].value;
  }

  void erase(std::uint64_t line) {
    const std::uint64_t key = line + 1;
    std::uint64_t entry = home(key);
    for (; entries_[entry].key != key; entry = (entry + 1) & mask_) {
      if (entries_[entry].key == 0) return;
    }
    // Backward shift: move up every later entry of the run whose home is not between the hole and it.
    std::uint64_t hole = entry;
    for (std::uint64_t next = (hole + 1) & mask_; entries_[next].key != 0; next = (next + 1) & mask_) {
      const std::uint64_t wanted = home(entries_[next].key);
      if (((next - wanted) & mask_) >= ((next - hole) & mask_)) {
        entries_[hole] = entries_[next];
        hole = next;
      }
    }
    entries_[hole].key = 0;
    --size_;
  }

  // Removes every entry (the table keeps its size).
  void clear() {
    std::fill(entries_.begin(), entries_.end(), Entry{0, 0});
    size_ = 0;
  }

  // Calls visit(line, value&) for every entry, in no particular order.
  template <typename Visit>
  void for_each(Visit&& visit) {
    for (Entry& entry : entries_) {
      if (entry.key != 0) visit(entry.key - 1, entry.value);
    }
  }

private:
  static constexpr std::uint64_t golden = 0x9e3779b97f4a7c15ULL;  // Fibonacci hashing

  [[nodiscard]] std::uint64_t home(std::uint64_t key) const { return (key * golden) >> shift_; }

  struct Entry {
    std::uint64_t key;  // line + 1; 0 marks an empty entry
    std::uint64_t value;
  };

  void reset(std::uint64_t capacity) {
    entries_.assign(capacity, Entry{0, 0});
    mask_ = capacity - 1;
    shift_ = 64 - static_cast<unsigned>(std::countr_zero(capacity));
  }

  void grow() {
    std::vector<Entry> old;
    old.swap(entries_);
    reset(old.size() * 2);
    for (const Entry& moved : old) {
      if (moved.key == 0) continue;
      std::uint64_t entry = home(moved.key);
      while (entries_[entry].key != 0) entry = (entry + 1) & mask_;
      entries_[entry] = moved;
    }
  }

  std::vector<Entry> entries_;  // a key beside its value: one cache line per look-up
  std::uint64_t mask_ = 0;
  unsigned shift_ = 0;
  std::uint64_t size_ = 0;
};

}  // namespace augur::sim::cache
