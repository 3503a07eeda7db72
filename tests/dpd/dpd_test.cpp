// The Dynamic Periodicity Detector on synthetic streams (docs/dpd.md, "What the tests show"): each
// case asserts the exact sample at which the period is first reported, the first start, and the
// period; randomized properties (fixed seeds) check the detector against the definition (dpd_random_test.cpp).
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <climits>
#include <cstdint>
#include <cstdlib>
#include <iterator>
#include <new>
#include <random>
#include <vector>

#include "augur/dpd.hpp"
#include "dpd_streams.hpp"

// Every allocation of the test binary is counted, to check that push() allocates nothing.
namespace {
std::atomic<long> allocation_count{0};
}  // namespace

void* operator new(std::size_t size) {
  ++allocation_count;
  if (void* block = std::malloc(size == 0 ? 1 : size)) return block;
  throw std::bad_alloc();
}
// Not inlined: GCC 12 would otherwise see free() on memory from operator new (-Wmismatched-new-delete).
[[gnu::noinline]] void operator delete(void* block) noexcept { std::free(block); }
[[gnu::noinline]] void operator delete(void* block, std::size_t) noexcept { std::free(block); }

namespace {

using augur::dpd::Detector;
using namespace augur::dpd::test;  // Trace, feed, repeat, distinct, concatenate, every, periods_are

// Addresses of outlined parallel-loop functions, as the dynamic instrumentation sees them.
constexpr long loop_a = 0x401a30;
constexpr long loop_b = 0x401b70;
constexpr long loop_c = 0x401cc0;
constexpr long loop_d = 0x401e10;

TEST(DpdDetector, SimplePeriodIsReportedAtEachFirstSampleAfterTwoPeriods) {
  Detector detector;  // window 128
  const Trace trace = feed(detector, repeat({loop_a, loop_b, loop_c}, 100));
  // Sample 5 completes two periods: the period is known from there; sample 6 is the first A after it.
  EXPECT_TRUE(periods_are(trace, 0, 5, 0));
  EXPECT_TRUE(periods_are(trace, 5, 300, 3));
  EXPECT_EQ(trace.starts, every(6, 300, 0, 3));
  EXPECT_EQ(detector.period(), 3);
  EXPECT_EQ(detector.start_sample(), loop_a);
  EXPECT_EQ(detector.phase(), 2);  // sample 299 is a C
  EXPECT_EQ(detector.statistics().samples, 300);
  EXPECT_EQ(detector.statistics().starts, 98);
  EXPECT_EQ(detector.statistics().detections, 1);
  EXPECT_EQ(detector.statistics().breaks, 0);
}

TEST(DpdDetector, PeriodOneIsTheSameSampleRepeated) {
  Detector detector;
  const Trace trace = feed(detector, std::vector<long>(50, loop_a));
  EXPECT_EQ(trace.periods[0], 0);
  EXPECT_TRUE(periods_are(trace, 1, 50, 1));
  EXPECT_EQ(trace.starts, every(1, 50, 0, 1));  // every sample from the second one on
  EXPECT_EQ(detector.start_sample(), loop_a);
}

// hydro2d (thesis Figure 4.10): an inner loop of period 2 run 5 times inside an outer period of 12.
std::vector<long> hydro2d(int outer_periods) {
  const std::vector<long> outer = concatenate(repeat({loop_a, loop_b}, 5), {loop_c, loop_d});
  return repeat(outer, outer_periods);
}

TEST(DpdDetector, NestedPeriodsReportTheOuterPeriodOnceTheWindowHoldsTwoOuterPeriods) {
  Detector detector;  // window 128
  const Trace trace = feed(detector, hydro2d(20));
  // Before: the first inner loop shows period 2 (samples 3..9, starts at the A's 4, 6, 8); the first C
  // (sample 10) breaks it; nothing until sample 23 completes two outer periods.
  EXPECT_TRUE(periods_are(trace, 0, 3, 0));
  EXPECT_TRUE(periods_are(trace, 3, 10, 2));
  EXPECT_TRUE(periods_are(trace, 10, 23, 0));
  EXPECT_TRUE(periods_are(trace, 23, 240, 12));  // the inner loops of later outer periods are not reported
  std::vector<long> expected = {4, 6, 8};
  for (long index : every(24, 240, 0, 12)) expected.push_back(index);
  EXPECT_EQ(trace.starts, expected);
  EXPECT_EQ(detector.start_sample(), loop_a);
  EXPECT_EQ(detector.statistics().detections, 2);
  EXPECT_EQ(detector.statistics().breaks, 1);
}

TEST(DpdDetector, NestedPeriodsWithAWindowShorterThanTwoOuterPeriodsShowOnlyTheInnerLoop) {
  Detector detector(8);  // periods up to 4: the outer period (12) cannot be seen
  const Trace trace = feed(detector, hydro2d(10));
  // The window lies inside an inner loop (8 samples of A B) only at samples 12k+7 .. 12k+9.
  std::vector<long> expected_starts = {4, 6, 8};
  for (std::size_t index = 0; index < trace.periods.size(); ++index) {
    const std::size_t position = index % 12;
    const bool inner = index < 12 ? (index >= 3 && index <= 9) : (position >= 7 && position <= 9);
    EXPECT_EQ(trace.periods[index], inner ? 2 : 0) << "sample " << index;
    if (index >= 12 && position == 8) expected_starts.push_back(static_cast<long>(index));
  }
  EXPECT_EQ(trace.starts, expected_starts);
}

TEST(DpdDetector, ChangeOfPeriodIsDetectedOnceTheWindowHoldsOnlyTheNewPeriod) {
  Detector detector(32);
  const std::vector<long> stream = concatenate(repeat({loop_a, loop_b, loop_c}, 40),  // samples 0..119
                                               repeat({11, 12, 13, 14, 15}, 40));      // samples 120..319
  const Trace trace = feed(detector, stream);
  EXPECT_TRUE(periods_are(trace, 0, 5, 0));
  EXPECT_TRUE(periods_are(trace, 5, 120, 3));
  // Sample 120 breaks period 3; the window (32) holds only the new stream from sample 151 = 120 + 32 - 1.
  EXPECT_TRUE(periods_are(trace, 120, 151, 0));
  EXPECT_TRUE(periods_are(trace, 151, 320, 5));
  // The new period starts at its first sample (120): starts at 155, 160, ...
  EXPECT_EQ(trace.starts, concatenate(every(6, 120, 0, 3), every(151, 320, 120, 5)));
  EXPECT_EQ(detector.start_sample(), 11);
  EXPECT_EQ(detector.statistics().detections, 2);
  EXPECT_EQ(detector.statistics().breaks, 1);
}

TEST(DpdDetector, AperiodicPrefixDelaysDetectionUntilItLeavesTheWindow) {
  for (const int prefix : {50, 10}) {
    SCOPED_TRACE(prefix);
    Detector detector(32);
    const Trace trace = feed(detector, concatenate(distinct(prefix, 1000), repeat({loop_a, loop_b, loop_c}, 60)));
    const std::size_t detected = static_cast<std::size_t>(prefix) + 32 - 1;  // 81, 41
    EXPECT_TRUE(periods_are(trace, 0, detected, 0));
    EXPECT_TRUE(periods_are(trace, detected, trace.periods.size(), 3));
    // The periodic part starts at sample `prefix` (an A): starts at 83, 86, ... (43, 46, ...).
    EXPECT_EQ(trace.starts, every(static_cast<long>(detected), static_cast<long>(trace.periods.size()), prefix, 3));
    EXPECT_EQ(trace.starts.front(), prefix + 33);
    EXPECT_EQ(detector.start_sample(), loop_a);
  }
}

TEST(DpdDetector, PeriodGoesBackToZeroWhenTheStreamBecomesAperiodic) {
  Detector detector(64);
  const Trace trace = feed(detector, concatenate(repeat({loop_a, loop_b, loop_c, loop_d}, 25), distinct(100, 5000)));
  EXPECT_TRUE(periods_are(trace, 0, 7, 0));
  EXPECT_TRUE(periods_are(trace, 7, 100, 4));
  EXPECT_TRUE(periods_are(trace, 100, 200, 0));  // the first aperiodic sample breaks the period
  EXPECT_EQ(trace.starts, every(8, 100, 0, 4));
  EXPECT_EQ(detector.period(), 0);
  EXPECT_EQ(detector.statistics().breaks, 1);
}

TEST(DpdDetector, SamplesAreArbitraryLongsIncludingZeroAndNegative) {
  Detector detector(64);
  const std::vector<long> pattern = {0, -1, LONG_MIN, LONG_MAX, 0, 42};  // period 6 (0 appears twice)
  const Trace trace = feed(detector, repeat(pattern, 20));
  EXPECT_TRUE(periods_are(trace, 0, 11, 0));
  EXPECT_TRUE(periods_are(trace, 11, 120, 6));
  EXPECT_EQ(trace.starts, every(12, 120, 0, 6));
  EXPECT_EQ(detector.start_sample(), 0);

  for (const long value : {0L, -1L, LONG_MIN, LONG_MAX}) {
    Detector constant(16);
    const Trace repeated = feed(constant, std::vector<long>(10, value));
    EXPECT_TRUE(periods_are(repeated, 1, 10, 1)) << value;
    EXPECT_EQ(constant.start_sample(), value);
  }
}

TEST(DpdDetector, WindowShorterThanTwoPeriodsDetectsNothing) {
  const std::vector<long> stream = repeat({1, 2, 3, 4, 5}, 200);
  for (const int window : {8, 9}) {  // longest period seen: window / 2 = 4
    Detector detector(window);
    const Trace trace = feed(detector, stream);
    EXPECT_TRUE(periods_are(trace, 0, stream.size(), 0)) << window;
    EXPECT_TRUE(trace.starts.empty()) << window;
  }
  Detector detector(10);  // two periods fit
  const Trace trace = feed(detector, stream);
  EXPECT_TRUE(periods_are(trace, 0, 9, 0));
  EXPECT_TRUE(periods_are(trace, 9, stream.size(), 5));
}

TEST(DpdDetector, InvalidWindowIsClampedWithoutException) {
  EXPECT_EQ(Detector(0).window(), 4);
  EXPECT_EQ(Detector(-7).window(), 4);
  EXPECT_EQ(Detector(3).window(), 4);
  EXPECT_EQ(Detector(4).window(), 4);
  EXPECT_EQ(Detector(1 << 20).window(), 1 << 20);
  EXPECT_EQ(Detector((1 << 20) + 1).window(), 1 << 20);
  EXPECT_EQ(Detector(INT_MAX).window(), 1 << 20);

  Detector detector(64);
  detector.set_window(2);
  EXPECT_EQ(detector.window(), 4);
  const Trace two = feed(detector, repeat({7, 8}, 5));  // period 2 fits in 4 samples
  EXPECT_TRUE(periods_are(two, 3, 10, 2));
  detector.reset();
  const Trace three = feed(detector, repeat({7, 8, 9}, 5));  // period 3 does not
  EXPECT_TRUE(periods_are(three, 0, 15, 0));
  detector.set_window(INT_MIN);
  EXPECT_EQ(detector.window(), 4);
}

TEST(DpdDetector, ShrinkingTheWindowKeepsAPeriodThatStillFitsAndItsPhase) {
  Detector detector(128);
  const std::vector<long> pattern = {10, 11, 12, 13, 14};
  const Trace before = feed(detector, repeat(pattern, 20));  // samples 0..99
  EXPECT_EQ(before.starts, every(10, 100, 0, 5));
  detector.set_window(16);
  EXPECT_EQ(detector.window(), 16);
  EXPECT_EQ(detector.held(), 16);
  EXPECT_EQ(detector.period(), 5);
  EXPECT_EQ(detector.phase(), 4);  // sample 99
  EXPECT_EQ(detector.start_sample(), 10);
  const Trace after = feed(detector, repeat(pattern, 4), 100);  // the starts go on at 100, 105, ...
  EXPECT_TRUE(periods_are(after, 0, 20, 5));
  EXPECT_EQ(after.starts, every(100, 120, 0, 5));
  EXPECT_EQ(detector.statistics().samples, 120);  // re-reading the kept samples is not counted
}

TEST(DpdDetector, ShrinkingBelowTwoPeriodsLosesThePeriodAndGrowingFindsItAgain) {
  Detector detector(128);
  const std::vector<long> pattern = {10, 11, 12, 13, 14};
  feed(detector, repeat(pattern, 20));  // samples 0..99
  detector.set_window(8);
  EXPECT_EQ(detector.period(), 0);
  const Trace small = feed(detector, repeat(pattern, 4), 100);  // samples 100..119
  EXPECT_TRUE(periods_are(small, 0, 20, 0));
  EXPECT_TRUE(small.starts.empty());
  detector.set_window(64);  // keeps samples 112..119: fewer than two periods
  EXPECT_EQ(detector.held(), 8);
  EXPECT_EQ(detector.period(), 0);
  const Trace grown = feed(detector, repeat(pattern, 4), 120);  // samples 120..139
  // Sample 121 makes ten samples held: period 5 again. The period had been lost, so its phase is
  // taken afresh from the oldest sample kept (112, a 12): starts at 122, 127, ...
  EXPECT_TRUE(periods_are(grown, 0, 1, 0));
  EXPECT_TRUE(periods_are(grown, 1, 20, 5));
  EXPECT_EQ(grown.starts, every(121, 140, 112, 5));
  EXPECT_EQ(detector.start_sample(), 12);
}

TEST(DpdDetector, GrowingTheWindowKeepsThePeriodAndItsPhase) {
  Detector detector(16);
  const std::vector<long> pattern = {10, 11, 12, 13, 14};
  const Trace before = feed(detector, repeat(pattern, 8));  // samples 0..39
  EXPECT_EQ(before.starts, every(10, 40, 0, 5));
  detector.set_window(128);
  EXPECT_EQ(detector.held(), 16);
  EXPECT_EQ(detector.period(), 5);
  const Trace after = feed(detector, repeat(pattern, 40), 40);
  EXPECT_TRUE(periods_are(after, 0, 200, 5));
  EXPECT_EQ(after.starts, every(40, 240, 0, 5));

  const Detector::Statistics statistics = detector.statistics();
  detector.set_window(128);  // the same size: nothing changes
  EXPECT_EQ(detector.period(), 5);
  EXPECT_EQ(detector.held(), 128);
  EXPECT_EQ(detector.statistics().comparisons, statistics.comparisons);
}

TEST(DpdDetector, ResetForgetsSamplesPeriodAndStatistics) {
  Detector detector(32);
  feed(detector, repeat({1, 2, 3}, 10));
  detector.reset();
  EXPECT_EQ(detector.window(), 32);
  EXPECT_EQ(detector.period(), 0);
  EXPECT_EQ(detector.held(), 0);
  EXPECT_EQ(detector.statistics().samples, 0);
  const Trace trace = feed(detector, repeat({4, 5, 6, 7}, 5));
  EXPECT_TRUE(periods_are(trace, 0, 7, 0));
  EXPECT_TRUE(periods_are(trace, 7, 20, 4));
}

TEST(DpdDetector, KnownPeriodCostsOneComparisonPerSample) {
  Detector detector(1024);
  const std::vector<long> stream = repeat({1, 2, 3, 4, 5, 6, 7}, 400);
  feed(detector, std::vector<long>(stream.begin(), stream.begin() + 14));  // detected at sample 13
  ASSERT_EQ(detector.period(), 7);
  const std::int64_t before = detector.statistics().comparisons;
  feed(detector, std::vector<long>(stream.begin() + 14, stream.end()));
  EXPECT_EQ(detector.statistics().comparisons - before, static_cast<std::int64_t>(stream.size()) - 14);

  // Without a period every shift up to N/2 is compared once per sample.
  Detector aperiodic(64);
  feed(aperiodic, distinct(100, 0));
  std::int64_t expected = 0;
  for (int index = 0; index < 100; ++index) expected += std::min(index, 32);
  EXPECT_EQ(aperiodic.statistics().comparisons, expected);
}

TEST(DpdDetector, PushAllocatesNothing) {
  Detector detector(256);
  std::vector<long> stream = concatenate(distinct(300, 0), repeat({1, 2, 3, 4, 5, 6, 7}, 100));
  stream = concatenate(stream, concatenate(repeat({9, 8}, 300), distinct(300, 100000)));
  const long before = allocation_count.load();
  int period = 0;
  int starts = 0;
  for (const long sample : stream) starts += detector.push(sample, period) ? 1 : 0;
  EXPECT_EQ(allocation_count.load(), before);
  EXPECT_GT(starts, 0);
}

}  // namespace
