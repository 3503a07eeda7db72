// An open-addressing hash table from line numbers to one 64-bit value (linear probing, load at most one
// half, deletion by backward shift), for the per-reference look-ups of the curve methods, where
// std::unordered_map's node per line would cost a cache miss more.
#pragma once

#include <bit>
#include <cstdint>
#include <vector>

namespace augur::sim::cache {

class LineStampTable {
public:
  explicit LineStampTable(std::uint64_t capacity = 64) { reset(std::bit_ceil(capacity < 4 ? 4 : capacity)); }

  [[nodiscard]] std::uint64_t size() const { return size_; }
  [[nodiscard]] bool empty() const { return size_ == 0; }

  // The value of `line`, or nullptr. The pointer is valid until the next insertion or erasure.
  [[nodiscard]] std::uint64_t* find(std::uint64_t line) {
    const std::uint64_t key = line + 1;
    for (std::uint64_t entry = home(key);; entry = (entry + 1) & mask_) {
      if (keys_[entry] == key) return &values_[entry];
      if (keys_[entry] == 0) return nullptr;
    }
  }

  // The value of `line`, inserted as 0 when absent (`inserted` says which).
  std::uint64_t* find_or_insert(std::uint64_t line, bool& inserted) {
    const std::uint64_t key = line + 1;
    std::uint64_t entry = home(key);
    for (; keys_[entry] != 0; entry = (entry + 1) & mask_) {
      if (keys_[entry] == key) {
        inserted = false;
        return &values_[entry];
      }
    }
    inserted = true;
    if ((size_ + 1) * 2 > keys_.size()) {
      grow();
      for (entry = home(key); keys_[entry] != 0; entry = (entry + 1) & mask_) {
      }
    }
    keys_[entry] = key;
    values_[entry] = 0;
    ++size_;
    return &values_[entry];
  }

  void erase(std::uint64_t line) {
    const std::uint64_t key = line + 1;
    std::uint64_t entry = home(key);
    for (; keys_[entry] != key; entry = (entry + 1) & mask_) {
      if (keys_[entry] == 0) return;
    }
    // Backward shift: move up every later entry of the run whose home is not between the hole and it.
    std::uint64_t hole = entry;
    for (std::uint64_t next = (hole + 1) & mask_; keys_[next] != 0; next = (next + 1) & mask_) {
      const std::uint64_t wanted = home(keys_[next]);
      if (((next - wanted) & mask_) >= ((next - hole) & mask_)) {
        keys_[hole] = keys_[next];
        values_[hole] = values_[next];
        hole = next;
      }
    }
    keys_[hole] = 0;
    --size_;
  }

  // Calls visit(line, value&) for every entry, in no particular order.
  template <typename Visit>
  void for_each(Visit&& visit) {
    for (std::uint64_t entry = 0; entry < keys_.size(); ++entry) {
      if (keys_[entry] != 0) visit(keys_[entry] - 1, values_[entry]);
    }
  }

private:
  static constexpr std::uint64_t golden = 0x9e3779b97f4a7c15ULL;  // Fibonacci hashing

  [[nodiscard]] std::uint64_t home(std::uint64_t key) const { return (key * golden) >> shift_; }

  void reset(std::uint64_t capacity) {
    keys_.assign(capacity, 0);
    values_.assign(capacity, 0);
    mask_ = capacity - 1;
    shift_ = 64 - static_cast<unsigned>(std::countr_zero(capacity));
  }

  void grow() {
    std::vector<std::uint64_t> keys;
    std::vector<std::uint64_t> values;
    keys.swap(keys_);
    values.swap(values_);
    reset(keys.size() * 2);
    for (std::uint64_t old = 0; old < keys.size(); ++old) {
      if (keys[old] == 0) continue;
      std::uint64_t entry = home(keys[old]);
      while (keys_[entry] != 0) entry = (entry + 1) & mask_;
      keys_[entry] = keys[old];
      values_[entry] = values[old];
    }
  }

  std::vector<std::uint64_t> keys_;  // line + 1; 0 marks an empty entry
  std::vector<std::uint64_t> values_;
  std::uint64_t mask_ = 0;
  unsigned shift_ = 0;
  std::uint64_t size_ = 0;
};

}  // namespace augur::sim::cache
