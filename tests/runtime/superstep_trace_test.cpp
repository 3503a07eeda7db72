// libaugur's superstep traces (augur_bsp_*), through the C API as a program uses them (its CALL experiments:
// experiment_runtime_test.cpp). CTest runs each test in a process of its own, so each sets its options before
// augur's first use.
#include <gtest/gtest.h>
#include <omp.h>
#include <unistd.h>

#include <cmath>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "augur/augur.h"
#include "experiment_support.hpp"
#include "spin_for.hpp"

namespace {

using augur::test::read_lines;
using augur::test::spin_for;
using augur::test::temporary_path;

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
