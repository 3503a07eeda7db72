// The 3C classification's reference cache (a fully associative LRU of the level's capacity, kept as stamps:
// src/sim/cache/lru_reference.hpp) against brute force: a plain list in recency order, on random traces of
// several sizes, localities, associativities and policies, with every count of the level compared.
#include <gtest/gtest.h>

#include <algorithm>
#include <deque>
#include <list>
#include <random>
#include <set>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "sim/cache/cache_sim.hpp"
#include "sim/cache/lru_reference.hpp"
#include "sim/plain_plru.hpp"
#include "sim/plain_random.hpp"
#include "augur/sim/engine.hpp"

namespace augur::sim::cache {
namespace {

struct LineAccess {
  std::uint64_t line = 0;
  bool write = false;
};

// Traces of `count` line accesses in the working sets of a cache of `capacity` lines, a quarter writes:
// 0 uniform over half the capacity (everything fits), 1 uniform over twice the capacity, 2 a hot set of half
// the capacity with a fifth of the accesses far (over twenty times the capacity), 3 phases: one line, then a
// long loop over capacity - 1 others (the first line stays the reference's oldest for 40 capacities of
// accesses: its stamps are renumbered), then the next phase's lines.
std::vector<LineAccess> trace(int pattern, std::uint64_t capacity, std::size_t count, std::uint64_t seed) {
  std::mt19937_64 generator(seed);
  std::vector<LineAccess> accesses;
  accesses.reserve(count);
  const auto draw = [&generator](std::uint64_t range) { return range == 0 ? 0 : generator() % range; };
  std::uint64_t phase_base = 0;
  while (accesses.size() < count) {
    const bool write = draw(4) == 0;
    switch (pattern) {
      case 0: accesses.push_back({draw(std::max<std::uint64_t>(capacity / 2, 1)), write}); break;
      case 1: accesses.push_back({draw(2 * capacity), write}); break;
      case 2: accesses.push_back({draw(5) == 0 ? 1000 + draw(20 * capacity) : draw(capacity / 2 + 1), write}); break;
      default: {
        accesses.push_back({phase_base, write});
        for (std::uint64_t step = 0; step < 40 * capacity && accesses.size() < count; ++step) {
          accesses.push_back({phase_base + 1 + draw(capacity - 1 == 0 ? 1 : capacity - 1), draw(4) == 0});
        }
        phase_base += capacity + draw(3);  // the next phase overlaps this one by a line or two, or not
      }
    }
  }
  accesses.resize(count);
  return accesses;
}

// A fully associative LRU cache of `capacity` lines as a plain list, most recent first. A miss inserts the
// line only when it `allocates`.
class BruteForceLru {
public:
  explicit BruteForceLru(std::uint64_t capacity) : capacity_(capacity) {}
  bool access(std::uint64_t line, bool allocates) {
    const auto found = std::find(recency_.begin(), recency_.end(), line);
    const bool hit = found != recency_.end();
    if (hit) recency_.erase(found);
    if (hit || allocates) recency_.push_front(line);
    if (recency_.size() > capacity_) recency_.pop_back();
    return hit;
  }

private:
  std::uint64_t capacity_;
  std::list<std::uint64_t> recency_;
};

// The reference alone, beside a direct-mapped cache of `slots` slots (sets of one way) driven as CacheLevel
// drives it: hit() when the slot holds the line, else lookup() and fill() (or bypass() for a write without
// allocation).
TEST(LruReference, AnswersAsAFullyAssociativeLruList) {
  std::uint64_t renumberings = 0;
  std::uint64_t overflows = 0;
  std::uint64_t purges = 0;
  for (const std::uint64_t capacity : {1, 2, 3, 4, 7, 16, 64}) {
    for (const std::uint64_t slots : {std::uint64_t{1}, std::uint64_t{4}, capacity, 4 * capacity}) {
      for (int pattern = 0; pattern < 4; ++pattern) {
        for (const bool allocate_writes : {true, false}) {
          LruReference reference(capacity, slots, 1);
          BruteForceLru brute_force(capacity);
          std::vector<std::uint64_t> tags(slots, ~std::uint64_t{0});
          const auto accesses = trace(pattern, capacity, 20000, capacity * 131 + slots * 7 + static_cast<std::uint64_t>(pattern));
          for (std::size_t i = 0; i < accesses.size(); ++i) {
            const auto [line, write] = accesses[i];
            const bool allocates = !write || allocate_writes;
            const std::size_t slot = static_cast<std::size_t>(line % slots);
            bool held = false;
            if (tags[slot] == line) {
              held = reference.hit(slot, allocates);
            } else {
              const std::uint64_t stamp = reference.lookup(slot, line);
              held = reference.holds(stamp);
              if (allocates) {
                reference.fill(slot, slot, line, stamp, tags[slot] != ~std::uint64_t{0}, tags[slot]);
                tags[slot] = line;
              } else {
                reference.bypass(line, stamp);
              }
            }
            ASSERT_EQ(held, brute_force.access(line, allocates))
                << "capacity " << capacity << ", slots " << slots << ", pattern " << pattern << ", access " << i;
          }
          renumberings += reference.renumberings();
          overflows += reference.overflows();
          purges += reference.purges();
        }
      }
    }
  }
  EXPECT_GT(renumberings, 0U) << "the traces must renumber the stamps";
  EXPECT_GT(overflows, 0U) << "the traces must overflow the kept entries";
  EXPECT_GT(purges, 0U) << "the traces must purge the map";
}

// A set-associative cache as lists, with dirty bits: LRU and FIFO in recency or arrival order (most recent or
// newest first); random and tree-PLRU by way (ways filled in order), the victim of a full set drawn as the
// policy's rule says from RandomStream(seed, 0) (plain_random.hpp), or found in a plain tree of bools per set.
struct BruteForceLevel {
  explicit BruteForceLevel(const CacheSpec& spec)
      : ways(spec.assoc), policy(spec.policy), write_back(spec.write == WritePolicy::Back),
        allocate(spec.allocate), content(spec.sets()), trees(spec.sets(), PlainTree(static_cast<std::uint32_t>(spec.assoc))),
        random(spec.seed, 0, static_cast<std::uint32_t>(spec.assoc)) {}

  std::uint64_t ways;
  ReplacementPolicy policy;
  bool write_back, allocate;
  std::vector<std::deque<std::pair<std::uint64_t, bool>>> content;  // per set: (line, dirty)
  std::vector<PlainTree> trees;
  test::PlainRandomWays random;
  LevelStatistics counts;

  bool access(std::uint64_t line, bool write) {  // true on a hit
    ++counts.accesses;
    ++(write ? counts.writes : counts.reads);
    const std::uint64_t set_index = line % content.size();
    auto& set = content[set_index];
    const auto found = std::find_if(set.begin(), set.end(), [line](const auto& entry) { return entry.first == line; });
    if (found != set.end()) {
      const bool dirty = found->second || (write && write_back);
      if (policy == ReplacementPolicy::Lru) {
        set.erase(found);
        set.push_front({line, dirty});
      } else {
        found->second = dirty;
      }
      if (policy == ReplacementPolicy::Plru) trees[set_index].touch(static_cast<std::uint32_t>(found - set.begin()));
      return true;
    }
    ++(write ? counts.write_misses : counts.read_misses);
    if (write && !allocate) return false;
    const std::pair<std::uint64_t, bool> entry{line, write && write_back};
    if (policy == ReplacementPolicy::Lru || policy == ReplacementPolicy::Fifo) {
      if (set.size() == ways) {
        if (set.back().second) ++counts.writebacks;
        set.pop_back();
      }
      set.push_front(entry);
      return false;
    }
    auto way = static_cast<std::uint32_t>(set.size());
    if (set.size() < ways) {
      set.push_back(entry);
    } else {
      way = policy == ReplacementPolicy::Plru ? trees[set_index].victim()
                                              : random.next();
      if (set[way].second) ++counts.writebacks;
      set[way] = entry;
    }
    if (policy == ReplacementPolicy::Plru) trees[set_index].touch(way);
    return false;
  }
};

// A trace in memory as a source, served in batches of up to 1000 (run()'s loop, with the first level's policy
// a constant, rather than access()'s).
class VectorSource final : public AccessSource {
public:
  explicit VectorSource(std::vector<Access> accesses) : accesses_(std::move(accesses)) {}
  std::size_t read(std::span<Access> buffer) override {
    const std::size_t count = std::min({buffer.size(), accesses_.size() - next_, std::size_t{1000}});
    std::copy_n(accesses_.begin() + static_cast<std::ptrdiff_t>(next_), count, buffer.begin());
    next_ += count;
    return count;
  }

private:
  std::vector<Access> accesses_;
  std::size_t next_ = 0;
};

void expect_equal(const LevelStatistics& found, const LevelStatistics& expected, const std::string& what) {
  EXPECT_EQ(found.accesses, expected.accesses) << what;
  EXPECT_EQ(found.reads, expected.reads) << what;
  EXPECT_EQ(found.writes, expected.writes) << what;
  EXPECT_EQ(found.read_misses, expected.read_misses) << what;
  EXPECT_EQ(found.write_misses, expected.write_misses) << what;
  EXPECT_EQ(found.compulsory, expected.compulsory) << what;
  EXPECT_EQ(found.capacity, expected.capacity) << what;
  EXPECT_EQ(found.conflict, expected.conflict) << what;
  EXPECT_EQ(found.writebacks, expected.writebacks) << what;
}

// One level of `lines` lines and `ways` ways (0: fully associative) on one trace: its 3C against the list
// reference (compulsory: a line's first access; capacity: a miss the list misses too; conflict: the rest);
// every count against the brute-force level as well.
void check_level(std::uint64_t lines, std::uint64_t ways, const char* policy, const char* write, bool allocate,
                 const std::vector<LineAccess>& accesses) {
  const std::string text = "c:size=" + std::to_string(lines * 16) + ",assoc=" + (ways == 0 ? std::string("full") : std::to_string(ways)) +
                           ",line=16,policy=" + policy + ",write=" + write + ",alloc=" + (allocate ? "yes" : "no");
  const CacheSpec level = parse_cache_spec(text, "--cache");
  CacheHierarchy hierarchy({level});
  BruteForceLevel brute_force(level);
  BruteForceLru reference(lines);
  std::set<std::uint64_t> touched;
  LevelStatistics expected;
  std::vector<Access> records;
  for (const auto& [line, is_write] : accesses) {
    records.push_back(Access{line * 16, 4, is_write ? AccessKind::Write : AccessKind::Read});
    const std::uint64_t misses = hierarchy.levels()[0].statistics().misses();
    hierarchy.access(records.back());
    const bool hit = hierarchy.levels()[0].statistics().misses() == misses;
    const bool expected_hit = brute_force.access(line, is_write);
    EXPECT_EQ(hit, expected_hit) << text;
    const bool reference_hit = reference.access(line, !is_write || allocate);
    const bool first = touched.insert(line).second;
    if (!hit) ++(first ? expected.compulsory : reference_hit ? expected.conflict : expected.capacity);
  }
  const LevelStatistics& found = hierarchy.levels()[0].statistics();
  expected.accesses = brute_force.counts.accesses;
  expected.reads = brute_force.counts.reads;
  expected.writes = brute_force.counts.writes;
  expected.read_misses = brute_force.counts.read_misses;
  expected.write_misses = brute_force.counts.write_misses;
  expected.writebacks = brute_force.counts.writebacks;
  expect_equal(found, expected, text);
  EXPECT_EQ(found.compulsory + found.capacity + found.conflict, found.misses()) << text;
  CacheHierarchy batched({level});
  VectorSource source(std::move(records));
  batched.run(source);
  expect_equal(batched.levels()[0].statistics(), expected, text + " (run)");
}

TEST(CacheSim, ThreeCsOfEveryCountMatchBruteForceOverSizesAndWays) {
  for (const std::uint64_t lines : {1, 4, 16, 64, 256}) {
    for (int pattern = 0; pattern < 4; ++pattern) {
      const auto accesses = trace(pattern, lines, lines >= 256 ? 6000 : 20000, lines * 17 + static_cast<std::uint64_t>(pattern));
      for (const std::uint64_t ways : {1, 2, 4, 8, 16, 64, 0}) {  // 64 ways: found through the hash index; 0: full
        if (ways > lines) continue;
        for (const char* policy : {"lru", "fifo", "random", "plru"}) {
          check_level(lines, ways, policy, "back", true, accesses);
          if (lines == 16 || lines == 64) {
            check_level(lines, ways, policy, "back", false, accesses);
            check_level(lines, ways, policy, "through", false, accesses);
          }
        }
      }
    }
  }
}

}  // namespace
}  // namespace augur::sim::cache
