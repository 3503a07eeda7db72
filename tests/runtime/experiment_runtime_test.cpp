// libaugur's CALL experiments, through the C API as a program uses them (superstep traces: superstep_trace_test.cpp).
// CTest runs each test in a process of its own, so each sets its options before augur's first use.
#include <gtest/gtest.h>
#include <omp.h>
#include <unistd.h>

#include <atomic>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "augur/augur.h"
#include "augur/experiment.hpp"
#include "model/dataset.hpp"
#include "experiment_support.hpp"
#include "spin_for.hpp"

namespace {

namespace fs = std::filesystem;

using augur::test::read_lines;
using augur::test::spin_for;
using augur::test::temporary_path;

TEST(Experiments, RecordsVariablesTimesAndNesting) {
  const std::string path = temporary_path("nesting.jsonl");
  ASSERT_EQ(augur_set_option("experiment_file", path.c_str()), AUGUR_OK);
  const int outer = augur_experiment_declare("outer", "outer[0] + outer[1]*N", "N");
  const int inner = augur_experiment_declare("inner", "inner[0]", "");
  ASSERT_GE(outer, 0);
  ASSERT_GE(inner, 0);
  EXPECT_EQ(augur_experiment_declare("outer", "outer[0] + outer[1]*N", "N"), outer);  // found again

  for (int n : {1, 2}) {
    const double values[] = {static_cast<double>(n)};
    augur_experiment_begin(outer, values);
    spin_for(0.002 * n);
    augur_experiment_begin(inner, nullptr);
    spin_for(0.001);
    augur_experiment_end(inner);
    augur_experiment_end(outer);
  }
  EXPECT_EQ(augur_experiment_report("outer"), 2);
  EXPECT_EQ(augur_experiment_report(nullptr), 2);  // the inner ones, still held
  EXPECT_EQ(augur_experiment_report("all"), 0);    // nothing left

  const auto lines = read_lines(path);
  ASSERT_EQ(lines.size(), 5U);
  EXPECT_EQ(lines[0], nlohmann::json::parse(R"({"augur":"experiments","version":1})"));
  EXPECT_EQ(lines[1]["experiment"], "outer");
  EXPECT_EQ(lines[1]["formula"], "outer[0] + outer[1]*N");
  EXPECT_EQ(lines[1]["variables"]["N"], 1);
  EXPECT_EQ(lines[2]["variables"]["N"], 2);
  EXPECT_EQ(lines[1]["rank"], 0);
  EXPECT_EQ(lines[1]["ranks"], 1);
  EXPECT_GE(lines[1]["threads"].get<int>(), 1);
  EXPECT_GT(lines[1]["time"].get<double>(), 0.003);       // 2 ms + 1 ms at least
  EXPECT_GT(lines[2]["time"].get<double>(), 0.005);       // 4 ms + 1 ms
  EXPECT_GT(lines[1]["time"].get<double>(), lines[3]["time"].get<double>());  // outer contains inner
  EXPECT_EQ(lines[3]["experiment"], "inner");
  EXPECT_TRUE(lines[3]["variables"].empty());
  EXPECT_FALSE(lines[3].contains("counters"));

  // What augur fit reads: one series per experiment, N a parameter of outer.
  const augur::model::Dataset dataset = augur::model::read_dataset(path);
  ASSERT_EQ(dataset.series.size(), 2U);
  EXPECT_EQ(dataset.series[0].region, "outer");
  EXPECT_EQ(dataset.series[0].parameters, std::vector<std::string>{"N"});
  EXPECT_EQ(dataset.series[0].measurements.size(), 2U);
  EXPECT_EQ(dataset.series[0].formula, "outer[0] + outer[1]*N");
}

TEST(Experiments, RecursionAndAppendingKeepOneHeader) {
  const std::string path = temporary_path("recursion.jsonl");
  ASSERT_EQ(augur_set_option("experiment_file", path.c_str()), AUGUR_OK);
  const int level = augur_experiment_declare("level", "level[0] + level[1]*depth", "depth");
  ASSERT_GE(level, 0);
  // The same experiment open three times on one thread: each end closes the innermost.
  for (int depth = 3; depth >= 1; --depth) {
    const double value = depth;
    augur_experiment_begin(level, &value);
  }
  for (int depth = 1; depth <= 3; ++depth) augur_experiment_end(level);
  EXPECT_EQ(augur_experiment_report("level"), 3);
  augur_experiment_begin(level, std::vector<double>{7.0}.data());
  augur_experiment_end(level);
  EXPECT_EQ(augur_experiment_report("level"), 1);
  const auto lines = read_lines(path);
  ASSERT_EQ(lines.size(), 5U);  // one header, then 3 + 1 records
  EXPECT_EQ(lines[1]["variables"]["depth"], 1);  // the innermost ends first
  EXPECT_EQ(lines[3]["variables"]["depth"], 3);
  EXPECT_EQ(lines[4]["variables"]["depth"], 7);
  EXPECT_LE(lines[1]["time"].get<double>(), lines[3]["time"].get<double>());
}

TEST(Experiments, ThreadsRecordConcurrently) {
  const std::string path = temporary_path("threads.jsonl");
  ASSERT_EQ(augur_set_option("experiment_file", path.c_str()), AUGUR_OK);
  const int work = augur_experiment_declare("work", "work[0] + work[1]*i", "i");
  ASSERT_GE(work, 0);
  constexpr int instances = 2000;
#pragma omp parallel for num_threads(2) schedule(static)
  for (int i = 0; i < instances; ++i) {
    const double value = i;
    augur::ExperimentScope scope(work, {value});
  }
  EXPECT_EQ(augur_experiment_report("work"), instances);
  const auto lines = read_lines(path);
  ASSERT_EQ(lines.size(), static_cast<std::size_t>(instances) + 1);
  std::vector<bool> seen(instances, false);
  for (std::size_t line = 1; line < lines.size(); ++line) {
    const int i = lines[line]["variables"]["i"].get<int>();
    ASSERT_GE(i, 0);
    ASSERT_LT(i, instances);
    EXPECT_FALSE(seen[static_cast<std::size_t>(i)]) << i;
    seen[static_cast<std::size_t>(i)] = true;
    EXPECT_EQ(lines[line]["threads"], 2);  // inside a parallel region of 2 threads
  }
}

TEST(Experiments, MisuseIsWarnedOnceAndIgnored) {
  const std::string path = temporary_path("misuse.jsonl");
  ASSERT_EQ(augur_set_option("experiment_file", path.c_str()), AUGUR_OK);
  testing::internal::CaptureStderr();
  EXPECT_EQ(augur_experiment_declare("9lives", "", ""), AUGUR_NO_EXPERIMENT);
  EXPECT_EQ(augur_experiment_declare(nullptr, "", ""), AUGUR_NO_EXPERIMENT);
  EXPECT_EQ(augur_experiment_declare("x", "", "N,2P"), AUGUR_NO_EXPERIMENT);
  const int a = augur_experiment_declare("a", "a[0]", "");
  EXPECT_EQ(augur_experiment_declare("a", "a[0] + a[1]*N", "N"), AUGUR_NO_EXPERIMENT);  // another formula
  const int b = augur_experiment_declare("b", "b[0]", "");
  augur_experiment_begin(12345, nullptr);
  augur_experiment_begin(12345, nullptr);
  augur_experiment_end(a);  // no open instance
  augur_experiment_end(a);
  augur_experiment_begin(a, nullptr);
  augur_experiment_begin(b, nullptr);
  augur_experiment_end(a);  // skips b: b is dropped, a recorded
  EXPECT_EQ(augur_experiment_report("nosuch"), 0);
  EXPECT_EQ(augur_experiment_report("a b"), 1);
  const std::string errors = testing::internal::GetCapturedStderr();
  EXPECT_NE(errors.find("'9lives' is not an experiment name"), std::string::npos) << errors;
  EXPECT_NE(errors.find("'2P' is not a variable name"), std::string::npos) << errors;
  EXPECT_NE(errors.find("declared before with the formula 'a[0]'"), std::string::npos) << errors;
  EXPECT_NE(errors.find("invalid experiment id 12345"), std::string::npos) << errors;
  EXPECT_NE(errors.find("augur_experiment_end(a): no open instance"), std::string::npos) << errors;
  EXPECT_NE(errors.find("while 'b' inside it is still open"), std::string::npos) << errors;
  EXPECT_NE(errors.find("no experiment named 'nosuch'"), std::string::npos) << errors;
  // Each kind of misuse once.
  const auto count = [&](const std::string& needle) {
    std::size_t n = 0;
    for (auto at = errors.find(needle); at != std::string::npos; at = errors.find(needle, at + 1)) ++n;
    return n;
  };
  EXPECT_EQ(count("invalid experiment id"), 1U);
  EXPECT_EQ(count("no open instance"), 1U);
}

TEST(Experiments, UnwritableFileIsAnErrorNotACrash) {
  ASSERT_EQ(augur_set_option("experiment_file", "/nonexistent-directory/x.jsonl"), AUGUR_OK);
  const int a = augur_experiment_declare("a", "a[0]", "");
  augur_experiment_begin(a, nullptr);
  augur_experiment_end(a);
  testing::internal::CaptureStderr();
  EXPECT_EQ(augur_experiment_report(nullptr), AUGUR_ERROR);
  const std::string errors = testing::internal::GetCapturedStderr();
  EXPECT_NE(errors.find("/nonexistent-directory/x.jsonl: cannot open for appending"), std::string::npos) << errors;
  EXPECT_NE(errors.find("1 record is kept in memory"), std::string::npos) << errors;
}

TEST(Experiments, RecordsOfAFailedWriteAreWrittenByTheNextOne) {
  const fs::path directory = fs::path(temporary_path("later")).parent_path() / "created-later";
  fs::remove_all(directory);
  const std::string path = (directory / "records.jsonl").string();
  ASSERT_EQ(augur_set_option("experiment_file", path.c_str()), AUGUR_OK);
  const int a = augur_experiment_declare("a", "a[0]", "");
  for (int round = 0; round < 2; ++round) {
    augur_experiment_begin(a, nullptr);
    augur_experiment_end(a);
  }
  testing::internal::CaptureStderr();
  EXPECT_EQ(augur_experiment_report(nullptr), AUGUR_ERROR);  // the directory does not exist yet
  augur_experiment_begin(a, nullptr);
  augur_experiment_end(a);
  EXPECT_EQ(augur_experiment_report(nullptr), AUGUR_ERROR);  // still not: said again, with 3 kept
  const std::string errors = testing::internal::GetCapturedStderr();
  EXPECT_NE(errors.find("2 records are kept in memory"), std::string::npos) << errors;
  EXPECT_NE(errors.find("3 records are kept in memory"), std::string::npos) << errors;
  fs::create_directories(directory);
  EXPECT_EQ(augur_experiment_report(nullptr), 0);  // nothing new, but the 3 kept ones are written
  EXPECT_EQ(read_lines(path).size(), 4U);
}

TEST(Experiments, AReportBesideRecordingThreadsLosesNothing) {
  const std::string path = temporary_path("concurrent.jsonl");
  ASSERT_EQ(augur_set_option("experiment_file", path.c_str()), AUGUR_OK);
  const int work = augur_experiment_declare("work", "work[0] + work[1]*i", "i");
  constexpr int instances = 200000;
  std::atomic<bool> done{false};
  int reported = 0;
  std::thread reporter([&] {
    while (!done.load()) {
      const int count = augur_experiment_report("work");
      if (count > 0) reported += count;
    }
  });
  for (int i = 0; i < instances; ++i) {
    const double value = i;
    augur_experiment_begin(work, &value);
    augur_experiment_end(work);
  }
  done = true;
  reporter.join();
  reported += augur_experiment_report("work");
  EXPECT_EQ(reported, instances);
  const auto lines = read_lines(path);
  ASSERT_EQ(lines.size(), static_cast<std::size_t>(instances) + 1);
  std::vector<bool> seen(instances, false);
  for (std::size_t line = 1; line < lines.size(); ++line) {
    ASSERT_TRUE(lines[line]["variables"]["i"].is_number()) << lines[line];
    const int i = lines[line]["variables"]["i"].get<int>();
    ASSERT_FALSE(seen[static_cast<std::size_t>(i)]) << "duplicate " << i;
    seen[static_cast<std::size_t>(i)] = true;
  }
}

TEST(Experiments, BadValuesAndCountsAreNotRecorded) {
  const std::string path = temporary_path("bad_values.jsonl");
  ASSERT_EQ(augur_set_option("experiment_file", path.c_str()), AUGUR_OK);
  const int two = augur_experiment_declare("two", "two[0] + two[1]*N*P", "N,P");
  testing::internal::CaptureStderr();
  const double not_finite[] = {1.0, std::nan("")};
  augur_experiment_begin(two, not_finite);
  augur_experiment_end(two);  // no "no open instance" warning: the instance was opened, not recorded
  { augur::ExperimentScope one_value(two, {4.0}); }  // one value for two variables
  { augur::ExperimentScope right(two, {4.0, 2.0}); }
  EXPECT_EQ(augur_experiment_declare("broken", "broken[0] + (N", "N"), AUGUR_NO_EXPERIMENT);
  const std::string errors = testing::internal::GetCapturedStderr();
  EXPECT_NE(errors.find("variable P is not a finite number"), std::string::npos) << errors;
  EXPECT_EQ(errors.find("no open instance"), std::string::npos) << errors;
  EXPECT_NE(errors.find("the formula 'broken[0] + (N' is not an expression"), std::string::npos) << errors;
  EXPECT_EQ(augur_experiment_report(nullptr), 1);
  const auto lines = read_lines(path);
  ASSERT_EQ(lines.size(), 2U);
  EXPECT_EQ(lines[1]["variables"], nlohmann::json::parse(R"({"N":4,"P":2})"));
}

TEST(Experiments, OptionsSetInMainApplyAfterDeclarationsBeforeMain) {
  // Translated programs declare their experiments in a constructor, before main: that must not freeze
  // the options.
  const int a = augur_experiment_declare("a", "a[0]", "");
  const std::string path = temporary_path("after_declare.jsonl");
  ASSERT_EQ(augur_set_option("experiment_file", path.c_str()), AUGUR_OK);
  augur_experiment_begin(a, nullptr);
  augur_experiment_end(a);
  EXPECT_EQ(augur_experiment_report(nullptr), 1);
  EXPECT_EQ(read_lines(path).size(), 2U);
}

TEST(Experiments, CountersWithoutHardwareCountersGiveOneNotice) {
  const std::string path = temporary_path("counters.jsonl");
  ASSERT_EQ(augur_set_option("experiment_file", path.c_str()), AUGUR_OK);
  ASSERT_EQ(augur_set_option("counters", "PAPI_TOT_CYC"), AUGUR_OK);
  const int a = augur_experiment_declare("a", "a[0]", "");
  testing::internal::CaptureStderr();
  for (int i = 0; i < 3; ++i) {
    augur_experiment_begin(a, nullptr);
    augur_experiment_end(a);
  }
  const std::string errors = testing::internal::GetCapturedStderr();
  EXPECT_EQ(augur_experiment_report(nullptr), 3);
  const auto lines = read_lines(path);
  ASSERT_EQ(lines.size(), 4U);
  if (lines[1].contains("counters")) {
    // A machine whose PAPI counts cycles: the counter is there, and no notice.
    EXPECT_TRUE(lines[1]["counters"].contains("PAPI_TOT_CYC"));
    EXPECT_EQ(errors.find("counters:"), std::string::npos) << errors;
  } else {
    // This project's machines expose no counters: one notice, records without counters.
    EXPECT_NE(errors.find("augur: counters: "), std::string::npos) << errors;
    EXPECT_EQ(errors.find("counters:"), errors.rfind("counters:")) << errors;
  }
}

TEST(Experiments, ModeOffRecordsNothing) {
  const std::string path = temporary_path("off.jsonl");
  ASSERT_EQ(augur_set_option("mode", "off"), AUGUR_OK);
  ASSERT_EQ(augur_set_option("experiment_file", path.c_str()), AUGUR_OK);
  const int a = augur_experiment_declare("a", "a[0]", "");
  augur_experiment_begin(a, nullptr);
  augur_experiment_end(a);
  EXPECT_EQ(augur_experiment_report(nullptr), AUGUR_ERROR);
  EXPECT_FALSE(fs::exists(path));
}

}  // namespace
