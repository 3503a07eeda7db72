// What bench_outer_region reads from an `augur run --json` report (bench/outer_region_report.hpp): today's
// shape (no region of kind "outer", the two-run speedup in interpose.worksharing), the shape of issue 16
// (the outer region's speedup[], time estimate and noise verdict, the report's machine fields), missing and
// null fields as "not reported", the time a program prints and the pace of its loop (an example's marks, NPB's
// progress lines as bench/stamped_run.hpp stamps them: tests/e2e/bench_stamped_test.cpp).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "outer_region_report.hpp"

namespace {

using augur::bench::estimate_text;
using augur::bench::npb_pace;
using augur::bench::StampedLine;
using augur::bench::pace_estimate_error;
using augur::bench::read_pace;
using augur::bench::printed_time;
using augur::bench::read_report;
using augur::bench::RunReport;
using nlohmann::json;

TEST(BenchReport, TodaysOuterRegionReportHasAPeriodAndATwoRunSpeedupOnly) {
  const RunReport run = read_report(json::parse(R"({"regions": [], "interpose": {"worksharing":
      {"found": true, "length": 4, "measured_iterations": 267, "speedup": 0.6434}}})"));
  EXPECT_TRUE(run.written);
  EXPECT_EQ(run.period, 4);
  EXPECT_EQ(run.measured, 267);
  EXPECT_EQ(run.two_run, 0.6434);
  EXPECT_FALSE(run.one_run.has_value());
  EXPECT_FALSE(run.estimated.has_value());
  EXPECT_FALSE(run.disturbed.has_value());
}

TEST(BenchReport, NothingFoundGivesNoPeriodAndNoSpeedup) {
  const RunReport run = read_report(json::parse(R"({"regions": [], "interpose": {"worksharing":
      {"found": false, "length": 0, "speedup": null}}})"));
  EXPECT_FALSE(run.period.has_value());
  EXPECT_FALSE(run.two_run.has_value());
  EXPECT_FALSE(read_report(json::parse(R"({"interpose": {"worksharing": null}})")).period.has_value());
}

TEST(BenchReport, TheOuterRegionGivesTheOneRunSpeedupAtTwoTheEstimateAndTheVerdict) {
  const RunReport run = read_report(json::parse(R"({"regions": [
      {"kind": "loops", "elapsed_s": 9.0, "speedup": [{"p": 2, "value": 1.9}]},
      {"kind": "outer", "elapsed_s": 0.5, "estimated_time_s": 0.52, "estimated_at_fraction": 0.05,
       "latest_estimated_time_s": 0.49, "latest_estimated_at_fraction": 0.97,
       "speedup": [{"p": 1, "value": 1.0}, {"p": 2, "value": 1.45, "state": "PC"}, {"p": 4, "value": 2.1}],
       "noise": {"disturbed": true, "verdict": "measurement disturbed: 3 of 5 baseline windows preempted"}}]})"));
  EXPECT_EQ(run.one_run, 1.45);  // the outer region's, not the longer parallel-for region's
  EXPECT_EQ(run.estimated, 0.52);
  EXPECT_EQ(run.elapsed, 0.5);
  EXPECT_EQ(run.estimated_at, 0.05);
  EXPECT_EQ(run.latest, 0.49);
  EXPECT_EQ(run.latest_at, 0.97);
  // As the bench prints them: the share of the run, the error against the region's time.
  std::vector<double> errors;
  EXPECT_EQ(estimate_text(run.estimated, run.estimated_at, run.elapsed, errors), "0.5200 s at 5% of the run against 0.5000 s (+4.0%)");
  EXPECT_EQ(estimate_text(run.latest, run.latest_at, run.elapsed, errors), "0.4900 s at 97% of the run against 0.5000 s (-2.0%)");
  EXPECT_EQ(estimate_text(std::nullopt, std::nullopt, run.elapsed, errors), "none");
  ASSERT_EQ(errors.size(), 2u);
  EXPECT_NEAR(errors[0], 0.04, 1e-12);
  EXPECT_EQ(run.disturbed, true);
  EXPECT_EQ(run.verdict, "measurement disturbed: 3 of 5 baseline windows preempted");
}

TEST(BenchReport, TheVerdictComesFromTheRegionTheReportOrTheMachine) {
  EXPECT_EQ(read_report(json::parse(R"({"regions": [{"kind": "outer", "noise": {"disturbed": false}}]})")).disturbed, false);
  const RunReport machine = read_report(json::parse(R"({"regions": [{"kind": "outer", "noise": {"disturbed": false}}],
      "machine": {"oversubscribed": true, "steal_fraction": null}})"));
  EXPECT_EQ(machine.disturbed, true);
  EXPECT_EQ(machine.verdict, "oversubscribed");
  EXPECT_EQ(read_report(json::parse(R"({"noise": {"disturbed": true, "verdict": "loaded"}})")).verdict, "loaded");
  EXPECT_FALSE(read_report(json::parse(R"({"machine": {"oversubscribed": null}})")).disturbed.has_value());
}

// An idle round flagged disturbed prints its reasons, their kinds and the counters behind them.
TEST(BenchReport, TheReasonsOfADisturbedVerdictTheirKindsAndTheCounters) {
  const RunReport run = read_report(json::parse(R"j({"regions": [{"kind": "outer", "noise": {"disturbed": true,
      "verdict": "measurement disturbed: ...", "steps": 100, "steps_preempted": 30, "preempted_time_share": 0.4,
      "steps_switched_in_team": 25, "iteration_time_spread": 0.31,
      "reasons": ["30 of 100 steps preempted, 40% of the measured time (...), 25 of them on one core, where the switches may be the team's own: spread",
                  "the step times scatter (relative spread 0.31 > 0.25)"]}}],
      "machine": {"oversubscribed": true, "load_average_start": 2.4, "load_average_end": 2.71, "other_cpu_load": 0.034}})j"));
  EXPECT_EQ(run.disturbed, true);
  ASSERT_EQ(run.reasons.size(), 3u);
  EXPECT_EQ(augur::bench::reason_kind(run.reasons[0]), "preempted on one core");
  EXPECT_EQ(augur::bench::reason_kind(run.reasons[1]), "scatter");
  EXPECT_EQ(run.reasons[2], "oversubscribed (load 2.4-2.7, other processes 0.03 processors)");
  EXPECT_EQ(augur::bench::reason_kind(run.reasons[2]), "oversubscribed");
  EXPECT_EQ(run.counters, "load 2.4-2.7, other processes 0.03 processors; steps 100, preempted 30 (40% of the time), on one core "
                          "with own switches 25, spread 0.31");
  EXPECT_EQ(augur::bench::reason_kind("30 of 100 steps preempted, 40% of the measured time (another process took the team's cores)"), "preempted");
  EXPECT_EQ(augur::bench::reason_kind("OMP_WAIT_POLICY=default on an oversubscribed machine (load average 3.1 on 2 processors)"), "meaningless");
  EXPECT_EQ(augur::bench::reason_kind("the machine is oversubscribed (load 3.5 on 2 processors)"), "oversubscribed");
  EXPECT_EQ(augur::bench::reason_kind("only 3 usable steps (at least 5 are needed for a speedup)"), "too few steps");
  EXPECT_EQ(augur::bench::reason_kind("CPU steal 7% of the run"), "other");
  EXPECT_EQ(augur::bench::reason_kind("the run does not fix S(2) within 15%: 0.422 ± 0.081 at two standard errors (its 3 "
                                      "baseline windows' T(1) 2.80 to 3.80 ms a step, ±19%; ...)"),
            "imprecise");
  EXPECT_EQ(augur::bench::reason_kind("other processes used 0.41 processors beside the run (2 processors, a team of 2): they "
                                      "competed for the team's cores"),
            "competed");
  EXPECT_EQ(augur::bench::kinds_text({{"imprecise", 1}, {"competed", 3}}), "competed 3, imprecise 1");
  EXPECT_EQ(augur::bench::kinds_text({}), "");
  // A clean verdict gives no reasons; a machine without the new field says so.
  const RunReport clean = read_report(json::parse(R"j({"regions": [{"kind": "outer", "noise": {"disturbed": false,
      "reasons": ["the step times scatter (relative spread 0.31 > 0.25) with no other process beside the run"]}}],
      "machine": {"oversubscribed": false, "load_average_start": 0.1, "load_average_end": 0.2}})j"));
  EXPECT_EQ(clean.disturbed, false);
  EXPECT_TRUE(clean.reasons.empty());
  EXPECT_EQ(clean.counters.rfind("load 0.1-0.2, other processes unknown processors; steps -1", 0), 0u) << clean.counters;
}

TEST(BenchReport, NullOrMissingSpeedupValuesAreNotReported) {
  const RunReport run = read_report(json::parse(R"({"regions": [{"kind": "outer", "estimated_time_s": null,
      "speedup": [{"p": 2, "value": null, "state": "PNC"}]}]})"));
  EXPECT_FALSE(run.one_run.has_value());
  EXPECT_FALSE(run.estimated.has_value());
}

TEST(BenchReport, ThePrintedTimeOfTheExamplesAndOfNpb) {
  EXPECT_EQ(printed_time("outer_region: checksum\nouter_region: time_s=0.346731\n"), 0.346731);
  EXPECT_EQ(printed_time(" Iterations      =                      400\n Time in seconds =                     1.33\n"), 1.33);
  EXPECT_FALSE(printed_time("time_s=\n").has_value());
  EXPECT_FALSE(printed_time("no time here").has_value());
}

// The pace an example prints under EXAMPLE_PACE=1 (examples/interpose/pace_marks.h) and the error of an
// estimate made from it at a point of the loop, against the loop's time.
TEST(BenchReport, TheEstimateFromAnExamplesOwnPace) {
  // 80 steps in 8 marks: the parts end at steps 10, 20, ... The first part took 3 s (the start), the second 1 s:
  // 0.1 s a step; at a quarter (k = 2, t2 = 4 s) the estimate is 4 + 60 x 0.1 = 10 s against the loop's 12 s.
  const auto pace = read_pace("x: time_s=12\nx: pace steps=80 marks=8 at_s=3 4 5 6 7 8 10 12\n");
  ASSERT_TRUE(pace.has_value());
  EXPECT_EQ(pace->steps, 80);
  ASSERT_EQ(pace->at.size(), 8u);
  EXPECT_NEAR(pace_estimate_error(*pace, 0.25).value(), 10.0 / 12.0 - 1.0, 1e-12);
  EXPECT_NEAR(pace_estimate_error(*pace, 0.01).value(), 10.0 / 12.0 - 1.0, 1e-12);  // never before the second mark
  // At 0.7 (k = ceil(5.6) = 6, t6 = 8 s for 60 steps, 0.1 s a step since the first part): 8 + 20 x 0.1 = 10 s;
  // at 0.76 (k = 7) it differs: the mark comes from the fraction, rounded up.
  EXPECT_NEAR(pace_estimate_error(*pace, 0.7).value(), 10.0 / 12.0 - 1.0, 1e-12);
  EXPECT_NEAR(pace_estimate_error(*pace, 0.76).value(), (10.0 + 10.0 * 7.0 / 60.0) / 12.0 - 1.0, 1e-12);
  // At 0.8 (k = 7: 10 s for 70 steps, (10 - 3) / 60 a step since the first part): 10 + 10 x 7/60 s.
  EXPECT_NEAR(pace_estimate_error(*pace, 0.8).value(), (10.0 + 10.0 * 7.0 / 60.0) / 12.0 - 1.0, 1e-12);
  EXPECT_FALSE(pace_estimate_error(*pace, 0.99).has_value());  // at the last mark: no estimate left to make
  // A steady pace after the first part: no error. 12 steps in 8 marks: parts end at 1, 3, 4, 6, 7, 9, 10, 12.
  const auto steady = read_pace("y: pace steps=12 marks=8 at_s=5 7 8 10 11 13 14 16\n");
  ASSERT_TRUE(steady.has_value());
  EXPECT_NEAR(pace_estimate_error(*steady, 0.3).value(), 0.0, 1e-12);
  // Unreadable: no pace, too few times, more marks than steps, times that go back, a time not positive.
  EXPECT_FALSE(read_pace("x: time_s=1\n").has_value());
  EXPECT_FALSE(read_pace("x: pace steps=80 marks=8 at_s=1 2 3\n").has_value());
  EXPECT_FALSE(read_pace("x: pace steps=4 marks=8 at_s=1 2 3 4 5 6 7 8\n").has_value());
  EXPECT_FALSE(read_pace("x: pace steps=80 marks=8 at_s=1 2 3 2 5 6 7 8\n").has_value());
  EXPECT_FALSE(read_pace("x: pace steps=80 marks=8 at_s=0 1 2 3 4 5 6 7\n").has_value());
  EXPECT_FALSE(read_pace("x: pace steps=80 at_s=1 2 3 4 5 6 7 8\n").has_value());
}

TEST(BenchReport, TheEstimateFromNpbsProgressLines) {
  // BT's shape: " Time step N" at the start of step N. 100 steps, 0.1 s a step up to step 39 and 0.2 s after:
  // the marks (19, 1.9 s), (39, 3.9), (59, 7.9), (79, 11.9), (99, 15.9) and the loop's printed 16.1 s.
  const double start = 5.0;  // the stamps' clock: any origin
  const std::vector<StampedLine> bt{{0.1, " No input file inputbt.data. Using compiled defaults"},
                                    {start, " Time step    1"},
                                    {start + 1.9, " Time step   20"},
                                    {start + 3.9, " Time step   40"},
                                    {start + 7.9, " Time step   60"},
                                    {start + 11.9, " Time step   80"},
                                    {start + 15.9, " Time step  100"},
                                    {start + 16.2, "           1 1.1255904093440E+02 1.1255904093440E+02 3.3583151765186E-14"}};
  const auto pace = npb_pace(bt, 100, 16.1);
  ASSERT_TRUE(pace.has_value());
  EXPECT_EQ(pace->done, (std::vector<long>{19, 39, 59, 79, 99, 100}));
  ASSERT_EQ(pace->at.size(), 6u);
  EXPECT_NEAR(pace->at[2], 7.9, 1e-9);
  EXPECT_EQ(pace->at.back(), 16.1);
  // At a quarter: the mark of 39 steps, 0.1 s a step since the first: 3.9 + 61 x 0.1 = 10 s against 16.1 s.
  EXPECT_NEAR(pace_estimate_error(*pace, 0.25).value(), 10.0 / 16.1 - 1.0, 1e-9);
  // At a half: 59 steps, (7.9 - 1.9) / 40 = 0.15 s a step: 7.9 + 41 x 0.15 = 14.05 s.
  EXPECT_NEAR(pace_estimate_error(*pace, 0.5).value(), 14.05 / 16.1 - 1.0, 1e-9);
  EXPECT_NEAR(pace_estimate_error(*pace, 0.99).value(), (15.9 + 14.0 / 80.0) / 16.1 - 1.0, 1e-9);
  EXPECT_FALSE(pace_estimate_error(*pace, 0.995).has_value());  // past the last mark before the end
  // NPB prints its time to two decimals: a last mark later than it ends the loop.
  EXPECT_NEAR(npb_pace(bt, 100, 15.85).value().at.back(), 15.9, 1e-9);
  // MG's "  iter N" (at the start of iteration N).
  const auto mg = npb_pace({{1.0, "  iter   1"}, {3.0, "  iter   5"}, {5.5, "  iter  10"}, {8.0, "  iter  15"}}, 16, 9.0);
  ASSERT_TRUE(mg.has_value());
  EXPECT_EQ(mg->done, (std::vector<long>{4, 9, 14, 16}));
  EXPECT_NEAR(mg->at[1], 4.5, 1e-9);
  // CG's lines come at the end of iteration N, and none at the start: the loop ends at the last, `total` after
  // it starts. 3 iterations stamped 10.2, 10.4 and 10.6 s, 0.7 s printed: the marks (1, 0.3), (2, 0.5), (3, 0.7).
  const auto cg = npb_pace({{10.0, "   iteration           ||r||                 zeta"},
                            {10.2, "        1       2.56336071254780e-13 1.9999758127704e+01"},
                            {10.4, "        2       2.54716676911038e-15 1.7114049574551e+01"},
                            {10.6, "        3       2.52913998294885e-15 1.7129666894614e+01"}},
                           3, 0.7);
  ASSERT_TRUE(cg.has_value());
  EXPECT_EQ(cg->done, (std::vector<long>{1, 2, 3}));
  EXPECT_NEAR(cg->at[0], 0.3, 1e-9);
  EXPECT_NEAR(pace_estimate_error(*cg, 0.5).value(), 0.0, 1e-9);
  // Only lines of exactly three numbers are CG's: a verification line of four is not a mark.
  const auto four = npb_pace({{10.2, "        1       2.56336071254780e-13 1.9999758127704e+01"},
                              {10.3, "        2 1.1255904093440E+02 1.1255904093440E+02 3.3583151765186E-14"},
                              {10.6, "        3       2.52913998294885e-15 1.7129666894614e+01"},
                              {10.8, "        4       2.55081912236773e-15 1.7130211358119e+01"}},
                             4, 0.9);
  ASSERT_TRUE(four.has_value());
  EXPECT_EQ(four->done, (std::vector<long>{1, 3, 4}));
  // No pace: no progress line, no loop of known length, too few marks, marks that go back, neither the first
  // step's line nor the last's (no origin).
  EXPECT_FALSE(npb_pace({{1.0, " Verification Successful"}}, 100, 16.1).has_value());
  EXPECT_FALSE(npb_pace(bt, 0, 16.1).has_value());
  EXPECT_FALSE(npb_pace({{1.0, " Time step    1"}, {2.0, " Time step   20"}}, 100, 16.1).has_value());
  EXPECT_FALSE(npb_pace({{1.0, " Time step    1"}, {3.0, " Time step   20"}, {2.0, " Time step   40"}}, 100, 16.1).has_value());
  EXPECT_FALSE(npb_pace({{2.0, " Time step   20"}, {3.0, " Time step   40"}, {4.0, " Time step   60"}}, 100, 16.1).has_value());
}

}  // namespace
