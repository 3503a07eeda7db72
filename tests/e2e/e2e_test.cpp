// End-to-end tests: the built binaries (augur, swim, swim-plain) run as a user runs them, through
// augur::core::run_process, with a clean environment (no AUGUR_* or OMP_* variable of the caller).
// Nothing here depends on timing: measured speedups are only required to be positive and finite.
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <cerrno>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#include "augur/selfanalysis_report.hpp"
#include "core/process.hpp"
#include "support/temporary_directory.hpp"
#include "support/trace_nesting.hpp"
#include "e2e_child.hpp"

extern char** environ;

namespace {

namespace fs = std::filesystem;
using augur::core::ProcessOptions;
using augur::core::ProcessResult;
using Json = nlohmann::json;
using augur::test::trace_nesting_problems;
using Environment = std::vector<std::pair<std::string, std::string>>;

const std::string augur_exe = AUGUR_EXE;
const std::string swim_exe = AUGUR_SWIM_EXE;
const std::string swim_plain_exe = AUGUR_SWIM_PLAIN_EXE;

// ---- Helpers ---------------------------------------------------------------------------------

using augur::e2e::Child;
using augur::e2e::exit_status_after_sigint;
using augur::e2e::is_controlled_variable;
using augur::e2e::wait_until;

// The names of this process' AUGUR_*, OMP_* and GOMP_* variables: removed from every child.
std::vector<std::string> controlled_variables() {
  std::vector<std::string> names;
  for (char** entry = environ; entry != nullptr && *entry != nullptr; ++entry) {
    const std::string_view text(*entry);
    const std::string_view name = text.substr(0, text.find('='));
    if (is_controlled_variable(name)) names.emplace_back(name);
  }
  return names;
}

ProcessResult run(const std::vector<std::string>& argv, const Environment& variables = {}) {
  ProcessOptions options;
  options.unset = controlled_variables();
  options.environment = variables;
  return augur::core::run_process(argv, options);
}

std::string describe(const ProcessResult& result) {
  return result.describe_status() + "\n--- stdout ---\n" + result.standard_output + "--- stderr ---\n" + result.standard_error;
}

std::size_t count_occurrences(const std::string& text, const std::string& needle) {
  std::size_t count = 0;
  for (auto position = text.find(needle); position != std::string::npos; position = text.find(needle, position + 1)) ++count;
  return count;
}

bool contains(const std::string& text, const std::string& needle) { return text.find(needle) != std::string::npos; }

// The "swim: checksum ..." line of swim's output, or "" when there is none.
std::string checksum_line(const std::string& output) {
  std::istringstream lines(output);
  std::string line;
  while (std::getline(lines, line)) {
    if (line.rfind("swim: checksum ", 0) == 0) return line;
  }
  return "";
}

std::string read_text(const fs::path& path) {
  std::ifstream stream(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(stream), std::istreambuf_iterator<char>()};
}

// Parses the JSON file at `path` into `json`.
::testing::AssertionResult load_json(const fs::path& path, Json& json) {
  if (!fs::exists(path)) return ::testing::AssertionFailure() << path << " does not exist";
  const std::string text = read_text(path);
  try {
    json = Json::parse(text);
  } catch (const Json::exception& error) {
    return ::testing::AssertionFailure() << path << " is not JSON: " << error.what() << "\n" << text;
  }
  return ::testing::AssertionSuccess();
}

bool positive_finite(const Json& value) {
  return value.is_number() && std::isfinite(value.get<double>()) && value.get<double>() > 0.0;
}

// A measured speedup (a ratio of wall times): positive and finite. No upper bound: one baseline
// iteration stretched by the scheduler inflates T(B) and every S(p) with it; with two busy processes
// beside the test, S(2) = 287 was seen (T(B) = 13 ms for iterations of 0.1 ms).
bool plausible_speedup(const Json& value) { return positive_finite(value); }

// ST' = busy CPU time / wall time of a process running at most 2 threads: physically below 2 (plus
// clock granularity), so 4 is a safe bound.
bool plausible_self_tuning(const Json& value) { return positive_finite(value) && value.get<double>() < 4.0; }

// The entry for p in a report region's "speedup" array, or null.
Json speedup_entry(const Json& region, int processors) {
  for (const Json& entry : region.at("speedup")) {
    if (entry.at("p") == processors) return entry;
  }
  return nullptr;
}

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

// ---- libaugur inside swim: the environment and the report --------------------------------------

std::string plain_checksum(const std::string& size, const std::string& iterations) {
  const ProcessResult result = run({swim_plain_exe, size, iterations});
  return result.exit_code == 0 ? checksum_line(result.standard_output) : "swim-plain failed: " + describe(result);
}

TEST(Libaugur, BadEnvironmentWarnsOnceAndKeepsTheDefaults) {
  const TemporaryFolder folder;
  const fs::path report = folder.path() / "r.json";
  const ProcessResult result = run(
      {swim_exe, "64", "20"}, {{"AUGUR_BASELINE", "abc"}, {"AUGUR_HISTORY", "2"}, {"AUGUR_REPORT", report.string()}});
  ASSERT_EQ(result.exit_code, 0) << describe(result);
  EXPECT_EQ(checksum_line(result.standard_output), plain_checksum("64", "20"));
  EXPECT_EQ(count_occurrences(result.standard_error, "AUGUR_BASELINE"), 1U) << describe(result);
  EXPECT_EQ(count_occurrences(result.standard_error, "'abc'"), 1U) << describe(result);
  EXPECT_EQ(count_occurrences(result.standard_error, "AUGUR_HISTORY"), 1U) << describe(result);
  Json json;
  ASSERT_TRUE(load_json(report, json));
  EXPECT_EQ(json.at("config").at("baseline"), "auto") << json.dump(2);
  EXPECT_EQ(json.at("config").at("history"), 0.6) << json.dump(2);
}

TEST(Libaugur, UnknownAugurVariableWarns) {
  const ProcessResult result = run({swim_exe, "64", "10"}, {{"AUGUR_BASELIN", "2"}, {"AUGUR_SUMMARY", "0"}});
  ASSERT_EQ(result.exit_code, 0) << describe(result);
  // Once, with the closest known name (which contains the misspelt one).
  EXPECT_EQ(count_occurrences(result.standard_error, "augur: unknown variable AUGUR_BASELIN (did you mean AUGUR_BASELINE?)\n"), 1U)
      << describe(result);
  EXPECT_EQ(count_occurrences(result.standard_error, "AUGUR_BASELIN"), 2U) << describe(result);
  EXPECT_FALSE(checksum_line(result.standard_output).empty()) << describe(result);
}

TEST(Libaugur, UnwritableReportPathWarnsAndTheProgramRunsOn) {
  const TemporaryFolder folder;
  const fs::path missing = folder.path() / "missing";
  const fs::path report = missing / "r.json";
  const ProcessResult result = run({swim_exe, "64", "20"}, {{"AUGUR_REPORT", report.string()}, {"AUGUR_SUMMARY", "0"}});
  EXPECT_EQ(result.exit_code, 0) << describe(result);
  EXPECT_TRUE(contains(result.standard_error, report.string())) << describe(result);
  EXPECT_FALSE(fs::exists(missing)) << "the report's folder was created";
  EXPECT_EQ(checksum_line(result.standard_output), plain_checksum("64", "20"));
  // Nothing else (no temporary file) was left in the folder.
  EXPECT_TRUE(fs::is_empty(folder.path()));
}

TEST(Libaugur, ModeOffPrintsNothingAndWritesNoReport) {
  const TemporaryFolder folder;
  const fs::path report = folder.path() / "r.json";
  const ProcessResult result = run({swim_exe, "64", "20"}, {{"AUGUR_MODE", "off"}, {"AUGUR_REPORT", report.string()}});
  ASSERT_EQ(result.exit_code, 0) << describe(result);
  EXPECT_FALSE(contains(result.standard_error, "augur")) << describe(result);
  EXPECT_FALSE(fs::exists(report));
  EXPECT_EQ(checksum_line(result.standard_output), plain_checksum("64", "20"));
}

TEST(Libaugur, ModeTimeReportsElapsedTimeAndIterations) {
  const TemporaryFolder folder;
  const fs::path report = folder.path() / "r.json";
  const ProcessResult result =
      run({swim_exe, "64", "30"}, {{"AUGUR_MODE", "time"}, {"AUGUR_REPORT", report.string()}, {"AUGUR_SUMMARY", "0"}});
  ASSERT_EQ(result.exit_code, 0) << describe(result);
  EXPECT_EQ(result.standard_error, "") << "summary 0 printed something";
  Json json;
  ASSERT_TRUE(load_json(report, json));
  SCOPED_TRACE(json.dump(2));
  EXPECT_EQ(json.at("augur_report"), 1);
  EXPECT_EQ(json.at("mode"), "time");
  ASSERT_EQ(json.at("regions").size(), 1U);
  const Json& region = json.at("regions")[0];
  EXPECT_EQ(region.at("id"), 1);
  EXPECT_EQ(region.at("length"), 3);
  EXPECT_EQ(region.at("iterations"), 30);
  EXPECT_TRUE(positive_finite(region.at("elapsed_s")));
  EXPECT_FALSE(region.contains("speedup")) << "mode time computes no speedup";
}

TEST(Libaugur, ReportCarriesTheNoiseVerdictAndTheMachine) {
  // The fields exist and parse; their values measure the machine's noise, which a test cannot assert.
  const TemporaryFolder folder;
  const fs::path report = folder.path() / "r.json";
  const ProcessResult result = run({swim_exe, "128", "100"},
                                   {{"OMP_NUM_THREADS", "2"}, {"AUGUR_BASELINE", "1"}, {"AUGUR_REPORT", report.string()}});
  ASSERT_EQ(result.exit_code, 0) << describe(result);
  EXPECT_TRUE(contains(result.standard_error, "\naugur:   measurement ")) << describe(result);
  Json json;
  ASSERT_TRUE(load_json(report, json));
  SCOPED_TRACE(json.dump(2));
  const Json& machine = json.at("machine");
  for (const char* key : {"load_average_start", "load_average_end", "steal_fraction"}) {
    EXPECT_TRUE(machine.at(key).is_number() || machine.at(key).is_null()) << key;
  }
  EXPECT_TRUE(machine.at("involuntary_switches").is_number_integer());
  EXPECT_EQ(machine.at("wait_policy"), "default");
  EXPECT_TRUE(machine.at("oversubscribed").is_boolean());
  EXPECT_EQ(json.at("config").at("baseline_every"), 20);
  const Json& noise = json.at("regions")[0].at("noise");
  EXPECT_TRUE(noise.at("disturbed").is_boolean());
  EXPECT_TRUE(noise.at("reasons").is_array());
  // 100 iterations: the first baseline window at iterations 3-5, re-measured after every 20 on 2 threads.
  EXPECT_EQ(noise.at("baseline_windows"), 4);
  EXPECT_TRUE(noise.at("involuntary_switches").is_number_integer());
  const std::string verdict = noise.at("verdict").get<std::string>();
  EXPECT_TRUE(verdict.rfind("measurement clean: ", 0) == 0 || verdict.rfind("measurement disturbed: ", 0) == 0 ||
              verdict.rfind("measurement meaningless: ", 0) == 0)
      << verdict;
  for (const Json& entry : json.at("regions")[0].at("speedup")) {
    if (entry.at("p") != 2) continue;
    ASSERT_TRUE(entry.at("interval").is_array());
    EXPECT_LE(entry.at("interval")[0].get<double>(), entry.at("interval")[1].get<double>());
  }
  std::ifstream in(report);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const augur::selfanalysis::Report parsed = augur::selfanalysis::parse_report(text, report.string());
  EXPECT_TRUE(parsed.machine.known);
  ASSERT_EQ(parsed.regions.size(), 1U);
  EXPECT_TRUE(parsed.regions[0].noise.present);
  EXPECT_EQ(parsed.regions[0].noise.verdict, verdict);
}

TEST(Libaugur, ReportHoldsTheMeasuredRegion) {
  const TemporaryFolder folder;
  const fs::path report = folder.path() / "r.json";
  const ProcessResult result =
      run({swim_exe, "128", "100"},
          {{"OMP_NUM_THREADS", "2"}, {"AUGUR_BASELINE", "1"}, {"AUGUR_REPORT", report.string()}, {"AUGUR_SUMMARY", "0"}});
  ASSERT_EQ(result.exit_code, 0) << describe(result);
  EXPECT_EQ(result.standard_error, "");
  Json json;
  ASSERT_TRUE(load_json(report, json));
  SCOPED_TRACE(json.dump(2));
  EXPECT_EQ(json.at("augur_report"), 1);
  EXPECT_EQ(json.at("mode"), "analyze");
  EXPECT_EQ(json.at("program"), fs::canonical(swim_exe).string());
  EXPECT_EQ(json.at("allocated_processors"), 2);
  EXPECT_EQ(json.at("config").at("baseline"), "1");
  ASSERT_EQ(json.at("regions").size(), 1U);
  const Json& region = json.at("regions")[0];
  EXPECT_EQ(region.at("id"), 1);
  EXPECT_EQ(region.at("length"), 3);
  EXPECT_EQ(region.at("iterations"), 100);
  EXPECT_EQ(region.at("expected_iterations"), 100);
  // Counts are JSON integers ("100", not "100.0").
  for (const char* key : {"iterations", "expected_iterations", "discarded_iterations", "baseline", "estimate_processors",
                          "estimated_at_iteration"}) {
    EXPECT_TRUE(region.at(key).is_number_integer()) << key << " = " << region.at(key);
  }
  EXPECT_EQ(region.at("baseline"), 1);
  ASSERT_TRUE(region.at("f").is_number());
  EXPECT_GT(region.at("f").get<double>(), 0.0);
  EXPECT_LT(region.at("f").get<double>(), 1.0);
  EXPECT_EQ(region.at("af"), 1.0);
  EXPECT_TRUE(positive_finite(region.at("estimated_time_s")));
  EXPECT_TRUE(positive_finite(region.at("elapsed_s")));
  EXPECT_TRUE(positive_finite(region.at("baseline_time_s")));
  // The warm-up iteration and the change from 1 to 2 threads.
  ASSERT_TRUE(region.at("discarded_iterations").is_number_integer());
  EXPECT_GE(region.at("discarded_iterations").get<long>(), 2);
  EXPECT_EQ(region.at("sweep"), false);

  for (const Json& entry : region.at("speedup")) {
    EXPECT_TRUE(entry.contains("p") && entry.contains("value") && entry.contains("state")) << entry;
  }
  const Json one = speedup_entry(region, 1);
  ASSERT_TRUE(one.is_object()) << "no entry for p=1";
  EXPECT_EQ(one.at("state"), "PC");
  EXPECT_EQ(one.at("value"), 1.0) << "S(1) with baseline 1";
  const Json two = speedup_entry(region, 2);
  ASSERT_TRUE(two.is_object()) << "no entry for p=2";
  EXPECT_EQ(two.at("state"), "PC");
  EXPECT_TRUE(plausible_speedup(two.at("value")));
}

TEST(Libaugur, SweepMeasuresEveryProcessorCountInOneRun) {
  const TemporaryFolder folder;
  const fs::path report = folder.path() / "r.json";
  const ProcessResult result = run({swim_exe, "128", "100"}, {{"OMP_NUM_THREADS", "2"},
                                                              {"AUGUR_SWEEP", "1,2"},
                                                              {"AUGUR_SWEEP_EVERY", "5"},
                                                              {"AUGUR_REPORT", report.string()},
                                                              {"AUGUR_SUMMARY", "0"}});
  ASSERT_EQ(result.exit_code, 0) << describe(result);
  Json json;
  ASSERT_TRUE(load_json(report, json));
  SCOPED_TRACE(json.dump(2));
  EXPECT_EQ(json.at("config").at("sweep"), Json::array({1, 2}));
  EXPECT_EQ(json.at("config").at("sweep_every"), 5);
  ASSERT_EQ(json.at("regions").size(), 1U);
  const Json& region = json.at("regions")[0];
  EXPECT_EQ(region.at("sweep"), true);
  for (int processors : {1, 2}) {
    const Json entry = speedup_entry(region, processors);
    ASSERT_TRUE(entry.is_object()) << "no entry for p=" << processors;
    EXPECT_EQ(entry.at("state"), "PC") << "p=" << processors;
    EXPECT_TRUE(plausible_speedup(entry.at("value"))) << "p=" << processors;
  }
  bool noted = false;
  for (const Json& note : region.at("notes")) noted = noted || contains(note.get<std::string>(), "SA(1 exec)");
  EXPECT_TRUE(noted) << "no note mentions SA(1 exec)";
  EXPECT_EQ(checksum_line(result.standard_output), plain_checksum("128", "100"));
}

// ---- A program stopped and continued ---------------------------------------------------------

// The CPU time (user + system) process `pid` has used, from /proc/<pid>/stat (fields 14 and 15, in clock
// ticks); also readable while it is a zombie, not yet reaped.
double cpu_seconds(pid_t pid) {
  const std::string stat = read_text("/proc/" + std::to_string(pid) + "/stat");
  const std::size_t end_of_name = stat.rfind(')');  // the command name may hold blanks and parentheses
  if (end_of_name == std::string::npos) throw std::runtime_error("cannot read /proc/" + std::to_string(pid) + "/stat");
  std::istringstream fields(stat.substr(end_of_name + 2));  // from field 3, the state
  std::string field;
  for (int number = 3; number < 14; ++number) fields >> field;
  long user_ticks = 0, system_ticks = 0;
  fields >> user_ticks >> system_ticks;
  if (!fields) throw std::runtime_error("cannot parse /proc/" + std::to_string(pid) + "/stat: " + stat);
  return static_cast<double>(user_ticks + system_ticks) / static_cast<double>(::sysconf(_SC_CLK_TCK));
}

TEST(Libaugur, StoppedProgramDiscardsTheStoppedIteration) {
  const TemporaryFolder folder;
  const fs::path report = folder.path() / "r.json";
  // About 2.5 s of CPU time on one thread of the 2-core test machine (0.6 ms per iteration). It is stopped
  // once it has used 0.3 s of CPU time: its own progress, not the wall clock, so however loaded the
  // machine, libaugur's SIGCONT handler is installed and the region has started (set-up takes a few
  // milliseconds) and about 2 s of its work remain.
  Child child({swim_exe, "256", "4000"},
              {{"OMP_NUM_THREADS", "1"},
               {"AUGUR_BASELINE", "1"},
               {"AUGUR_WATCH_SIGCONT", "1"},
               {"AUGUR_REPORT", report.string()},
               {"AUGUR_SUMMARY", "0"}},
              folder.path() / "stdout.txt", folder.path() / "stderr.txt");
  ASSERT_TRUE(wait_until([&] { return cpu_seconds(child.pid()) >= 0.3; }))
      << "swim used less than 0.3 s of CPU time in 2 minutes";
  ASSERT_FALSE(child.wait(WNOHANG).has_value())
      << "swim finished within 0.3 s of CPU time, before it could be stopped: give it more iterations";
  ASSERT_EQ(::kill(child.pid(), SIGSTOP), 0) << std::strerror(errno);
  const std::optional<int> stopped = child.wait(WUNTRACED);
  ASSERT_TRUE(stopped.has_value());
  ASSERT_TRUE(WIFSTOPPED(*stopped)) << "swim ended before SIGSTOP reached it: give it more iterations";
  // How long it stays stopped does not matter: the iteration is discarded because SIGCONT came in it.
  ASSERT_EQ(::kill(child.pid(), SIGCONT), 0) << std::strerror(errno);
  const std::optional<int> ended = child.wait(0);
  ASSERT_TRUE(ended.has_value());
  ASSERT_TRUE(WIFEXITED(*ended)) << "swim did not exit normally (status " << *ended << ")\n"
                                 << read_text(folder.path() / "stderr.txt");
  ASSERT_EQ(WEXITSTATUS(*ended), 0) << read_text(folder.path() / "stderr.txt");
  EXPECT_FALSE(checksum_line(read_text(folder.path() / "stdout.txt")).empty());

  Json json;
  ASSERT_TRUE(load_json(report, json));
  SCOPED_TRACE(json.dump(2));
  ASSERT_EQ(json.at("regions").size(), 1U);
  const Json& region = json.at("regions")[0];
  EXPECT_EQ(region.at("iterations"), 4000);
  // One warm-up iteration, plus the one during which swim was stopped (on 1 thread with baseline 1
  // nothing else is discarded).
  EXPECT_GE(region.at("discarded_iterations").get<long>(), 2);
}

// The same run without a stop discards only the warm-up iteration: what the test above detects
// is the stop, not something else.
TEST(Libaugur, UninterruptedRunOnOneThreadDiscardsOnlyTheWarmUp) {
  const TemporaryFolder folder;
  const fs::path report = folder.path() / "r.json";
  const ProcessResult result =
      run({swim_exe, "128", "100"},
          {{"OMP_NUM_THREADS", "1"}, {"AUGUR_BASELINE", "1"}, {"AUGUR_REPORT", report.string()}, {"AUGUR_SUMMARY", "0"}});
  ASSERT_EQ(result.exit_code, 0) << describe(result);
  Json json;
  ASSERT_TRUE(load_json(report, json));
  EXPECT_EQ(json.at("regions").at(0).at("discarded_iterations"), 1) << json.dump(2);
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

// ---- TSPP ------------------------------------------------------------------------------------

namespace {

const std::string tspp_exe = AUGUR_TSPP_EXE;
const std::string figure11 = std::string(AUGUR_EXAMPLES_DIR) + "/tspp/figure11.tspp";

TEST(Tspp, PrintsTheTablesOfFigure12) {
  const ProcessResult result = run({augur_exe, "tspp", "--method", "mak-lundstrom", figure11});
  ASSERT_EQ(result.exit_code, 0) << describe(result);
  for (const char* text : {"Utilization", "Arrival Instant Queue Length", "Queue Length of Task", "Residence",
                           "task-3  2.635 (1.949)", "Number of iterations = 4"}) {
    EXPECT_TRUE(contains(result.standard_output, text)) << text << "\n" << describe(result);
  }
}

TEST(Tspp, TheSeedsInterfaceReadsStandardInput) {
  // tspp [-b] [-d] <in >out, through a shell for the redirection.
  const ProcessResult dump = run({"/bin/sh", "-c", "\"" + tspp_exe + "\" -d < \"" + figure11 + "\""});
  ASSERT_EQ(dump.exit_code, 0) << describe(dump);
  // Figure 13 for 6 tasks and 3 resources: N, K, 3 utilizations, 3 queue lengths, 18 + 18 queue values,
  // 6 x 6 times, the completion's mean and std, the iterations.
  EXPECT_EQ(count_occurrences(dump.standard_output, "\n"), 2u + 3 + 3 + 18 + 18 + 36 + 2 + 1);
  EXPECT_EQ(dump.standard_output.rfind("6\n3\n", 0), 0u);
  const ProcessResult brief = run({"/bin/sh", "-c", "\"" + tspp_exe + "\" -b < \"" + figure11 + "\""});
  ASSERT_EQ(brief.exit_code, 0) << describe(brief);
  EXPECT_FALSE(contains(brief.standard_output, "Utilization"));
  EXPECT_TRUE(contains(brief.standard_output, "Completion time = "));
  const ProcessResult bad = run({tspp_exe, "-x"});
  EXPECT_EQ(bad.exit_code, 2);
}

TEST(Tspp, TheTransientMethod) {
  const ProcessResult result = run({augur_exe, "tspp", "--method", "transient", "--json", figure11});
  ASSERT_EQ(result.exit_code, 0) << describe(result);
  const Json json = Json::parse(result.standard_output);
  EXPECT_EQ(json.at("method"), "transient");
  // Between 0.88 and 1 times the simulated 5.877 (docs/sim.md): it sees less queueing than there is.
  const double completion = json.at("completion").at("mean").get<double>();
  EXPECT_GT(completion, 5.877 * 0.88);
  EXPECT_LT(completion, 5.877);
  const ProcessResult visits = run({augur_exe, "tspp", "--method", "transient", "-V", "10", "--json", figure11});
  ASSERT_EQ(visits.exit_code, 0) << describe(visits);
  EXPECT_LT(Json::parse(visits.standard_output).at("completion").at("std").get<double>(),
            json.at("completion").at("std").get<double>());
  const ProcessResult bad = run({augur_exe, "tspp", "--method", "guess", figure11});
  EXPECT_NE(bad.exit_code, 0);
  EXPECT_TRUE(bad.standard_output.empty()) << describe(bad);
}

TEST(Tspp, JsonHoldsTheDocumentedFields) {
  const ProcessResult result = run({augur_exe, "tspp", "--method", "mak-lundstrom", "--json", figure11});
  ASSERT_EQ(result.exit_code, 0) << describe(result);
  const Json json = Json::parse(result.standard_output);
  EXPECT_TRUE(positive_finite(json.at("completion").at("mean")));
  EXPECT_TRUE(positive_finite(json.at("completion").at("std")));
  EXPECT_EQ(json.at("iterations"), 4);
  ASSERT_EQ(json.at("resources").size(), 3u);
  EXPECT_EQ(json.at("resources").at(1).at("name"), "disk-1");
  EXPECT_TRUE(json.at("resources").at(0).contains("utilization"));
  EXPECT_TRUE(json.at("resources").at(0).contains("queue_length"));
  ASSERT_EQ(json.at("tasks").size(), 6u);
  for (const char* field : {"start", "residence", "end"}) {
    EXPECT_TRUE(json.at("tasks").at(2).at(field).contains("mean")) << field;
    EXPECT_TRUE(json.at("tasks").at(2).at(field).contains("std")) << field;
  }
}

TEST(Tspp, BadInputNamesTheFaultAndPrintsNothing) {
  const TemporaryFolder folder;
  const fs::path input = folder.path() / "bad.tspp";
  std::ofstream(input) << "resource\n  cpu <- queuing;\ntask\n  a <- { gpu: 1; }\nstructure { a; }\n";
  const ProcessResult result = run({augur_exe, "tspp", input.string()});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_EQ(result.standard_output, "");
  EXPECT_EQ(result.standard_error, input.string() + ":4:10: unknown resource 'gpu' in task 'a'\n");
  const ProcessResult missing = run({augur_exe, "tspp", (folder.path() / "none.tspp").string()});
  EXPECT_EQ(missing.exit_code, 1);
  EXPECT_TRUE(contains(missing.standard_error, "none.tspp: cannot read")) << describe(missing);
  EXPECT_EQ(missing.standard_output, "");
}

}  // namespace

// ---- The task-system simulator -------------------------------------------------------------

namespace {

TEST(Sim, SimulatesTheSeedsExampleWithATimeline) {
  const TemporaryFolder folder;
  const fs::path trace = folder.path() / "trace.json";
  const ProcessResult result = run({augur_exe, "sim", figure11, "--replications", "200", "--json", "--trace", trace.string()});
  ASSERT_EQ(result.exit_code, 0) << describe(result);
  const Json json = Json::parse(result.standard_output);
  EXPECT_EQ(json.at("replications"), 200);
  EXPECT_TRUE(positive_finite(json.at("completion").at("mean")));
  EXPECT_TRUE(positive_finite(json.at("completion").at("ci95_half_width")));
  ASSERT_EQ(json.at("tasks").size(), 6u);
  EXPECT_TRUE(json.at("tasks").at(0).at("residence").contains("std"));
  ASSERT_EQ(json.at("resources").size(), 3u);
  Json timeline;
  ASSERT_TRUE(load_json(trace, timeline));
  // 3 thread names + 6 tasks x 3 resources services.
  EXPECT_EQ(timeline.at("traceEvents").size(), 3u + 18u);
  const ProcessResult table = run({augur_exe, "sim", figure11, "--replications", "50", "--discipline", "ps", "-V", "10"});
  ASSERT_EQ(table.exit_code, 0) << describe(table);
  EXPECT_TRUE(contains(table.standard_output, "95% confidence interval")) << describe(table);
}

TEST(Sim, AnyThreadCountPrintsTheSameBytes) {
  const TemporaryFolder folder;
  std::string output;
  std::string timeline;
  for (const char* threads : {"1", "2", "5"}) {
    const fs::path trace = folder.path() / (std::string("trace") + threads + ".json");
    const ProcessResult result = run({augur_exe, "sim", figure11, "--replications", "97", "--discipline", "ps", "--json", "-q",
                                      "--threads", threads, "--trace", trace.string()});
    ASSERT_EQ(result.exit_code, 0) << describe(result);
    if (output.empty()) {
      output = result.standard_output;
      timeline = read_text(trace);
      // Processor sharing serves tasks together: each on a lane of its own, so that every row nests.
      EXPECT_EQ(trace_nesting_problems(Json::parse(timeline)), std::vector<std::string>{});
      EXPECT_TRUE(contains(timeline, "(lane 2)")) << "the tasks of figure 11 overlap at the cpu";
      continue;
    }
    EXPECT_EQ(result.standard_output, output) << threads << " threads";
    EXPECT_EQ(read_text(trace), timeline) << threads << " threads";
  }
  EXPECT_EQ(run({augur_exe, "sim", figure11, "--threads", "0"}).exit_code, 2);
}

TEST(Sim, RejectsBadOptionsAndInput) {
  EXPECT_EQ(run({augur_exe, "sim", figure11, "--service", "uniform"}).exit_code, 2);
  EXPECT_EQ(run({augur_exe, "sim", figure11, "--replications", "0"}).exit_code, 2);
  const TemporaryFolder folder;
  const fs::path input = folder.path() / "bad.tspp";
  std::ofstream(input) << "resource\n  cpu <- queuing;\ntask\n  a <- { cpu: 1; }\nstructure { a; a; }\n";
  const ProcessResult result = run({augur_exe, "sim", input.string(), "--trace", (folder.path() / "t.json").string()});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_EQ(result.standard_error, input.string() + ":5:16: task 'a' appears twice in the structure (first at 5:13)\n");
  EXPECT_EQ(result.standard_output, "");
  EXPECT_FALSE(fs::exists(folder.path() / "t.json"));
}

}  // namespace

namespace {

TEST(GenTasks, WritesASystemTheOtherToolsRead) {
  const TemporaryFolder folder;
  const fs::path file = folder.path() / "random.tspp";
  const ProcessResult generated =
      run({augur_exe, "gen-tasks", "--tasks", "25", "--resources", "4", "--seed", "3", "-o", file.string()});
  ASSERT_EQ(generated.exit_code, 0) << describe(generated);
  const ProcessResult again = run({augur_exe, "gen-tasks", "--tasks", "25", "--resources", "4", "--seed", "3"});
  EXPECT_EQ(read_text(file), again.standard_output) << "the same seed, the same system";
  const ProcessResult predicted = run({augur_exe, "tspp", "--residence", "phases", "--json", file.string()});
  ASSERT_EQ(predicted.exit_code, 0) << describe(predicted);
  EXPECT_EQ(Json::parse(predicted.standard_output).at("tasks").size(), 25u);
  const ProcessResult simulated = run({augur_exe, "sim", file.string(), "--replications", "20", "--json", "-q"});
  ASSERT_EQ(simulated.exit_code, 0) << describe(simulated);
  EXPECT_EQ(run({augur_exe, "gen-tasks", "--tasks", "0"}).exit_code, 2);
  EXPECT_EQ(run({augur_exe, "gen-tasks", "--demand-min", "2", "--demand-max", "1"}).exit_code, 1);
}

}  // namespace
