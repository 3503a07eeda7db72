// Figure 4.11 of the thesis (seed 003, section 4.4.3) as a pure state machine. See dynamic_regions.hpp.
#include "dynamic_regions.hpp"

namespace augur::interpose {

DynamicRegions::DynamicRegions(RegionListener& listener, long expected_iterations)
    : listener_(listener), expected_iterations_(expected_iterations) {}

long DynamicRegions::count_address(std::uint64_t loop) {
  // Open addressing on a fixed table (Fibonacci hashing); when full, new addresses are not counted.
  std::size_t slot = static_cast<std::size_t>((loop * 0x9E3779B97F4A7C15ULL) >> 56) % max_addresses;
  for (int probe = 0; probe < max_addresses; ++probe) {
    if (address_counts_[slot] == 0) {
      addresses_[slot] = loop;
      address_counts_[slot] = 1;
      ++distinct_;
      return 0;
    }
    if (addresses_[slot] == loop) return address_counts_[slot]++;
    slot = (slot + 1) % max_addresses;
  }
  return 0;
}

DetectedRegion* DynamicRegions::record_for(std::uint64_t ipr, int length) {
  for (int index = 0; index < region_count_; ++index) {
    DetectedRegion& region = regions_[static_cast<std::size_t>(index)];
    if (region.ipr == ipr && region.length == length) return &region;
  }
  DetectedRegion* region = region_count_ < max_regions ? &regions_[static_cast<std::size_t>(region_count_++)] : &overflow_;
  *region = DetectedRegion{};
  region->ipr = ipr;
  region->length = length;
  return region;
}

// First detection of an IPR (or its return after a break): init_parallel_region + open_iteration.
void DynamicRegions::begin(std::uint64_t loop, int period) {
  in_region_ = true;
  ipr_ = loop;
  length_ = period;
  current_ = record_for(loop, period);
  ++current_->entries;
  // The iterations still to run: the total the user gave minus those that ran before detection
  // (each ran the region's first loop once).
  long iterations = -1;
  if (expected_iterations_ > 0) iterations = expected_iterations_ > seen_before_ ? expected_iterations_ - seen_before_ : 1;
  listener_.init_parallel_region(loop, period, iterations);
  open_next();
}

void DynamicRegions::open_next() {
  listener_.open_iteration();
  iteration_open_ = true;
  position_ = 0;
  ++current_->iterations_opened;
}

// The region ends: at a break of the period (before the region that breaks it runs), at a longer
// IPR, or at finish(). The iteration still open -- it ran its loops and then whatever the program did
// until now: the last time step's sequential part, but also the code after the time loop (post-
// processing, output, or at finish() everything up to exit) -- is left to end_parallel_region, which
// discards it. Closing it would add that code to one measured iteration, unboundedly (a program that
// writes its results would make it any length), and it would enter T(p)'s window (or T(B), for a
// short region) and the speedup through the history; discarding loses one iteration per entry, out of
// the many a time loop needs to be detected at all (about window / period). No clock here to close it
// at its last loop's end instead. docs/run.md, "Figure 4.11 as implemented".
void DynamicRegions::end_region() {
  if (!in_region_) return;
  listener_.end_parallel_region();  // the engine discards an iteration still open
  in_region_ = false;
  iteration_open_ = false;
  current_ = nullptr;
}

void DynamicRegions::before_region(std::uint64_t loop, bool period_start, int period) {
  ++samples_;
  seen_before_ = count_address(loop);
  const bool detected = period_start && period > 0;
  if (detected) ++detections_;
  const bool restart = detected && in_region_ && loop == ipr_ && period == length_;

  if (in_region_ && position_ >= length_) {
    // At an iteration boundary: the open iteration ran its `length` loops and the sequential code
    // after the last one. The next iteration starts where the detector marks the start of this IPR
    // again (Figure 4.11, case 2): the open iteration closes here and the next one opens, as the
    // static instrumentation's close_iteration at the bottom of the time loop's body and
    // open_iteration at its top do. Anything else means the period broke -- the program left its
    // time loop, or changed phase: the region ends here (a departure from the figure, which never
    // ends a region; docs/run.md), its open iteration discarded (end_region).
    if (restart) {
      listener_.close_iteration();
      ++current_->iterations_closed;
      open_next();
    } else {
      ++breaks_;
      end_region();
    }
  } else if (detected && in_region_) {
    if (restart) {
      // The detector marks a new iteration of this IPR before `length` loops ran: the detector and
      // the count disagree; as in the figure, open_iteration (the engine discards the partial one).
      open_next();
    } else if (period > length_) {
      // Case 3: another IPR, longer: it replaces the current one (an outer loop around it).
      end_region();
    }
    // A different, shorter period (an inner loop of the IPR) is ignored.
  }

  if (detected && !in_region_) begin(loop, period);  // case 1

  if (iteration_open_) {
    if (current_ != nullptr && current_->iterations_opened == 1 && position_ < DetectedRegion::max_loops &&
        position_ == current_->loops_known) {
      current_->loops[static_cast<std::size_t>(current_->loops_known++)] = loop;
    }
    ++position_;
    listener_.init_par();
    par_open_ = true;
  }
}

void DynamicRegions::after_region() {
  if (!par_open_) return;
  par_open_ = false;
  listener_.end_par();
  // The period's last loop: the iteration stays open over the sequential code that follows, until the
  // next start of the IPR closes it (before_region).
  if (iteration_open_ && position_ == length_) ++current_->iterations_completed;
}

void DynamicRegions::finish() {
  if (par_open_) {
    par_open_ = false;
    listener_.end_par();
  }
  end_region();
}

}  // namespace augur::interpose
