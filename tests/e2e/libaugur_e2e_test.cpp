// End-to-end tests of libaugur inside swim (the self-analysis through the environment, its report, a program
// stopped and continued): the built binaries run as a user runs them, with a clean environment (no AUGUR_* or
// OMP_* variable of the caller). Nothing here depends on timing: measured speedups are only required to be
// positive and finite.
#include <signal.h>
#include <sys/types.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "augur/selfanalysis_report.hpp"
#include "e2e_swim_support.hpp"

namespace {

namespace fs = std::filesystem;
using augur::core::ProcessResult;
using namespace augur::e2e;  // run, describe, checksum_line, load_json, Child, ...

const std::string swim_exe = AUGUR_SWIM_EXE;
const std::string swim_plain_exe = AUGUR_SWIM_PLAIN_EXE;

// A folder of its own for each test, removed at the end.
using TemporaryFolder = augur::test::TemporaryDirectory;

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
  for (const char* key : {"load_average_start", "load_average_end", "steal_fraction", "other_cpu_load"}) {
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
