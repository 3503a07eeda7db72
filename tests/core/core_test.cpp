#include <gtest/gtest.h>

#include <signal.h>
#include <unistd.h>

#include <cmath>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "augur/core/diagnostics.hpp"
#include "core/files.hpp"
#include "core/process.hpp"
#include "augur/core/stats.hpp"
#include "core/table.hpp"
#include "support/temporary_directory.hpp"

namespace augur::core {
namespace {

TEST(Stats, MedianOfOddAndEvenCounts) {
  EXPECT_DOUBLE_EQ(median({3.0, 1.0, 2.0}), 2.0);
  EXPECT_DOUBLE_EQ(median({4.0, 1.0, 3.0, 2.0}), 2.5);
  EXPECT_TRUE(std::isnan(median({})));
  EXPECT_DOUBLE_EQ(mean({1.0, 2.0, 6.0}), 3.0);
}

TEST(Diagnostics, FormatsFileLineColumn) {
  EXPECT_EQ(format_diagnostic({"a.json", 3, 7}, "bad"), "a.json:3:7: bad");
  EXPECT_EQ(format_diagnostic({"AUGUR_BASELINE", 0, 0}, "bad"), "AUGUR_BASELINE: bad");
  const SourceLocation location = locate_offset("f", "ab\ncd\nef", 7);
  EXPECT_EQ(location.line, 3);
  EXPECT_EQ(location.column, 2);
}

TEST(Diagnostics, CutsALongQuotedWordOfTheInput) {
  const std::string word(100000, 'a');
  const InputError error({"f", 1, 1}, "expected 'job', found '" + word + "'");
  // The first 60 bytes of the word, its length; the short quoted word and the rest untouched.
  EXPECT_EQ(error.message(), "expected 'job', found '" + std::string(60, 'a') + "...' (100000 bytes)");
  EXPECT_EQ(std::string(error.what()), "f:1:1: " + error.message());
  // Never inside a UTF-8 sequence: 59 ASCII bytes, then two-byte characters (the cut steps back to 59).
  std::string word2 = std::string(59, 'x');
  for (int i = 0; i < 30; ++i) word2 += "\xC3\xA9";
  EXPECT_EQ(InputError({"f", 0, 0}, "found '" + word2 + "'").message(), "found '" + std::string(59, 'x') + "...' (119 bytes)");
  // A quoted phrase (spaces inside) and an apostrophe are no words: kept whole.
  const std::string phrase = "a CS's capacity " + std::string(200, 'b') + " found '7'";
  EXPECT_EQ(InputError({"f", 0, 0}, phrase).message(), phrase);
}

TEST(Table, AlignsColumns) {
  TextTable table({"p", "speedup"});
  table.add_row({"1", "1.00"});
  table.add_row({"16", "12.50"});
  EXPECT_EQ(table.render(), "p   speedup\n1      1.00\n16    12.50\n");
  EXPECT_EQ(format_number(std::nan(""), 2), "-");
  EXPECT_EQ(format_number(1.23456, 2), "1.23");
}

TEST(Files, WritesAtomicallyAndReportsFailures) {
  const augur::test::TemporaryDirectory directory("augur-core-test");
  const std::filesystem::path& folder = directory.path();
  const std::string path = (folder / "out.txt").string();
  write_file_atomically(path, "hello\n");
  EXPECT_EQ(read_file(path), "hello\n");
  EXPECT_THROW(write_file_atomically((folder / "missing" / "x.txt").string(), "x"), std::runtime_error);
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(folder), std::filesystem::directory_iterator()), 1)
      << "a failed write leaves nothing behind";
  EXPECT_THROW((void)read_file((folder / "none").string()), std::runtime_error);
}

TEST(Process, CapturesOutputStatusAndEnvironment) {
  const ProcessResult result =
      run_process({"/bin/sh", "-c", "echo out:$AUGUR_TEST_VALUE; echo err >&2; exit 3"}, {{{"AUGUR_TEST_VALUE", "42"}}, {}});
  EXPECT_EQ(result.exit_code, 3);
  EXPECT_EQ(result.standard_output, "out:42\n");
  EXPECT_EQ(result.standard_error, "err\n");
  EXPECT_FALSE(result.succeeded());
  EXPECT_EQ(result.describe_status(), "exited with status 3");
  EXPECT_GT(result.wall_seconds, 0.0);  // starting a shell takes time: 0 would be a broken clock
}

TEST(Process, ReportsSignalsAndMissingPrograms) {
  const ProcessResult killed = run_process({"/bin/sh", "-c", "kill -9 $$"});
  EXPECT_EQ(killed.signal, 9);
  EXPECT_NE(killed.describe_status().find("signal 9"), std::string::npos);
  EXPECT_THROW((void)run_process({"/nonexistent/program"}), std::runtime_error);
  ::setenv("AUGUR_TEST_UNSET", "1", 1);
  const ProcessResult unset = run_process({"/bin/sh", "-c", "echo ${AUGUR_TEST_UNSET:-none}"}, {{}, {"AUGUR_TEST_UNSET"}});
  EXPECT_EQ(unset.standard_output, "none\n");
}

TEST(Process, FindProgramSearchesPastAFolderOfTheSameName) {
  const test::TemporaryDirectory first{"augur-path-a"};
  const test::TemporaryDirectory second{"augur-path-b"};
  std::filesystem::create_directory(first.path() / "augur-probe");  // a folder first on PATH: not the program
  const std::filesystem::path program = second.path() / "augur-probe";
  { std::ofstream(program) << "#!/bin/sh\n"; }
  std::filesystem::permissions(program, std::filesystem::perms::owner_all);
  const char* saved = std::getenv("PATH");
  const std::string old_path = saved != nullptr ? saved : "";
  ::setenv("PATH", (first.path().string() + ":" + second.path().string()).c_str(), 1);
  const std::string found = find_program("augur-probe");
  const std::string none = find_program("augur-probe-missing");
  ::setenv("PATH", old_path.c_str(), 1);
  EXPECT_EQ(found, program.string());
  EXPECT_EQ(none, "");
}

TEST(Table, FormatFractionKeepsSmallFractionsVisible) {
  EXPECT_EQ(format_fraction(0.0543), "0.0543");
  EXPECT_EQ(format_fraction(0.0), "0.0000");
  EXPECT_EQ(format_fraction(0.00023), "0.00023");
  EXPECT_EQ(format_fraction(2.3e-05), "0.000023");
  EXPECT_EQ(format_fraction(8.8e-06), "0.0000088");
  EXPECT_EQ(format_fraction(0.001), "0.0010");
  EXPECT_EQ(format_fraction(0.00099996), "0.0010");  // rounds up into the next decade: four decimals
  EXPECT_EQ(format_fraction(9.96e-05), "0.00010");
}

TEST(Stats, KarpFlattFractionFromAMeasuredSpeedup) {
  EXPECT_DOUBLE_EQ(karp_flatt_fraction(1.5, 2), 1.0 / 3.0);  // (1/1.5 - 1/2) / (1 - 1/2)
  EXPECT_DOUBLE_EQ(karp_flatt_fraction(2.0, 4), (0.5 - 0.25) / 0.75);
  EXPECT_DOUBLE_EQ(karp_flatt_fraction(4.0, 4), 0.0);
  EXPECT_DOUBLE_EQ(karp_flatt_fraction(8.0, 4), 0.0);   // superlinear: no sequential part visible
  EXPECT_DOUBLE_EQ(karp_flatt_fraction(1.0, 2), 1.0);
  EXPECT_DOUBLE_EQ(karp_flatt_fraction(0.97, 2), -1.0);  // slower on 2 than on 1: the formula exceeds 1, none
  EXPECT_DOUBLE_EQ(karp_flatt_fraction(0.0, 4), -1.0);
  EXPECT_DOUBLE_EQ(karp_flatt_fraction(1.2, 1), -1.0);   // one processor: none
  EXPECT_DOUBLE_EQ(karp_flatt_fraction(std::nan(""), 2), -1.0);  // no speedup measured
}

TEST(Spawn, CapturesToStringsOrFilesAndReportsTheStatus) {
  SpawnOptions options;
  options.environment = {{"AUGUR_TEST_VALUE", "1"}, {"AUGUR_TEST_VALUE", "2"}};  // the last one wins
  const ProcessResult captured = spawn({"/bin/sh", "-c", "echo out:$AUGUR_TEST_VALUE; echo err >&2; exit 7"}, options);
  EXPECT_EQ(captured.standard_output, "out:2\n");
  EXPECT_EQ(captured.standard_error, "err\n");
  EXPECT_EQ(captured.exit_code, 7);
  EXPECT_EQ(captured.shell_status(), 7);
  EXPECT_FALSE(captured.timed_out);

  const auto folder = std::filesystem::temp_directory_path() / ("augur-spawn-test-" + std::to_string(::getpid()));
  std::filesystem::create_directories(folder);
  options.standard_output = Destination::to_file((folder / "out.txt").string());
  options.standard_error.kind = Destination::Kind::discard;
  const ProcessResult to_file = spawn({"/bin/sh", "-c", "echo file; echo gone >&2"}, options);
  EXPECT_TRUE(to_file.succeeded());
  EXPECT_EQ(to_file.standard_output, "");
  EXPECT_EQ(to_file.standard_error, "");
  EXPECT_EQ(read_file((folder / "out.txt").string()), "file\n");
  std::filesystem::remove_all(folder);
  EXPECT_THROW((void)spawn({"/nonexistent/program"}, {}), std::runtime_error);
}

TEST(Spawn, ReportsASignalledChildAsTheShellDoes) {
  const ProcessResult killed = spawn({"/bin/sh", "-c", "kill -TERM $$"}, {});
  EXPECT_EQ(killed.signal, SIGTERM);
  EXPECT_EQ(killed.exit_code, -1);
  EXPECT_EQ(killed.shell_status(), 128 + SIGTERM);
  EXPECT_FALSE(killed.timed_out);
  EXPECT_EQ(killed.describe_status(), "was killed by signal 15 (Terminated)");
}

TEST(Spawn, PassesOnASignalSentToTheParent) {
  // The child signals its parent (this test); the parent passes SIGTERM on to the child, which the
  // blocking read then leaves. Without the forwarding this test process would end.
  const std::string script = "kill -TERM $PPID; read line <&" ;
  int pipe_ends[2];
  ASSERT_EQ(::pipe(pipe_ends), 0);
  const ProcessResult child = spawn({"/bin/sh", "-c", script + std::to_string(pipe_ends[0])}, {});
  ::close(pipe_ends[0]);
  ::close(pipe_ends[1]);
  EXPECT_EQ(child.signal, SIGTERM);
  EXPECT_EQ(child.shell_status(), 143);
  EXPECT_EQ(interrupted(), SIGTERM);
  struct sigaction now {};
  ::sigaction(SIGTERM, nullptr, &now);
  EXPECT_EQ(now.sa_handler, SIG_DFL) << "the disposition is restored after the child";
}

TEST(Spawn, KillsAChildThatOutlivesItsTimeLimit) {
  // The child waits for a line on a pipe that never gets one (it holds the write end itself).
  int pipe_ends[2];
  ASSERT_EQ(::pipe(pipe_ends), 0);
  SpawnOptions options;
  options.timeout_seconds = 0.2;
  const ProcessResult child = spawn({"/bin/sh", "-c", "read line <&" + std::to_string(pipe_ends[0])}, options);
  ::close(pipe_ends[0]);
  ::close(pipe_ends[1]);
  EXPECT_TRUE(child.timed_out);
  EXPECT_EQ(child.signal, SIGKILL);
  EXPECT_EQ(child.describe_status(), "was killed after its time limit");
  EXPECT_GE(child.wall_seconds, 0.2);

  const ProcessResult quick = spawn({"/bin/sh", "-c", "exit 0"}, options);
  EXPECT_TRUE(quick.succeeded());
  EXPECT_FALSE(quick.timed_out);
}

TEST(Spawn, AddsAndRemovesEnvironmentVariables) {
  ::setenv("AUGUR_TEST_KEPT", "kept", 1);
  ::setenv("AUGUR_TEST_REMOVED", "removed", 1);
  SpawnOptions options;
  options.environment = {{"AUGUR_TEST_ADDED", "added"}};
  options.unset = {"AUGUR_TEST_REMOVED"};
  const ProcessResult child =
      spawn({"/bin/sh", "-c", "echo $AUGUR_TEST_KEPT ${AUGUR_TEST_REMOVED:-none} $AUGUR_TEST_ADDED"}, options);
  EXPECT_EQ(child.standard_output, "kept none added\n");
  ::unsetenv("AUGUR_TEST_KEPT");
  ::unsetenv("AUGUR_TEST_REMOVED");
}

}  // namespace
}  // namespace augur::core
