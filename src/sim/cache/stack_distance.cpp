#include "sim/cache/stack_distance.hpp"

#include <algorithm>
#include <bit>
#include <cassert>

namespace augur::sim::cache {

namespace {

constexpr std::uint64_t initial_capacity = 64;  // timestamps of a new stack

}  // namespace

unsigned log2_of_power_of_two(std::uint64_t value) {
  assert(std::has_single_bit(value) && "a power of two");
  return static_cast<unsigned>(std::countr_zero(value));
}

// Renumbers the live timestamps 0..lines-1 in their order, from the table (each line's latest timestamp is
// the live one: no owner per timestamp is kept between compactions), and makes room for three times as many new
// ones: O(capacity) and one pass over the table, spread over the references until the next compaction.
void LruStack::compact() {
  std::vector<std::uint64_t*> by_time(now_, nullptr);
  latest_.for_each([&by_time](std::uint64_t, std::uint64_t& slot) { by_time[slot] = &slot; });
  std::uint64_t next = 0;
  for (std::uint64_t* slot : by_time) {
    if (slot != nullptr) *slot = next++;
  }
  assert(next == latest_.size() && "one live timestamp per line");
  now_ = next;
  capacity_ = std::max(initial_capacity, std::bit_ceil(4 * (next + 1)));
  tree_.assign(2 * capacity_, 0);
}

std::uint64_t LruStack::kill_and_count_dead_after(std::uint64_t slot) {
  std::uint64_t dead_after = 0;
  std::uint32_t* tree = tree_.data();
  for (std::uint64_t node = capacity_ + slot; node > 1; node >>= 1) {
    const std::uint32_t right = tree[node | 1];  // the right sibling when `node` is a left child
    dead_after += (node & 1) != 0 ? 0 : right;
    ++tree[node];
  }
  return dead_after;
}

std::uint64_t LruStack::reference(std::uint64_t line) {
  if (now_ == capacity_) compact();
  bool inserted = false;
  std::uint64_t* latest = latest_.find_or_insert(line, inserted);
  std::uint64_t distance = cold;
  if (!inserted) {
    const std::uint64_t previous = *latest;
    if (previous + 1 == now_) return 0;  // the most recent line stays on top: nothing moves
    // Of the now - 1 - previous timestamps after the line's latest, the live ones are the distinct lines since
    // (no timestamp at or after now is dead).
    distance = (now_ - 1 - previous) - kill_and_count_dead_after(previous);
  }
  *latest = now_;
  ++now_;
  return distance;
}

StackDistanceHistogram::StackDistanceHistogram(std::uint64_t line_size, std::uint64_t sets)
    : line_size_(line_size), line_shift_(log2_of_power_of_two(line_size)), set_mask_(sets - 1),
      stacks_(sets) {
  assert(std::has_single_bit(sets) && "the number of sets is a power of two");
  assert(line_size >= 2 && "a line of at least 2 bytes, so that line numbers stay below 2^63");
}

void StackDistanceHistogram::reference(std::uint64_t line) {
  ++references_;
  const std::uint64_t distance = stacks_[line & set_mask_].reference(line);
  if (distance == LruStack::cold) {
    ++cold_;
    return;
  }
  if (distance >= counts_.size()) counts_.resize(distance + 1, 0);
  ++counts_[distance];
}

void StackDistanceHistogram::add(std::span<const Access> accesses) {
  accesses_ += accesses.size();
  for (const Access& access : accesses) for_each_line(access, line_shift_, [this](std::uint64_t line) { reference(line); });
}

std::uint64_t StackDistanceHistogram::misses(std::uint64_t ways) const {
  std::uint64_t misses = cold_;
  for (std::uint64_t distance = ways; distance < counts_.size(); ++distance) misses += counts_[distance];
  return misses;
}

std::vector<std::uint64_t> curve_ways(std::uint64_t floor_ways, bool every_way_up_to_16) {
  std::vector<std::uint64_t> ways;
  std::uint64_t value = 1;
  while (true) {
    ways.push_back(value);
    if (value >= floor_ways) break;
    value = every_way_up_to_16 && value < 16 ? value + 1 : value * 2;
  }
  return ways;
}

MissRateCurve stack_distance_curve(const StackDistanceHistogram& histogram) {
  MissRateCurve curve;
  curve.line_size = histogram.line_size();
  curve.sets = histogram.sets();
  curve.accesses = histogram.accesses();
  curve.references = histogram.references();
  curve.cold_misses = histogram.cold_misses();
  const std::vector<std::uint64_t>& counts = histogram.counts();
  // suffix[d]: references at distance >= d, so that every point costs O(1).
  std::vector<std::uint64_t> suffix(counts.size() + 1, 0);
  for (std::size_t distance = counts.size(); distance-- > 0;) suffix[distance] = suffix[distance + 1] + counts[distance];
  const std::uint64_t floor_ways = std::max<std::uint64_t>(1, counts.size());
  for (std::uint64_t ways : curve_ways(floor_ways, curve.sets > 1)) {
    const std::uint64_t misses = curve.cold_misses + (ways < suffix.size() ? suffix[ways] : 0);
    const double rate = curve.references == 0 ? 0.0 : static_cast<double>(misses) / static_cast<double>(curve.references);
    curve.points.push_back(CurvePoint{curve.sets * ways * curve.line_size, ways, rate});
  }
  return curve;
}

void read_batches(AccessSource& source, const std::function<void(std::span<const Access>)>& add,
                  const std::function<void(std::uint64_t)>& progress) {
  constexpr std::uint64_t report_every = std::uint64_t{1} << 24;
  std::vector<Access> buffer(4096);
  std::uint64_t accesses = 0;
  while (const std::size_t count = source.read(buffer)) {
    add(std::span<const Access>(buffer.data(), count));
    const std::uint64_t before = accesses;
    accesses += count;
    if (progress && before / report_every != accesses / report_every) progress(accesses);
  }
}

MissRateCurve stack_distance_curve(AccessSource& source, std::uint64_t line_size, std::uint64_t sets,
                                   const std::function<void(std::uint64_t)>& progress) {
  StackDistanceHistogram histogram(line_size, sets);
  read_batches(source, [&histogram](std::span<const Access> batch) { histogram.add(batch); }, progress);
  return stack_distance_curve(histogram);
}

}  // namespace augur::sim::cache
