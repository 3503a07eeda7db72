// The replacement state of the exact simulator's random and tree pseudo-LRU policies (cache_sim.hpp), kept
// off the per-access path: a tree-PLRU touch is two masks applied to the set's tree word (no loop, no
// branch), its victim a walk down that word; a random victim is the next of a batch of ways drawn ahead from
// the level's seeded stream, in the stream's order (the victims are the same as drawing one per miss).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "augur/sim/engine.hpp"

namespace augur::sim::cache {

// Tree pseudo-LRU over the sets of a level of `ways` ways (a power of two): per set a binary tree of
// ways - 1 bits, node n's children 2n+1 and 2n+2, the leaves the ways in order; a bit of 1 sends the victim
// search right. An access of a way sets every node on its path to point away from it. Up to 64 ways the
// tree is one word per set (bit n = node n) and a touch is `word = (word & ~path[way]) | away[way]`; more
// ways keep a byte per node and walk the path.
class PlruTrees {
public:
  PlruTrees(std::uint64_t sets, std::uint32_t ways);

  void touch(std::uint64_t set, std::uint32_t way) {
    if (ways_ <= word_ways) [[likely]] {
      std::uint64_t& word = words_[static_cast<std::size_t>(set)];
      word = (word & ~path_[way]) | away_[way];
      return;
    }
    touch_nodes(set, way);
  }

  // The way the tree points to. Walking down the word: the node after n is 2n + 1 + bit n, and the leaf
  // reached after log2(ways) steps is node ways - 1 + way.
  [[nodiscard]] std::uint32_t victim(std::uint64_t set) const {
    if (ways_ > word_ways) [[unlikely]] return victim_of_nodes(set);
    const std::uint64_t word = words_[static_cast<std::size_t>(set)];
    std::uint64_t node = 0;
    for (int level = 0; level < depth_; ++level) node = 2 * node + 1 + ((word >> node) & 1);
    return static_cast<std::uint32_t>(node - (ways_ - 1));
  }

private:
  static constexpr std::uint32_t word_ways = 64;

  void touch_nodes(std::uint64_t set, std::uint32_t way);
  [[nodiscard]] std::uint32_t victim_of_nodes(std::uint64_t set) const;

  std::uint32_t ways_;
  int depth_;                          // log2(ways)
  std::vector<std::uint64_t> words_;   // up to 64 ways: the tree of each set
  std::vector<std::uint64_t> path_;    // per way: the bits of the nodes on its path
  std::vector<std::uint64_t> away_;    // per way: those nodes' bits pointing away from it
  std::vector<std::uint8_t> nodes_;    // more ways: ways - 1 bytes per set
};

// The way that draw `bits` of a random stream picks among a number of `ways` that is not a power of two:
// min(floor(RandomStream::unit(bits) x ways), ways - 1).
inline std::uint32_t way_of_bits(std::uint64_t bits, std::uint32_t ways) {
  return std::min(static_cast<std::uint32_t>(RandomStream::unit(bits) * static_cast<double>(ways)), ways - 1);
}

// The random policy's victims from the draws of RandomStream(seed, stream), in order. For 2^b ways (b >= 1)
// each 64-bit draw gives floor(64 / b) victims, its b-bit fields from the lowest up (the bits left over
// unused); one way needs no draw; any other number of ways takes one draw per victim, way_of_bits of it.
// Drawn ahead in batches (the draws, Mersenne Twister steps, in one call off the miss path).
class RandomVictims {
public:
  RandomVictims(std::uint64_t seed, std::uint64_t stream, std::uint32_t ways);

  std::uint32_t next() {
    if (next_ == drawn_.size()) [[unlikely]] refill();
    return drawn_[next_++];
  }

private:
  static constexpr std::size_t batch = 256;
  void refill();

  RandomStream stream_;
  std::uint32_t ways_;
  int ways_log2_;  // -1 when ways is not a power of two
  std::size_t per_draw_ = 1;  // victims from one draw
  std::vector<std::uint64_t> draws_;
  std::vector<std::uint32_t> drawn_;
  std::size_t next_ = 0;
};

}  // namespace augur::sim::cache
