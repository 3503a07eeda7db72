// End-to-end: what `augur run` says about options it cannot follow as given, and a run on one thread
// (docs/run.md): T(1) is the measured step there, with no speedup and no efficiency to judge; --check-run on one
// thread says why there is no check; a --baseline above the threads says what the baseline became.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "core/process.hpp"
#include "run_e2e_support.hpp"
#include "support/self_analysis_runs.hpp"

namespace {

using augur::core::ProcessResult;
using augur::core::run_process;
using augur::run_e2e::TemporaryFile;
using augur::test::clean_environment;

// The number of times `text` occurs in `where`.
int occurrences(const std::string& where, const std::string& text) {
  int count = 0;
  for (std::size_t at = where.find(text); at != std::string::npos; at = where.find(text, at + text.size())) ++count;
  return count;
}

TEST(AugurRunOptions, OneThreadMeasuresTOneAndHasNoSpeedupOrCheckRun) {
  const ProcessResult result = run_process({AUGUR_EXE, "run", "-p", "1", "--check-run", "--", AUGUR_OUTER_REGION_EXE, "100000", "300"},
                                           clean_environment());
  ASSERT_EQ(result.exit_code, 0) << result.describe_status() << "\n" << result.standard_output << result.standard_error;
  const std::string& out = result.standard_output;
  EXPECT_NE(out.find("one-run analysis on 1 thread"), std::string::npos) << out;
  EXPECT_NE(out.find("communication efficiency "), std::string::npos) << out;
  EXPECT_EQ(out.find("parallel efficiency 1.000 = load balance"), std::string::npos) << out;
  // The table's measured row is the header's T(1): S(1) = 1 on the measured step.
  const std::size_t header = out.find("  T(1)=");
  ASSERT_NE(header, std::string::npos) << out;
  const std::size_t end = out.find(" (the steps", header);
  ASSERT_NE(end, std::string::npos) << out;
  const std::string t1 = out.substr(header + 7, end - header - 7);
  ASSERT_LE(t1.size(), 12u) << t1;
  EXPECT_NE(out.find("     1    1.0000  measured  " + std::string(12 - t1.size(), ' ') + t1), std::string::npos) << t1 << "\n" << out;
  EXPECT_NE(out.find("(one thread: no speedup to measure)"), std::string::npos) << out;
  EXPECT_EQ(occurrences(out, "; speedup "), 0) << out;
  EXPECT_NE(out.find("parallel efficiency on 1 thread: none to judge"), std::string::npos) << out;
  EXPECT_NE(out.find("the time step found by the periodicity detector in the worksharing constructs"), std::string::npos) << out;
  EXPECT_EQ(out.find("regions found by the periodicity detector"), std::string::npos) << out;
  // No second run, and the reason on stderr.
  EXPECT_EQ(occurrences(out, "outer_region: N=100000 steps=300"), 1) << out;
  EXPECT_NE(result.standard_error.find("augur run: no check run (--check-run): the team is one thread"), std::string::npos)
      << result.standard_error;
}

TEST(AugurRunOptions, ABaselineAboveTheThreadsIsNamedBeforeTheRun) {
  const ProcessResult result =
      run_process({AUGUR_EXE, "run", "--baseline", "3", "-p", "2", "--", AUGUR_SWIM_PLAIN_EXE, "64", "60"}, clean_environment());
  ASSERT_EQ(result.exit_code, 0) << result.describe_status() << "\n" << result.standard_output << result.standard_error;
  EXPECT_NE(result.standard_error.find("augur run: note: --baseline 3 is more than the 2 threads of the run: the baseline is 2"),
            std::string::npos)
      << result.standard_error;
  const ProcessResult fits =
      run_process({AUGUR_EXE, "run", "--baseline", "1", "-p", "2", "--", AUGUR_SWIM_PLAIN_EXE, "64", "60"}, clean_environment());
  ASSERT_EQ(fits.exit_code, 0) << fits.describe_status() << "\n" << fits.standard_error;
  EXPECT_EQ(fits.standard_error.find("--baseline"), std::string::npos) << fits.standard_error;
}

// --json=FILE where FILE is a link into a missing folder: refused before the run (the file is opened then), and
// the link stays as it was.
TEST(AugurRunOptions, AReportThroughADanglingLinkIsRefusedBeforeTheRun) {
  TemporaryFile link("report.json");
  const std::filesystem::path target = std::filesystem::path(link.path()).parent_path() / "missing" / "report.json";
  std::filesystem::create_symlink(target, link.path());
  const ProcessResult result =
      run_process({AUGUR_EXE, "run", "-p", "2", "--json=" + link.path(), "--", AUGUR_OUTER_REGION_EXE, "20000", "50"}, clean_environment());
  EXPECT_EQ(result.exit_code, 1) << result.standard_error;
  EXPECT_NE(result.standard_error.find(link.path() + ": cannot write: "), std::string::npos) << result.standard_error;
  EXPECT_NE(result.standard_error.find("; nothing run"), std::string::npos) << result.standard_error;
  EXPECT_EQ(result.standard_output.find("outer_region:"), std::string::npos) << result.standard_output;  // not run
  EXPECT_TRUE(std::filesystem::is_symlink(link.path()));
  EXPECT_EQ(std::filesystem::read_symlink(link.path()), target);
}

}  // namespace
