// End-to-end tests of the command line, augur speedup and swim: the built binaries (augur, swim, swim-plain) run
// as a user runs them, through augur::core::run_process, with a clean environment (no AUGUR_* or OMP_* variable
// of the caller); libaugur inside swim is libaugur_e2e_test.cpp's, the task-system commands tspp_e2e_test.cpp's.
// Nothing here depends on timing: measured speedups are only required to be positive and finite.
#include <sys/wait.h>

#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/process.hpp"
#include "e2e_swim_support.hpp"
#include "support/temporary_directory.hpp"

namespace {

namespace fs = std::filesystem;
using augur::core::ProcessResult;
using namespace augur::e2e;  // run, describe, contains, read_text, Child, ...

const std::string augur_exe = AUGUR_EXE;
const std::string swim_exe = AUGUR_SWIM_EXE;
const std::string swim_plain_exe = AUGUR_SWIM_PLAIN_EXE;

// A folder of its own for each test, removed at the end.
using TemporaryFolder = augur::test::TemporaryDirectory;

// ---- The augur command line --------------------------------------------------------------------

TEST(Cli, HelpExitsZeroAndMentionsSpeedup) {
  const ProcessResult result = run({augur_exe, "--help"});
  EXPECT_EQ(result.exit_code, 0) << describe(result);
  EXPECT_TRUE(contains(result.standard_output, "speedup")) << describe(result);
}

TEST(Cli, SpeedupHelpExitsZeroAndMentionsMaxThreads) {
  const ProcessResult result = run({augur_exe, "speedup", "--help"});
  EXPECT_EQ(result.exit_code, 0) << describe(result);
  EXPECT_TRUE(contains(result.standard_output, "--max-threads")) << describe(result);
}

TEST(Cli, NoArgumentsFails) {
  const ProcessResult result = run({augur_exe});
  EXPECT_TRUE(result.signal == 0 && result.exit_code != 0) << describe(result);
}

TEST(Cli, VersionExitsZero) {
  const ProcessResult result = run({augur_exe, "--version"});
  EXPECT_EQ(result.exit_code, 0) << describe(result);
  EXPECT_TRUE(contains(result.standard_output, "augur")) << describe(result);
}

TEST(Cli, UnknownCommandFails) {
  const ProcessResult result = run({augur_exe, "no-such-command"});
  EXPECT_TRUE(result.signal == 0 && result.exit_code != 0) << describe(result);
}

// ---- augur speedup: errors ---------------------------------------------------------------------

TEST(SpeedupCommand, RejectsZeroMaxThreads) {
  // --max-threads, the old name of -p/--threads: the message names the option by its name.
  const ProcessResult result = run({augur_exe, "speedup", "--max-threads", "0", "--", swim_exe});
  EXPECT_TRUE(result.signal == 0 && result.exit_code != 0) << describe(result);
  EXPECT_TRUE(contains(result.standard_error, "--threads")) << describe(result);
}

TEST(SpeedupCommand, RejectsBadBaseline) {
  const ProcessResult result = run({augur_exe, "speedup", "--baseline", "abc", "--", swim_exe, "64", "10"});
  EXPECT_TRUE(result.signal == 0 && result.exit_code != 0) << describe(result);
  EXPECT_TRUE(contains(result.standard_error, "'abc'")) << describe(result);
}

TEST(SpeedupCommand, ReportsAProgramThatCannotRun) {
  const ProcessResult result = run({augur_exe, "speedup", "--", "/nonexistent/program"});
  EXPECT_EQ(result.exit_code, 1) << describe(result);
  EXPECT_TRUE(contains(result.standard_error, "cannot run")) << describe(result);
  EXPECT_TRUE(contains(result.standard_error, "/nonexistent/program")) << describe(result);
}

TEST(SpeedupCommand, ReportsAProgramThatWritesNoReport) {
  const ProcessResult result = run({augur_exe, "speedup", "--repeat", "1", "--max-threads", "1", "--", "/bin/true"});
  EXPECT_EQ(result.exit_code, 1) << describe(result);
  EXPECT_TRUE(contains(result.standard_error, "wrote no augur report")) << describe(result);
}

TEST(SpeedupCommand, ReportsTheStatusOfAFailingProgram) {
  // swim exits with status 2 on a bad argument.
  const ProcessResult swim = run({augur_exe, "speedup", "--repeat", "1", "--", swim_exe, "abc"});
  EXPECT_EQ(swim.exit_code, 1) << describe(swim);
  EXPECT_TRUE(contains(swim.standard_error, "exited with status 2")) << describe(swim);
  // The end of the program's stderr is shown.
  EXPECT_TRUE(contains(swim.standard_error, "got 'abc'")) << describe(swim);

  const ProcessResult shell =
      run({augur_exe, "speedup", "--repeat", "1", "--max-threads", "1", "--", "/bin/sh", "-c", "exit 3"});
  EXPECT_EQ(shell.exit_code, 1) << describe(shell);
  EXPECT_TRUE(contains(shell.standard_error, "exited with status 3")) << describe(shell);
}

// ---- augur speedup: the experiment ---------------------------------------------------------------

// `augur speedup --max-threads 2 --repeat 1 --json --quiet -- swim 256 200` (the size keeps every
// run above the self-tuning' sampling interval of 10 ms even on a fast machine).
ProcessResult run_json_experiment() {
  return run({augur_exe, "speedup", "--max-threads", "2", "--repeat", "1", "--json", "--quiet", "--", swim_exe, "256", "200"});
}

TEST(SpeedupCommand, JsonReportsEveryPointOfTheExperiment) {
  const ProcessResult result = run_json_experiment();
  ASSERT_EQ(result.exit_code, 0) << describe(result);
  EXPECT_EQ(result.standard_error, "") << "--quiet printed progress";
  Json json;
  try {
    json = Json::parse(result.standard_output);
  } catch (const Json::exception& error) {
    FAIL() << "stdout is not JSON: " << error.what() << "\n" << describe(result);
  }
  SCOPED_TRACE(json.dump(2));
  EXPECT_EQ(json.at("region").at("id"), 1);
  EXPECT_EQ(json.at("region").at("length"), 3);
  EXPECT_EQ(json.at("baseline"), 1);
  EXPECT_EQ(json.at("max_threads"), 2);
  EXPECT_EQ(json.at("repeat"), 1);
  EXPECT_EQ(json.at("wait_policy"), "passive");
  EXPECT_EQ(json.at("command").size(), 3U);

  const Json& points = json.at("points");
  ASSERT_EQ(points.size(), 2U);
  EXPECT_EQ(points[0].at("p"), 1);
  EXPECT_EQ(points[1].at("p"), 2);
  // TS(1) = region_s(1) / region_s(1).
  EXPECT_EQ(points[0].at("ts").get<double>(), 1.0);
  for (const Json& point : points) {
    SCOPED_TRACE("p=" + point.at("p").dump());
    EXPECT_TRUE(plausible_speedup(point.at("ts"))) << point.at("ts");
    EXPECT_TRUE(plausible_speedup(point.at("sa_n"))) << point.at("sa_n");
    EXPECT_TRUE(plausible_self_tuning(point.at("st"))) << point.at("st");
    // The sweep run measured every p.
    EXPECT_TRUE(plausible_speedup(point.at("sa_1"))) << point.at("sa_1");
    for (const char* key : {"time_s", "region_time_s", "time_sa_s", "region_time_sa_s", "estimated_time_s", "overhead"}) {
      EXPECT_TRUE(positive_finite(point.at(key))) << key << " = " << point.at(key);
    }
    // One analyzed run per p, judged by its noise verdict (clean or not is the machine's business).
    EXPECT_EQ(point.at("judged_runs"), 1);
    EXPECT_LE(point.at("disturbed_runs").get<int>(), 1);
    ASSERT_EQ(point.at("verdicts").size(), 1U);
    EXPECT_EQ(point.at("verdicts")[0].get<std::string>().rfind("measurement ", 0), 0U);
  }
  EXPECT_TRUE(positive_finite(json.at("overhead"))) << json.at("overhead");
  EXPECT_EQ(json.at("noise_verdict").get<std::string>().rfind("noise: ", 0), 0U);
}

// With baseline 1, S(1) = AF(1) = 1 by definition (thesis Figure 4.5 (3)), so SA(N) on 1 thread
// must be exactly 1, whatever the noise of the later iterations on 1 thread.
TEST(SpeedupCommand, SelfAnalyzerSpeedupOnOneThreadIsExactlyOneWithBaselineOne) {
  const ProcessResult result = run_json_experiment();
  ASSERT_EQ(result.exit_code, 0) << describe(result);
  const Json json = Json::parse(result.standard_output);
  ASSERT_EQ(json.at("points").at(0).at("p"), 1);
  EXPECT_EQ(json.at("points").at(0).at("sa_n"), 1.0) << json.dump(2);
}

TEST(SpeedupCommand, TableShowsEveryColumn) {
  const ProcessResult result =
      run({augur_exe, "speedup", "--max-threads", "2", "--repeat", "1", "--quiet", "--", swim_exe, "64", "100"});
  ASSERT_EQ(result.exit_code, 0) << describe(result);
  for (const char* word : {"TS", "SA(N)", "SA(1)", "ST'", "time_s", "overhead", "disturbed", "\nnoise: "}) {
    EXPECT_TRUE(contains(result.standard_output, word)) << word << " missing\n" << describe(result);
  }
  EXPECT_TRUE(contains(result.standard_output, "region 1 (3 parallel loops), baseline 1")) << describe(result);
}

// ---- swim ------------------------------------------------------------------------------------

TEST(Swim, InstrumentedAndPlainPrintIdenticalChecksums) {
  std::string reference;
  for (const std::string& program : {swim_exe, swim_plain_exe}) {
    for (const char* threads : {"1", "2"}) {
      const ProcessResult result = run({program, "128", "50"}, {{"OMP_NUM_THREADS", threads}, {"AUGUR_SUMMARY", "0"}});
      ASSERT_EQ(result.exit_code, 0) << program << " on " << threads << " threads\n" << describe(result);
      EXPECT_TRUE(contains(result.standard_output, std::string("threads=") + threads)) << describe(result);
      const std::string line = checksum_line(result.standard_output);
      ASSERT_FALSE(line.empty()) << describe(result);
      if (reference.empty()) reference = line;
      EXPECT_EQ(line, reference) << program << " on " << threads << " threads";
    }
  }
}

TEST(Swim, BadArgumentExitsWithStatusTwo) {
  const ProcessResult result = run({swim_exe, "abc"});
  EXPECT_EQ(result.exit_code, 2) << describe(result);
  EXPECT_TRUE(contains(result.standard_error, "'abc'")) << describe(result);
}

}  // namespace

namespace {

// The report of the first run in augur speedup's scratch folder (TMPDIR/augur-speedup-*/run-1.json).
bool first_run_reported(const fs::path& scratch) {
  for (const auto& entry : fs::directory_iterator(scratch)) {
    if (fs::exists(entry.path() / "run-1.json")) return true;
  }
  return false;
}

// Ctrl-C: augur speedup stops its program, removes its temporary reports, prints no table, says
// "interrupted" on one line (after its progress) and exits with 130.
TEST(SpeedupCommand, InterruptedLeavesNothingBehind) {
  const TemporaryFolder folder;
  const fs::path scratch = folder.path() / "tmp";
  fs::create_directories(scratch);
  Child child({augur_exe, "speedup", "--progress", "--max-threads", "1", "--repeat", "50", "--", swim_exe, "128", "2000"},
              {{"TMPDIR", scratch.string()}}, folder.path() / "stdout.txt", folder.path() / "stderr.txt");
  // Interrupted once its first run has reported: its signal handlers are installed (before the first run)
  // and one run's report is in the scratch folder; 50 repetitions leave it far from its end.
  const fs::path standard_error = folder.path() / "stderr.txt";
  ASSERT_TRUE(wait_until([&] { return first_run_reported(scratch); }))
      << "augur speedup did not finish its first run in 2 minutes:\n" << read_text(standard_error);
  ASSERT_FALSE(child.wait(WNOHANG).has_value()) << "augur speedup ended after its first run: give it more work";
  EXPECT_EQ(exit_status_after_sigint(child), 130);
  const std::string error = read_text(standard_error);
  EXPECT_TRUE(contains(error, "augur speedup: [")) << "no progress line with --progress:\n" << error;
  EXPECT_TRUE(error.ends_with("\naugur speedup: interrupted\n")) << error;
  EXPECT_EQ(read_text(folder.path() / "stdout.txt"), "");
  EXPECT_TRUE(fs::is_empty(scratch)) << "temporary files left in " << scratch;
}

// Ctrl-C during augur sim's replications: exit 130, one line "interrupted", no output, no trace file
// (neither whole nor half: its temporary beside it is removed).
TEST(SimCommand, InterruptedWritesNothing) {
  const TemporaryFolder folder;
  const fs::path out = folder.path() / "out";
  fs::create_directories(out);
  const std::string figure = std::string(AUGUR_EXAMPLES_DIR) + "/tspp/figure11.tspp";
  Child child({augur_exe, "sim", figure, "--replications", "100000000", "--threads", "1", "--progress", "--trace",
               (out / "trace.json").string()},
              {}, folder.path() / "stdout.txt", folder.path() / "stderr.txt");
  const fs::path standard_error = folder.path() / "stderr.txt";
  // The first progress line comes after the first replication, once the signal handlers are installed.
  ASSERT_TRUE(wait_until([&] { return contains(read_text(standard_error), "augur sim: ["); }))
      << "augur sim wrote no progress in 2 minutes:\n" << read_text(standard_error);
  ASSERT_FALSE(child.wait(WNOHANG).has_value()) << "augur sim ended: give it more replications";
  EXPECT_EQ(exit_status_after_sigint(child), 130);
  const std::string error = read_text(standard_error);
  EXPECT_TRUE(error.ends_with("\naugur sim: interrupted\n")) << error;
  EXPECT_EQ(read_text(folder.path() / "stdout.txt"), "");
  EXPECT_TRUE(fs::is_empty(out)) << "augur sim left a file in " << out;
}

}  // namespace
