// End-to-end tests of `augur speedup` on unmodified OpenMP programs (docs/speedup.md): swim.c built
// without instrumentation by gcc (libaugur_preload) and by clang (libaugur_ompt), the instrumented swim
// for comparison, one outer parallel region, and a region of kind "outer" (no sweep). The table's values
// are noise: only their presence is checked, never their size.
#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "core/process.hpp"
#include "e2e_support.hpp"
#include "support/self_analysis_runs.hpp"

namespace {

using augur::core::ProcessResult;
using augur::core::run_process;
using augur::e2e::contains;
using augur::e2e::describe;
using Json = nlohmann::json;

const std::string augur_exe = AUGUR_EXE;

ProcessResult speedup(const std::vector<std::string>& program, bool json = false) {
  std::vector<std::string> argv = {augur_exe, "speedup", "--max-threads", "2", "--repeat", "1", "--quiet"};
  if (json) argv.emplace_back("--json");
  argv.emplace_back("--");
  argv.insert(argv.end(), program.begin(), program.end());
  return run_process(argv, augur::test::clean_environment());
}

// The table's row for p: its words ("p time_s region_s TS SA(N) SA(N)run SA(1) ST' ...").
std::vector<std::string> row(const std::string& table, int processors) {
  std::istringstream lines(table);
  for (std::string line; std::getline(lines, line);) {
    std::istringstream words(line);
    std::vector<std::string> fields;
    for (std::string word; words >> word;) fields.push_back(word);
    if (fields.size() == 11 && fields[0] == std::to_string(processors)) return fields;
  }
  return {};
}

// TS (column 4), SA(N) (5) and SA(1) (7) measured for p = 1 and 2.
void expect_measured_points(const ProcessResult& result) {
  for (int processors : {1, 2}) {
    const std::vector<std::string> fields = row(result.standard_output, processors);
    ASSERT_EQ(fields.size(), 11U) << "no row for p=" << processors << "\n" << describe(result);
    for (std::size_t column : {3U, 4U, 6U}) EXPECT_NE(fields[column], "-") << "p=" << processors << " column " << column << "\n" << describe(result);
  }
}

TEST(SpeedupDynamic, UnmodifiedGccProgramIsMeasuredUnderThePreload) {
  const ProcessResult result = speedup({AUGUR_SWIM_PLAIN_EXE, "256", "200"});
  ASSERT_EQ(result.exit_code, 0) << describe(result);
  EXPECT_TRUE(contains(result.standard_output, "note: instrumentation: dynamic (libaugur_preload, libgomp)")) << describe(result);
  EXPECT_TRUE(contains(result.standard_output, " (3 parallel loops), baseline 1")) << describe(result);
  expect_measured_points(result);
}

TEST(SpeedupDynamic, JsonSaysTheInstrumentationAndHasEveryPoint) {
  const ProcessResult result = speedup({AUGUR_SWIM_PLAIN_EXE, "256", "200"}, true);
  ASSERT_EQ(result.exit_code, 0) << describe(result);
  const Json json = Json::parse(result.standard_output);
  SCOPED_TRACE(json.dump(2));
  ASSERT_FALSE(json.at("notes").empty());
  EXPECT_TRUE(contains(json.at("notes").at(0).get<std::string>(), "instrumentation: dynamic (libaugur_preload, libgomp)"));
  // The region's id is its first loop's offset in the program, not its address (which moves from run to
  // run): every run's region matched, so TS has both points.
  EXPECT_EQ(json.at("region").at("length"), 3);
  EXPECT_LT(json.at("region").at("id").get<std::uint64_t>(), std::uint64_t{1} << 32) << "an address, not an offset";
  ASSERT_EQ(json.at("points").size(), 2U);
  for (const Json& point : json.at("points")) {
    for (const char* key : {"ts", "sa_n", "sa_1"}) EXPECT_TRUE(point.at(key).is_number()) << key;
  }
}

#ifdef AUGUR_SWIM_CLANG_EXE
TEST(SpeedupDynamic, UnmodifiedClangProgramIsMeasuredUnderTheOmptTool) {
  const ProcessResult result = speedup({AUGUR_SWIM_CLANG_EXE, "256", "200"});
  ASSERT_EQ(result.exit_code, 0) << describe(result);
  EXPECT_TRUE(contains(result.standard_output, "note: instrumentation: dynamic (libaugur_ompt, libomp)")) << describe(result);
  EXPECT_TRUE(contains(result.standard_output, " (3 parallel loops), baseline 1")) << describe(result);
  expect_measured_points(result);
}
#endif

TEST(SpeedupDynamic, InstrumentedProgramSaysStaticInstrumentation) {
  const ProcessResult result = speedup({AUGUR_SWIM_EXE, "64", "100"});
  ASSERT_EQ(result.exit_code, 0) << describe(result);
  EXPECT_TRUE(contains(result.standard_output, "note: instrumentation: static (the program is linked with libaugur)"))
      << describe(result);
  EXPECT_FALSE(contains(result.standard_output, "dynamic")) << describe(result);
}

// One outer parallel region around the time loop: no parallel-for region to analyze. Until the one-run
// analysis of outer regions reports one, augur speedup says so, names the program and suggests augur run;
// once it does, the table has no SA(1 exec) (see the next test).
TEST(SpeedupDynamic, OuterRegionProgramIsNamedOrMeasuredWithoutSweep) {
  const ProcessResult result = speedup({AUGUR_OUTER_REGION_EXE});
  if (result.exit_code == 0) {
    EXPECT_TRUE(contains(result.standard_output, "SA(1 exec) not measured")) << describe(result);
    return;
  }
  EXPECT_EQ(result.exit_code, 1) << describe(result);
  EXPECT_TRUE(contains(result.standard_error, "no iterative parallel region found in '" + std::string(AUGUR_OUTER_REGION_EXE) + "'"))
      << describe(result);
  EXPECT_TRUE(contains(result.standard_error, "augur run")) << describe(result);
  EXPECT_TRUE(contains(result.standard_error, "libaugur_preload")) << describe(result);
}

// A program whose report's main region has "kind": "outer" (the instrumented swim behind a script that
// marks its region so): the sweep run is skipped with a note, SA(1) is unknown.
TEST(SpeedupDynamic, OuterRegionKindSkipsTheSweep) {
  augur::e2e::TemporaryDirectory directory{"augur-speedup-e2e"};
  const std::string script = directory.file("outer.sh");
  augur::e2e::write_text(script,
                         "#!/bin/sh\n"
                         "'" AUGUR_SWIM_EXE "' 64 100 || exit $?\n"
                         "report=$(printf '%s' \"$AUGUR_TOOL_OPTIONS\" | tr ';' '\\n' | sed -n 's/^report=//p')\n"
                         "sed -i 's/\"elapsed_s\"/\"kind\": \"outer\", \"elapsed_s\"/' \"$report\"\n"
                         "echo runs >> '" + directory.file("count") + "'\n");
  std::filesystem::permissions(script, std::filesystem::perms::owner_all);
  const ProcessResult result = speedup({script}, true);
  ASSERT_EQ(result.exit_code, 0) << describe(result);
  const Json json = Json::parse(result.standard_output);
  SCOPED_TRACE(json.dump(2));
  bool noted = false;
  for (const Json& note : json.at("notes")) noted = noted || contains(note.get<std::string>(), "SA(1 exec) not measured");
  EXPECT_TRUE(noted);
  for (const Json& point : json.at("points")) EXPECT_TRUE(point.at("sa_1").is_null());
  // 4 runs (time and analyze on 1 and 2 threads), not 5.
  EXPECT_EQ(augur::e2e::read_text(directory.file("count")), "runs\nruns\nruns\nruns\n");
}

TEST(SpeedupDynamic, ProgramWithoutOpenMpOrLibaugurStillWritesNoReport) {
  const ProcessResult result = speedup({"/bin/true"});
  EXPECT_EQ(result.exit_code, 1) << describe(result);
  EXPECT_TRUE(contains(result.standard_error, "wrote no augur report")) << describe(result);
}

}  // namespace
