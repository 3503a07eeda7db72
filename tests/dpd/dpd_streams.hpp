// Streams of samples for the tests of the Dynamic Periodicity Detector (dpd_test.cpp, dpd_random_test.cpp):
// what the detector answers for each sample, and streams made of repeated patterns and distinct samples.
#pragma once

#include <gtest/gtest.h>

#include <cstddef>
#include <vector>

#include "augur/dpd.hpp"

namespace augur::dpd::test {

// What the detector answered for each sample of a stream.
struct Trace {
  std::vector<int> periods;   // the period after each sample
  std::vector<long> starts;   // the indexes (in the whole stream) of the samples that started a period
};

// Feeds `stream` to `detector`; the first sample has index `first_index`.
inline Trace feed(Detector& detector, const std::vector<long>& stream, long first_index = 0) {
  Trace trace;
  for (std::size_t index = 0; index < stream.size(); ++index) {
    int period = -1;
    if (detector.push(stream[index], period)) trace.starts.push_back(first_index + static_cast<long>(index));
    trace.periods.push_back(period);
  }
  return trace;
}

inline std::vector<long> repeat(const std::vector<long>& pattern, int times) {
  std::vector<long> stream;
  for (int time = 0; time < times; ++time) stream.insert(stream.end(), pattern.begin(), pattern.end());
  return stream;
}

// `count` distinct samples first, first + 1, ...: an aperiodic stretch.
inline std::vector<long> distinct(int count, long first) {
  std::vector<long> stream;
  for (int index = 0; index < count; ++index) stream.push_back(first + index);
  return stream;
}

inline std::vector<long> concatenate(std::vector<long> head, const std::vector<long>& tail) {
  head.insert(head.end(), tail.begin(), tail.end());
  return head;
}

// The indexes n in [from, to) with (n - anchor) mod period == 0.
inline std::vector<long> every(long from, long to, long anchor, long period) {
  std::vector<long> indexes;
  for (long index = from; index < to; ++index)
    if ((index - anchor) % period == 0) indexes.push_back(index);
  return indexes;
}

// periods[from, to) all equal `period`.
inline ::testing::AssertionResult periods_are(const Trace& trace, std::size_t from, std::size_t to, int period) {
  for (std::size_t index = from; index < to; ++index)
    if (trace.periods[index] != period)
      return ::testing::AssertionFailure() << "sample " << index << ": period " << trace.periods[index] << ", expected "
                                           << period;
  return ::testing::AssertionSuccess();
}

}  // namespace augur::dpd::test
