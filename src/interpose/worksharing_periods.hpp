// The iterative structure inside ONE parallel region (docs/run.md, "One outer parallel region"): a program
// that opens a single parallel region around its whole time loop and runs orphaned worksharing constructs
// inside it shows the periodicity detector one region; the ends of its worksharing constructs (the call
// sites of GOMP_barrier, GOMP_loop_end, ... on the team's master thread) show the time steps instead.
// Fed those samples and the detector's answer for each, this engine finds the period (constructs per time
// step), names its constructs, counts the time steps and records the time of each step.
//
// Pure: no clock (the caller passes the time), no I/O, no allocation after construction.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

namespace augur::interpose {

// The runtime call that ended a worksharing construct (the sample's kind).
// libgomp: the call that ended the construct; libomp (OMPT work callbacks): Loop, Sections, Single.
enum class ConstructEnd : std::uint8_t { Barrier, LoopEnd, LoopEndNowait, SectionsEnd, SectionsEndNowait, Loop, Sections, Single };

// "barrier", "loop_end", "loop_end_nowait", "sections_end", "sections_end_nowait", "loop", "sections", "single".
const char* construct_end_name(ConstructEnd kind);

// The period found in the constructs of one parallel region.
struct WorksharingPattern {
  static constexpr int max_constructs = 64;
  std::uint64_t region = 0;  // the outlined function of the parallel region it was found in
  int length = 0;            // constructs per time step
  int team_size = 0;         // threads of the region's team when the period was found
  int constructs_known = 0;  // min(length, max_constructs)
  std::array<std::uint64_t, max_constructs> constructs{};  // call sites of one time step, in order
  std::array<ConstructEnd, max_constructs> kinds{};
};

// What a sample was for the time steps: nothing, a start of the period that closes no measured step (the
// first start, or one after a break), or the end of a measured step (its time is the last one recorded).
enum class StepMark : std::uint8_t { None, Start, Timed };

class WorksharingPeriods {
public:
  static constexpr int max_times = 16384;    // iteration times kept (the first ones after detection)
  static constexpr int max_addresses = 256;  // distinct call sites counted

  WorksharingPeriods();

  // The master thread of a measured team entered / left the parallel region whose outlined function is
  // `region`. Samples outside a region are ignored; an iteration is never timed across two regions.
  void enter_region(std::uint64_t region);
  void leave_region();

  // One worksharing construct ended on the master thread at `seconds`: `address` is the call site,
  // `team_size` the team's thread count; `period_start` and `period` are the detector's answer.
  StepMark sample(std::uint64_t address, ConstructEnd kind, int team_size, double seconds, bool period_start, int period);

  [[nodiscard]] long samples() const { return samples_; }
  // Distinct (region, call site) pairs; saturates at max_addresses.
  [[nodiscard]] int distinct_sites() const { return distinct_; }
  [[nodiscard]] bool found() const { return pattern_.length > 0; }
  [[nodiscard]] const WorksharingPattern& pattern() const { return pattern_; }
  // Time steps: the times the period's first construct ran in the region where the period was found (before
  // the detection too; not in other regions, such as a warm-up step run in a parallel region of its own),
  // less the leading steps that did not hold `length` constructs (a warm-up step run before the time loop in
  // the same region, or in an earlier entry of it, followed by other constructs: NPB LU), divided by the
  // times it runs in one period (a construct of an inner loop of the step runs several: then nothing is taken
  // off); and never more than the times a construct that runs once per period ran, the current step
  // included (NPB CG: the warm-up step runs the step's inner loop, not its other constructs); 0 when none.
  [[nodiscard]] long iterations() const;
  // The times of the iterations measured: from one start of the period to the next, both in one region
  // and with exactly `length` constructs between them.
  [[nodiscard]] long measured_iterations() const { return static_cast<long>(times_used_); }
  [[nodiscard]] double time(long index) const { return times_[static_cast<std::size_t>(index)]; }
  // The median of the iteration times (the mean of the two middle ones for an even count); -1 if none.
  [[nodiscard]] double median_time() const;
  // The time of the last measured iteration (the one a StepMark::Timed closed); -1 if none.
  [[nodiscard]] double last_time() const { return times_used_ == 0 ? -1.0 : times_[times_used_ - 1]; }

private:
  // The table counts (region, call site) pairs, keyed by both.
  long count_address(std::uint64_t key);  // counts this sample, returns the count before it
  [[nodiscard]] long count_of(std::uint64_t key) const;
  [[nodiscard]] int slot_of(std::uint64_t key) const;  // -1 when not counted
  // The first steps started by `key` that held another number of samples than `length` before the first that
  // held `length` (0 when none of the first leading_gaps did).
  [[nodiscard]] long leading_irregular(std::uint64_t key, int length) const;
  // Once the period's constructs are known: the first of them that runs once per period (-1: none), the
  // reference for the count of the steps when the first construct also ran outside them.
  void choose_reference();

  bool in_region_ = false;
  std::uint64_t region_ = 0;
  long samples_ = 0;
  WorksharingPattern pattern_{};
  bool filling_ = false;       // recording the constructs of the period's first time step
  bool timing_ = false;       // the last start of the period is in this region
  double last_start_ = 0.0;
  long since_start_ = 0;      // samples since the last start of the period
  long first_repeats_ = 1;    // the times the period's first construct runs in one period
  int reference_ = -1;        // the index in the period of a construct that runs once in it, for iterations()
  long repeats_left_ = 0;     // samples of the period's first occurrence still to look at for first_repeats_
  std::vector<double> times_;
  std::size_t times_used_ = 0;
  int distinct_ = 0;
  std::array<std::uint64_t, max_addresses> addresses_{};
  std::array<long, max_addresses> address_counts_{};
  // Per call site: the sample number of its last run, and the samples from each of its first runs to the next.
  static constexpr int leading_gaps = 4;
  std::array<long, max_addresses> last_seen_{};
  std::array<std::array<long, leading_gaps>, max_addresses> gaps_{};
  std::array<std::uint8_t, max_addresses> gaps_known_{};
};

// The engine with its detector (dpd::AdaptiveDetector in the libraries; any type with
// `bool push(long sample, int& period)` in tests). The detector is its own: apart from the one of the
// parallel regions.
template <typename Detector>
class DetectingWorksharing {
public:
  explicit DetectingWorksharing(Detector detector) : detector_(static_cast<Detector&&>(detector)) {}
  void enter_region(std::uint64_t region) { periods_.enter_region(region); }
  void leave_region() { periods_.leave_region(); }
  StepMark sample(std::uint64_t address, ConstructEnd kind, int team_size, double seconds) {
    int period = 0;
    const bool start = detector_.push(static_cast<long>(address), period);
    return periods_.sample(address, kind, team_size, seconds, start, period);
  }
  [[nodiscard]] const WorksharingPeriods& periods() const { return periods_; }
  [[nodiscard]] const Detector& detector() const { return detector_; }

private:
  Detector detector_;
  WorksharingPeriods periods_;
};

}  // namespace augur::interpose
