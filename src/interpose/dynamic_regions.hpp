// Dynamic instrumentation of an iterative OpenMP program (thesis section 4.4.3, Figure 4.11):
// fed one event per intercepted parallel region (the address of its outlined function) and the
// periodicity detector's answer for it, it drives the static API of the self-analyzer
// (init_parallel_region, open_iteration, init_par, end_par, close_iteration, end_parallel_region)
// as a programmer would have placed the calls by hand.
//
// Pure: no clock, no I/O, no allocation after construction. Method: docs/run.md.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

namespace augur::interpose {

// Receives the calls of the static instrumentation (include/augur/augur.h, thesis Table 4.1).
class RegionListener {
public:
  virtual ~RegionListener() = default;
  virtual void init_parallel_region(std::uint64_t ipr, int length, long iterations) = 0;
  virtual void open_iteration() = 0;
  virtual void init_par() = 0;
  virtual void end_par() = 0;
  virtual void close_iteration() = 0;
  virtual void end_parallel_region() = 0;
};

// An iterative parallel region (IPR) found in the stream: identified, as in the thesis, by the
// address of the first parallel loop of its period and the period's length.
struct DetectedRegion {
  static constexpr int max_loops = 32;
  std::uint64_t ipr = 0;
  int length = 0;
  long entries = 0;             // times the region was started (again after a break of the period)
  long iterations_opened = 0;
  long iterations_completed = 0;  // iterations that ran all their `length` parallel loops
  // Iterations closed with close_iteration (at the next start of the region): every completed one
  // but the one still open when an entry ends, which the engine discards (see DynamicRegions).
  long iterations_closed = 0;
  int loops_known = 0;          // loop addresses recorded (the first iteration, at most max_loops)
  std::array<std::uint64_t, max_loops> loops{};  // the parallel loops of one iteration, in order
};

// Iteration boundaries: an iteration spans from one start of the IPR's period to the next, as the
// static instrumentation's open_iteration/close_iteration at the top and bottom of the time loop's
// body do, so the sequential code between the period's last parallel loop and the next start (swim's
// periodic copies and diagnostics) is in the iteration. The iteration is closed and the next one
// opened at the next start the detector marks for the same IPR (before_region); after the last loop
// it stays open. At a break of the period (another region at the boundary) or at finish(), the last
// open iteration is discarded (end_parallel_region), not closed: its time would include whatever the
// program ran after its time loop.
class DynamicRegions {
public:
  static constexpr int max_regions = 16;      // IPRs remembered for the report (later ones still run)
  static constexpr int max_addresses = 256;   // distinct loop addresses counted

  // `expected_iterations`: the total iterations of the program's main loop when the user knows it
  // (augur run --iterations), else negative. At each start of a region the iterations still to
  // run are passed to init_parallel_region: expected minus the times its first loop already ran.
  explicit DynamicRegions(RegionListener& listener, long expected_iterations = -1);

  // Before an intercepted parallel region: `loop` is its outlined function's address; `period_start`
  // and `period` the detector's answer for that sample (period 0 while there is none).
  void before_region(std::uint64_t loop, bool period_start, int period);
  // After the same parallel region returned.
  void after_region();
  // At the end of the program: closes what is open (the open iteration is discarded by the engine).
  void finish();

  // True between open_iteration and close_iteration or the region's end: the loops run are measured.
  // An iteration stays open after its last loop, until the next start of the IPR (a new iteration,
  // opened at once: in_iteration() is then true again before that region runs) or the break, which
  // ends the region before the breaking region runs (false for it). So inside a region it is always
  // true when a parallel region starts; the thread count is then the one the engine chose at the last
  // open_iteration.
  [[nodiscard]] bool in_iteration() const { return iteration_open_; }
  // True once the open iteration ran all its `length` loops (the last one returned): the next region
  // must be a start of the same IPR, or the period breaks.
  [[nodiscard]] bool iteration_complete() const { return iteration_open_ && !par_open_ && position_ >= length_; }
  [[nodiscard]] bool in_region() const { return in_region_; }
  [[nodiscard]] std::uint64_t current_ipr() const { return ipr_; }
  [[nodiscard]] int current_length() const { return length_; }

  // What was seen, for the report.
  [[nodiscard]] long samples() const { return samples_; }
  [[nodiscard]] long detections() const { return detections_; }
  [[nodiscard]] long breaks() const { return breaks_; }
  [[nodiscard]] int distinct_loops() const { return distinct_; }  // saturates at max_addresses
  [[nodiscard]] int region_count() const { return region_count_; }
  [[nodiscard]] const DetectedRegion& region(int index) const { return regions_[static_cast<std::size_t>(index)]; }

private:
  void begin(std::uint64_t loop, int period);
  void open_next();  // open_iteration, counted
  void end_region();
  long count_address(std::uint64_t loop);  // times `loop` was seen before, then counts this one
  DetectedRegion* record_for(std::uint64_t ipr, int length);

  RegionListener& listener_;
  long expected_iterations_;

  bool in_region_ = false;
  bool iteration_open_ = false;
  bool par_open_ = false;
  std::uint64_t ipr_ = 0;
  int length_ = 0;
  int position_ = 0;  // loops already started in the open iteration
  DetectedRegion* current_ = nullptr;
  long seen_before_ = 0;  // times the current sample's address ran before it

  long samples_ = 0;
  long detections_ = 0;
  long breaks_ = 0;
  int distinct_ = 0;
  std::array<std::uint64_t, max_addresses> addresses_{};
  std::array<long, max_addresses> address_counts_{};
  int region_count_ = 0;
  std::array<DetectedRegion, max_regions> regions_{};
  DetectedRegion overflow_{};  // the record used when more than max_regions regions are found
};

// The engine with its detector (dpd::AdaptiveDetector in the libraries; any type with
// `bool push(long sample, int& period)` in tests).
template <typename Detector>
class DetectingRegions {
public:
  DetectingRegions(RegionListener& listener, Detector detector, long expected_iterations = -1)
      : detector_(static_cast<Detector&&>(detector)), regions_(listener, expected_iterations) {}
  void before_region(std::uint64_t loop) {
    int period = 0;
    const bool start = detector_.push(static_cast<long>(loop), period);
    regions_.before_region(loop, start, period);
  }
  void after_region() { regions_.after_region(); }
  void finish() { regions_.finish(); }
  [[nodiscard]] const DynamicRegions& regions() const { return regions_; }
  [[nodiscard]] Detector& detector() { return detector_; }
  [[nodiscard]] const Detector& detector() const { return detector_; }

private:
  Detector detector_;
  DynamicRegions regions_;
};

}  // namespace augur::interpose
