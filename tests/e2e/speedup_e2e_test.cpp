// End-to-end tests of `augur speedup` on unmodified OpenMP programs (docs/speedup.md): swim.c built
// without instrumentation by gcc (libaugur_preload) and by clang (libaugur_ompt), the instrumented swim
// for comparison, one outer parallel region (a region of kind "outer": no sweep), and programs in which
// no period is found. The table's values are noise: only their presence is checked, never their size.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
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

ProcessResult speedup(const std::vector<std::string>& program, bool json = false, bool quiet = true) {
  std::vector<std::string> argv = {augur_exe, "speedup", "--max-threads", "2", "--repeat", "1"};
  if (quiet) argv.emplace_back("--quiet");
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
    if (fields.size() == 12 && fields[0] == std::to_string(processors)) return fields;
  }
  return {};
}

// augur speedup on a program of one outer region, run again (at most 3 times) while a point has no SA(N)
// and the run says why: a neighbour preempted most of its steps ("only 3 usable steps (at least 5 are
// needed for a speedup)", seen at a load of 15 on 2 cores). A point missing for any other reason is not
// retried; each retry is printed.
ProcessResult speedup_outer(const std::vector<std::string>& program, bool quiet) {
  ProcessResult result;
  for (int run = 1; run <= 3; ++run) {
    result = speedup(program, false, quiet);
    bool missing = false;
    for (int processors : {1, 2}) {
      const std::vector<std::string> fields = row(result.standard_output, processors);
      missing = missing || fields.size() != 12U || fields[4] == "-";
    }
    if (!missing || !contains(result.standard_output, " usable steps (at least ")) return result;
    std::printf("augur speedup, run %d of 3: a point without SA(N), its steps preempted; measured again\n", run);
  }
  return result;
}

// TS (column 4), SA(N) (5) and SA(1) (7) measured for p = 1 and 2.
void expect_measured_points(const ProcessResult& result) {
  for (int processors : {1, 2}) {
    const std::vector<std::string> fields = row(result.standard_output, processors);
    ASSERT_EQ(fields.size(), 12U) << "no row for p=" << processors << "\n" << describe(result);
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

// One outer parallel region around the time loop (examples/interpose/outer_region.c): the one-run
// analysis reports a region of kind outer; TS from the time runs' median steps, no sweep.
TEST(SpeedupDynamic, OuterRegionProgramIsMeasuredWithoutSweep) {
  const ProcessResult result = speedup_outer({AUGUR_OUTER_REGION_EXE, "100000", "200"}, false);
  ASSERT_EQ(result.exit_code, 0) << describe(result);
  // Four runs (time and analyze on 1 and 2 threads) of the five planned: no sweep.
  EXPECT_TRUE(contains(result.standard_output, "note: SA(1 exec) not measured")) << describe(result);
  EXPECT_TRUE(contains(result.standard_output, "note: region_s of the outer region")) << describe(result);
  // Where T(1) came from differs with the thread count, and each note says which runs it is about.
  EXPECT_TRUE(contains(result.standard_output, "note: on 1 thread, one run: T(1) is the measured step"))
      << describe(result);
  // (from the baseline steps, or the work added up when a loaded machine left no complete window)
  EXPECT_TRUE(contains(result.standard_output, "note: on 2 threads, one run: T(1) is")) << describe(result);
  for (int processors : {1, 2}) {
    const std::vector<std::string> fields = row(result.standard_output, processors);
    ASSERT_EQ(fields.size(), 12U) << "no row for p=" << processors << "\n" << describe(result);
    EXPECT_NE(fields[3], "-") << "TS, p=" << processors << "\n" << describe(result);
    EXPECT_NE(fields[4], "-") << "SA(N), p=" << processors << "\n" << describe(result);
    EXPECT_EQ(fields[6], "-") << "SA(1), p=" << processors << "\n" << describe(result);
  }
}

#ifdef AUGUR_OUTER_REGION_CLANG_EXE
TEST(SpeedupDynamic, OuterRegionClangProgramIsMeasuredUnderTheOmptTool) {
  const ProcessResult result = speedup_outer({AUGUR_OUTER_REGION_CLANG_EXE, "100000", "200"}, true);
  ASSERT_EQ(result.exit_code, 0) << describe(result);
  EXPECT_TRUE(contains(result.standard_output, "note: instrumentation: dynamic (libaugur_ompt, libomp)")) << describe(result);
  EXPECT_TRUE(contains(result.standard_output, "note: SA(1 exec) not measured")) << describe(result);
  for (int processors : {1, 2}) {
    const std::vector<std::string> fields = row(result.standard_output, processors);
    ASSERT_EQ(fields.size(), 12U) << "no row for p=" << processors << "\n" << describe(result);
    EXPECT_NE(fields[3], "-") << "TS, p=" << processors << "\n" << describe(result);
    EXPECT_NE(fields[4], "-") << "SA(N), p=" << processors << "\n" << describe(result);
  }
}
#endif

// No periodic pattern (one time step; a few distinct parallel regions): the program is named, with the
// detector's reason and augur run, after the first analyze run.
TEST(SpeedupDynamic, ProgramWithoutPeriodIsNamedWithTheReasonAndAugurRun) {
  const ProcessResult one_step = speedup({AUGUR_OUTER_REGION_EXE, "1000", "1"});
  EXPECT_EQ(one_step.exit_code, 1) << describe(one_step);
  EXPECT_TRUE(contains(one_step.standard_error, "no iterative parallel region found in '" + std::string(AUGUR_OUTER_REGION_EXE) +
                                                    "' (dynamic instrumentation, libaugur_preload)"))
      << describe(one_step);
  EXPECT_TRUE(contains(one_step.standard_error, "showed no periodic pattern")) << describe(one_step);
  EXPECT_TRUE(contains(one_step.standard_error, "`augur run -- " + std::string(AUGUR_OUTER_REGION_EXE) + "`"))
      << describe(one_step);

  const ProcessResult regions = speedup({AUGUR_EMPTY_REGIONS_EXE, "3"});
  EXPECT_EQ(regions.exit_code, 1) << describe(regions);
  EXPECT_TRUE(contains(regions.standard_error, "without a periodic pattern; nothing measured")) << describe(regions);
}

TEST(SpeedupDynamic, ProgramWithoutOpenMpOrLibaugurStillWritesNoReport) {
  const ProcessResult result = speedup({"/bin/true"});
  EXPECT_EQ(result.exit_code, 1) << describe(result);
  EXPECT_TRUE(contains(result.standard_error, "wrote no augur report")) << describe(result);
}

}  // namespace
