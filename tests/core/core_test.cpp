#include <gtest/gtest.h>

#include <unistd.h>

#include <cmath>
#include <filesystem>

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

}  // namespace
}  // namespace augur::core
