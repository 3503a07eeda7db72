// bench_outer_region's stamped runs (bench/stamped_run.hpp): each line of a real program's output with the time
// its read came, the environment given and taken away, the program's status, the timeout, a program that cannot
// start, and a program that leaves a process holding the pipe.
#include <gtest/gtest.h>
#include <signal.h>

#include <string>

#include "stamped_run.hpp"

namespace {

using augur::bench::run_stamped;

TEST(BenchStamped, EachLineWithTheTimeItCame) {
  augur::core::SpawnOptions options;
  options.environment = {{"STAMPED_WORD", "first"}, {"STAMPED_WORD", "two"}};  // the later entry wins
  options.unset = {"STAMPED_GONE"};
  setenv("STAMPED_GONE", "still here", 1);
  const auto run = run_stamped(
      {"sh", "-c", "echo one; sleep 0.3; echo $STAMPED_WORD${STAMPED_GONE} >&2; printf three; exit 3"}, options);
  unsetenv("STAMPED_GONE");
  EXPECT_EQ(run.result.exit_code, 3);
  EXPECT_FALSE(run.result.timed_out);
  EXPECT_EQ(run.result.standard_output, "one\ntwo\nthree");
  ASSERT_EQ(run.lines.size(), 3u);
  EXPECT_EQ(run.lines[0].text, "one");
  EXPECT_EQ(run.lines[1].text, "two");    // the error goes through the same pipe
  EXPECT_EQ(run.lines[2].text, "three");  // the last line, unended
  EXPECT_GE(run.lines[1].at, 0.3);        // it was written after the sleep, so read no earlier
  EXPECT_LE(run.lines[0].at, run.lines[1].at);
  EXPECT_LE(run.lines[1].at, run.lines[2].at);
  EXPECT_GE(run.result.wall_seconds, run.lines[2].at);
}

TEST(BenchStamped, TheTimeoutKillsTheProgram) {
  augur::core::SpawnOptions options;
  options.timeout_seconds = 0.2;
  const auto late = run_stamped({"sleep", "30"}, options);
  EXPECT_TRUE(late.result.timed_out);
  EXPECT_EQ(late.result.signal, SIGKILL);
  EXPECT_LT(late.result.wall_seconds, 30.0);
}

TEST(BenchStamped, AProgramThatCannotStartExits127) {
  const auto missing = run_stamped({"/nonexistent/program"}, {});
  EXPECT_EQ(missing.result.exit_code, 127);
  EXPECT_TRUE(missing.lines.empty());
  EXPECT_THROW(run_stamped({}, {}), std::runtime_error);
}

TEST(BenchStamped, TheRunEndsWithTheProgramNotWithWhatItLeftBehind) {
  // The background sleep keeps the pipe open for 20 s after the shell has exited: the run ends with the shell.
  const auto run = run_stamped({"sh", "-c", "sleep 20 & echo started"}, {});
  EXPECT_EQ(run.result.exit_code, 0);
  ASSERT_EQ(run.lines.size(), 1u);
  EXPECT_EQ(run.lines[0].text, "started");
  EXPECT_LT(run.result.wall_seconds, 20.0);
}

}  // namespace
