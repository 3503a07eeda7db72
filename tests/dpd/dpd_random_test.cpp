// The Dynamic Periodicity Detector against its definition on random streams (fixed seeds): periodic streams
// after aperiodic prefixes, mixed streams and window changes (the hand-made cases: dpd_test.cpp).
#include <gtest/gtest.h>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <iterator>
#include <random>
#include <vector>

#include "augur/dpd.hpp"
#include "dpd_streams.hpp"

namespace {

using augur::dpd::Detector;
using namespace augur::dpd::test;  // Trace, feed, repeat, distinct, concatenate, every, periods_are

// ---- Randomized properties (fixed seeds) ----------------------------------------------------------

// A primitive word of `length` letters from a small alphabet (repeated letters within the period).
std::vector<long> primitive_pattern(std::mt19937_64& random, int length) {
  std::uniform_int_distribution<long> letter(0, 3);
  for (;;) {
    std::vector<long> pattern(static_cast<std::size_t>(length));
    for (long& value : pattern) value = letter(random);
    bool primitive = true;
    for (int divisor = 1; divisor < length && primitive; ++divisor) {
      if (length % divisor != 0) continue;
      bool repeats = true;
      for (int index = divisor; index < length && repeats; ++index)
        repeats = pattern[static_cast<std::size_t>(index)] == pattern[static_cast<std::size_t>(index - divisor)];
      primitive = !repeats;
    }
    if (primitive) return pattern;
  }
}

TEST(DpdDetector, RandomPeriodicStreamsAfterAperiodicPrefixesAreFoundExactly) {
  std::mt19937_64 random(20010423);
  const int windows[] = {4, 8, 16, 32, 64, 128, 256};
  for (int trial = 0; trial < 300; ++trial) {
    const int window = windows[random() % std::size(windows)];
    const int period = 1 + static_cast<int>(random() % static_cast<unsigned>(window / 2));
    const int prefix = static_cast<int>(random() % static_cast<unsigned>(2 * window + 1));
    const std::vector<long> pattern = primitive_pattern(random, period);
    const int periods = (window + 3 * period) / period + 2;
    const std::vector<long> stream = concatenate(distinct(prefix, 100), repeat(pattern, periods));
    SCOPED_TRACE(::testing::Message() << "trial " << trial << ": window " << window << ", period " << period
                                      << ", prefix " << prefix);

    Detector detector(window);
    const Trace trace = feed(detector, stream);
    // With a prefix: found when the prefix has left the window, nothing before. Without one: as soon as
    // two periods are held; before that the first samples may show a shorter period of their own (the
    // word "ABCABCD" starts with period 3), as the definition says (checked by the next test).
    const std::size_t detected = prefix == 0 ? static_cast<std::size_t>(2 * period - 1)
                                             : static_cast<std::size_t>(prefix + window - 1);
    if (prefix > 0) {
      ASSERT_TRUE(periods_are(trace, 0, detected, 0));
    }
    ASSERT_TRUE(periods_are(trace, detected, stream.size(), period));
    std::vector<long> starts_after;
    std::copy_if(trace.starts.begin(), trace.starts.end(), std::back_inserter(starts_after),
                 [&](long index) { return index >= static_cast<long>(detected); });
    ASSERT_EQ(starts_after, every(static_cast<long>(detected), static_cast<long>(stream.size()), prefix, period));
    if (prefix > 0) {
      ASSERT_EQ(starts_after, trace.starts);
    }
    ASSERT_EQ(detector.start_sample(), pattern[0]);
  }
}

// The period by the definition: the smallest m in 1..L/2 with x(k) == x(k - m) for every pair in the
// window of the L = min(n + 1, N) most recent samples.
int reference_period(const std::vector<long>& stream, std::size_t last, int window) {
  const long held = std::min<long>(static_cast<long>(last) + 1, window);
  const long first = static_cast<long>(last) - held + 1;
  for (long shift = 1; shift <= held / 2; ++shift) {
    bool periodic = true;
    for (long index = first + shift; index <= static_cast<long>(last) && periodic; ++index)
      periodic = stream[static_cast<std::size_t>(index)] == stream[static_cast<std::size_t>(index - shift)];
    if (periodic) return static_cast<int>(shift);
  }
  return 0;
}

// Periodic segments (period 1..40, a small alphabet) and noise from the same alphabet, so that short
// accidental periods appear too.
std::vector<long> mixed_stream(std::mt19937_64& random, std::size_t length) {
  std::vector<long> stream;
  while (stream.size() < length) {
    if (random() % 3 == 0) {
      const int noise = static_cast<int>(random() % 60);
      for (int index = 0; index < noise; ++index) stream.push_back(static_cast<long>(random() % 4));
    } else {
      const std::vector<long> pattern = primitive_pattern(random, 1 + static_cast<int>(random() % 40));
      stream = concatenate(stream, repeat(pattern, 1 + static_cast<int>(random() % 12)));
    }
  }
  return stream;
}

TEST(DpdDetector, RandomMixedStreamsAgreeWithTheDefinitionAtEverySample) {
  std::mt19937_64 random(4423);
  for (int trial = 0; trial < 120; ++trial) {
    const int window = 4 + static_cast<int>(random() % 97);
    const std::vector<long> stream = mixed_stream(random, 2500);
    SCOPED_TRACE(::testing::Message() << "trial " << trial << ": window " << window);

    Detector detector(window);
    std::int64_t detections = -1;
    long segment_start = -1;  // the last start within the current detection, or -1
    long detected_at = 0;
    for (std::size_t index = 0; index < stream.size(); ++index) {
      int period = -1;
      const bool start = detector.push(stream[index], period);
      ASSERT_EQ(period, reference_period(stream, index, window)) << "sample " << index;
      if (detector.statistics().detections != detections) {  // a new detection: a new phase
        detections = detector.statistics().detections;
        segment_start = -1;
        detected_at = static_cast<long>(index);
      }
      if (period == 0) {
        ASSERT_FALSE(start) << "sample " << index;
        continue;
      }
      // Within one detection the starts are exactly one period apart, the first within one period.
      const long position = static_cast<long>(index);
      if (start) {
        ASSERT_EQ(stream[index], detector.start_sample()) << "sample " << index;
        if (segment_start >= 0) {
          ASSERT_EQ(position - segment_start, period) << "sample " << index;
        }
        segment_start = position;
      } else {
        ASSERT_TRUE(segment_start < 0 ? position - detected_at < period : position - segment_start < period)
            << "sample " << index;
      }
    }
  }
}

// set_window keeps the most recent min(held, size) samples and re-reads them as a whole stream: the
// period then follows the definition over the kept samples and those pushed after them.
TEST(DpdDetector, RandomWindowChangesAgreeWithTheDefinitionOverTheKeptSamples) {
  std::mt19937_64 random(1999);
  for (int trial = 0; trial < 40; ++trial) {
    const std::vector<long> stream = mixed_stream(random, 3000);
    int window = 4 + static_cast<int>(random() % 97);
    Detector detector(window);
    std::vector<long> seen;  // the stream as the detector knows it
    for (std::size_t index = 0; index < stream.size(); ++index) {
      if (random() % 200 == 0) {
        const int old_window = window;
        window = 4 + static_cast<int>(random() % 97);
        detector.set_window(window);
        const std::size_t kept = std::min({seen.size(), static_cast<std::size_t>(old_window), static_cast<std::size_t>(window)});
        seen.erase(seen.begin(), seen.end() - static_cast<std::ptrdiff_t>(kept));
        ASSERT_EQ(detector.held(), static_cast<int>(kept));
        ASSERT_EQ(detector.period(), seen.empty() ? 0 : reference_period(seen, seen.size() - 1, window))
            << "trial " << trial << ", set_window(" << window << ") before sample " << index;
      }
      seen.push_back(stream[index]);
      int period = -1;
      detector.push(stream[index], period);
      ASSERT_EQ(period, reference_period(seen, seen.size() - 1, window)) << "trial " << trial << ", sample " << index;
    }
  }
}

}  // namespace
