// The Dynamic Periodicity Detector (include/augur/dpd.hpp; method and cost: docs/dpd.md).
//
// The distance of the DPD over the window, d(m) = sum_{i=0}^{L-m-1} [x(n-i) != x(n-i-m)], is kept
// incrementally as one run length per shift m (as the per-shift counts of consecutive zero distances of
// the BSC implementation, DLB's src/DPD/DPD.c): run(m) = the number of consecutive most recent samples k
// with x(k) == x(k-m), so that d(m) = 0 <=> run(m) >= L - m. Two regimes:
//   - no period known: every run is updated, O(N/2) per sample, and the smallest m <= L/2 with
//     run(m) >= L - m is looked for only when some shift qualifies;
//   - period p known: one comparison per sample, x(n) == x(n-p). While it holds, the window stays
//     p-periodic (its pairs are the previous ones plus the new one) and p stays its smallest period: p
//     was the smallest period of a window of at least 2p samples, so one period of the stream is a
//     primitive word, and a smaller period q of a later window would make gcd(p, q) a period too
//     (Fine and Wilf: p + q - gcd(p, q) <= L), so the word would be a power. When it breaks
//     (x(n) != x(n-p)) the runs are recomputed from the samples held: the window was p-periodic, so
//     each scan stops after at most p + 1 comparisons, O(N/2 (p + 1)) once per break; then the search
//     goes on as without a period.
#include "augur/dpd.hpp"

#include <algorithm>
#include <cstddef>

namespace augur::dpd {

namespace {

int clamp_window(int size) { return std::clamp(size, Detector::min_window, Detector::max_window); }

// run[m] for m in [first, last] after the sample x(n), with past[m] = x(n - m) (see step()). Returns
// true when some of these shifts has run(m) >= held - m. (A branch-free form that the baseline x86-64
// vectorizes measured about 15% slower than this loop, whose branch is well predicted.)
bool update_runs(const long* past, std::int64_t* run, long sample, int first, int last, std::int64_t held) noexcept {
  bool qualifies = false;
  for (int shift = first; shift <= last; ++shift) {
    const std::int64_t length = past[shift] == sample ? run[shift] + 1 : 0;
    run[shift] = length;
    qualifies |= length + shift >= held;  // d(m) = 0 over the window
  }
  return qualifies;
}

}  // namespace

Detector::Detector(int window)
    : window_(clamp_window(window)),
      max_shift_(window_ / 2),
      history_(2 * static_cast<std::size_t>(window_), 0),
      run_(static_cast<std::size_t>(max_shift_) + 1, 0) {}

int Detector::held() const { return static_cast<int>(std::min<std::int64_t>(count_, window_)); }

void Detector::reset() noexcept {
  std::fill(history_.begin(), history_.end(), 0L);
  std::fill(run_.begin(), run_.end(), std::int64_t{0});
  head_ = 0;
  count_ = 0;
  period_ = 0;
  phase_ = 0;
  start_sample_ = 0;
  statistics_ = Statistics{};
}

void Detector::set_window(int size) {
  size = clamp_window(size);
  if (size == window_) return;

  // Everything that can throw happens before the detector changes (strong guarantee).
  const int kept = std::min(held(), size);
  std::vector<long> samples(static_cast<std::size_t>(kept));
  for (int index = 0; index < kept; ++index)  // oldest first: x(n - kept + 1) ... x(n)
    samples[static_cast<std::size_t>(index)] = history_[static_cast<std::size_t>(head_ + kept - 1 - index)];
  std::vector<long> history(2 * static_cast<std::size_t>(size), 0);
  std::vector<std::int64_t> run(static_cast<std::size_t>(size / 2) + 1, 0);

  const int old_period = period_;
  const int old_phase = phase_;
  const long old_start = start_sample_;
  const Statistics statistics = statistics_;

  history_.swap(history);
  run_.swap(run);
  window_ = size;
  max_shift_ = size / 2;
  head_ = 0;
  count_ = 0;
  period_ = 0;
  phase_ = 0;
  start_sample_ = 0;
  for (long sample : samples) step(sample);

  statistics_ = statistics;
  if (old_period > 0 && period_ == old_period) {  // the same period: keep its phase and first sample
    phase_ = old_phase;
    start_sample_ = old_start;
  }
}

bool Detector::push(long sample, int& period) noexcept {
  ++statistics_.samples;
  const bool start = step(sample);
  if (start) ++statistics_.starts;
  period = period_;
  return start;
}

bool Detector::step(long sample) noexcept {
  // Newest first, twice: x(n - j) = history_[head_ + j] for j in [0, N).
  head_ = (head_ == 0 ? window_ : head_) - 1;
  history_[static_cast<std::size_t>(head_)] = sample;
  history_[static_cast<std::size_t>(head_ + window_)] = sample;
  ++count_;

  const long* past = history_.data() + head_;  // past[m] = x(n - m)
  std::int64_t* run = run_.data();
  const std::int64_t held = std::min<std::int64_t>(count_, window_);  // L
  // Shifts with a pair in the window (m <= n) and shifts that may be a period (m <= L/2).
  const int paired = static_cast<int>(std::min<std::int64_t>(count_ - 1, max_shift_));
  const int candidates = static_cast<int>(std::min<std::int64_t>(held / 2, max_shift_));

  if (period_ > 0) {
    ++statistics_.comparisons;
    if (past[period_] == sample) {  // p holds and stays the smallest period (see above)
      phase_ = phase_ + 1 == period_ ? 0 : phase_ + 1;
      return phase_ == 0;
    }
    // x(n) != x(n - p): the period breaks. Bring the runs up to date, then search.
    ++statistics_.breaks;
    period_ = 0;
    phase_ = 0;
    recompute_runs();
    if (const int found = smallest_period(candidates, held); found > 0) {
      adopt(found);
      ++statistics_.detections;
      return phase_ == 0;
    }
    return false;
  }

  // No period known: update every run; look for the smallest period only when some shift qualifies.
  const bool qualifies = update_runs(past, run, sample, 1, candidates, held);
  update_runs(past, run, sample, candidates + 1, paired, held);  // paired shifts above L/2: runs only
  statistics_.comparisons += std::max(paired, 0);
  if (!qualifies) return false;
  adopt(smallest_period(candidates, held));
  ++statistics_.detections;
  return phase_ == 0;
}

void Detector::recompute_runs() noexcept {
  const long* past = history_.data() + head_;
  const std::int64_t held = std::min<std::int64_t>(count_, window_);
  for (int shift = 1; shift <= max_shift_; ++shift) {
    std::int64_t length = 0;
    const std::int64_t pairs = held - shift;  // pairs (k, k - shift) with both samples in the window
    while (length < pairs && past[length] == past[length + shift]) ++length;
    run_[static_cast<std::size_t>(shift)] = length;
    statistics_.comparisons += std::min(length + 1, std::max<std::int64_t>(pairs, 0));
  }
}

int Detector::smallest_period(int limit, std::int64_t held) const noexcept {
  for (int shift = 1; shift <= limit; ++shift)
    if (run_[static_cast<std::size_t>(shift)] + shift >= held) return shift;
  return 0;
}

void Detector::adopt(int period) noexcept {
  // The p-periodic suffix of the stream starts at s = n - run(p) - p + 1 (the sample after the last
  // mismatch at shift p, minus p; clipped to the window when the run was recomputed), so the phase of
  // x(n) is (n - s) mod p = (run(p) + p - 1) mod p, and the sample that starts each period is x(n - phase).
  period_ = period;
  phase_ = static_cast<int>((run_[static_cast<std::size_t>(period)] + period - 1) % period);
  start_sample_ = history_[static_cast<std::size_t>(head_ + phase_)];
}

}  // namespace augur::dpd
