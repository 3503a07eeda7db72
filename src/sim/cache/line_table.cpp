#include "sim/cache/line_table.hpp"

#include <algorithm>
#include <bit>
#include <cassert>

namespace augur::sim::cache {

LineTable::LineTable(std::size_t expected) {
  const std::size_t slots = std::bit_ceil(std::max<std::size_t>(16, expected * 2));
  keys_.assign(slots, empty_key);
  values_.assign(slots, 0);
  mask_ = slots - 1;
  shift_ = 64 - std::countr_zero(slots);
}

void LineTable::grow() {
  std::vector<std::uint64_t> old_keys = std::move(keys_);
  std::vector<std::uint32_t> old_values = std::move(values_);
  const std::size_t slots = old_keys.size() * 2;
  keys_.assign(slots, empty_key);
  values_.assign(slots, 0);
  mask_ = slots - 1;
  shift_ = 64 - std::countr_zero(slots);
  size_ = 0;
  for (std::size_t i = 0; i < old_keys.size(); ++i) {
    if (old_keys[i] != empty_key) insert(old_keys[i], old_values[i]);
  }
}

void LineTable::insert(std::uint64_t key, std::uint32_t value) {
  if ((size_ + 1) * 2 > keys_.size()) grow();  // load factor at most 1/2
  std::size_t slot = home(key);
  while (keys_[slot] != empty_key) slot = (slot + 1) & mask_;
  keys_[slot] = key;
  values_[slot] = value;
  ++size_;
}

bool LineTable::insert_if_absent(std::uint64_t key) {
  if ((size_ + 1) * 2 > keys_.size()) grow();
  std::size_t slot = home(key);
  for (; keys_[slot] != empty_key; slot = (slot + 1) & mask_) {
    if (keys_[slot] == key) return false;
  }
  keys_[slot] = key;
  values_[slot] = 0;
  ++size_;
  return true;
}

void LineTable::assign(std::uint64_t key, std::uint32_t value) {
  std::size_t slot = home(key);
  while (keys_[slot] != key) {
    assert(keys_[slot] != empty_key && "LineTable::assign: the key must be present");
    slot = (slot + 1) & mask_;
  }
  values_[slot] = value;
}

void LineTable::erase(std::uint64_t key) {
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

LruShadow::LruShadow(std::uint64_t capacity)
    : index_(static_cast<std::size_t>(capacity)), lines_(capacity), previous_(capacity), next_(capacity),
      capacity_(static_cast<std::uint32_t>(capacity)) {}

}  // namespace augur::sim::cache
