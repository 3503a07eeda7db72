// bench/steadiness.hpp: the machine's steadiness that bench_outer_region prints before each program (crafted chunk
// times in, exact figures out; a short real run gives chunks).
#include "steadiness.hpp"

#include <gtest/gtest.h>

#include <vector>

using augur::bench::MachineSteadiness;
using augur::bench::Steadiness;
using augur::bench::steadiness_of;
using augur::bench::steadiness_summary;

TEST(BenchSteadiness, FiguresOfCraftedChunks) {
  // Four chunks of 1 ms and one of 2 ms: the mean 1.2 ms, 20% above the median; one chunk in five slow.
  const Steadiness odd = steadiness_of({1e-3, 2e-3, 1e-3, 1e-3, 1e-3});
  EXPECT_EQ(odd.chunks, 5);
  EXPECT_DOUBLE_EQ(odd.median_s, 1e-3);
  EXPECT_NEAR(odd.mean_excess, 0.2, 1e-12);
  EXPECT_DOUBLE_EQ(odd.slow_share, 0.2);
  EXPECT_NEAR(odd.slowest, 1.0, 1e-12);
  // An even count: the median between the middle two (2 ms), 3 and 5 ms above 2.2 ms.
  const Steadiness even = steadiness_of({5e-3, 1e-3, 3e-3, 1e-3});
  EXPECT_DOUBLE_EQ(even.median_s, 2e-3);
  EXPECT_NEAR(even.mean_excess, 0.25, 1e-12);
  EXPECT_DOUBLE_EQ(even.slow_share, 0.5);
  EXPECT_NEAR(even.slowest, 1.5, 1e-12);
  // Exactly 10% above the median is not slow.
  EXPECT_DOUBLE_EQ(steadiness_of({1.0, 1.0, 1.1}).slow_share, 0.0);
  const Steadiness none = steadiness_of({});
  EXPECT_EQ(none.chunks, 0);
  EXPECT_EQ(none.mean_excess, 0.0);
}

TEST(BenchSteadiness, TheSummaryGivesTheMedianAndTheRange) {
  MachineSteadiness first;
  first.processors = 2;
  first.arithmetic_one = steadiness_of({1e-3, 1e-3, 1e-3, 1e-3, 2e-3});  // +20%
  first.arithmetic_all = steadiness_of({1e-3, 1e-3});                    // +0%
  first.memory_one = steadiness_of({1e-3, 3e-3});                        // +0%: the median is the mean
  first.memory_all = steadiness_of({2e-3, 2e-3, 2e-3, 4e-3});            // +25%
  MachineSteadiness second = first;
  second.arithmetic_one = steadiness_of({1e-3, 1e-3, 1.3e-3, 1e-3});     // +7.5%
  MachineSteadiness third = first;
  third.arithmetic_one = steadiness_of({1e-3});                          // +0%
  third.arithmetic_all = steadiness_of({1e-3, 1e-3, 1e-3, 1.4e-3});      // +10%
  third.memory_all = steadiness_of({1e-3});                              // +0%
  EXPECT_EQ(steadiness_summary({first, second, third}),
            "== the machine's steadiness before each of 3 programs (1 ms chunks of fixed work)\n"
            "  arithmetic on 1 thread: mean +7.5% of the median chunk in the median, +0.0% to +20.0%\n"
            "  arithmetic on 2 threads at once: mean +0.0% of the median chunk in the median, +0.0% to +10.0%\n"
            "  memory on 1 thread: mean +0.0% of the median chunk in the median, +0.0% to +0.0%\n"
            "  memory on 2 threads at once: mean +25.0% of the median chunk in the median, +0.0% to +25.0%\n");
  EXPECT_EQ(steadiness_summary({}), "");
  EXPECT_EQ(augur::bench::steadiness_lines(third, 0.5),
            "  the machine's steadiness before it (1 ms chunks of fixed work, 0.5 s each: arithmetic, then reading 8 MiB a "
            "thread; on 1 thread, then on 2 at once):\n"
            "    arithmetic on 1 thread: mean +0.0% of the median chunk (1.000 ms), 0% of 1 chunks 10% slower, slowest +0%\n"
            "    arithmetic on 2 threads: mean +10.0% of the median chunk (1.000 ms), 25% of 4 chunks 10% slower, slowest +40%\n"
            "    memory on 1 thread: mean +0.0% of the median chunk (2.000 ms), 50% of 2 chunks 10% slower, slowest +50%\n"
            "    memory on 2 threads: mean +0.0% of the median chunk (1.000 ms), 0% of 1 chunks 10% slower, slowest +0%\n");
}

TEST(BenchSteadiness, AShortRunTimesChunksOnEveryThread) {
  for (const auto kind : {augur::bench::Work::Arithmetic, augur::bench::Work::Memory}) {
    const long steps = augur::bench::calibrate_work(kind, 1e-4);
    EXPECT_GE(steps, 1000);
    const std::vector<double> times = augur::bench::time_chunks(kind, 2, 0.01, steps);
    ASSERT_GE(times.size(), 2u);  // two threads: two chunks at least, in all
    for (const double time : times) EXPECT_GT(time, 0.0);
    // The work is done at every chunk: a compiler that knew its result would run it once and every chunk would
    // take a clock read (the first version: 0.05 us chunks). Calibrated on the fastest of five timings, a chunk
    // takes at least a tenth of the asked 0.1 ms whatever the load (a load only lengthens it).
    EXPECT_GT(steadiness_of(times).median_s, 1e-5);
  }
}
