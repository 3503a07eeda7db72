// Tree pseudo-LRU of one set as the textbook has it, for the tests' brute-force references: a bool per node,
// node n's children 2n+1 and 2n+2, true = the victim is on the right; a touch walks from the root to the
// way, pointing each node away from it.
#pragma once

#include <cstdint>
#include <vector>

namespace augur::sim::cache {

class PlainTree {
public:
  explicit PlainTree(std::uint32_t ways) : ways_(ways), right_(ways, false) {}
  void touch(std::uint32_t way) {
    std::uint32_t node = 0, first = 0;
    for (std::uint32_t span = ways_; span > 1; span /= 2) {
      const bool on_right = way >= first + span / 2;
      right_[node] = !on_right;
      if (on_right) first += span / 2;
      node = 2 * node + (on_right ? 2 : 1);
    }
  }
  [[nodiscard]] std::uint32_t victim() const {
    std::uint32_t node = 0, first = 0;
    for (std::uint32_t span = ways_; span > 1; span /= 2) {
      if (right_[node]) first += span / 2;
      node = 2 * node + (right_[node] ? 2 : 1);
    }
    return first;
  }

private:
  std::uint32_t ways_;
  std::vector<bool> right_;
};

}  // namespace augur::sim::cache
