// The random and tree pseudo-LRU replacement state (src/sim/cache/replacement.hpp): tree-PLRU's one word per
// set against a plain tree of one bool per node, with victims worked out by hand; random's integer way against
// the policy's rule min(floor(u x ways), ways - 1) on hand-picked draws (the rounding at the top of the
// range) and on the seeded stream, draw by draw.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <random>
#include <span>
#include <vector>

#include "augur/sim/engine.hpp"
#include "sim/cache/replacement.hpp"
#include "sim/plain_plru.hpp"
#include "sim/plain_random.hpp"

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

TEST(RandomVictims, EightWaysTakeTwentyOneFieldsOfADraw) {
  // 8 ways: the first draw of RandomStream(1, 0), its 3-bit fields from the lowest: 21 victims, then the
  // next draw's.
  RandomStream random(1, 0);
  std::uint64_t draws[2];
  random.bits(draws);
  RandomVictims victims(1, 0, 8);
  for (int field = 0; field < 21; ++field) EXPECT_EQ(victims.next(), (draws[0] >> (3 * field)) & 7) << field;
  EXPECT_EQ(victims.next(), draws[1] & 7) << "the top bit of the first draw is left over";
  // Not a power of two: one draw per victim, scaled.
  EXPECT_EQ(way_of_bits(~std::uint64_t{0}, 3), 2U);
  EXPECT_EQ(way_of_bits(0, 3), 0U);
  EXPECT_EQ(way_of_bits(std::uint64_t{1} << 63, 3), 1U);  // 0.5 x 3 = 1.5
}

TEST(RandomVictims, FollowTheSeededStreamAsThePlainRuleSays) {
  // Past several batches, for powers of two and other counts of ways, two streams of two seeds.
  for (const std::uint32_t ways : {1U, 2U, 3U, 8U, 12U, 64U, 512U, 1U << 20}) {
    for (const std::uint64_t seed : {1U, 42U}) {
      for (const std::uint64_t stream : {0U, 1U}) {
        RandomVictims victims(seed, stream, ways);
        test::PlainRandomWays expected(seed, stream, ways);
        for (int draw = 0; draw < 5000; ++draw) {
          ASSERT_EQ(victims.next(), expected.next()) << ways << " ways, seed " << seed << ", victim " << draw;
        }
      }
    }
  }
}

TEST(RandomVictims, EveryWayAsOften) {
  // 8 ways, 80 000 victims: each way 10 000 times within 4 standard deviations (sqrt(80 000 x 1/8 x 7/8) = 93.5).
  RandomVictims victims(3, 0, 8);
  std::vector<int> counts(8, 0);
  for (int draw = 0; draw < 80000; ++draw) ++counts[victims.next()];
  for (const int count : counts) EXPECT_NEAR(count, 10000, 374);
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
