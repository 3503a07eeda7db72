#include "pruned_level.hpp"

#include <algorithm>

#include "chain_step.hpp"

namespace augur::tspp::pruned {

std::uint32_t Level::intern(const std::uint16_t* state) {
  if (2 * (count_ + 1) > slots_.size()) grow();
  const std::size_t mask = slots_.size() - 1;
  for (std::size_t slot = exact::hash_state(state, width_) & mask;; slot = (slot + 1) & mask) {
    const std::uint32_t number = slots_[slot];
    if (number == absent) {
      slots_[slot] = static_cast<std::uint32_t>(count_);
      words_.insert(words_.end(), state, state + width_);
      numbers_.insert(numbers_.end(), values_, 0.0);
      return static_cast<std::uint32_t>(count_++);
    }
    if (std::equal(state, state + width_, this->state(number))) return number;
  }
}

std::uint32_t Level::find(const std::uint16_t* state) const {
  const std::size_t mask = slots_.size() - 1;
  for (std::size_t slot = exact::hash_state(state, width_) & mask;; slot = (slot + 1) & mask) {
    const std::uint32_t number = slots_[slot];
    if (number == absent) return absent;
    if (std::equal(state, state + width_, this->state(number))) return number;
  }
}

void Level::clear() {
  count_ = 0;
  words_.clear();
  numbers_.clear();
  std::fill(slots_.begin(), slots_.end(), absent);
}

void Level::grow() {
  slots_.assign(slots_.size() * 2, absent);
  const std::size_t mask = slots_.size() - 1;
  for (std::size_t s = 0; s < count_; ++s) {
    std::size_t slot = exact::hash_state(state(s), width_) & mask;
    while (slots_[slot] != absent) slot = (slot + 1) & mask;
    slots_[slot] = static_cast<std::uint32_t>(s);
  }
}

}  // namespace augur::tspp::pruned
