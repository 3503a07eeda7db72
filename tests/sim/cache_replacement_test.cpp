// The random and tree pseudo-LRU replacement state (src/sim/cache/replacement.hpp): tree-PLRU's one word per
// set against a plain tree of one bool per node, with victims worked out by hand; random's integer way against
// the policy's rule min(floor(u x ways), ways - 1) on hand-picked draws (the rounding at the top of the
// range) and on the seeded stream, draw by draw.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <random>
#include <vector>

#include "augur/sim/engine.hpp"
#include "sim/cache/replacement.hpp"
#include "sim/plain_plru.hpp"

namespace augur::sim::cache {
namespace {

TEST(PlruTrees, VictimsWorkedOutByHand) {
  // Eight ways, one set. Touching 0..7 in order: the root last pointed away from 7 (left), node 1 away from
  // 3 (left), node 3 away from 1 (left): the victim is 0.
  PlruTrees trees(1, 8);
  EXPECT_EQ(trees.victim(0), 0U) << "an untouched tree points at way 0";
  for (std::uint32_t way = 0; way < 8; ++way) trees.touch(0, way);
  EXPECT_EQ(trees.victim(0), 0U);
  // Touch 0: the root points right; node 2 still away from 7 (left, node 5), node 5 away from 5 (left): 4.
  trees.touch(0, 0);
  EXPECT_EQ(trees.victim(0), 4U);
  // Touch 4: root left; node 1 away from 0 (right, node 4), node 4 away from 3 (left): 2.
  trees.touch(0, 4);
  EXPECT_EQ(trees.victim(0), 2U);
  // Touch 2: the root away from 2 (right); node 2 away from 4 (right, node 6), node 6 away from 7 (left): 6.
  trees.touch(0, 2);
  EXPECT_EQ(trees.victim(0), 6U);
  // Sets are independent: set 1 of a two-set level is untouched.
  PlruTrees two(2, 4);
  two.touch(0, 0);
  EXPECT_EQ(two.victim(0), 2U);
  EXPECT_EQ(two.victim(1), 0U);
  // One way: always way 0.
  PlruTrees one(3, 1);
  one.touch(2, 0);
  EXPECT_EQ(one.victim(2), 0U);
}

TEST(PlruTrees, AgreesWithAPlainTreeOnRandomTouches) {
  // Up to 64 ways the tree is a word; 128 and 512 ways keep a byte per node.
  for (const std::uint32_t ways : {1U, 2U, 4U, 8U, 16U, 32U, 64U, 128U, 512U}) {
    constexpr std::uint64_t sets = 3;
    PlruTrees trees(sets, ways);
    std::vector<PlainTree> plain(sets, PlainTree(ways));
    std::mt19937_64 generator(ways);
    for (int step = 0; step < 20000; ++step) {
      const std::uint64_t set = generator() % sets;
      // Half the touches are of the victim (a fill after an eviction), half of any way (a hit).
      const auto way = generator() % 2 == 0 ? plain[set].victim() : static_cast<std::uint32_t>(generator() % ways);
      trees.touch(set, way);
      plain[set].touch(way);
      ASSERT_EQ(trees.victim(set), plain[set].victim()) << ways << " ways, step " << step;
    }
  }
}

// The policy's rule, as the simulator had it before the ways were drawn ahead.
std::uint32_t rule(std::uint64_t bits, std::uint32_t ways) {
  return std::min(static_cast<std::uint32_t>(RandomStream::unit(bits) * static_cast<double>(ways)), ways - 1);
}

int log2_or_minus_one(std::uint32_t ways) { return std::has_single_bit(ways) ? std::countr_zero(ways) : -1; }

TEST(RandomVictims, IntegerWayOfHandPickedDraws) {
  // k = bits >> 11, the 53 bits unit() keeps; 8 ways: way = k >> 50, but k + 0.5 rounds to even above 2^52.
  const auto draw = [](std::uint64_t k) { return k << 11; };
  constexpr std::uint64_t two52 = std::uint64_t{1} << 52, two50 = std::uint64_t{1} << 50;
  EXPECT_EQ(way_of_bits(0, 8, 3), 0U);
  EXPECT_EQ(way_of_bits(draw(two50 - 1), 8, 3), 0U);            // (2^50 - 0.5) / 2^50 < 1: way 0
  EXPECT_EQ(way_of_bits(draw(two50), 8, 3), 1U);
  EXPECT_EQ(way_of_bits(draw(two52 + two50 - 2), 8, 3), 4U);    // even: stays, 4.99...: way 4
  EXPECT_EQ(way_of_bits(draw(two52 + two50 - 1), 8, 3), 5U);    // odd: k + 0.5 rounds up to 2^52 + 2^50: 5.0
  EXPECT_EQ(way_of_bits(draw(two52 - 1), 8, 3), 3U);            // below 2^52, k + 0.5 exact: 3.99...: way 3
  EXPECT_EQ(way_of_bits(~std::uint64_t{0}, 8, 3), 7U);          // rounds to 1.0: 8, capped to 7
  EXPECT_EQ(way_of_bits(~std::uint64_t{0}, 1, 0), 0U);
  EXPECT_EQ(way_of_bits(~std::uint64_t{0}, 3, -1), 2U);         // not a power of two: the double rule
  // The same draws, and the neighbours of every way's boundary for 1 to 2^20 ways, against the rule.
  std::vector<std::uint64_t> draws = {0, 1, ~std::uint64_t{0}, draw(two52 - 1), draw(two52), draw(two52 + 1)};
  for (int b = 0; b <= 20; ++b) {
    for (std::uint64_t way = 0; way <= (std::uint64_t{1} << b) && way < 64; ++way) {
      const std::uint64_t boundary = way << (53 - b);  // the first k of `way`
      for (const std::uint64_t k : {boundary - 1, boundary, boundary + 1, boundary + 2}) {
        if (k < (std::uint64_t{1} << 53)) draws.push_back(draw(k));
      }
    }
  }
  std::mt19937_64 generator(5);
  for (int i = 0; i < 20000; ++i) draws.push_back(generator());
  for (const std::uint32_t ways : {1U, 2U, 3U, 4U, 5U, 7U, 8U, 12U, 16U, 64U, 100U, 512U, 1U << 20}) {
    for (const std::uint64_t bits : draws) {
      ASSERT_EQ(way_of_bits(bits, ways, log2_or_minus_one(ways)), rule(bits, ways)) << ways << " ways, bits " << bits;
    }
  }
}

TEST(RandomVictims, FollowTheSeededStreamDrawByDraw) {
  // Past several batches, for powers of two and other counts of ways, two streams of two seeds.
  for (const std::uint32_t ways : {1U, 2U, 3U, 8U, 12U, 512U}) {
    for (const std::uint64_t seed : {1U, 42U}) {
      for (const std::uint64_t stream : {0U, 1U}) {
        RandomVictims victims(seed, stream, ways);
        RandomStream reference(seed, stream);
        for (int draw = 0; draw < 2000; ++draw) {
          const double u = reference.uniform();
          const std::uint32_t expected = std::min(static_cast<std::uint32_t>(u * static_cast<double>(ways)), ways - 1);
          ASSERT_EQ(victims.next(), expected) << ways << " ways, seed " << seed << ", draw " << draw;
        }
      }
    }
  }
}

TEST(RandomStream, BitsAreTheDrawsOfUniform) {
  RandomStream batch(7, 3), single(7, 3);
  std::vector<std::uint64_t> bits(1000);
  batch.bits(bits);
  for (const std::uint64_t value : bits) EXPECT_EQ(RandomStream::unit(value), single.uniform());
  EXPECT_EQ(batch.uniform(), single.uniform()) << "the streams stay in step after a batch";
}

}  // namespace
}  // namespace augur::sim::cache
