// The adaptive periodicity detector (include/augur/dpd.hpp; the growth rule and its bound: docs/dpd.md,
// "The adaptive detector"). A Detector whose window doubles whenever 2N samples in a row went by without
// a period, up to a bound.
#include <algorithm>

#include "augur/dpd.hpp"

namespace augur::dpd {

namespace {

int clamp_window(int size) { return std::clamp(size, Detector::min_window, Detector::max_window); }

}  // namespace

AdaptiveDetector::AdaptiveDetector(int window, int bound)
    : detector_(window), start_window_(detector_.window()), bound_(std::max(clamp_window(bound), detector_.window())) {}

bool AdaptiveDetector::push(long sample, int& period) noexcept {
  const bool start = detector_.push(sample, period);
  if (period > 0) {
    without_period_ = 0;
    return start;
  }
  ++without_period_;
  if (without_period_ >= std::int64_t{patience} * detector_.window() && detector_.window() < bound_ && !growth_failed_)
    grow();
  return start;
}

void AdaptiveDetector::grow() noexcept {
  // The samples held are the same after set_window and so are the shifts that fit twice in them (all
  // of them were held by the smaller window), so the period stays 0: no answer changes here.
  const int next = static_cast<int>(std::min<std::int64_t>(std::int64_t{2} * detector_.window(), bound_));
  try {
    detector_.set_window(next);  // strong guarantee: unchanged when it throws
    ++growths_;
  } catch (...) {
    growth_failed_ = true;
  }
}

bool AdaptiveDetector::gave_up() const {
  const bool stuck = detector_.window() >= bound_ || growth_failed_;
  return stuck && without_period_ >= std::int64_t{patience} * detector_.window();
}

}  // namespace augur::dpd
