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

}  // namespace augur::sim::cache
