// The machine's load beside a run (issue 16): the first line of /proc/stat parsed on fixed text, and the
// processors other processes used, from the busy ticks less this process's CPU time.
#include <gtest/gtest.h>

#include "augur/selfanalysis_noise.hpp"

namespace augur::selfanalysis {
namespace {

// The first line of /proc/stat, as Linux writes it (ten fields since 2.6.33; older kernels fewer after steal).
TEST(NoiseMachine, CpuTimesFromProcStat) {
  CpuTimes times;
  ASSERT_TRUE(parse_cpu_times("cpu  4705 150 1120 16250 520 20 33 7 0 0\ncpu0 2000 75 500 8000 260 10 16 3 0 0\n", times));
  EXPECT_EQ(times.busy, 4705u + 150u + 1120u + 20u + 33u);  // user nice system irq softirq
  EXPECT_EQ(times.total, 4705u + 150u + 1120u + 16250u + 520u + 20u + 33u + 7u);
  EXPECT_EQ(times.steal, 7u);
  ASSERT_TRUE(parse_cpu_times("cpu 1 2 3 4 5 6 7 8", times));  // exactly eight, one space
  EXPECT_EQ(times.busy, 1u + 2u + 3u + 6u + 7u);
  EXPECT_EQ(times.total, 36u);
  EXPECT_EQ(times.steal, 8u);
  CpuTimes untouched;
  EXPECT_FALSE(parse_cpu_times("cpu  1 2 3 4 5 6 7\n", untouched)) << "seven fields (a kernel before 2.6.11)";
  EXPECT_FALSE(parse_cpu_times("cpu0 1 2 3 4 5 6 7 8\n", untouched)) << "a processor's line, not the sum";
  EXPECT_FALSE(parse_cpu_times("intr 1 2 3 4 5 6 7 8\n", untouched));
  EXPECT_FALSE(parse_cpu_times("cpu  1 2 3 x 5 6 7 8\n", untouched));
  EXPECT_FALSE(parse_cpu_times("cpu  1 2 3 -4 5 6 7 8\n", untouched));
  EXPECT_FALSE(parse_cpu_times("", untouched));
  EXPECT_FALSE(parse_cpu_times("cpu  99999999999999999999 2 3 4 5 6 7 8\n", untouched)) << "past 2^64";
  EXPECT_EQ(untouched.total, 0u);
}

TEST(NoiseMachine, OtherProcessesLoadIsTheBusyTimeLessOurs) {
  CpuTimes start;
  start.busy = 1000;
  start.total = 5000;
  CpuTimes end = start;
  end.busy = 1150;  // 1.5 s of busy processors at 100 ticks a second
  end.total = 5200;
  // 1.5 s busy, 1.0 s of it this process's, over 1 s: another process used half a processor.
  EXPECT_DOUBLE_EQ(other_cpu_load(start, end, 100.0, 1.0, 1.0), 0.5);
  EXPECT_DOUBLE_EQ(other_cpu_load(start, end, 100.0, 1.5, 2.0), 0.0);
  EXPECT_DOUBLE_EQ(other_cpu_load(start, end, 100.0, 1.52, 1.0), 0.0) << "the ticks' rounding: never below 0";
  EXPECT_DOUBLE_EQ(other_cpu_load(start, end, 100.0, 0.0, 0.75), 2.0);
  EXPECT_DOUBLE_EQ(other_cpu_load(start, end, 100.0, 0.3, 0.2), 6.0) << "0.2 s: long enough for the competition's limit";
  EXPECT_LT(other_cpu_load(start, end, 100.0, 1.0, 0.19), 0.0) << "too short for ticks of 10 ms";
  EXPECT_LT(other_cpu_load(end, start, 100.0, 1.0, 1.0), 0.0) << "backwards";
  EXPECT_LT(other_cpu_load(start, end, 0.0, 1.0, 1.0), 0.0);
}

// Runs too short for /proc/stat's ticks read the cgroup root's CPU time in nanoseconds (v1 cpuacct.usage, v2
// cpu.stat's usage_usec).
TEST(NoiseMachine, ShortRunsReadTheCgroupRootsCpuTimeInNanoseconds) {
  using augur::selfanalysis::other_cpu_load_precise;
  using augur::selfanalysis::parse_cgroup_cpu_usage;
  unsigned long long ns = 0;
  EXPECT_TRUE(parse_cgroup_cpu_usage("21092819553058\n", ns));
  EXPECT_EQ(ns, 21092819553058ULL);
  EXPECT_TRUE(parse_cgroup_cpu_usage("usage_usec 20988863149\nuser_usec 19548909237\nsystem_usec 1439953912\n", ns));
  EXPECT_EQ(ns, 20988863149000ULL);
  EXPECT_TRUE(parse_cgroup_cpu_usage("user_usec 5\nusage_usec 7", ns));
  EXPECT_EQ(ns, 7000ULL);
  for (const char* bad : {"", "abc\n", "12x\n", "user_usec 5\n", "usage_usec \n", "usage_usec x1\n"})
    EXPECT_FALSE(parse_cgroup_cpu_usage(bad, ns)) << bad;
  // 0.6 s of every task's CPU time, 0.1 s of it this process's, over 1 s: half a processor.
  EXPECT_DOUBLE_EQ(other_cpu_load_precise(1000000000ULL, 1600000000ULL, 0.1, 1.0), 0.5);
  // A run of 0.08 s whose competitor ran from half-way: 0.04 s beside 0.08 s of the team's two threads.
  EXPECT_NEAR(other_cpu_load_precise(0, 120000000ULL, 0.08, 0.08), 0.5, 1e-12);
  EXPECT_DOUBLE_EQ(other_cpu_load_precise(0, 100000000ULL, 0.2, 0.1), 0.0) << "never below 0";
  EXPECT_LT(other_cpu_load_precise(0, 100000000ULL, 0.0, 0.019), 0.0) << "shorter than 0.02 s";
  EXPECT_NEAR(other_cpu_load_precise(0, 21000000ULL, 0.02, 0.02), 0.05, 1e-12) << "0.02 s is long enough";
  EXPECT_LT(other_cpu_load_precise(5, 4, 0.0, 1.0), 0.0) << "backwards";
}

// What other processes used beyond the processors the team left free: on 2 processors a team of 2 leaves none,
// so a competitor's 0.3 of a processor over the run is competition; on 8 the same team leaves 6.
TEST(NoiseMachine, CompetitionIsTheLoadBeyondTheProcessorsTheTeamLeftFree) {
  MachineContext machine;
  machine.known = true;
  machine.available_processors = 2;
  EXPECT_LT(machine.competing_load(2), 0.0) << "other_cpu_load unknown";
  EXPECT_FALSE(machine.competed(2));
  machine.other_cpu_load = 0.3;
  EXPECT_DOUBLE_EQ(machine.competing_load(2), 0.3);
  EXPECT_TRUE(machine.competed(2));
  EXPECT_EQ(machine.competed_reason(2),
            "other processes used 0.30 processors beside the run (2 processors, a team of 2): they competed for the team's cores");
  EXPECT_DOUBLE_EQ(machine.competing_load(1), -0.7) << "a team of 1 leaves a processor free";
  EXPECT_FALSE(machine.competed(1));
  machine.other_cpu_load = 0.25;
  EXPECT_FALSE(machine.competed(2)) << "the limit itself is not more than the limit";
  machine.available_processors = 8;
  machine.other_cpu_load = 6.2;
  EXPECT_NEAR(machine.competing_load(2), 0.2, 1e-12);
  EXPECT_FALSE(machine.competed(2));
  machine.other_cpu_load = 6.3;
  EXPECT_TRUE(machine.competed(2));
  EXPECT_LT(machine.competing_load(0), 0.0) << "no team";
  machine.available_processors = 0;
  EXPECT_LT(machine.competing_load(2), 0.0) << "processors unknown";
  machine.available_processors = 2;
  machine.known = false;
  EXPECT_FALSE(machine.competed(2));
}

}  // namespace
}  // namespace augur::selfanalysis
