// The Dynamic Periodicity Detector (DPD) of Freitag, Corbalan and Labarta ("A dynamic periodicity
// detector: application to speedup computation", IPDPS 2001), the interface of the thesis' Table 4.2
// (seed 003, section 4.4.3), as a pure engine: no I/O, no globals, no allocation per sample.
//
// It reads a stream of samples (for the dynamic instrumentation: the address of the outlined function
// of each parallel region, in the order the regions run) and finds the period of the stream over a
// window of the N most recent samples:
//
//     d(m) = sum_{i=0}^{L-m-1} [ x(n-i) != x(n-i-m) ]      L = min(n + 1, N) samples held
//     period(n) = the smallest m in 1 .. L/2 with d(m) = 0, or 0 when there is none
//
// i.e. the smallest shift m such that every pair of samples m apart inside the window is equal and the
// window holds at least two periods. A sample starts a period when the stream is periodic and the
// sample's phase is that of the first sample of the longest p-periodic suffix of the stream.
// Method, equations, cost and limits: docs/dpd.md.
#pragma once

#include <cstdint>
#include <vector>

namespace augur::dpd {

class Detector {
public:
  static constexpr int min_window = 4;        // smaller sizes are clamped up to this
  static constexpr int max_window = 1 << 20;  // larger sizes are clamped down to this
  static constexpr int default_window = 128;

  // Counters since construction or reset() (set_window keeps them).
  struct Statistics {
    std::int64_t samples = 0;      // push() calls
    std::int64_t starts = 0;       // push() calls that returned true
    std::int64_t detections = 0;   // times the period changed to a new non-zero value
    std::int64_t breaks = 0;       // times a known period stopped holding (x(n) != x(n-p))
    std::int64_t comparisons = 0;  // sample comparisons made (the work; see docs/dpd.md, "Cost")
  };

  // A detector over a window of `window` samples, clamped to [min_window, max_window] (never throws
  // for a bad size; std::bad_alloc only when memory is exhausted). Memory: about 20 bytes per sample
  // of window (the samples twice, and one run length per shift up to N/2).
  explicit Detector(int window = default_window);

  // Sets the window to `size` samples, clamped to [min_window, max_window]. The same (clamped) size
  // changes nothing. Otherwise the most recent min(held, size) samples are kept and re-read as if they
  // were the whole stream (cost: at most that of pushing them again); when the period found then is
  // the period known before, its phase is kept, so the starts go on at the same samples. Strong
  // guarantee: if memory runs out (std::bad_alloc) the detector is unchanged.
  void set_window(int size);
  [[nodiscard]] int window() const { return window_; }

  // Reads the next sample. Returns true when `sample` starts a new period; `period` receives the
  // current period length in samples, 0 while there is none. Allocates nothing, never throws.
  bool push(long sample, int& period) noexcept;
  // The same, without the period.
  bool push(long sample) noexcept {
    int period = 0;
    return push(sample, period);
  }

  // The current period in samples (0: none).
  [[nodiscard]] int period() const { return period_; }
  // The sample that starts each period (meaningful only while period() > 0).
  [[nodiscard]] long start_sample() const { return start_sample_; }
  // The position of the last sample in the current period: 0 for the sample that started it, up to
  // period() - 1 for the last one (meaningful only while period() > 0).
  [[nodiscard]] int phase() const { return phase_; }
  // The number of samples in the window now: min(samples since reset or set_window's re-reading, window()).
  [[nodiscard]] int held() const;
  [[nodiscard]] const Statistics& statistics() const { return statistics_; }

  // Forgets the samples, the period and the statistics; keeps the window size.
  void reset() noexcept;

private:
  // One sample without touching statistics_.samples and .starts (shared by push and set_window).
  bool step(long sample) noexcept;
  // The run lengths of all shifts recomputed from the samples held (after a break).
  void recompute_runs() noexcept;
  // The smallest shift m in [1, limit] with run(m) >= held - m, or 0.
  [[nodiscard]] int smallest_period(int limit, std::int64_t held) const noexcept;
  // Takes `period` as the current period, its phase from its run length.
  void adopt(int period) noexcept;

  int window_ = default_window;  // N
  int max_shift_ = default_window / 2;  // N/2: the longest period that fits twice in the window
  // The samples, newest first, written twice (at head_ and head_ + N) so that the last N samples are
  // always contiguous: x(n - j) = history_[head_ + j] for j in [0, N).
  std::vector<long> history_;
  int head_ = 0;
  std::int64_t count_ = 0;  // samples read since reset (or re-read by set_window)
  // run_[m] for m in [1, N/2]: how many consecutive most recent samples k had x(k) == x(k - m) (both
  // samples held when the run was last recomputed; see docs/dpd.md). d(m) = 0 <=> run_[m] >= L - m.
  // Not updated while a period is known (then only x(n) == x(n - p) is checked).
  std::vector<std::int64_t> run_;
  int period_ = 0;
  int phase_ = 0;
  long start_sample_ = 0;
  Statistics statistics_;
};

// The fewest measured iterations from which a speedup may be reported (issue 16). Below it, the median
// iteration time rests on too few values: the range [min, max] of n measured values holds the median of
// their distribution with probability 1 - 2^(1-n) whatever the distribution, 93.75% for n = 5 (the
// smallest n above 90%), and a median of 5 stays a clean value with 2 of them disturbed. docs/dpd.md,
// "Measured iterations". For the interposition code (libaugur_preload, libaugur_ompt) and the CLI.
inline constexpr long min_measured_iterations = 5;
[[nodiscard]] constexpr bool enough_measured_iterations(long measured) noexcept {
  return measured >= min_measured_iterations;
}

// A Detector that grows its window while it finds no period (docs/dpd.md, "The adaptive detector"):
// whenever 2N consecutive samples went by without a period, N being the window at that moment, the window
// doubles (clipped to the bound), up to `bound` samples. It never shrinks: a period found keeps the window
// it was found with. Growing changes no answer at the moment it happens (the samples held are the same,
// and so are the shifts that fit twice in them), so a stream whose period is found at the start window is
// answered exactly as by a plain Detector of that window (same periods, same starts) as long as no 2N
// samples in a row go by without a period. Memory: about 20 bytes per sample of the current window.
class AdaptiveDetector {
public:
  // 2048 samples: periods up to 1024 samples (constructs or regions per time step); 40 KiB; without a
  // period 1024 comparisons per sample, 656 ns measured (bench_dpd, docs/dpd.md), under the 1 us per
  // intercepted region the dynamic instrumentation allows itself (4096: 1.3 us).
  static constexpr int default_bound = 2048;
  // Windows of samples without a period before the window doubles.
  static constexpr int patience = 2;

  // Starts with `window` samples (clamped as Detector's); grows up to max(bound, window), clamped to
  // Detector::max_window. std::bad_alloc only when memory is exhausted.
  explicit AdaptiveDetector(int window = Detector::default_window, int bound = default_bound);

  // Detector::push, then the growth rule. Never throws: a growth that runs out of memory keeps the
  // window it has and stops growing (growth_failed()). Allocates only when it grows (at most
  // log2(bound / start) times), never once the window is at the bound or a period is held.
  bool push(long sample, int& period) noexcept;
  bool push(long sample) noexcept {
    int period = 0;
    return push(sample, period);
  }

  [[nodiscard]] int period() const { return detector_.period(); }
  [[nodiscard]] long start_sample() const { return detector_.start_sample(); }
  [[nodiscard]] int phase() const { return detector_.phase(); }
  [[nodiscard]] int held() const { return detector_.held(); }
  [[nodiscard]] int window() const { return detector_.window(); }
  [[nodiscard]] const Detector::Statistics& statistics() const { return detector_.statistics(); }
  [[nodiscard]] const Detector& detector() const { return detector_; }

  // How far it grew: the window it started with, the window now (grown_to() == window()), how many times
  // it doubled, and the largest window it may reach.
  [[nodiscard]] int start_window() const { return start_window_; }
  [[nodiscard]] int grown_to() const { return detector_.window(); }
  [[nodiscard]] int growths() const { return growths_; }
  [[nodiscard]] int bound() const { return bound_; }
  // A growth ran out of memory: the window stays where it is.
  [[nodiscard]] bool growth_failed() const { return growth_failed_; }
  // Gave up: the window is at its bound (or cannot grow) and 2 windows of samples in a row went by
  // without a period; false again once a period is found. For the message that names --dpd-window.
  [[nodiscard]] bool gave_up() const;
  // Consecutive samples (the newest included) without a period.
  [[nodiscard]] std::int64_t samples_without_period() const { return without_period_; }

private:
  void grow() noexcept;

  Detector detector_;
  int start_window_ = Detector::default_window;
  int bound_ = default_bound;
  int growths_ = 0;
  bool growth_failed_ = false;
  std::int64_t without_period_ = 0;
};

}  // namespace augur::dpd
