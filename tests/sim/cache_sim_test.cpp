// The exact cache simulator: every policy on short sequences worked out by hand (the expected hits and misses
// are written beside each), write policies, the 3C, several levels, straddling accesses, a split first level,
// and random streams against brute-force reference caches.
#include <gtest/gtest.h>

#include <span>

#include <algorithm>
#include <deque>
#include <list>
#include <random>
#include <set>
#include <unordered_map>

#include "augur/core/diagnostics.hpp"
#include "augur/sim/engine.hpp"
#include "sim/cache/cache_sim.hpp"
#include "sim/cache/line_table.hpp"

namespace augur::sim::cache {
namespace {

CacheSpec spec(const std::string& text) { return parse_cache_spec(text, "--cache"); }

Access read(std::uint64_t address, std::uint32_t size = 1) { return {address, size, AccessKind::Read}; }
Access write(std::uint64_t address, std::uint32_t size = 1) { return {address, size, AccessKind::Write}; }

// The hit (true) or miss (false) of each access on a one-level hierarchy.
std::vector<bool> hits(const std::string& level, const std::vector<Access>& accesses) {
  CacheHierarchy hierarchy({spec(level)});
  std::vector<bool> result;
  for (const Access& access : accesses) {
    const std::uint64_t misses = hierarchy.levels()[0].statistics().misses();
    hierarchy.access(access);
    result.push_back(hierarchy.levels()[0].statistics().misses() == misses);
  }
  return result;
}

constexpr bool H = true;
constexpr bool M = false;

// Lines A, B, C, D, E of 16 bytes, all in set 0 of a one-set cache.
constexpr std::uint64_t A = 0x00, B = 0x10, C = 0x20, D = 0x30, E = 0x40;

TEST(CacheSim, LruOnTwoWays) {
  // A miss, B miss, A hit, C miss (evicts B, the least recently used), B miss (evicts A).
  EXPECT_EQ(hits("c:size=32,assoc=2,line=16,policy=lru", {read(A), read(B), read(A), read(C), read(B)}),
            (std::vector<bool>{M, M, H, M, M}));
}

TEST(CacheSim, FifoOnTwoWays) {
  // A miss, B miss, A hit (FIFO order unchanged), C miss (evicts A, the oldest), B hit.
  EXPECT_EQ(hits("c:size=32,assoc=2,line=16,policy=fifo", {read(A), read(B), read(A), read(C), read(B)}),
            (std::vector<bool>{M, M, H, M, H}));
}

TEST(CacheSim, TreePseudoLruOnFourWays) {
  // Ways 0-3 filled by A B C D; the tree's bits point away from the last touch. A hit (way 0): root -> right,
  // left node -> way 1. E: root right, right node -> way 2: evicts C. C: root -> left, left node -> way 1:
  // evicts B. D hit, A hit. B: root -> right, right node -> way 2 (E): miss, evicts E.
  EXPECT_EQ(hits("c:size=64,assoc=4,line=16,policy=plru",
                 {read(A), read(B), read(C), read(D), read(A), read(E), read(C), read(D), read(A), read(B)}),
            (std::vector<bool>{M, M, M, M, H, M, M, H, H, M}));
  // True LRU on the same sequence: E evicts B, so C hits; B then misses (evicts E).
  EXPECT_EQ(hits("c:size=64,assoc=4,line=16,policy=lru",
                 {read(A), read(B), read(C), read(D), read(A), read(E), read(C), read(D), read(A), read(B)}),
            (std::vector<bool>{M, M, M, M, H, M, H, H, H, M}));
}

TEST(CacheSim, RandomFollowsItsSeededStream) {
  // Two ways: A, B fill; C replaces the way of the lowest bit of the first draw of the stream (seed, 0)
  // (2^b ways: b-bit fields of each draw, lowest first); A then hits iff C replaced B (way 1).
  const auto first_bit = [](std::uint64_t seed, std::uint64_t stream) {
    RandomStream random(seed, stream);
    std::uint64_t draw = 0;
    random.bits(std::span<std::uint64_t>(&draw, 1));
    return (draw & 1) == 1;
  };
  for (std::uint64_t seed = 1; seed <= 8; ++seed) {
    const bool replaced_b = first_bit(seed, 0);
    const auto result = hits("c:size=32,assoc=2,line=16,policy=random,seed=" + std::to_string(seed), {read(A), read(B), read(C), read(A)});
    EXPECT_EQ(result, (std::vector<bool>{M, M, M, replaced_b})) << "seed " << seed;
  }
  // A random level second in the hierarchy draws from stream 1 of its seed.
  for (std::uint64_t seed = 1; seed <= 8; ++seed) {
    const bool replaced_b = first_bit(seed, 1);
    CacheHierarchy hierarchy({spec("l1:size=16,assoc=1,line=16"), spec("l2:size=32,assoc=2,line=16,policy=random,seed=" + std::to_string(seed))});
    for (const std::uint64_t address : {A, B, C, A}) hierarchy.access(read(address));  // each misses l1: l2 sees A B C A
    EXPECT_EQ(hierarchy.levels()[1].statistics().misses(), replaced_b ? 3U : 4U) << "seed " << seed;
  }
  // Direct mapped: no choice, random is LRU.
  EXPECT_EQ(hits("c:size=32,assoc=1,line=16,policy=random", {read(A), read(C), read(A), read(B), read(B)}),
            (std::vector<bool>{M, M, M, M, H}));
}

TEST(CacheSim, WriteBackCountsDirtyEvictions) {
  // One line. Write A (miss, dirty), read B (evicts dirty A: writeback), read A (evicts clean B: none).
  CacheHierarchy hierarchy({spec("l1:size=16,assoc=1,line=16"), spec("l2:size=64,assoc=4,line=16")});
  for (const Access& access : {write(A), read(B), read(A)}) hierarchy.access(access);
  const LevelStatistics& l1 = hierarchy.levels()[0].statistics();
  const LevelStatistics& l2 = hierarchy.levels()[1].statistics();
  EXPECT_EQ(l1.write_misses, 1U);
  EXPECT_EQ(l1.read_misses, 2U);
  EXPECT_EQ(l1.writebacks, 1U);
  // L2 sees: fetch A, fetch B, writeback A (a write hit), fetch A (hit).
  EXPECT_EQ(l2.accesses, 4U);
  EXPECT_EQ(l2.writes, 1U);
  EXPECT_EQ(l2.misses(), 2U);
}

TEST(CacheSim, WriteThroughSendsEveryWrite) {
  CacheHierarchy hierarchy({spec("l1:size=16,assoc=1,line=16,write=through"), spec("l2:size=64,assoc=4,line=16")});
  // Write A (miss: fetch A, then the write goes on), write A (hit: goes on), read B (evicts A: no writeback).
  for (const Access& access : {write(A), write(A + 4, 4), read(B)}) hierarchy.access(access);
  EXPECT_EQ(hierarchy.levels()[0].statistics().writebacks, 0U);
  const LevelStatistics& l2 = hierarchy.levels()[1].statistics();
  EXPECT_EQ(l2.accesses, 4U);  // fetch A, write A, write A, fetch B
  EXPECT_EQ(l2.writes, 2U);
  EXPECT_EQ(l2.misses(), 2U);  // A and B, first touches
}

TEST(CacheSim, NoWriteAllocate) {
  CacheHierarchy hierarchy({spec("l1:size=32,assoc=2,line=16,alloc=no"), spec("l2:size=64,assoc=4,line=16")});
  // Write A: miss, not brought in, the write goes on. Read A: miss (fetch). Write A: hit, dirty. Read B, read C:
  // C evicts dirty A (LRU): one writeback.
  for (const Access& access : {write(A), read(A), write(A), read(B), read(C)}) hierarchy.access(access);
  const LevelStatistics& l1 = hierarchy.levels()[0].statistics();
  EXPECT_EQ(l1.write_misses, 1U);
  EXPECT_EQ(l1.read_misses, 3U);
  EXPECT_EQ(l1.writebacks, 1U);
  const LevelStatistics& l2 = hierarchy.levels()[1].statistics();
  EXPECT_EQ(l2.accesses, 5U);  // write A, fetch A, fetch B, fetch C, writeback A
  EXPECT_EQ(l2.writes, 2U);
}

TEST(CacheSim, ThreeCsOnHandCases) {
  // Direct mapped, two sets of 16 bytes: lines 0 and 2 share set 0. 0, 2: compulsory. 0, 2 again: a fully
  // associative LRU of two lines would hit both: conflict.
  CacheHierarchy conflict({spec("c:size=32,assoc=1,line=16")});
  for (std::uint64_t line : {0, 2, 0, 2}) conflict.access(read(line * 16));
  EXPECT_EQ(conflict.levels()[0].statistics().compulsory, 2U);
  EXPECT_EQ(conflict.levels()[0].statistics().conflict, 2U);
  EXPECT_EQ(conflict.levels()[0].statistics().capacity, 0U);
  // Lines 0, 1, 2, 0: 2 evicts 0 from set 0; the fully associative LRU of two lines also lost 0 (to 2): capacity.
  CacheHierarchy capacity({spec("c:size=32,assoc=1,line=16")});
  for (std::uint64_t line : {0, 1, 2, 0}) capacity.access(read(line * 16));
  EXPECT_EQ(capacity.levels()[0].statistics().compulsory, 3U);
  EXPECT_EQ(capacity.levels()[0].statistics().capacity, 1U);
  EXPECT_EQ(capacity.levels()[0].statistics().conflict, 0U);
  // Without classification the counts stay 0 and the misses are the same.
  CacheHierarchy unclassified({spec("c:size=32,assoc=1,line=16")}, false);
  for (std::uint64_t line : {0, 1, 2, 0}) unclassified.access(read(line * 16));
  EXPECT_EQ(unclassified.levels()[0].statistics().misses(), 4U);
  EXPECT_EQ(unclassified.levels()[0].statistics().compulsory, 0U);
}

TEST(CacheSim, StraddlingAccessesTouchEachLine) {
  CacheHierarchy hierarchy({spec("c:size=256,assoc=4,line=16")});
  hierarchy.access(read(0x0e, 4));   // bytes 0x0e..0x11: lines 0 and 1, two misses
  hierarchy.access(read(0x08, 40));  // bytes 0x08..0x2f: lines 0, 1 (hits), 2 (miss)
  hierarchy.access(read(0x20, 16));  // line 2 only: hit
  const LevelStatistics& s = hierarchy.levels()[0].statistics();
  EXPECT_EQ(hierarchy.accesses(), 3U);
  EXPECT_EQ(s.accesses, 6U);
  EXPECT_EQ(s.misses(), 3U);
  // The last byte of the address space does not wrap around.
  hierarchy.access(read(0xffffffffffffffffULL, 8));
  EXPECT_EQ(hierarchy.levels()[0].statistics().accesses, 7U);
}

TEST(CacheSim, LowerLevelsSeeFetchesOfTheirLineSize) {
  // L1 lines of 32 bytes over L2 lines of 16: each L1 fetch is two L2 line accesses.
  CacheHierarchy hierarchy({spec("l1:size=64,assoc=2,line=32"), spec("l2:size=256,assoc=4,line=16")});
  hierarchy.access(read(0x00));  // L1 miss: L2 lines 0 and 1 (two misses)
  hierarchy.access(read(0x10));  // L1 hit
  hierarchy.access(read(0x40));  // L1 miss: L2 lines 4, 5
  EXPECT_EQ(hierarchy.levels()[0].statistics().misses(), 2U);
  EXPECT_EQ(hierarchy.levels()[1].statistics().accesses, 4U);
  EXPECT_EQ(hierarchy.levels()[1].statistics().misses(), 4U);
}

TEST(CacheSim, SplitFirstLevel) {
  CacheHierarchy hierarchy({spec("l1i:size=32,assoc=2,line=16"), spec("l1d:size=32,assoc=2,line=16"), spec("l2:size=256,assoc=4,line=16")});
  hierarchy.access({0x100, 4, AccessKind::Instruction});  // l1i miss -> l2 miss
  hierarchy.access(read(0x100));                           // l1d miss -> l2 hit
  hierarchy.access({0x104, 4, AccessKind::Instruction});  // l1i hit
  hierarchy.access(write(0x200));                          // l1d miss -> l2 miss
  const auto& levels = hierarchy.levels();
  EXPECT_EQ(levels[0].statistics().accesses, 2U);
  EXPECT_EQ(levels[0].statistics().misses(), 1U);
  EXPECT_EQ(levels[1].statistics().accesses, 2U);
  EXPECT_EQ(levels[1].statistics().misses(), 2U);
  EXPECT_EQ(levels[2].statistics().accesses, 3U);
  EXPECT_EQ(levels[2].statistics().misses(), 2U);
}

TEST(CacheSim, HierarchyErrors) {
  const auto error_of = [](const std::vector<std::string>& texts) {
    std::vector<CacheSpec> levels;
    for (const auto& text : texts) levels.push_back(spec(text));
    try {
      check_hierarchy(levels, "--cache");
    } catch (const core::InputError& error) {
      return std::string(error.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(error_of({}), "--cache: no cache level (give --cache NAME:size=... or --machine)");
  EXPECT_EQ(error_of({"l1:size=1K", "l1:size=2K"}), "--cache: two levels named 'l1'");
  EXPECT_EQ(error_of({"l1i:size=1K", "l2:size=2K"}), "--cache: l1i needs l1d: give them together as the first two levels (a split first level)");
  EXPECT_EQ(error_of({"l1d:size=1K", "l1i:size=1K", "l2:size=4K"}), "no error");
}

// Brute-force references: per set, a list of lines in recency (LRU) or arrival (FIFO) order.
std::uint64_t reference_misses(const std::vector<std::uint64_t>& lines, std::uint64_t sets, std::uint64_t ways, bool lru) {
  std::vector<std::deque<std::uint64_t>> content(sets);
  std::uint64_t misses = 0;
  for (const std::uint64_t line : lines) {
    auto& set = content[line % sets];
    const auto found = std::find(set.begin(), set.end(), line);
    if (found != set.end()) {
      if (lru) {
        set.erase(found);
        set.push_front(line);
      }
      continue;
    }
    ++misses;
    if (set.size() == ways) set.pop_back();
    set.push_front(line);
  }
  return misses;
}

TEST(CacheSim, MatchesBruteForceLruAndFifo) {
  std::mt19937_64 generator(17);
  std::vector<std::uint64_t> lines(20000);
  for (auto& line : lines) line = generator() % 300 + (generator() % 4 == 0 ? generator() % 5000 : 0);
  for (const char* policy : {"lru", "fifo"}) {
    for (const std::uint64_t ways : {1, 2, 4, 8, 64, 128}) {  // 64 and 128 ways: found through the hash index
      const std::uint64_t sets = ways >= 64 ? 1 : 16;
      const std::string text = "c:size=" + std::to_string(sets * ways * 16) + ",assoc=" + std::to_string(ways) + ",line=16,policy=" + policy;
      CacheHierarchy hierarchy({spec(text)});
      for (const std::uint64_t line : lines) hierarchy.access(read(line * 16));
      const LevelStatistics& s = hierarchy.levels()[0].statistics();
      EXPECT_EQ(s.misses(), reference_misses(lines, sets, ways, std::string(policy) == "lru")) << text;
      EXPECT_EQ(s.compulsory + s.capacity + s.conflict, s.misses()) << text;
      if (sets == 1 && std::string(policy) == "lru") {
        EXPECT_EQ(s.conflict, 0U) << "a fully associative LRU cache has no conflict misses";
      }
    }
  }
}

// The 3C of every policy against brute force: compulsory = a line's first access; capacity = a miss that a
// fully associative LRU list of the level's lines (allocating as the level does) misses too; conflict = the
// rest. Writes that do not allocate make the reference cache skip lines too.
TEST(CacheSim, ThreeCsMatchBruteForce) {
  std::mt19937_64 generator(23);
  std::vector<Access> accesses(20000);
  for (Access& access : accesses) {
    const std::uint64_t line = generator() % 200 + (generator() % 5 == 0 ? generator() % 3000 : 0);
    access = generator() % 4 == 0 ? write(line * 16) : read(line * 16);
  }
  for (const char* policy : {"lru", "fifo", "random", "plru"}) {
    for (const char* shape : {"size=256,assoc=2", "size=512,assoc=8", "size=1024,assoc=64", "size=512,assoc=full"}) {
      for (const char* allocate : {"yes", "no"}) {
        const std::string text = std::string("c:") + shape + ",line=16,policy=" + policy + ",alloc=" + allocate;
        const CacheSpec level = spec(text);
        CacheHierarchy hierarchy({level});
        std::list<std::uint64_t> recency;  // the reference cache, most recent first
        std::set<std::uint64_t> touched;
        LevelStatistics expected;
        for (const Access& access : accesses) {
          const std::uint64_t misses = hierarchy.levels()[0].statistics().misses();
          hierarchy.access(access);
          const std::uint64_t line = access.address / 16;
          const auto found = std::find(recency.begin(), recency.end(), line);
          const bool reference_hit = found != recency.end();
          if (reference_hit) recency.erase(found);
          if (reference_hit || access.kind != AccessKind::Write || level.allocate) recency.push_front(line);
          if (recency.size() > level.lines()) recency.pop_back();
          const bool first = touched.insert(line).second;
          if (hierarchy.levels()[0].statistics().misses() == misses) continue;
          ++(first ? expected.compulsory : reference_hit ? expected.conflict : expected.capacity);
        }
        const LevelStatistics& s = hierarchy.levels()[0].statistics();
        EXPECT_EQ(s.compulsory, expected.compulsory) << text;
        EXPECT_EQ(s.capacity, expected.capacity) << text;
        EXPECT_EQ(s.conflict, expected.conflict) << text;
      }
    }
  }
}

TEST(LineTable, AgreesWithAStandardMap) {
  LineTable table(4);
  std::unordered_map<std::uint64_t, std::uint32_t> reference;
  std::mt19937_64 generator(3);
  for (int step = 0; step < 200000; ++step) {
    const std::uint64_t key = generator() % 512;
    const auto operation = generator() % 3;
    if (operation == 0 && !reference.contains(key)) {
      table.insert(key, static_cast<std::uint32_t>(step));
      reference[key] = static_cast<std::uint32_t>(step);
    } else if (operation == 1) {
      table.erase(key);
      reference.erase(key);
    }
    const auto found = reference.find(key);
    ASSERT_EQ(table.find(key), found == reference.end() ? LineTable::absent : found->second) << "step " << step;
    ASSERT_EQ(table.size(), reference.size());
  }
}

TEST(LineSet, AgreesWithAStandardSet) {
  LineSet set;
  std::unordered_map<std::uint64_t, bool> reference;
  std::mt19937_64 generator(9);
  for (int step = 0; step < 100000; ++step) {
    // Near lines (one page), far lines (many pages) and the extremes of the range.
    const std::uint64_t line = step % 3 == 0 ? generator() % 5000 : step % 3 == 1 ? generator() % 100000000 : ~std::uint64_t{0} - generator() % 3;
    ASSERT_EQ(set.insert(line), reference.emplace(line, true).second) << "step " << step;
  }
  EXPECT_EQ(set.size(), reference.size());
}

}  // namespace
}  // namespace augur::sim::cache
