// The period of the worksharing constructs inside one parallel region. See worksharing_periods.hpp.
#include "worksharing_periods.hpp"

#include <algorithm>

namespace augur::interpose {

const char* construct_end_name(ConstructEnd kind) {
  switch (kind) {
    case ConstructEnd::Barrier: return "barrier";
    case ConstructEnd::LoopEnd: return "loop_end";
    case ConstructEnd::LoopEndNowait: return "loop_end_nowait";
    case ConstructEnd::SectionsEnd: return "sections_end";
    case ConstructEnd::SectionsEndNowait: return "sections_end_nowait";
    case ConstructEnd::Loop: return "loop";
    case ConstructEnd::Sections: return "sections";
    case ConstructEnd::Single: return "single";
  }
  return "?";
}

WorksharingPeriods::WorksharingPeriods() : times_(max_times, 0.0) {}

void WorksharingPeriods::enter_region(std::uint64_t region) {
  in_region_ = true;
  region_ = region;
  timing_ = false;
}

void WorksharingPeriods::leave_region() {
  in_region_ = false;
  timing_ = false;
}

namespace {
// The key of a call site in a region (the table keys are never 0: 0 marks a free slot by its count).
std::uint64_t site_key(std::uint64_t region, std::uint64_t address) { return address ^ (region * 0xC2B2AE3D27D4EB4FULL); }
}  // namespace

long WorksharingPeriods::count_address(std::uint64_t address) {
  // Open addressing on a fixed table (Fibonacci hashing); when full, new addresses are not counted.
  std::size_t slot = static_cast<std::size_t>((address * 0x9E3779B97F4A7C15ULL) >> 56) % max_addresses;
  for (int probe = 0; probe < max_addresses; ++probe) {
    if (address_counts_[slot] == 0) {
      addresses_[slot] = address;
      address_counts_[slot] = 1;
      last_seen_[slot] = samples_;
      ++distinct_;
      return 0;
    }
    if (addresses_[slot] == address) {
      if (gaps_known_[slot] < leading_gaps) gaps_[slot][gaps_known_[slot]++] = samples_ - last_seen_[slot];
      last_seen_[slot] = samples_;
      return address_counts_[slot]++;
    }
    slot = (slot + 1) % max_addresses;
  }
  return 0;
}

int WorksharingPeriods::slot_of(std::uint64_t address) const {
  std::size_t slot = static_cast<std::size_t>((address * 0x9E3779B97F4A7C15ULL) >> 56) % max_addresses;
  for (int probe = 0; probe < max_addresses; ++probe) {
    if (address_counts_[slot] == 0) return -1;
    if (addresses_[slot] == address) return static_cast<int>(slot);
    slot = (slot + 1) % max_addresses;
  }
  return -1;
}

long WorksharingPeriods::count_of(std::uint64_t address) const {
  const int slot = slot_of(address);
  return slot < 0 ? 0 : address_counts_[static_cast<std::size_t>(slot)];
}

long WorksharingPeriods::leading_irregular(std::uint64_t address, int length) const {
  const int slot = slot_of(address);
  if (slot < 0) return 0;
  const auto index = static_cast<std::size_t>(slot);
  for (int gap = 0; gap < gaps_known_[index]; ++gap) {
    if (gaps_[index][static_cast<std::size_t>(gap)] == length) return gap;
  }
  return 0;
}

long WorksharingPeriods::iterations() const {
  if (!found()) return 0;
  const std::uint64_t key = site_key(pattern_.region, pattern_.constructs[0]);
  const long first = first_repeats_ > 1 ? count_of(key) / first_repeats_ : count_of(key) - leading_irregular(key, pattern_.length);
  if (reference_ < 0) return first;
  // The reference has not run yet in the step under way when the samples since its start are fewer than its place.
  const long pending = timing_ && since_start_ < reference_ ? 1 : 0;
  const long counted = count_of(site_key(pattern_.region, pattern_.constructs[static_cast<std::size_t>(reference_)])) + pending;
  return std::min(first, counted);
}

// Called when the period's constructs are known, after the sample of the last known one: every one of them has
// run in the step under way, so their counts compare. The least counted of those that run once in the period
// ran in the time steps only.
void WorksharingPeriods::choose_reference() {
  reference_ = -1;
  long least = 0;
  const int known = pattern_.constructs_known;
  const auto begin = pattern_.constructs.begin();
  for (int index = 0; index < known; ++index) {
    const std::uint64_t address = pattern_.constructs[static_cast<std::size_t>(index)];
    if (std::count(begin, begin + known, address) != 1) continue;
    const long count = count_of(site_key(pattern_.region, address));
    if (reference_ < 0 || count < least) {
      reference_ = index;
      least = count;
    }
  }
}

StepMark WorksharingPeriods::sample(std::uint64_t address, ConstructEnd kind, int team_size, double seconds,
                                    bool period_start, int period) {
  if (!in_region_) return StepMark::None;
  ++samples_;
  (void)count_address(site_key(region_, address));
  ++since_start_;
  if (repeats_left_ > 0 && region_ == pattern_.region) {
    --repeats_left_;
    if (address == pattern_.constructs[0]) ++first_repeats_;
  }
  if (filling_) {
    const int known = pattern_.constructs_known;
    pattern_.constructs[static_cast<std::size_t>(known)] = address;
    pattern_.kinds[static_cast<std::size_t>(known)] = kind;
    pattern_.constructs_known = known + 1;
    filling_ = pattern_.constructs_known < std::min(pattern_.length, WorksharingPattern::max_constructs);
    if (!filling_) choose_reference();
  }
  if (period_start && period > 0) {
    if (period > pattern_.length) {
      // The first period, or a longer one (the shorter was an inner loop of the time step). Its
      // constructs are this sample and the next ones, up to max_constructs.
      pattern_ = WorksharingPattern{};
      pattern_.region = region_;
      pattern_.length = period;
      pattern_.team_size = team_size;
      pattern_.constructs[0] = address;
      pattern_.kinds[0] = kind;
      pattern_.constructs_known = 1;
      filling_ = period > 1;
      first_repeats_ = 1;
      reference_ = -1;
      if (period == 1) choose_reference();
      repeats_left_ = period - 1;
      times_used_ = 0;
      timing_ = false;
    }
    if (period == pattern_.length && address == pattern_.constructs[0] && region_ == pattern_.region) {
      StepMark mark = StepMark::Start;
      if (timing_ && since_start_ == pattern_.length && times_used_ < times_.size()) {
        times_[times_used_++] = seconds - last_start_;
        mark = StepMark::Timed;
      }
      timing_ = true;
      last_start_ = seconds;
      since_start_ = 0;
      return mark;
    }
  }
  return StepMark::None;
}

double WorksharingPeriods::median_time() const {
  if (times_used_ == 0) return -1.0;
  std::vector<double> sorted(times_.begin(), times_.begin() + static_cast<std::ptrdiff_t>(times_used_));
  std::sort(sorted.begin(), sorted.end());
  const std::size_t middle = sorted.size() / 2;
  return sorted.size() % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2.0;
}

}  // namespace augur::interpose
