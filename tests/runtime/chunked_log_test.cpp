// ChunkedLog (src/runtime/chunked_log.hpp), the store of libaugur's experiment records: appending never
// moves what is stored, chunks come one at a time, and a report gives back what the log no longer uses.
#include <gtest/gtest.h>

#include <cstddef>

#include "runtime/chunked_log.hpp"

namespace {

using augur::runtime::ChunkedLog;

TEST(ChunkedLog, AppendsInOrderWithoutMovingWhatIsStored) {
  ChunkedLog<int, 1024> log;
  EXPECT_TRUE(log.empty());
  EXPECT_EQ(log.chunks(), 0u);
  log.push_back(0);
  const int* first = &log[0];
  for (int value = 1; value < 2500; ++value) log.push_back(value);
  EXPECT_EQ(&log[0], first) << "the first record moved";
  ASSERT_EQ(log.size(), 2500u);
  EXPECT_EQ(log.chunks(), 3u);  // 1024 + 1024 + 452
  for (std::size_t index = 0; index < log.size(); ++index) ASSERT_EQ(log[index], static_cast<int>(index));
}

TEST(ChunkedLog, RetainKeepsTheOrderAndTheChunksOfTheLastRound) {
  ChunkedLog<int, 1024> log;
  for (int value = 0; value < 2500; ++value) log.push_back(value);
  log.retain([](int value) { return value % 2 == 0; });
  ASSERT_EQ(log.size(), 1250u);
  for (std::size_t index = 0; index < log.size(); ++index) ASSERT_EQ(log[index], static_cast<int>(2 * index));
  EXPECT_EQ(log.chunks(), 3u) << "the round held 2500: its three chunks stay for the next";

  // The next round holds at most 1260: at its end two chunks stay, the third goes back.
  for (int value = 0; value < 10; ++value) log.push_back(-value);
  EXPECT_EQ(log[1250], 0);
  EXPECT_EQ(log[1259], -9);
  log.clear();
  EXPECT_TRUE(log.empty());
  EXPECT_EQ(log.chunks(), 2u);
  // A round with nothing in it: nothing stays.
  log.clear();
  EXPECT_EQ(log.chunks(), 0u);
  log.push_back(7);
  EXPECT_EQ(log[0], 7);
  EXPECT_EQ(log.chunks(), 1u);
}

}  // namespace
