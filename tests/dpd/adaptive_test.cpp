// The adaptive periodicity detector (include/augur/dpd.hpp, docs/dpd.md "The adaptive detector") on
// synthetic streams: the exact sample at which it grows and finds a period, its bound, its equality with
// the plain detector while it does not grow, no allocation once grown, and a growth that runs out of
// memory. Its own test binary: operator new is replaced to count allocations and to fail on demand.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <new>
#include <random>
#include <type_traits>
#include <vector>

#include "augur/dpd.hpp"

namespace {
std::atomic<long> allocation_count{0};
std::atomic<bool> fail_allocations{false};
}  // namespace

void* operator new(std::size_t size) {
  if (fail_allocations.load()) throw std::bad_alloc();
  ++allocation_count;
  if (void* block = std::malloc(size == 0 ? 1 : size)) return block;
  throw std::bad_alloc();
}
// Not inlined: GCC 12 would otherwise see free() on memory from operator new (-Wmismatched-new-delete).
[[gnu::noinline]] void operator delete(void* block) noexcept { std::free(block); }
[[gnu::noinline]] void operator delete(void* block, std::size_t) noexcept { std::free(block); }

namespace {

using augur::dpd::AdaptiveDetector;
using augur::dpd::Detector;

// The detectors' types go by value into the interposition engines (src/interpose/dynamic_regions.hpp).
static_assert(std::is_nothrow_move_constructible_v<AdaptiveDetector>);

struct Trace {
  std::vector<int> periods;  // the period after each sample
  std::vector<long> starts;  // the indexes of the samples that started a period
  std::vector<int> windows;  // the window after each sample
};

template <typename D>
Trace feed(D& detector, const std::vector<long>& stream) {
  Trace trace;
  for (std::size_t index = 0; index < stream.size(); ++index) {
    int period = -1;
    if (detector.push(stream[index], period)) trace.starts.push_back(static_cast<long>(index));
    trace.periods.push_back(period);
    trace.windows.push_back(detector.window());
  }
  return trace;
}

std::vector<long> distinct(int count, long first) {
  std::vector<long> stream;
  for (int index = 0; index < count; ++index) stream.push_back(first + index);
  return stream;
}

// A CG-like time step of 83 worksharing constructs: most call sites distinct, some met several times in
// the step (a dot product's reduction and its barrier, every fifth construct). 83 is prime, so the step
// is a primitive word and 83 is the smallest period.
std::vector<long> cg_like(int steps) {
  std::vector<long> step;
  for (int index = 0; index < 83; ++index) step.push_back(index % 5 == 4 ? 0x500000 + (index / 10) % 3 : 0x400000 + index);
  std::vector<long> stream;
  for (int time = 0; time < steps; ++time) stream.insert(stream.end(), step.begin(), step.end());
  return stream;
}

// The first index with a non-zero period, or -1.
long first_period(const Trace& trace) {
  for (std::size_t index = 0; index < trace.periods.size(); ++index)
    if (trace.periods[index] != 0) return static_cast<long>(index);
  return -1;
}

TEST(DpdAdaptive, PeriodLongerThanHalfTheStartWindowIsFoundAfterOneGrowth) {
  const std::vector<long> stream = cg_like(12);
  Detector plain(128);
  const Trace fixed = feed(plain, stream);
  EXPECT_EQ(first_period(fixed), -1) << "83 > 128 / 2: the plain detector never finds it";

  AdaptiveDetector detector(128);
  const Trace trace = feed(detector, stream);
  // 256 samples without a period (0 .. 255): the window doubles at sample 255 and keeps those 128 samples
  // (128 .. 255); two periods are held 38 samples later.
  EXPECT_EQ(trace.windows[254], 128);
  EXPECT_EQ(trace.windows[255], 256);
  EXPECT_EQ(first_period(trace), 293);
  for (std::size_t index = 293; index < trace.periods.size(); ++index) ASSERT_EQ(trace.periods[index], 83) << index;
  // The periodic suffix found starts at the oldest sample kept (128): starts at 128 + 83 k from 294 on.
  ASSERT_FALSE(trace.starts.empty());
  EXPECT_EQ(trace.starts.front(), 294);
  for (std::size_t index = 1; index < trace.starts.size(); ++index) EXPECT_EQ(trace.starts[index] - trace.starts[index - 1], 83);
  EXPECT_EQ(detector.start_sample(), stream[128]);
  // It keeps the window it found the period with.
  EXPECT_EQ(detector.grown_to(), 256);
  EXPECT_EQ(detector.growths(), 1);
  EXPECT_EQ(detector.start_window(), 128);
  EXPECT_FALSE(detector.gave_up());
}

TEST(DpdAdaptive, AperiodicStreamStopsGrowingAtTheBoundAndGivesUp) {
  AdaptiveDetector detector(128);
  EXPECT_EQ(detector.bound(), 2048);
  const Trace trace = feed(detector, distinct(6000, 1));
  // Doubles whenever 2N samples in a row had no period: at samples 255, 511, 1023, 2047.
  std::vector<long> growths;
  for (std::size_t index = 1; index < trace.windows.size(); ++index)
    if (trace.windows[index] != trace.windows[index - 1]) growths.push_back(static_cast<long>(index));
  EXPECT_EQ(growths, (std::vector<long>{255, 511, 1023, 2047}));
  EXPECT_EQ(trace.windows.back(), 2048);
  EXPECT_EQ(detector.grown_to(), 2048);
  EXPECT_EQ(detector.growths(), 4);
  EXPECT_FALSE(detector.growth_failed());
  EXPECT_EQ(first_period(trace), -1);
  // Gave up once 2 x 2048 samples in a row went by without a period (sample 4095).
  EXPECT_TRUE(detector.gave_up());
  AdaptiveDetector shorter(128);
  feed(shorter, distinct(4095, 1));
  EXPECT_FALSE(shorter.gave_up());
  shorter.push(100000);
  EXPECT_TRUE(shorter.gave_up());
}

TEST(DpdAdaptive, TheBoundIsClippedAndNeverBelowTheStartWindow) {
  AdaptiveDetector odd(100, 1000);
  feed(odd, distinct(5000, 1));
  EXPECT_EQ(odd.grown_to(), 1000);  // 200, 400, 800, then 1000 (clipped)
  EXPECT_EQ(odd.growths(), 4);

  AdaptiveDetector large(512, 128);  // a start window above the bound: the bound is the start window
  EXPECT_EQ(large.bound(), 512);
  feed(large, distinct(3000, 1));
  EXPECT_EQ(large.grown_to(), 512);
  EXPECT_EQ(large.growths(), 0);
  EXPECT_TRUE(large.gave_up());

  AdaptiveDetector clamped(1, Detector::max_window * 2);  // clamped as Detector's
  EXPECT_EQ(clamped.start_window(), Detector::min_window);
  EXPECT_EQ(clamped.bound(), Detector::max_window);
}

// While no 2N samples in a row go by without a period, the adaptive detector is the plain one: the
// random streams of dpd_test (an aperiodic prefix of up to N samples, then a primitive period up to N/2).
TEST(DpdAdaptive, PeriodThatFitsTheStartWindowIsFoundExactlyAsByThePlainDetector) {
  std::mt19937_64 random(20261123);
  for (int trial = 0; trial < 300; ++trial) {
    const int window = std::uniform_int_distribution<int>(4, 256)(random);
    const int period = std::uniform_int_distribution<int>(1, window / 2)(random);
    const int prefix = std::uniform_int_distribution<int>(0, window)(random);
    std::vector<long> pattern;
    for (;;) {  // a primitive word over 4 letters
      pattern.clear();
      for (int index = 0; index < period; ++index) pattern.push_back(std::uniform_int_distribution<long>(0, 3)(random));
      bool primitive = true;
      for (int divisor = 1; divisor < period && primitive; ++divisor) {
        if (period % divisor != 0) continue;
        bool repeats = true;
        for (int index = divisor; index < period && repeats; ++index) repeats = pattern[index] == pattern[index - divisor];
        primitive = !repeats;
      }
      if (primitive) break;
    }
    std::vector<long> stream = distinct(prefix, 1000);
    for (int index = 0; index < 3 * window + 5 * period; ++index) stream.push_back(pattern[index % period]);
    SCOPED_TRACE("trial " + std::to_string(trial) + ": window " + std::to_string(window) + ", period " +
                 std::to_string(period) + ", prefix " + std::to_string(prefix));
    Detector plain(window);
    AdaptiveDetector adaptive(window);
    const Trace expected = feed(plain, stream);
    const Trace actual = feed(adaptive, stream);
    ASSERT_EQ(actual.periods, expected.periods);
    ASSERT_EQ(actual.starts, expected.starts);
    ASSERT_EQ(adaptive.growths(), 0);
    ASSERT_EQ(adaptive.period(), period);
  }
}

// Pushes the stream and counts the allocations made meanwhile and the starts.
long allocations_while_pushing(AdaptiveDetector& detector, const std::vector<long>& stream, long& starts) {
  const long before = allocation_count.load();
  int period = 0;
  for (const long sample : stream) starts += detector.push(sample, period) ? 1 : 0;
  return allocation_count.load() - before;
}

TEST(DpdAdaptive, AllocatesNothingOnceAtTheBoundOrOnceAPeriodIsHeld) {
  long starts = 0;
  AdaptiveDetector bounded(16, 64);
  // Two growths (32, 64), each set_window allocating its three vectors (kept samples, history, runs).
  EXPECT_EQ(allocations_while_pushing(bounded, distinct(200, 1), starts), 6);
  ASSERT_EQ(bounded.grown_to(), 64);
  EXPECT_EQ(allocations_while_pushing(bounded, distinct(5000, 10000), starts), 0);

  AdaptiveDetector found(128);
  allocations_while_pushing(found, cg_like(8), starts);
  ASSERT_EQ(found.period(), 83);
  starts = 0;
  EXPECT_EQ(allocations_while_pushing(found, cg_like(100), starts), 0);
  EXPECT_EQ(found.grown_to(), 256);
  EXPECT_EQ(starts, 100);
}

TEST(DpdAdaptive, GrowthThatRunsOutOfMemoryKeepsTheWindowAndStopsGrowing) {
  AdaptiveDetector detector(32);
  feed(detector, distinct(63, 1));  // one sample short of the growth
  ASSERT_EQ(detector.window(), 32);
  fail_allocations = true;
  int period = -1;
  detector.push(64, period);  // would grow to 64: set_window throws std::bad_alloc, push does not
  fail_allocations = false;
  EXPECT_TRUE(detector.growth_failed());
  EXPECT_EQ(detector.window(), 32);
  EXPECT_EQ(detector.growths(), 0);
  EXPECT_TRUE(detector.gave_up());
  feed(detector, distinct(500, 1000));
  EXPECT_EQ(detector.window(), 32) << "no second attempt";
  // The detector goes on working at the window it has.
  const Trace trace = feed(detector, std::vector<long>{7, 8, 9, 7, 8, 9, 7, 8, 9, 7, 8, 9, 7, 8, 9, 7, 8, 9, 7, 8, 9, 7, 8, 9, 7, 8, 9, 7, 8, 9, 7, 8, 9});
  EXPECT_EQ(trace.periods.back(), 3);
  EXPECT_FALSE(detector.gave_up());
}

TEST(DpdAdaptive, MeasuredIterationsBelowTheMinimumAreNotEnough) {
  EXPECT_EQ(augur::dpd::min_measured_iterations, 5);
  EXPECT_FALSE(augur::dpd::enough_measured_iterations(0));
  EXPECT_FALSE(augur::dpd::enough_measured_iterations(1));
  EXPECT_FALSE(augur::dpd::enough_measured_iterations(4));
  EXPECT_TRUE(augur::dpd::enough_measured_iterations(5));
  EXPECT_TRUE(augur::dpd::enough_measured_iterations(400));
}

}  // namespace
