// End-to-end tests of the timelines of real runs (docs/run.md#timelines, docs/self-analysis.md#timelines):
// `augur run --trace` on unmodified programs (libaugur_preload, libaugur_ompt) and AUGUR_TRACE on the
// instrumented trace_program and swim. Each trace is parsed, checked to nest on every track, and its slices
// counted against what the program did (trace_program) or what the run's report says (iterations).
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "core/files.hpp"
#include "core/process.hpp"
#include "support/self_analysis_runs.hpp"
#include "support/temporary_directory.hpp"
#include "support/trace_nesting.hpp"

namespace {

using augur::core::ProcessOptions;
using augur::core::ProcessResult;
using augur::core::run_process;
using augur::test::clean_environment;
using augur::test::trace_nesting_problems;
using nlohmann::json;

json read_trace(const std::string& path) {
  const json trace = json::parse(augur::core::read_file(path));
  EXPECT_EQ(trace_nesting_problems(trace), std::vector<std::string>{}) << path;
  return trace;
}

// The complete slices of `category`, in the file's order.
std::vector<json> slices(const json& trace, const std::string& category) {
  std::vector<json> found;
  for (const json& event : trace.at("traceEvents")) {
    if (event.value("ph", "") == "X" && event.value("cat", "") == category) found.push_back(event);
  }
  return found;
}

double end_of(const json& slice) { return slice.at("ts").get<double>() + slice.at("dur").get<double>(); }
bool inside(const json& inner, const json& outer) {
  return inner.at("ts").get<double>() >= outer.at("ts").get<double>() - 1e-3 && end_of(inner) <= end_of(outer) + 1e-3;
}

// The phase slice (warm-up, baseline, allocated) that holds `slice`, or "".
std::string phase_of(const json& slice, const std::vector<json>& phases) {
  for (const json& phase : phases) {
    if (inside(slice, phase)) return phase.at("name");
  }
  return "";
}

// ---- AUGUR_TRACE: an instrumented program ----------------------------------------------------------

struct TracedRun {
  ProcessResult result;
  std::string trace_path;
};

TracedRun run_instrumented(const augur::test::TemporaryDirectory& folder, const std::string& program,
                           const std::vector<std::string>& arguments, const std::string& trace_path) {
  ProcessOptions options = clean_environment();
  options.environment.emplace_back("OMP_NUM_THREADS", "2");
  options.environment.emplace_back("AUGUR_BASELINE", "1");
  options.environment.emplace_back("AUGUR_SUMMARY", "0");
  options.environment.emplace_back("AUGUR_EXPERIMENT_FILE", folder.file("records.jsonl"));
  options.environment.emplace_back("AUGUR_TRACE", trace_path);
  std::vector<std::string> argv = {program};
  argv.insert(argv.end(), arguments.begin(), arguments.end());
  return {run_process(argv, options), trace_path};
}

// trace_program: 1 experiment `setup`, then region 0x1234 of 12 iterations, each an experiment `step` around
// two parallel loops. With B = 1 on 2 threads and the defaults (1 warm-up iteration, 3 baseline iterations):
// iteration 1 is the warm-up on 2 threads; 2-5 the baseline on 1 (2 is discarded: the change of processors
// runs in it, thesis 4.3.1, so 3 more measure T(B)); 6-12 on the 2 allocated.
TEST(AugurTrace, TheInstrumentedProgramsRegionIterationsLoopsPhasesAndExperiments) {
  const augur::test::TemporaryDirectory folder("augur-trace-e2e");
  const TracedRun run = run_instrumented(folder, AUGUR_TRACE_PROGRAM_EXE, {}, folder.file("t-%p.json"));
  ASSERT_TRUE(run.result.succeeded()) << run.result.describe_status() << run.result.standard_error;
  EXPECT_EQ(run.result.standard_error, "");
  std::vector<std::string> written;
  for (const auto& entry : std::filesystem::directory_iterator(folder.path())) {
    if (entry.path().filename().string().rfind("t-", 0) == 0) written.push_back(entry.path().string());
  }
  ASSERT_EQ(written.size(), 1u) << "%p expanded, one file";
  const json trace = read_trace(written[0]);

  const std::vector<json> regions = slices(trace, "region");
  ASSERT_EQ(regions.size(), 1u);
  EXPECT_EQ(regions[0].at("name"), "region 0x1234");
  const std::vector<json> iterations = slices(trace, "iteration");
  ASSERT_EQ(iterations.size(), 12u);
  const std::vector<json> loops = slices(trace, "loop");
  EXPECT_EQ(loops.size(), 24u);
  const std::vector<json> experiments = slices(trace, "cll experiment");
  ASSERT_EQ(experiments.size(), 13u);
  EXPECT_EQ(experiments[0].at("name"), "setup");
  EXPECT_FALSE(inside(experiments[0], regions[0])) << "setup runs before the region";
  const std::vector<json> phases = slices(trace, "phase");
  ASSERT_EQ(phases.size(), 3u);
  EXPECT_EQ(phases[0].at("name"), "warm-up");
  EXPECT_EQ(phases[1].at("name"), "baseline");
  EXPECT_EQ(phases[2].at("name"), "allocated");
  for (std::size_t k = 0; k < iterations.size(); ++k) {
    const json& iteration = iterations[k];
    EXPECT_EQ(iteration.at("name"), "iteration " + std::to_string(k + 1));
    EXPECT_TRUE(inside(iteration, regions[0]));
    const int threads = k == 0 ? 2 : k < 5 ? 1 : 2;
    EXPECT_EQ(iteration.at("args").at("threads"), threads) << iteration;
    EXPECT_EQ(phase_of(iteration, phases), k == 0 ? "warm-up" : k < 5 ? "baseline" : "allocated") << iteration;
    EXPECT_EQ(experiments[k + 1].at("name"), "step");
    EXPECT_TRUE(inside(experiments[k + 1], iteration));
    EXPECT_TRUE(inside(loops[2 * k], experiments[k + 1]));
    EXPECT_TRUE(inside(loops[2 * k + 1], experiments[k + 1]));
  }
  // Thread tracks: the phase track (1) and the program's thread (2); the counter of threads per iteration.
  const auto tracks = augur::test::trace_slices_by_track(trace);
  EXPECT_EQ(tracks.size(), 2u);
  int counters = 0;
  for (const json& event : trace.at("traceEvents")) counters += event.at("ph") == "C" ? 1 : 0;
  EXPECT_EQ(counters, 12);
  const json& metadata = trace.at("metadata").at("augur_trace");
  EXPECT_EQ(metadata.at("dropped"), 0);
  EXPECT_EQ(metadata.at("events"), 1 + 12 + 24 + 13 + 3 + 12);
}

TEST(AugurTrace, NoFileWithoutTheOptionAndAWarningWhenItCannotBeWritten) {
  const augur::test::TemporaryDirectory folder("augur-trace-e2e");
  const TracedRun bad = run_instrumented(folder, AUGUR_TRACE_PROGRAM_EXE, {"3"}, folder.file("missing/t.json"));
  EXPECT_TRUE(bad.result.succeeded()) << "the program goes on: " << bad.result.describe_status();
  EXPECT_EQ(bad.result.standard_output.empty(), false);
  EXPECT_NE(bad.result.standard_error.find("augur: AUGUR_TRACE: "), std::string::npos) << bad.result.standard_error;
  EXPECT_NE(bad.result.standard_error.find("no timeline written"), std::string::npos) << bad.result.standard_error;
  const TracedRun off = run_instrumented(folder, AUGUR_TRACE_PROGRAM_EXE, {"3"}, "");
  EXPECT_TRUE(off.result.succeeded());
  EXPECT_EQ(off.result.standard_error, "");
}

// ---- augur run --trace --------------------------------------------------------------------------

// The run's report and its timeline.
std::pair<json, json> run_traced(const augur::test::TemporaryDirectory& folder, const std::string& program,
                                 const std::vector<std::string>& arguments) {
  const std::string report = folder.file("report.json");
  const std::string trace = folder.file("trace.json");
  std::vector<std::string> argv = {AUGUR_EXE, "run", "-p", "2", "--baseline", "1", "--json=" + report, "--trace", trace, "--", program};
  argv.insert(argv.end(), arguments.begin(), arguments.end());
  const ProcessResult result = run_process(argv, clean_environment());
  EXPECT_TRUE(result.succeeded()) << result.describe_status() << "\n" << result.standard_error;
  return {json::parse(augur::core::read_file(report)), read_trace(trace)};
}

// Hex of a region's id, as the trace names it.
std::string hex(unsigned long long value) {
  char text[32];
  std::snprintf(text, sizeof text, "0x%llx", value);
  return text;
}

void expect_iterations_of_the_report(const json& report, const json& trace, const std::string& label) {
  const std::vector<json> regions = slices(trace, "region");
  const std::vector<json> iterations = slices(trace, "iteration");
  const std::vector<json> phases = slices(trace, "phase");
  ASSERT_EQ(regions.size(), report.at("regions").size()) << label;
  for (const json& region : report.at("regions")) {
    const std::string name = "region " + hex(region.at("id").get<unsigned long long>());
    const json* slice = nullptr;
    for (const json& candidate : regions) slice = candidate.at("name") == name ? &candidate : slice;
    ASSERT_NE(slice, nullptr) << label << ": " << name;
    long in_region = 0;
    for (const json& iteration : iterations) {
      if (!inside(iteration, *slice)) continue;
      ++in_region;
      const std::string phase = phase_of(iteration, phases);
      if (phase == "baseline") {
        EXPECT_EQ(iteration.at("args").at("threads"), 1) << label << iteration;
      } else if (phase == "allocated") {
        EXPECT_EQ(iteration.at("args").at("threads"), 2) << label << iteration;
      }
    }
    EXPECT_EQ(in_region, region.at("iterations").get<long>()) << label << ": " << name;
  }
  int baselines = 0;
  for (const json& phase : phases) baselines += phase.at("name") == "baseline" ? 1 : 0;
  EXPECT_GE(baselines, 1) << label;
}

// The instrumented example swim under AUGUR_TRACE: its iterations are its report's.
TEST(AugurTrace, TheInstrumentedSwimsIterationsAreItsReports) {
  const augur::test::TemporaryDirectory folder("augur-trace-e2e");
  ProcessOptions options = clean_environment();
  options.environment.emplace_back("OMP_NUM_THREADS", "2");
  options.environment.emplace_back("AUGUR_BASELINE", "1");
  options.environment.emplace_back("AUGUR_SUMMARY", "0");
  options.environment.emplace_back("AUGUR_REPORT", folder.file("report.json"));
  options.environment.emplace_back("AUGUR_TRACE", folder.file("%n.trace.json"));
  const ProcessResult result = run_process({AUGUR_SWIM_EXE, "64", "200"}, options);
  ASSERT_TRUE(result.succeeded()) << result.describe_status() << result.standard_error;
  const json trace = read_trace(folder.file("swim.trace.json"));
  expect_iterations_of_the_report(json::parse(augur::core::read_file(folder.file("report.json"))), trace, "swim");
  EXPECT_EQ(slices(trace, "loop").size(), 3u * 200u) << "calc1, calc2, calc3 in each time step";
}

TEST(RunTrace, SwimsDetectedIterationsAreTheReportsUnderThePreload) {
  const augur::test::TemporaryDirectory folder("augur-trace-e2e");
  const auto [report, trace] = run_traced(folder, AUGUR_SWIM_PLAIN_EXE, {"64", "200"});
  expect_iterations_of_the_report(report, trace, "libaugur_preload");
  // Every parallel region the program ran is a slice of the owner thread.
  EXPECT_GE(slices(trace, "parallel").size(), 3u * 200u);
}

#ifdef AUGUR_SWIM_CLANG_EXE
TEST(RunTrace, SwimsDetectedIterationsAreTheReportsUnderTheOmptTool) {
  const augur::test::TemporaryDirectory folder("augur-trace-e2e");
  const auto [report, trace] = run_traced(folder, AUGUR_SWIM_CLANG_EXE, {"64", "200"});
  expect_iterations_of_the_report(report, trace, "libaugur_ompt");
  // The team's tracks from the OMPT tool's work callbacks: calc1, calc2 and calc3 each step on the owner
  // thread, and on the second thread in the steps on two threads (not in baseline iterations on one).
  std::map<long long, int> loops;
  for (const json& slice : slices(trace, "worksharing")) loops[slice.at("tid").get<long long>()] += slice.at("name") == "loop" ? 1 : 0;
  ASSERT_EQ(loops.size(), 2u) << trace.at("metadata");
  EXPECT_GE(std::max(loops.begin()->second, loops.rbegin()->second), 3 * 200);
  EXPECT_GE(std::min(loops.begin()->second, loops.rbegin()->second), 3 * 100);
}
#endif

// adi_sweep: one parallel region around the time loop, 6 constructs a step (4 loops and 2 barriers' worth
// of work ends in barriers). Each of the 2 threads of the team has its track, with as many barrier waits
// as the other, each after a piece of work.
TEST(RunTrace, EachThreadOfTheTeamHasItsWorkAndBarrierWaits) {
  const augur::test::TemporaryDirectory folder("augur-trace-e2e");
  const auto [report, trace] = run_traced(folder, AUGUR_ADI_SWEEP_EXE, {"32", "100"});
  (void)report;
  std::map<long long, int> waits;
  std::map<long long, int> works;
  for (const json& event : trace.at("traceEvents")) {
    if (event.value("cat", "") == "wait") ++waits[event.at("tid").get<long long>()];
    if (event.value("cat", "") == "worksharing") ++works[event.at("tid").get<long long>()];
  }
  ASSERT_EQ(waits.size(), 2u);
  EXPECT_EQ(waits.begin()->second, waits.rbegin()->second);
  EXPECT_GE(waits.begin()->second, 100) << "at least one barrier a step";
  EXPECT_EQ(works.size(), 2u);
  for (const auto& [tid, count] : works) EXPECT_GE(count, waits[tid]) << tid;
  EXPECT_EQ(slices(trace, "parallel").size(), 1u);
  // The steps' phases: baseline windows (the threads one after the other) among the steps on the team.
  std::map<std::string, int> phases;
  for (const json& phase : slices(trace, "phase")) ++phases[phase.at("name").get<std::string>()];
  EXPECT_GE(phases["baseline"], 1) << trace.at("metadata");
  EXPECT_GE(phases["allocated"], 1);
  EXPECT_GE(phases["dropped step"], 1);
  const json region = slices(trace, "parallel").at(0);
  for (const json& phase : slices(trace, "phase")) {
    EXPECT_GE(phase.at("ts").get<double>(), region.at("ts").get<double>()) << phase;
    EXPECT_LE(phase.at("ts").get<double>(), end_of(region)) << phase;
  }
}

#ifdef AUGUR_OUTER_REGION_CLANG_EXE
// The same under the OMPT tool (libomp): the work up to each construct's end (ompt_callback_work) and the
// waits in the barriers (ompt_callback_sync_region_wait) on both threads of the team: outer_region's 3
// loops, a single and a barrier a step, 100 steps.
TEST(RunTrace, EachThreadOfTheTeamHasItsWorkAndBarrierWaitsUnderTheOmptTool) {
  const augur::test::TemporaryDirectory folder("augur-trace-e2e");
  const auto [report, trace] = run_traced(folder, AUGUR_OUTER_REGION_CLANG_EXE, {"20000", "100"});
  (void)report;
  std::map<long long, int> waits;
  std::map<long long, std::map<std::string, int>> works;
  for (const json& event : trace.at("traceEvents")) {
    if (event.value("cat", "") == "wait") ++waits[event.at("tid").get<long long>()];
    if (event.value("cat", "") == "worksharing") ++works[event.at("tid").get<long long>()][event.at("name").get<std::string>()];
  }
  ASSERT_EQ(waits.size(), 2u) << trace.at("metadata");
  EXPECT_EQ(waits.begin()->second, waits.rbegin()->second);
  EXPECT_GE(waits.begin()->second, 4 * 100) << "the 3 loops' barriers and the single's (or the explicit one) each step";
  ASSERT_EQ(works.size(), 2u);
  for (auto& [tid, names] : works) {
    EXPECT_EQ(names["loop"], 3 * 100) << tid;
    EXPECT_EQ(names["single"], 100 + 1) << tid;  // and the one before the time loop
  }
  EXPECT_EQ(slices(trace, "parallel").size(), 1u);
}
#endif

// nowait_program: 100 steps of a `for nowait` loop, each thread's own work and an explicit barrier, then a
// `single nowait` and own work up to the region's end. On each thread the worksharing and wait slices tile
// its time from the first to the last: the work after a nowait construct is a `work` slice ended by the
// next barrier, not lost (libgomp reports no end of a worker's work at the region's end: the last work
// after the single is not counted).
void expect_the_work_after_nowait_constructs(const std::string& program, const std::string& label) {
  const augur::test::TemporaryDirectory folder("augur-trace-e2e");
  const auto [report, trace] = run_traced(folder, program, {"100"});
  (void)report;
  std::map<long long, std::vector<json>> tracks;
  for (const std::string category : {"worksharing", "wait"}) {
    for (const json& slice : slices(trace, category)) tracks[slice.at("tid").get<long long>()].push_back(slice);
  }
  ASSERT_EQ(tracks.size(), 2u) << label << " " << trace.at("metadata");
  for (auto& [tid, track] : tracks) {
    std::sort(track.begin(), track.end(), [](const json& a, const json& b) { return a.at("ts").get<double>() < b.at("ts").get<double>(); });
    int works = 0;
    double covered = 0.0;
    for (const json& slice : track) {
      works += slice.at("name") == "work" ? 1 : 0;
      covered += slice.at("dur").get<double>();
    }
    const double span = end_of(track.back()) - track.front().at("ts").get<double>();
    EXPECT_GE(works, 100) << label << " thread " << tid << ": each step's work before its barrier";
    EXPECT_GE(covered, 0.97 * span) << label << " thread " << tid << ": " << covered << " us of " << span;
  }
}

TEST(RunTrace, TheWorkAfterANowaitConstructIsOnTheTimelineUnderThePreload) {
  expect_the_work_after_nowait_constructs(AUGUR_NOWAIT_PROGRAM_EXE, "libaugur_preload");
}

#ifdef AUGUR_NOWAIT_PROGRAM_CLANG_EXE
TEST(RunTrace, TheWorkAfterANowaitConstructIsOnTheTimelineUnderTheOmptTool) {
  expect_the_work_after_nowait_constructs(AUGUR_NOWAIT_PROGRAM_CLANG_EXE, "libaugur_ompt");
}
#endif

}  // namespace
