// End-to-end tests of `augur run` on programs with one parallel region around the whole time loop
// (docs/run.md, "One outer parallel region"): outer_region built by gcc (libaugur_preload) and by clang (the
// OMPT tool), its cancellable variant, and the runs too short to measure. The rest: run_e2e_test.cpp.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "core/files.hpp"
#include "core/process.hpp"
#include "run_e2e_support.hpp"
#include "support/self_analysis_runs.hpp"

namespace {

using augur::core::ProcessOptions;
using augur::core::ProcessResult;
using augur::core::run_process;
using augur::run_e2e::TemporaryFile;
using augur::test::clean_environment;
using augur::test::main_region;
using augur::test::speedup_at;
using nlohmann::json;

// The same time loop in a cancellable region: its constructs end in GOMP_barrier_cancel and
// GOMP_loop_end_cancel, which the preload samples as it does the plain ends.
TEST(AugurRun, OneOuterRegionFoundInTheCancellableEnds) {
  const ProcessResult result = run_process(
      {AUGUR_EXE, "run", "-p", "2", "--one-run", "--", AUGUR_OUTER_REGION_CANCEL_EXE, "100000", "300"},
      clean_environment());
  ASSERT_EQ(result.exit_code, 0) << result.describe_status() << "\n" << result.standard_output << result.standard_error;
  const std::string& out = result.standard_output;
  EXPECT_NE(out.find("outer_region_cancel: checksum"), std::string::npos) << out;
  // Per time step: two static loops' barriers, the dynamic loop's end and the single's barrier.
  EXPECT_NE(out.find("period 4"), std::string::npos) << out;
  EXPECT_NE(out.find("300 iterations"), std::string::npos) << out;
}

// Threads that wait on each other inside a construct (a pipeline synchronised with flags, as NPB LU's): the
// first baseline window cannot serialise them, the baseline steps stop for good, T(1) is the work added up,
// and the report and the output say so (a caution: S(p) reads high).
TEST(AugurRun, OneOuterRegionWhoseThreadsWaitInsideAConstructSaysTheBaselineStopped) {
  TemporaryFile report("pipeline.json");
  const ProcessResult result = run_process({AUGUR_EXE, "run", "-p", "2", "--json=" + report.path(), "--", AUGUR_FLAG_PIPELINE_EXE, "300"},
                                           clean_environment());
  ASSERT_EQ(result.exit_code, 0) << result.describe_status() << "\n" << result.standard_output << result.standard_error;
  const std::string& out = result.standard_output;
  EXPECT_NE(out.find("flag_pipeline: steps=300 threads=2"), std::string::npos) << out;
  EXPECT_NE(out.find("period 2"), std::string::npos) << out;  // the pipeline's loop end and the single's barrier
  EXPECT_NE(out.find("(the threads' work added up: no baseline iterations)"), std::string::npos) << out;
  EXPECT_NE(out.find("  caution: the baseline iterations stopped: a thread waited for another inside a construct"), std::string::npos) << out;
  const json full = json::parse(augur::core::read_file(report.path()));
  ASSERT_EQ(full.at("regions").size(), 1u) << full.dump();
  const json& outer = full.at("regions")[0];
  EXPECT_EQ(outer.at("kind"), "outer");
  EXPECT_EQ(outer.at("baseline_stopped"), true) << outer.dump();
  EXPECT_EQ(outer.at("one_thread_source"), "work");
}

// examples/interpose/wavefront.c: an LU-like sweep whose threads spin on flags with `#pragma omp flush`. Under
// libomp each flush is a call the OMPT tool sees: the spins are measured and taken out of the work. Under
// libgomp a flush is an inline fence in a short loop, found in the program's code; the threads' sampled program
// counters in it are the spins (where the kernel refuses to sample, the report says so in a note and the spin
// is null).
TEST(AugurRun, SpinsOnFlagsAreTakenOutOfTheWork) {
  for (const bool clang : {false, true}) {
#ifndef AUGUR_WAVEFRONT_CLANG_EXE
    if (clang) GTEST_SKIP() << "wavefront-clang was not built (clang -fopenmp with libomp-dev, or libaugur_ompt, not found)";
    const std::string program = AUGUR_WAVEFRONT_EXE;
#else
    const std::string program = clang ? AUGUR_WAVEFRONT_CLANG_EXE : AUGUR_WAVEFRONT_EXE;
#endif
    TemporaryFile report("wavefront.json");
    const ProcessResult result = run_process({AUGUR_EXE, "run", "-p", "2", "--json=" + report.path(), "--", program, "96", "300"},
                                             clean_environment());
    ASSERT_EQ(result.exit_code, 0) << result.describe_status() << "\n" << result.standard_output << result.standard_error;
    const std::string& out = result.standard_output;
    EXPECT_NE(out.find("wavefront: checksum sum="), std::string::npos) << out;
    const json full = json::parse(augur::core::read_file(report.path()));
    ASSERT_EQ(full.at("regions").size(), 1u) << full.dump();
    const json& outer = full.at("regions")[0];
    EXPECT_EQ(outer.at("kind"), "outer") << program;
    EXPECT_EQ(outer.at("baseline_stopped"), true) << program << ": the serialized threads would wait forever";
    if (!clang && outer.at("spin_time_s").is_null()) {  // no sampling here: the note says why
      EXPECT_NE(out.find("spin loops in the code (fences or pauses in short loops) not sampled ("), std::string::npos) << out;
      EXPECT_EQ(out.find("spins on flags:"), std::string::npos) << out;
      continue;
    }
    EXPECT_EQ(outer.at("spin_source"), clang ? "flushes" : "samples") << outer.dump();
    ASSERT_TRUE(outer.at("spin_time_s").is_number()) << outer.dump();
    const double spin = outer.at("spin_time_s").get<double>();
    const double step = outer.at("iteration_time_s").get<double>();
    // Thread 1 waits for thread 0's first plane at the start of each step, and thread 0 for thread 1 at the
    // pipeline's end: some spin in every step, a small share of the team's time (1.4% on the idle machine);
    // on a busy machine a thread spins while the other waits for a core: at most the team's time then.
    const bool disturbed = outer.at("noise").at("disturbed").get<bool>();
    EXPECT_GT(spin, 0.0) << outer.dump();
    EXPECT_LT(spin, (disturbed ? 1.0 : 0.25) * 2.0 * step) << outer.dump();
    EXPECT_NE(out.find("  spins on flags: "), std::string::npos) << out;
    EXPECT_NE(out.find(clang ? "T(1) is the threads' work added up, less their spins on flushes"
                             : "T(1) is the threads' work added up, less their spins in the sampled spin loops"),
              std::string::npos)
        << out;
    EXPECT_NE(out.find(clang ? " a step on flushes (" : " a step in spin loops (sampled) ("), std::string::npos) << out;
  }
}

// AUGUR_SPIN_SAMPLING=0: the gcc build's spin loops are not sampled; the report says so and the spins stay work.
TEST(AugurRun, SpinSamplingCanBeTurnedOff) {
  TemporaryFile report("wavefront-off.json");
  ProcessOptions options = clean_environment();
  options.environment.emplace_back("AUGUR_SPIN_SAMPLING", "0");
  const ProcessResult result =
      run_process({AUGUR_EXE, "run", "-p", "2", "--json=" + report.path(), "--", AUGUR_WAVEFRONT_EXE, "64", "60"}, options);
  ASSERT_EQ(result.exit_code, 0) << result.describe_status() << "\n" << result.standard_output << result.standard_error;
  const std::string& out = result.standard_output;
  EXPECT_NE(out.find("note: spin loops in the code not sampled (AUGUR_SPIN_SAMPLING=0): spins on flags count as work"),
            std::string::npos)
      << out;
  EXPECT_EQ(out.find("spins on flags:"), std::string::npos) << out;
  EXPECT_EQ(result.standard_error.find("unknown variable"), std::string::npos) << result.standard_error;
  const json full = json::parse(augur::core::read_file(report.path()));
  const json& outer = full.at("regions").at(0);
  EXPECT_EQ(outer.at("kind"), "outer") << outer.dump();
  EXPECT_TRUE(outer.at("spin_time_s").is_null()) << outer.dump();
  EXPECT_TRUE(outer.at("spin_source").is_null()) << outer.dump();
}

// One parallel region around the whole time loop, orphaned worksharing loops inside it: the period is
// found in the ends of the worksharing constructs on the master thread, and the one-run analysis measures the
// speedup from the threads' work between barriers and the baseline steps (threads one after the other).
TEST(AugurRun, OneOuterRegionPeriodFromItsWorksharingConstructs) {
  TemporaryFile report("outer.json");
  const ProcessResult result = run_process({AUGUR_EXE, "run", "-p", "2", "--iterations", "300", "--json=" + report.path(), "--",
                                            AUGUR_OUTER_REGION_EXE, "100000", "300"},
                                           clean_environment());
  ASSERT_EQ(result.exit_code, 0) << result.describe_status() << "\n" << result.standard_output << result.standard_error;
  const std::string& out = result.standard_output;
  EXPECT_NE(out.find("outer_region: checksum"), std::string::npos) << out;  // the program's own output
  EXPECT_EQ(out.find("outer_region: N=100000 steps=300 threads=1"), std::string::npos) << out;  // one run only
  // Per time step: smooth's barrier, relax's barrier (static schedules), source's GOMP_loop_end (dynamic
  // schedule) and the barrier of the single: 4 constructs.
  EXPECT_NE(out.find("period 4"), std::string::npos) << out;
  EXPECT_NE(out.find("300 iterations"), std::string::npos) << out;
  EXPECT_NE(out.find("one-run analysis on 2 threads"), std::string::npos) << out;
  EXPECT_NE(out.find("(baseline iterations: the threads one after the other)"), std::string::npos) << out;
  EXPECT_NE(out.find("execution time of the region on P=2: estimated"), std::string::npos) << out;
  EXPECT_NE(out.find("measurement "), std::string::npos) << out;  // the verdict, clean or disturbed
  const json full = json::parse(augur::core::read_file(report.path()));
  // The one-run analysis: a region of kind outer in the report's regions, in the shape of the others.
  ASSERT_EQ(full.at("regions").size(), 1u) << full.dump();
  const json& outer = full.at("regions")[0];
  EXPECT_EQ(outer.at("kind"), "outer");
  EXPECT_EQ(outer.at("length").get<int>(), 4);
  EXPECT_EQ(outer.at("iterations").get<long>(), 300);
  EXPECT_EQ(outer.at("team").get<int>(), 2);
  EXPECT_EQ(outer.at("one_thread_source"), "baseline");
  EXPECT_EQ(outer.at("baseline_stopped"), false);
  EXPECT_GE(outer.at("baseline_steps").get<long>(), 3);
  const double f = outer.at("f").get<double>();
  EXPECT_TRUE(f >= 0.0 && f < 0.5) << f;
  for (const char* metric : {"parallel", "load_balance", "communication"}) {
    const double value = outer.at("efficiency").at(metric).get<double>();
    EXPECT_TRUE(value > 0.0 && value <= 1.5) << metric << " " << value;  // above 1: superlinear, possible
  }
  EXPECT_GT(outer.at("estimated_time_s").get<double>(), 0.0);
  EXPECT_GT(outer.at("elapsed_s").get<double>(), 0.0);
  // The first estimate and the latest, re-made at every baseline window, with the share of the run each came at.
  const long first_at = outer.at("estimated_at_iteration").get<long>();
  const long latest_at = outer.at("latest_estimated_at_iteration").get<long>();
  EXPECT_GT(outer.at("latest_estimated_time_s").get<double>(), 0.0);
  EXPECT_GT(first_at, 0);
  EXPECT_GE(latest_at, first_at);
  EXPECT_LE(latest_at, 300);
  EXPECT_DOUBLE_EQ(outer.at("estimated_at_fraction").get<double>(), static_cast<double>(first_at) / 300.0);
  EXPECT_DOUBLE_EQ(outer.at("latest_estimated_at_fraction").get<double>(), static_cast<double>(latest_at) / 300.0);
  bool measured = false;
  for (const json& point : outer.at("speedup")) {
    if (point.at("p").get<int>() == 2) {
      measured = point.at("measured").get<bool>();
      EXPECT_GT(point.at("value").get<double>(), 0.0);
    }
  }
  EXPECT_TRUE(measured) << outer.dump();
  EXPECT_TRUE(outer.at("noise").at("disturbed").is_boolean());
  EXPECT_FALSE(outer.at("noise").at("verdict").get<std::string>().empty());
  // The steps on one core whose switches may be the team's own are among the preempted ones, unless the machine
  // was quiet (no other process beside the run: then they count every switched step forgiven, none preempted).
  const json& noise = outer.at("noise");
  if (!noise.at("quiet_machine").get<bool>()) {
    EXPECT_LE(noise.at("steps_switched_in_team").get<long>(), noise.at("steps_preempted").get<long>()) << noise.dump();
  }
  EXPECT_LE(noise.at("steps_switched_in_team").get<long>(), noise.at("steps").get<long>()) << noise.dump();
  EXPECT_LE(noise.at("steps_preempted").get<long>(), noise.at("steps").get<long>());
  EXPECT_GE(noise.at("preempted_time_share").get<double>(), 0.0);
  EXPECT_LE(noise.at("preempted_time_share").get<double>(), 1.0);
  // Where the team ran: its steps with every thread's core known (two threads: one core or two).
  const json& placement = outer.at("placement");
  EXPECT_GT(placement.at("steps").get<long>(), 0) << placement.dump();
  EXPECT_LE(placement.at("steps").get<long>(), outer.at("measured_iterations").get<long>()) << placement.dump();
  EXPECT_LE(placement.at("one_cpu_steps").get<long>(), placement.at("steps").get<long>()) << placement.dump();
  // ... and the table says it, with what it means for the speedup read (packed: one core's speedup).
  const long steps = placement.at("steps").get<long>();
  const long one_cpu = placement.at("one_cpu_steps").get<long>();
  const std::string counted = "  placement: the team on one core in " + std::to_string(one_cpu) + " of " + std::to_string(steps) + " measured steps";
  EXPECT_NE(out.find(counted), std::string::npos) << out;
  const char* meaning = 10 * one_cpu >= 9 * steps ? "packed: S(2) is one core's speedup" : 10 * one_cpu <= steps ? "spread: S(2) is the speedup on 2 cores" : "mixed: S(2) mixes";
  EXPECT_NE(out.find(meaning), std::string::npos) << out;
  const json& info = full.at("interpose");
  EXPECT_TRUE(info.at("regions").empty());
  EXPECT_EQ(info.at("intercepted").get<long>(), 1);
  const json& worksharing = info.at("worksharing");
  ASSERT_TRUE(worksharing.at("found").get<bool>()) << worksharing.dump();
  EXPECT_EQ(worksharing.at("length").get<int>(), 4);
  EXPECT_EQ(worksharing.at("iterations").get<long>(), 300);
  EXPECT_EQ(worksharing.at("team_size").get<int>(), 2);
  EXPECT_GT(worksharing.at("measured_iterations").get<long>(), 200);
  EXPECT_GT(worksharing.at("iteration_time_median_s").get<double>(), 0.0);
  EXPECT_TRUE(worksharing.at("speedup").is_null());
  EXPECT_FALSE(worksharing.contains("baseline_run"));
  EXPECT_EQ(result.standard_error.find("second run"), std::string::npos) << result.standard_error;
  EXPECT_EQ(worksharing.at("region").at("name").get<std::string>().rfind("main._omp_fn", 0), 0u) << worksharing.dump();
  std::vector<std::string> kinds, names;
  for (const json& construct : worksharing.at("constructs")) {
    kinds.push_back(construct.at("kind").get<std::string>());
    names.push_back(construct.at("name").get<std::string>());
  }
  std::sort(kinds.begin(), kinds.end());
  // Two static loops' barriers, the dynamic loop's end, and the single (its closing barrier, known as the single).
  EXPECT_EQ(kinds, (std::vector<std::string>{"barrier", "barrier", "loop_end", "single"}));
  for (const char* name : {"smooth", "relax", "source"}) {
    EXPECT_NE(std::find(names.begin(), names.end(), name), names.end()) << name << " in " << worksharing.dump();
  }
}

// With --check-run, augur run runs the program a second time on the baseline's thread count (B = 1 here:
// the default baseline, min(4, P/2), on the team's 2 threads), divides the medians of the times per iteration and
// compares the ratio with the one-run prediction.
TEST(AugurRun, OneOuterRegionCheckRun) {
  TemporaryFile report("outer-two-runs.json");
  const ProcessResult result = run_process({AUGUR_EXE, "run", "-p", "2", "--check-run", "--json=" + report.path(), "--",
                                            AUGUR_OUTER_REGION_EXE, "100000", "300"},
                                           clean_environment());
  ASSERT_EQ(result.exit_code, 0) << result.describe_status() << "\n" << result.standard_output << result.standard_error;
  const std::string& out = result.standard_output;
  // Both runs' own output passes through, the second announced on stderr.
  EXPECT_NE(out.find("outer_region: N=100000 steps=300 threads=2"), std::string::npos) << out;
  EXPECT_NE(out.find("outer_region: N=100000 steps=300 threads=1"), std::string::npos) << out;
  EXPECT_NE(result.standard_error.find("augur run: check run on 1 thread (--check-run)"), std::string::npos)
      << result.standard_error;
  EXPECT_NE(out.find("period 4"), std::string::npos) << out;
  EXPECT_NE(out.find("check: time per iteration on 1 thread (second run)"), std::string::npos) << out;
  EXPECT_NE(out.find("check: T(1)/T(2) from two runs: "), std::string::npos) << out;
  EXPECT_NE(out.find("; the one-run prediction "), std::string::npos) << out;
  const json worksharing = json::parse(augur::core::read_file(report.path())).at("interpose").at("worksharing");
  ASSERT_TRUE(worksharing.at("found").get<bool>()) << worksharing.dump();
  EXPECT_EQ(worksharing.at("team_size").get<int>(), 2);
  const json& baseline_run = worksharing.at("baseline_run");
  EXPECT_EQ(baseline_run.at("threads").get<int>(), 1);
  EXPECT_EQ(baseline_run.at("iterations").get<long>(), 300);
  EXPECT_GT(baseline_run.at("iteration_time_median_s").get<double>(), 0.0);
  ASSERT_TRUE(worksharing.at("speedup").is_number()) << worksharing.dump();
  EXPECT_GT(worksharing.at("speedup").get<double>(), 0.0);
  EXPECT_NE(worksharing.at("speedup_note").get<std::string>().find("from two runs"), std::string::npos) << worksharing.dump();
}

// The same program built by clang -fopenmp: the OMPT tool's work callbacks give the constructs (the three
// loops, static ones too, and the single: 4 per time step).
TEST(AugurRun, ClangOneOuterRegionUnderTheOmptTool) {
#ifndef AUGUR_OUTER_REGION_CLANG_EXE
  GTEST_SKIP() << "outer_region-clang was not built (clang -fopenmp with libomp-dev, or libaugur_ompt, not found)";
#else
  TemporaryFile report("outer-clang.json");
  const ProcessResult result = run_process({AUGUR_EXE, "run", "-p", "2", "--one-run", "--json=" + report.path(), "--",
                                            AUGUR_OUTER_REGION_CLANG_EXE, "100000", "300"},
                                           clean_environment());
  ASSERT_EQ(result.exit_code, 0) << result.describe_status() << "\n" << result.standard_output << result.standard_error;
  EXPECT_NE(result.standard_output.find("period 4"), std::string::npos) << result.standard_output;
  const json full = json::parse(augur::core::read_file(report.path()));
  ASSERT_EQ(full.at("regions").size(), 1u) << full.dump();
  EXPECT_EQ(full.at("regions")[0].at("kind"), "outer");
  EXPECT_GE(full.at("regions")[0].at("baseline_steps").get<long>(), 3);  // the OMPT barriers serialize too
  // On a loaded machine (the suite runs two tests at once) most of its 300 short steps can be preempted;
  // then no speedup is the right answer, and it must say why.
  if (result.standard_output.find("one-run analysis: no speedup: measurement disturbed") != std::string::npos) {
    EXPECT_TRUE(full.at("regions")[0].at("speedup").empty());
    EXPECT_TRUE(full.at("regions")[0].at("noise").at("disturbed").get<bool>());
  } else {
    EXPECT_NE(result.standard_output.find("one-run analysis on 2 threads"), std::string::npos) << result.standard_output;
    EXPECT_FALSE(full.at("regions")[0].at("speedup").empty());
  }
  const json& info = full.at("interpose");
  EXPECT_EQ(info.at("runtime"), "libomp");
  const json& worksharing = info.at("worksharing");
  ASSERT_TRUE(worksharing.at("found").get<bool>()) << worksharing.dump();
  EXPECT_EQ(worksharing.at("length").get<int>(), 4);
  EXPECT_EQ(worksharing.at("iterations").get<long>(), 300);
  std::vector<std::string> kinds;
  for (const json& construct : worksharing.at("constructs")) kinds.push_back(construct.at("kind").get<std::string>());
  std::sort(kinds.begin(), kinds.end());
  EXPECT_EQ(kinds, (std::vector<std::string>{"loop", "loop", "loop", "single"}));
#endif
}

TEST(AugurRun, OneOuterRegionTooShortGetsAClearMessage) {
  // 5 time steps: too few for the detector's window, nothing measured, said plainly.
  const ProcessResult result =
      run_process({AUGUR_EXE, "run", "-p", "2", "--", AUGUR_OUTER_REGION_EXE, "1000", "5"}, clean_environment());
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_NE(result.standard_error.find("worksharing constructs"), std::string::npos) << result.standard_error;
  EXPECT_NE(result.standard_error.find("showed no periodic pattern"), std::string::npos) << result.standard_error;
}

// Fewer measured steps than the minimum (5): the period is found, no speedup is reported, and it is said why.
TEST(AugurRun, OneOuterRegionNoSpeedupFromTooFewIterations) {
  TemporaryFile report("outer-short.json");
  const ProcessResult result = run_process({AUGUR_EXE, "run", "-p", "2", "--dpd-window", "8", "--json=" + report.path(), "--",
                                            AUGUR_OUTER_REGION_EXE, "1000", "8"},
                                           clean_environment());
  ASSERT_EQ(result.exit_code, 0) << result.describe_status() << "\n" << result.standard_output << result.standard_error;
  EXPECT_NE(result.standard_output.find("period 4"), std::string::npos) << result.standard_output;
  EXPECT_NE(result.standard_output.find("one-run analysis: no speedup: "), std::string::npos) << result.standard_output;
  EXPECT_NE(result.standard_output.find("at least 5 are needed for a speedup"), std::string::npos) << result.standard_output;
  const json outer = json::parse(augur::core::read_file(report.path())).at("regions").at(0);
  EXPECT_TRUE(outer.at("speedup").empty()) << outer.dump();
  EXPECT_TRUE(outer.at("f").is_null());
}

// The pace an outer-region example prints for bench_outer_region under EXAMPLE_PACE=1 (examples/interpose/
// pace_marks.h): eight times, increasing, the last the loop's time; none without it; and the constructs augur run
// finds are the same with it.
TEST(OuterExamples, PrintTheirPaceOnlyWhenAsked) {
  ProcessOptions options = clean_environment();
  options.environment.emplace_back("OMP_NUM_THREADS", "2");
  const ProcessResult plain = run_process({AUGUR_OUTER_REGION_EXE, "20000", "40"}, options);
  ASSERT_EQ(plain.exit_code, 0) << plain.describe_status() << plain.standard_error;
  EXPECT_EQ(plain.standard_output.find("pace"), std::string::npos) << plain.standard_output;
  options.environment.emplace_back("EXAMPLE_PACE", "1");
  const ProcessResult paced = run_process({AUGUR_OUTER_REGION_EXE, "20000", "40"}, options);
  ASSERT_EQ(paced.exit_code, 0) << paced.describe_status() << paced.standard_error;
  const std::string& out = paced.standard_output;
  // 40 steps: 40 marks, one a step.
  const std::size_t at = out.find("outer_region: pace steps=40 marks=40 at_s=");
  ASSERT_NE(at, std::string::npos) << out;
  std::istringstream times(out.substr(at + std::string("outer_region: pace steps=40 marks=40 at_s=").size()));
  std::vector<double> t;
  for (int j = 0; j < 40; ++j) {
    double value = 0.0;
    ASSERT_TRUE(times >> value) << out;
    t.push_back(value);
  }
  double loop = 0.0;
  ASSERT_EQ(std::sscanf(out.c_str() + out.find("time_s="), "time_s=%lf", &loop), 1) << out;
  EXPECT_GT(t[0], 0.0);
  for (std::size_t j = 1; j < t.size(); ++j) EXPECT_GE(t[j], t[j - 1]) << out;
  EXPECT_NEAR(t.back(), loop, 2e-6) << out;  // both printed to the microsecond
  // Under augur run, the same constructs found with the pace as without it.
  const auto constructs = [](const std::string& text) {
    const std::size_t from = text.find("period 4 (worksharing constructs per iteration: ");
    return from == std::string::npos ? std::string() : text.substr(from, text.find('\n', from) - from);
  };
  const ProcessResult bare = run_process({AUGUR_EXE, "run", "-p", "2", "--one-run", "--", AUGUR_OUTER_REGION_EXE, "20000", "300"},
                                         clean_environment());
  ASSERT_EQ(bare.exit_code, 0) << bare.describe_status() << bare.standard_output << bare.standard_error;
  const ProcessResult run = run_process({AUGUR_EXE, "run", "-p", "2", "--one-run", "--", AUGUR_OUTER_REGION_EXE, "20000", "300"}, options);
  ASSERT_EQ(run.exit_code, 0) << run.describe_status() << run.standard_output << run.standard_error;
  EXPECT_FALSE(constructs(bare.standard_output).empty()) << bare.standard_output;
  EXPECT_EQ(constructs(run.standard_output), constructs(bare.standard_output)) << run.standard_output;
  EXPECT_NE(run.standard_output.find("outer_region: pace steps=300 marks=64 at_s="), std::string::npos) << run.standard_output;
}

}  // namespace
