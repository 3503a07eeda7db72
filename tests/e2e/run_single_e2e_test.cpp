// End-to-end: the closing barrier of a `single` called from two sites (tests/e2e/single_race.c: the winner's
// and the others', as gcc may compile a single) is known by the single's site, so the master's samples, and the
// period, do not depend on which thread wins (issue 16, point 3; src/interpose/gomp_wrappers.cpp).
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/files.hpp"
#include "core/process.hpp"
#include "run_e2e_support.hpp"
#include "support/self_analysis_runs.hpp"

namespace {

using augur::core::ProcessResult;
using augur::core::run_process;
using augur::run_e2e::TemporaryFile;
using augur::test::clean_environment;
using nlohmann::json;

// The 1-based numbers of the lines of `path` that contain `text`.
std::vector<int> lines_with(const std::string& path, const std::string& text) {
  std::ifstream file(path);
  std::vector<int> found;
  int number = 0;
  for (std::string line; std::getline(file, line);) {
    ++number;
    if (line.find(text) != std::string::npos) found.push_back(number);
  }
  return found;
}

TEST(AugurRun, TheBarrierOfASingleIsKnownByTheSingleWhoeverWinsIt) {
  const std::vector<int> single = lines_with(AUGUR_SINGLE_RACE_SOURCE, "if (GOMP_single_start())");
  const std::vector<int> barriers = lines_with(AUGUR_SINGLE_RACE_SOURCE, "        GOMP_barrier();");
  ASSERT_EQ(single.size(), 1u);
  ASSERT_EQ(barriers.size(), 2u);  // the winner's call and the others'
  for (int run = 0; run < 3; ++run) {
    TemporaryFile report("single-race.json");
    const ProcessResult result =
        run_process({AUGUR_EXE, "run", "-p", "2", "--one-run", "--json=" + report.path(), "--", AUGUR_SINGLE_RACE_EXE, "300"},
                    clean_environment());
    ASSERT_EQ(result.exit_code, 0) << result.describe_status() << "\n" << result.standard_output << result.standard_error;
    const json worksharing = json::parse(augur::core::read_file(report.path())).at("interpose").at("worksharing");
    EXPECT_EQ(worksharing.at("length"), 4) << worksharing.dump();  // three loops' barriers and the single's
    const auto ends_with = [](const std::string& text, int line) {
      const std::string tail = ":" + std::to_string(line);
      return text.size() >= tail.size() && text.compare(text.size() - tail.size(), tail.size(), tail) == 0;
    };
    int at_single = 0;
    for (const json& construct : worksharing.at("constructs")) {
      const std::string source = construct.at("source").get<std::string>();
      if (construct.at("kind") == "single") {
        EXPECT_TRUE(ends_with(source, single[0])) << worksharing.dump();
      }
      at_single += ends_with(source, single[0]) ? 1 : 0;
      EXPECT_FALSE(ends_with(source, barriers[0]) || ends_with(source, barriers[1])) << source << " (run " << run << ")";
    }
    EXPECT_EQ(at_single, 1) << worksharing.dump();
  }
}

}  // namespace
