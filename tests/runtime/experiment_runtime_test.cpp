// libaugur's CALL experiments and superstep traces, through the C API as a program uses them.
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
#include "support/temporary_directory.hpp"

namespace {

namespace fs = std::filesystem;

// A file in this program's scratch directory. The directory lives until the program exits, after
// libaugur's exit handlers (registered later, so run earlier), which may still write records.
std::string temporary_path(const std::string& name) {
  static const augur::test::TemporaryDirectory directory("augur-experiment-test");
  return directory.file(name);
}

std::vector<nlohmann::json> read_lines(const std::string& path) {
  std::ifstream input(path);
  std::vector<nlohmann::json> lines;
  std::string line;
  while (std::getline(input, line)) lines.push_back(nlohmann::json::parse(line));
  return lines;
}

void spin_for(double seconds) {
  const double start = omp_get_wtime();
  volatile double sink = 0;
  while (omp_get_wtime() - start < seconds) sink = sink + 1;
}

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

TEST(SuperstepTrace, RecordsWorkPartitionsAndPartners) {
  ASSERT_EQ(augur_bsp_start(3, 1, 4), AUGUR_OK);
  spin_for(0.004);                 // superstep 1 of "/": 4 ms before the partition
  ASSERT_EQ(augur_bsp_partition(1, 0, 2), AUGUR_OK);
  spin_for(0.003);                 // superstep 1 of "/1:1/"
  const int child_partner = 1;
  augur_bsp_communicate();
  spin_for(0.001);                 // communication, not work
  augur_bsp_sync(AUGUR_BSP_OBLIVIOUS, 100, 200, 1, &child_partner);
  spin_for(0.002);                 // superstep 2 of "/1:1/", ended by done
  augur_bsp_done();
  spin_for(0.001);                 // after the child, still superstep 1 of "/"
  augur_bsp_communicate();
  const int partners[] = {3, 3};   // duplicates collapse
  augur_bsp_sync(AUGUR_BSP_OBLIVIOUS, 4096, 4096, 2, partners);
  augur_bsp_sync(AUGUR_BSP_BARRIER, 0, 0, 0, nullptr);  // superstep 2 of "/"
  EXPECT_EQ(augur_bsp_stop(), 5);  // 2 in the child, 3 in the top machine (the last ended by stop)

  char* buffer = nullptr;
  unsigned long length = 0;
  ASSERT_EQ(augur_bsp_serialize(&buffer, &length), 5);
  std::istringstream text(std::string(buffer, length));
  augur_free(buffer);
  std::vector<nlohmann::json> records;
  std::string line;
  while (std::getline(text, line)) records.push_back(nlohmann::json::parse(line));
  ASSERT_EQ(records.size(), 5U);
  // The child's supersteps come first (they end first).
  EXPECT_EQ(records[0]["machine"], "/1:1/");
  EXPECT_EQ(records[0]["superstep"], 1);
  EXPECT_EQ(records[0]["pid"], 0);
  EXPECT_EQ(records[0]["nprocs"], 2);
  EXPECT_EQ(records[0]["sync"], "oblivious");
  EXPECT_EQ(records[0]["partners"], nlohmann::json::parse("[1]"));
  EXPECT_EQ(records[0]["in"], 100);
  EXPECT_EQ(records[0]["out"], 200);
  // Times: lower bounds and orderings only (the machine may be loaded: spins can last longer, never shorter).
  EXPECT_GE(records[0]["work"].get<double>(), 0.003);
  EXPECT_EQ(records[1]["machine"], "/1:1/");
  EXPECT_EQ(records[1]["superstep"], 2);
  EXPECT_EQ(records[1]["sync"], "none");
  const nlohmann::json& top = records[2];
  EXPECT_EQ(top["rank"], 3);
  EXPECT_EQ(top["machine"], "/");
  EXPECT_EQ(top["pid"], 1);
  EXPECT_EQ(top["nprocs"], 4);
  EXPECT_EQ(top["child"], "/1:1/");
  EXPECT_GE(top["before_child"].get<double>(), 0.004);
  // W counts the 4 ms before and the 1 ms after the child, not the child's 6 ms: W < end − (child's time).
  EXPECT_GE(top["work"].get<double>(), 0.005);
  EXPECT_GT(top["work"].get<double>(), top["before_child"].get<double>());
  EXPECT_LE(top["work"].get<double>() + records[1]["end"].get<double>() - top["before_child"].get<double>(),
            top["end"].get<double>() + 1e-9);
  EXPECT_EQ(top["partners"], nlohmann::json::parse("[3]"));
  EXPECT_GE(top["end"].get<double>(), 0.011);
  EXPECT_EQ(records[3]["sync"], "barrier");
  EXPECT_EQ(records[4]["superstep"], 3);
  EXPECT_EQ(records[4]["sync"], "none");
  for (std::size_t index = 1; index < records.size(); ++index) {
    if (records[index]["machine"] == records[index - 1]["machine"]) {
      EXPECT_GE(records[index]["end"].get<double>(), records[index - 1]["end"].get<double>());
    }
  }

  const std::string path = temporary_path("trace.jsonl");
  ASSERT_EQ(augur_bsp_write(path.c_str(), 4, "", 0), AUGUR_OK);
  const auto lines = read_lines(path);
  ASSERT_EQ(lines.size(), 1U);
  EXPECT_EQ(lines[0], nlohmann::json::parse(R"({"augur":"bsp","version":1,"ranks":4})"));
}

TEST(SuperstepTrace, APartitionAfterCommunicateCountsAsWork) {
  ASSERT_EQ(augur_bsp_start(0, 0, 2), AUGUR_OK);
  spin_for(0.002);
  augur_bsp_communicate();
  testing::internal::CaptureStderr();
  ASSERT_EQ(augur_bsp_partition(0, 0, 1), AUGUR_OK);  // the sub-machine comes after communicate
  const std::string errors = testing::internal::GetCapturedStderr();
  EXPECT_NE(errors.find("the communication is taken to start after the sub-machine"), std::string::npos) << errors;
  spin_for(0.002);
  augur_bsp_done();
  const int partner = 1;
  augur_bsp_sync(AUGUR_BSP_OBLIVIOUS, 8, 8, 1, &partner);
  EXPECT_EQ(augur_bsp_stop(), 3);
  char* buffer = nullptr;
  unsigned long length = 0;
  ASSERT_EQ(augur_bsp_serialize(&buffer, &length), 3);
  std::istringstream text(std::string(buffer, length));
  augur_free(buffer);
  std::string line;
  std::getline(text, line);  // the child's superstep
  std::getline(text, line);
  const nlohmann::json top = nlohmann::json::parse(line);
  EXPECT_EQ(top["child"], "/1:0/");
  // What `augur bsp` requires: before_child <= work.
  EXPECT_LE(top["before_child"].get<double>(), top["work"].get<double>());
  EXPECT_GE(top["before_child"].get<double>(), 0.002);
}

TEST(SuperstepTrace, MisuseIsWarnedAndIgnored) {
  testing::internal::CaptureStderr();
  augur_bsp_sync(AUGUR_BSP_BARRIER, 0, 0, 0, nullptr);  // before start
  augur_bsp_done();
  const std::string errors = testing::internal::GetCapturedStderr();
  EXPECT_NE(errors.find("no trace running"), std::string::npos) << errors;
  EXPECT_EQ(augur_bsp_start(0, 2, 2), AUGUR_ERROR);      // pid out of range
  EXPECT_EQ(augur_bsp_write(nullptr, 1, "", 0), AUGUR_OK);  // no path: nothing written
}

}  // namespace
