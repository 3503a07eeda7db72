// The exact simulator's random replacement rule written plainly, for tests (src/sim/cache/replacement.hpp
// has the fast one): 2^b ways (b >= 1) take floor(64 / b) fields of b bits from each 64-bit draw of
// RandomStream(seed, stream), lowest first, the bits left over unused; one way needs no draw; other numbers
// of ways one draw each, min(floor(uniform x ways), ways - 1).
#pragma once

#include <algorithm>
#include <cstdint>
#include <span>

#include "augur/sim/engine.hpp"

namespace augur::sim::cache::test {

class PlainRandomWays {
 public:
  PlainRandomWays(std::uint64_t seed, std::uint64_t stream, std::uint32_t ways) : random_(seed, stream), ways_(ways) {
    while ((std::uint64_t{1} << bits_) < ways) ++bits_;
    power_of_two_ = (std::uint64_t{1} << bits_) == ways;
  }

  std::uint32_t next() {
    if (ways_ == 1) return 0;
    if (!power_of_two_) return std::min(static_cast<std::uint32_t>(random_.uniform() * static_cast<double>(ways_)), ways_ - 1);
    if (field_ == 64 / bits_) field_ = 0;
    if (field_ == 0) random_.bits(std::span<std::uint64_t>(&draw_, 1));
    const std::uint64_t shifted = draw_ / (std::uint64_t{1} << (bits_ * field_++));
    return static_cast<std::uint32_t>(shifted % ways_);
  }

 private:
  RandomStream random_;
  std::uint32_t ways_;
  int bits_ = 0;
  bool power_of_two_ = false;
  std::uint64_t draw_ = 0;
  int field_ = 0;
};

}  // namespace augur::sim::cache::test
