// Mattson's LRU stack distances in one pass over a trace (Mattson, Gecsei, Slutz and Traiger, "Evaluation
// techniques for storage hierarchies", IBM Systems Journal 9(2), 1970), and from them the miss rate of every
// fully associative LRU cache size, or of every associativity for a fixed number of sets (issue 17, part 2;
// docs/cache.md, "Miss-rate curves").
//
// The stack distance of a reference to line x is the number of distinct other lines referenced since the
// previous reference to x (infinite, a cold miss, on the first). An LRU set of A lines holds x exactly when
// that distance is below A, so one histogram of distances gives every size at once.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "sim/cache/access.hpp"
#include "sim/cache/line_map.hpp"

namespace augur::sim::cache {

// The stack of one LRU set. Every reference gets a timestamp; a timestamp is live while it is the latest
// reference of its line and dead after, and the stack distance of a reference is the number of live
// timestamps after its line's latest (one per distinct line referenced since). A bottom-up segment tree over
// the timestamps counts the dead ones: marking a timestamp dead and counting the dead ones after it walk the
// same path from its leaf to the root, one loop of log2(n) steps whose two reads per level share a cache line
// near the leaves. An open-addressing hash table gives each line's latest timestamp. When the timestamps run
// out, the live ones are renumbered 0..lines-1 in order and the window becomes four times the number of lines,
// so memory follows the number of distinct lines, never the length of the trace.
class LruStack {
public:
  static constexpr std::uint64_t cold = UINT64_MAX;  // the distance of a first reference

  LruStack() = default;
  // References `line` (below 2^64 - 1); returns its stack distance (0: the same line as the previous
  // reference) or `cold`.
  std::uint64_t reference(std::uint64_t line);
  [[nodiscard]] std::uint64_t distinct_lines() const { return latest_.size(); }

private:
  void compact();
  // Marks `slot` dead and returns the number of dead timestamps after it.
  std::uint64_t kill_and_count_dead_after(std::uint64_t slot);

  LineMap latest_{8};  // line -> the timestamp of its latest reference
  // The segment tree: node 1 the root, node i's children 2i and 2i+1, leaf capacity + t for timestamp t;
  // each node the number of dead timestamps below it.
  std::vector<std::uint32_t> tree_;
  std::uint64_t capacity_ = 0;  // timestamps in the window, a power of two
  std::uint64_t now_ = 0;       // the next timestamp
};

// The histogram of stack distances of a trace, per line reference: an access that straddles lines references
// each of them. With `sets` = S (a power of two) the line l belongs to set l mod S and each set has its own
// stack, so a distance d < A is a hit in an S-set cache of associativity A.
class StackDistanceHistogram {
public:
  StackDistanceHistogram(std::uint64_t line_size, std::uint64_t sets);  // both powers of two, asserted

  void add(std::span<const Access> accesses);

  [[nodiscard]] std::uint64_t line_size() const { return line_size_; }
  [[nodiscard]] std::uint64_t sets() const { return stacks_.size(); }
  [[nodiscard]] std::uint64_t accesses() const { return accesses_; }
  [[nodiscard]] std::uint64_t references() const { return references_; }
  [[nodiscard]] std::uint64_t cold_misses() const { return cold_; }
  [[nodiscard]] std::uint64_t distinct_lines() const { return cold_; }
  // counts()[d]: references at stack distance d; its size is the largest distance + 1.
  [[nodiscard]] const std::vector<std::uint64_t>& counts() const { return counts_; }
  // Misses of an LRU cache of `ways` lines per set: cold misses and references at distance >= ways.
  [[nodiscard]] std::uint64_t misses(std::uint64_t ways) const;

private:
  void reference(std::uint64_t line);

  std::uint64_t line_size_;
  unsigned line_shift_ = 0;
  std::uint64_t set_mask_;
  std::vector<LruStack> stacks_;
  std::vector<std::uint64_t> counts_;
  std::uint64_t accesses_ = 0;
  std::uint64_t references_ = 0;
  std::uint64_t cold_ = 0;
};

// One point of a miss-rate curve: a cache of `size` bytes = sets × ways × line.
struct CurvePoint {
  std::uint64_t size = 0;
  std::uint64_t ways = 0;  // lines per set (the associativity; the number of lines when fully associative)
  double miss_rate = 0.0;  // misses / line references
};

struct MissRateCurve {
  std::uint64_t line_size = 0;
  std::uint64_t sets = 1;
  std::uint64_t accesses = 0;
  std::uint64_t references = 0;  // line references (an access straddling k lines counts k)
  std::uint64_t cold_misses = 0;
  std::vector<CurvePoint> points;
};

// The ways at which a curve is printed: every associativity 1..16 when `every_way_up_to_16`, then powers of
// two, up to the first value >= `floor_ways` (the smallest size from which the curve no longer falls; at
// least one point).
[[nodiscard]] std::vector<std::uint64_t> curve_ways(std::uint64_t floor_ways, bool every_way_up_to_16);

// The curve of the histogram: with one set, the fully associative sizes of powers of two lines; with S sets,
// every associativity 1..16 then powers of two (curve_ways), up to the size where only cold misses remain.
[[nodiscard]] MissRateCurve stack_distance_curve(const StackDistanceHistogram& histogram);

// Reads `source` to its end and returns its curve. `progress(accesses)` is called every 2^24 accesses.
[[nodiscard]] MissRateCurve stack_distance_curve(AccessSource& source, std::uint64_t line_size, std::uint64_t sets,
                                                 const std::function<void(std::uint64_t)>& progress = {});

// The line references of one access: lines address/line .. (address+size-1)/line (at least one).
template <typename Visit>
inline void for_each_line(const Access& access, unsigned line_shift, Visit&& visit) {
  const std::uint64_t first = access.address >> line_shift;
  std::uint64_t end = access.size > 1 ? access.address + (access.size - 1) : access.address;
  if (end < access.address) end = UINT64_MAX;  // an access running past the top of the address space
  const std::uint64_t last = end >> line_shift;
  for (std::uint64_t line = first; line <= last; ++line) visit(line);
}

// Reads `source` to its end in batches, handing each to `add`; `progress(accesses so far)` every 2^24 accesses.
void read_batches(AccessSource& source, const std::function<void(std::span<const Access>)>& add,
                  const std::function<void(std::uint64_t)>& progress);

[[nodiscard]] unsigned log2_of_power_of_two(std::uint64_t value);

}  // namespace augur::sim::cache
