#include "sim/cache/replacement.hpp"

#include <algorithm>
#include <bit>
#include <cassert>
#include <span>

namespace augur::sim::cache {

PlruTrees::PlruTrees(std::uint64_t sets, std::uint32_t ways)
    : ways_(ways), depth_(std::countr_zero(ways)) {
  assert(std::has_single_bit(ways) && "PlruTrees: a power-of-two associativity (parse_cache_spec checks it)");
  if (ways_ > word_ways) {
    nodes_.assign(static_cast<std::size_t>(sets) * (ways_ - 1), 0);
    return;
  }
  words_.assign(static_cast<std::size_t>(sets), 0);
  path_.assign(ways_, 0);
  away_.assign(ways_, 0);
  for (std::uint32_t way = 0; way < ways_; ++way) {
    std::uint32_t node = 0;
    for (std::uint32_t span = ways_; span > 1; span /= 2) {
      const std::uint32_t right = (way & (span - 1)) >= span / 2 ? 1 : 0;  // the way's side of the node
      path_[way] |= std::uint64_t{1} << node;
      if (right == 0) away_[way] |= std::uint64_t{1} << node;  // the way on the left: the victim goes right
      node = 2 * node + 1 + right;
    }
  }
}

void PlruTrees::touch_nodes(std::uint64_t set, std::uint32_t way) {
  std::uint8_t* bits = nodes_.data() + static_cast<std::size_t>(set) * (ways_ - 1);
  std::uint32_t node = 0;
  for (std::uint32_t span = ways_; span > 1; span /= 2) {
    const std::uint32_t right = (way & (span - 1)) >= span / 2 ? 1 : 0;
    bits[node] = static_cast<std::uint8_t>(1 - right);
    node = 2 * node + 1 + right;
  }
}

std::uint32_t PlruTrees::victim_of_nodes(std::uint64_t set) const {
  const std::uint8_t* bits = nodes_.data() + static_cast<std::size_t>(set) * (ways_ - 1);
  std::uint32_t node = 0;
  for (int level = 0; level < depth_; ++level) node = 2 * node + 1 + bits[node];
  return node - (ways_ - 1);
}

RandomVictims::RandomVictims(std::uint64_t seed, std::uint64_t stream, std::uint32_t ways)
    : stream_(seed, stream), ways_(ways), ways_log2_(std::has_single_bit(ways) ? std::countr_zero(ways) : -1) {
  // 2^b ways (b >= 1): floor(64 / b) ways from each draw, every draw used whole; one way: no draw; other
  // numbers of ways: a draw per way.
  per_draw_ = ways_log2_ > 0 ? static_cast<std::size_t>(64 / ways_log2_) : 1;
  draws_.resize(ways_log2_ > 0 ? 32 : ways_log2_ == 0 ? 0 : batch);
  drawn_.resize(ways_log2_ == 0 ? batch : draws_.size() * per_draw_);
  next_ = drawn_.size();  // drawn at the first miss of a full set
}

void RandomVictims::refill() {
  stream_.bits(draws_);
  // Locals: the stores to drawn_ could otherwise alias the members read per draw. The branch on the kind
  // of ways hoisted out of the loops.
  const std::uint32_t ways = ways_;
  const int ways_log2 = ways_log2_;
  const std::size_t per_draw = per_draw_;
  const std::uint64_t* draws = draws_.data();
  std::uint32_t* drawn = drawn_.data();
  if (ways_log2 == 0) {
    std::fill(drawn_.begin(), drawn_.end(), 0u);
  } else if (ways_log2 > 0) {
    // 2^b ways: each draw's 64 bits are floor(64 / b) ways of b bits, the lowest first.
    const std::uint64_t mask = ways - 1;
    for (std::size_t draw = 0; draw < draws_.size(); ++draw) {
      std::uint64_t bits = draws[draw];
      for (std::size_t chunk = 0; chunk < per_draw; ++chunk, bits >>= ways_log2) *drawn++ = static_cast<std::uint32_t>(bits & mask);
    }
  } else {
    for (std::size_t draw = 0; draw < draws_.size(); ++draw) drawn[draw] = way_of_bits(draws[draw], ways);
  }
  next_ = 0;
}

}  // namespace augur::sim::cache
