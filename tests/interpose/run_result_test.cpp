// augur run's reading of the interposition file and the speedup of one outer parallel region from two
// runs (src/interpose/run_result.hpp), on written files and scripted second runs.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "augur/core/diagnostics.hpp"
#include "interpose/run_result.hpp"

namespace {

using namespace augur::interpose;

// An interposition file as libaugur_preload writes it (docs/run.md), with one outer region found in its
// worksharing constructs: 4 constructs per iteration on a team of `team`.
std::string outer_region_file(int team, const std::string& median, const std::string& first_construct = "0x1a2b") {
  return R"({
  "augur_interpose": 1,
  "runtime": "libgomp",
  "intercepted": 1,
  "passed_through": 0,
  "dpd_window": 128,
  "disabled": null,
  "distinct_loops": 1,
  "detections": 0,
  "breaks": 0,
  "worksharing": {"samples": 1200, "distinct_sites": 4, "found": true, "region": {"address": "0x401000"}, "length": 4,
    "team_size": )" +
         std::to_string(team) + R"(, "iterations": 300, "measured_iterations": 267, "iteration_time_median_s": )" +
         median +
         R"(, "speedup": null, "speedup_note": "not measurable in one run", "constructs": [
    {"address": "0x1", "module": "/bin/p", "offset": ")" +
         first_construct + R"(", "symbol": null, "kind": "barrier"},
    {"address": "0x2", "module": "/bin/p", "offset": "0x2b3c", "symbol": null, "kind": "barrier"},
    {"address": "0x3", "module": "/bin/p", "offset": "0x3c4d", "symbol": null, "kind": "loop_end"},
    {"address": "0x4", "module": "/bin/p", "offset": "0x4d5e", "symbol": null, "kind": "barrier"}]},
  "regions": [
  ]
}
)";
}

std::string error_of(const std::string& text) {
  try {
    (void)parse_run_info(text, "run.json");
  } catch (const augur::core::InputError& error) {
    return error.what();
  }
  return "no error";
}

TEST(InterposeRunResult, ReadsTheOuterRegionOfAnInterpositionFile) {
  const RunInfo info = parse_run_info(outer_region_file(2, "0.00025"), "run.json");
  EXPECT_EQ(info.dpd_window, 128);
  EXPECT_EQ(info.intercepted, 1);
  EXPECT_EQ(info.distinct_loops, 1);
  EXPECT_FALSE(info.disabled.has_value());
  EXPECT_EQ(info.regions, 0u);
  EXPECT_TRUE(info.worksharing_detector);
  EXPECT_EQ(info.worksharing_samples, 1200);
  ASSERT_TRUE(info.worksharing.has_value());
  const WorksharingPeriod& period = *info.worksharing;
  EXPECT_EQ(period.length, 4);
  EXPECT_EQ(period.iterations, 300);
  EXPECT_EQ(period.team_size, 2);
  EXPECT_EQ(period.measured_iterations, 267);
  ASSERT_TRUE(period.iteration_time.has_value());
  EXPECT_EQ(*period.iteration_time, 0.00025);
  EXPECT_EQ(period.constructs, (std::vector<std::string>{"/bin/p+0x1a2b barrier", "/bin/p+0x2b3c barrier",
                                                         "/bin/p+0x3c4d loop_end", "/bin/p+0x4d5e barrier"}));
  EXPECT_TRUE(outer_region_only(info));
  EXPECT_EQ(run_problem(info), "1 parallel regions ran (1 distinct) without a periodic pattern");

  const RunInfo untimed = parse_run_info(outer_region_file(2, "null"), "run.json");
  EXPECT_FALSE(untimed.worksharing->iteration_time.has_value());
}

TEST(InterposeRunResult, SaysWhyNothingWasMeasured) {
  RunInfo info;
  EXPECT_EQ(nothing_measured_reason(info), "no OpenMP parallel region ran");
  info.intercepted = 7;
  info.distinct_loops = 2;
  EXPECT_EQ(nothing_measured_reason(info), "7 parallel regions ran (2 distinct) without a periodic pattern");
  info.regions = 1;
  EXPECT_EQ(run_problem(info), "");
  EXPECT_EQ(nothing_measured_reason(info), "no report was written");
  info.disabled = "AUGUR_MODE=off";
  EXPECT_EQ(run_problem(info), "AUGUR_MODE=off");
  EXPECT_FALSE(outer_region_only(info));
  // One region, once: what its worksharing constructs showed, or that this runtime's tool has none.
  RunInfo once;
  once.intercepted = 1;
  once.distinct_loops = 1;
  EXPECT_EQ(
      nothing_measured_reason(once),
      "one parallel region ran, once: a program with one parallel region around its time loop (orphaned worksharing "
      "loops inside it) is not measured by this runtime's tool yet");
  once.worksharing_detector = true;
  once.worksharing_samples = 10;
  EXPECT_EQ(
      nothing_measured_reason(once),
      "one parallel region ran, once, and its 10 worksharing constructs (barriers, loop ends on its master thread) "
      "showed no periodic pattern");
  // A window the constructs did not fill twice (--dpd-window 1048576 on 1201 constructs): a smaller one may find the
  // step; a larger one, as the detector's growth suggests for long steps, cannot.
  once.dpd_window = 1048576;
  once.worksharing_samples = 1201;
  EXPECT_EQ(nothing_measured_reason(once),
            "one parallel region ran, once, and its 1201 worksharing constructs (barriers, loop ends on its master thread) "
            "showed no periodic pattern in a window of 1048576 samples, more than half of them: a smaller --dpd-window may find it");
  once.dpd_window = 128;
  EXPECT_EQ(nothing_measured_reason(once).find("smaller"), std::string::npos);
  // One step's 5 constructs under the default window: no window, however small (at least 4), sees a step repeat.
  once.worksharing_samples = 5;
  EXPECT_EQ(nothing_measured_reason(once).find("smaller"), std::string::npos);
  once.worksharing_samples = 40;  // 40 < 2 x 128, and a window of 4 to 20 could see a step of up to 10 repeat
  EXPECT_NE(nothing_measured_reason(once).find("a smaller --dpd-window may find it"), std::string::npos);
}

// Found by fuzz/run_info_fuzz.cpp: a number beyond double's range escaped as nlohmann's out_of_range.
TEST(InterposeRunResult, ANumberBeyondRangeIsAnInputError) {
  EXPECT_EQ(error_of("{\"augur_interpose\": 1, \"dpd_window\": 1e999}"),
            "run.json: not a JSON interposition file: number overflow parsing '1e999'");
}

// Found by fuzz/run_info_fuzz.cpp: a float in an integer field was converted with undefined behaviour (1e300
// to int) or truncated (2.5 to 2).
TEST(InterposeRunResult, AnIntegerFieldTakesOnlyAWholeNumberInRange) {
  EXPECT_EQ(error_of("{\"augur_interpose\": 1, \"dpd_window\": 1e300}"),
            "run.json: interposition file: field 'dpd_window' is not a whole number from -2147483648 to 2147483647");
  EXPECT_EQ(error_of("{\"augur_interpose\": 1.5}"),
            "run.json: interposition file: field 'augur_interpose' is not a whole number from -2147483648 to 2147483647");
  EXPECT_EQ(error_of("{\"augur_interpose\": 1, \"intercepted\": 9223372036854775808}"),
            "run.json: interposition file: field 'intercepted' is not a whole number from -9223372036854775808 to "
            "9223372036854775807");
}

TEST(InterposeRunResult, NamesTheFileOfABadInterpositionFile) {
  EXPECT_EQ(error_of("{\n  \"augur_interpose\": 1,\n  oops\n}"),
            "run.json:3:3: not a JSON interposition file: syntax error while parsing object key - invalid literal; "
            "last read: '1,<U+000A>  o'; expected string literal");
  EXPECT_EQ(error_of("[1]"), "run.json: not an interposition file: the top level is not a JSON object");
  EXPECT_EQ(error_of("{\"augur_interpose\": 2}"),
            "run.json: not an interposition file of this version ('augur_interpose': 1 expected)");
  EXPECT_EQ(error_of("{\"augur_interpose\": 1, \"intercepted\": \"many\"}"),
            "run.json: interposition file: field 'intercepted' has the wrong type (string)");
  EXPECT_EQ(error_of("{\"augur_interpose\": 1, \"regions\": 3}"),
            "run.json: interposition file: field 'regions' is not an array");
  EXPECT_EQ(error_of("{\"augur_interpose\": 1, \"worksharing\": {\"found\": true, \"length\": 4}}"),
            "run.json: worksharing: missing array 'constructs'");
  EXPECT_EQ(error_of("{\"augur_interpose\": 1, \"worksharing\": {\"found\": true, \"iteration_time_median_s\": \"1\", "
                     "\"constructs\": []}}"),
            "run.json: worksharing: field 'iteration_time_median_s' is not a number");
}

TEST(InterposeRunResult, SecondRunThreadsNeverEqualTheTeam) {
  const augur::selfanalysis::BaselinePolicy automatic;  // the default: min(4, P/2)
  EXPECT_EQ(second_run_threads(automatic, 16), 4);
  EXPECT_EQ(second_run_threads(automatic, 6), 3);
  EXPECT_EQ(second_run_threads(automatic, 2), 1);
  EXPECT_EQ(second_run_threads(automatic, 1), 0);  // nothing else to run on
  const augur::selfanalysis::BaselinePolicy four{augur::selfanalysis::BaselinePolicy::Kind::Fixed, 4};
  EXPECT_EQ(second_run_threads(four, 8), 4);
  EXPECT_EQ(second_run_threads(four, 2), 1);  // 4 resolves to the team's 2: run on 1 instead
  EXPECT_EQ(second_run_threads(four, 1), 0);  // nothing else to run on
  augur::selfanalysis::BaselinePolicy half{augur::selfanalysis::BaselinePolicy::Kind::Half, 0};
  EXPECT_EQ(second_run_threads(half, 6), 3);
  const WorksharingPeriod timed = *parse_run_info(outer_region_file(2, "0.00025"), "run.json").worksharing;
  EXPECT_TRUE(second_run_wanted(timed, 1));
  EXPECT_FALSE(second_run_wanted(timed, 0));
  const WorksharingPeriod untimed = *parse_run_info(outer_region_file(2, "null"), "run.json").worksharing;
  EXPECT_FALSE(second_run_wanted(untimed, 1));
}

TEST(InterposeRunResult, SpeedupIsTheRatioOfTheMedians) {
  const WorksharingPeriod first = *parse_run_info(outer_region_file(4, "0.00025"), "first.json").worksharing;
  SecondRunEnd second;
  // The detector may mark the period at another construct: the same cycle, rotated.
  second.info = parse_run_info(outer_region_file(2, "0.0004"), "second.json");
  std::rotate(second.info->worksharing->constructs.begin(), second.info->worksharing->constructs.begin() + 1,
              second.info->worksharing->constructs.end());
  const SecondRunResult result = combine_runs(first, 2, second);
  EXPECT_TRUE(result.ran);
  EXPECT_EQ(result.problem, "");
  ASSERT_TRUE(result.speedup.has_value());
  EXPECT_DOUBLE_EQ(*result.speedup, 0.0004 / 0.00025);
  ASSERT_TRUE(result.period.has_value());
  EXPECT_EQ(result.period->team_size, 2);
  EXPECT_EQ(result.note(),
            "from two runs: T(2)/T(4) per iteration, medians of each run's measured iterations (the second run on "
            "OMP_NUM_THREADS=2); relative to 2 threads, not to 1");

  second.info = parse_run_info(outer_region_file(1, "0.001"), "second.json");
  const SecondRunResult one = combine_runs(first, 1, second);
  EXPECT_DOUBLE_EQ(*one.speedup, 4.0);
  EXPECT_EQ(one.note(),
            "from two runs: T(1)/T(4) per iteration, medians of each run's measured iterations (the second run on "
            "OMP_NUM_THREADS=1)");
}

TEST(InterposeRunResult, NoSpeedupSaysWhy) {
  const WorksharingPeriod first = *parse_run_info(outer_region_file(2, "0.00025"), "first.json").worksharing;
  const auto problem = [&](const SecondRunEnd& second) {
    const SecondRunResult result = combine_runs(first, 1, second);
    EXPECT_FALSE(result.speedup.has_value());
    EXPECT_EQ(result.note(), "not measured: " + result.problem);
    return result.problem;
  };
  SecondRunEnd killed;
  killed.signal = 9;
  killed.exit_code = -1;
  EXPECT_EQ(problem(killed), "the second run, on 1 threads, was killed by signal 9");
  SecondRunEnd failed;
  failed.exit_code = 3;
  EXPECT_EQ(problem(failed), "the second run, on 1 threads, exited with status 3");
  EXPECT_EQ(problem(SecondRunEnd{}), "the second run wrote no interposition file");
  SecondRunEnd none;
  none.info = RunInfo{};
  EXPECT_EQ(problem(none), "the second run, on 1 threads, found no worksharing period");
  SecondRunEnd other;
  other.info = parse_run_info(outer_region_file(1, "0.0004", "0x9999"), "second.json");
  EXPECT_EQ(problem(other), "the second run found another period (4 constructs, 300 iterations; the first: 4, 300)");
  other.info->worksharing->constructs = first.constructs;
  other.info->worksharing->iterations = 299;
  EXPECT_EQ(problem(other), "the second run found another period (4 constructs, 299 iterations; the first: 4, 300)");
  SecondRunEnd clause;
  clause.info = parse_run_info(outer_region_file(2, "0.0004"), "second.json");
  EXPECT_EQ(problem(clause), "the second run's team had 2 threads, not the 1 asked for (a num_threads clause?)");
  SecondRunEnd untimed;
  untimed.info = parse_run_info(outer_region_file(1, "null"), "second.json");
  EXPECT_EQ(problem(untimed), "the second run measured no time per iteration");
  untimed.info = parse_run_info(outer_region_file(1, "0"), "second.json");
  EXPECT_EQ(problem(untimed), "the second run measured no time per iteration");
  // A median of fewer than 5 measured iterations is no ratio.
  SecondRunEnd short_run;
  short_run.info = parse_run_info(outer_region_file(1, "0.0004"), "second.json");
  short_run.info->worksharing->measured_iterations = 1;
  EXPECT_EQ(problem(short_run), "too few measured iterations for a ratio (267 and 1; at least 5 in each run; a smaller "
                                "--dpd-window detects the period sooner)");
  // The first run failed: no second run, and the file's note stays the preload's.
  const SecondRunResult refused = not_run_again(first, 1, 5);
  EXPECT_FALSE(refused.ran);
  EXPECT_EQ(refused.problem, "the program exited with status 5, so it was not run again");
}

TEST(InterposeRunResult, SameCycleIsARotation) {
  EXPECT_TRUE(same_cycle({}, {}));
  EXPECT_TRUE(same_cycle({"a", "b", "c"}, {"b", "c", "a"}));
  EXPECT_FALSE(same_cycle({"a", "b", "c"}, {"a", "c", "b"}));
  EXPECT_FALSE(same_cycle({"a", "b"}, {"a", "b", "a"}));
}

}  // namespace
