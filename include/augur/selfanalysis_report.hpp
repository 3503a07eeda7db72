// The self-analysis report: the JSON file libaugur writes at the end of a run (AUGUR_REPORT) and
// the commands read back. Format: docs/formats.md, "Self-analysis report".
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "augur/selfanalysis.hpp"
#include "augur/selfanalysis_noise.hpp"

namespace augur::selfanalysis {

inline constexpr int report_format_version = 1;

// What the report says about the run besides the regions.
struct RunContext {
  std::string mode;      // "analyze" or "time"
  std::string program;   // path of the executable
  long process_id = 0;
  int allocated_processors = 0;  // P at the start (OMP_NUM_THREADS or the default)
  int available_processors = 0;  // processors of the machine
  std::string wait_policy;       // OMP_WAIT_POLICY, empty when unset
  Config config;
  std::vector<std::string> notes;
  MachineContext machine;  // filled by the runtime edge; "machine" is null in the report when unknown
};

// The report as JSON text; call it after Analyzer::finish(), which closes the regions still open.
[[nodiscard]] std::string render_report(const RunContext& context, const std::vector<Region>& regions);

// A short human summary, one line per fact, each starting with "augur: ".
[[nodiscard]] std::string render_summary(const RunContext& context, const std::vector<Region>& regions);

// A report read back.
struct ReportPoint {
  int processors = 0;
  bool calculated = false;      // state PC
  double speedup = 0.0;         // valid when calculated
  double mean_speedup = 0.0;    // over all measured iterations, valid when calculated
  double iteration_time = 0.0;  // T(p) seconds, 0 when unknown
  double self_tuning = 0.0;     // ST'(p), 0 when not measured
  long measured_iterations = 0;  // iterations measured on p (not discarded)
  double measured_time = -1.0;   // their total time, seconds; -1 when absent (reports before 2026-11-28, outer regions)
  bool measured = true;         // false: predicted by the one-run model of an outer region (kind "outer")
  double amdahl_factor = 0.0;   // AF(p) of an outer region, 0 when absent
  bool has_interval = false;    // "interval" present (reports before the noise verdict have none)
  double median_speedup = 0.0;  // median of the window speedups, valid with the interval
  double interval_low = 0.0;    // 95% interval of S(p)
  double interval_high = 0.0;
};

// A region's "noise" read back (absent in reports before the noise verdict: `present` false).
struct ReportNoise {
  bool present = false;
  bool disturbed = false;
  bool meaningless = false;
  std::string verdict;
  std::vector<std::string> reasons;
  long baseline_windows = 0;
  long disturbed_baseline_windows = 0;
  double baseline_spread = -1.0;        // -1 when null
  double iteration_time_spread = -1.0;  // -1 when null
  long involuntary_switches = -1;       // -1 when null
};

// Steps of one kind in an outer region's time account, and their wall time.
struct ReportSteps {
  long steps = 0;
  double seconds = 0.0;
};

// Where an outer region's time went (time_account; docs/self-analysis.md, "Where the region's time went"):
// iterations x T(P), plus each kind of step's time beyond T(P) a step, adds up to the region's time.
struct ReportTimeAccount {
  bool known = false;  // false when absent or null
  long iterations = 0;
  double iteration_time = 0.0;  // T(P), seconds
  double elapsed = 0.0;         // the region's time, seconds
  ReportSteps team;             // the steps T(P) comes from
  double tool_delay = 0.0;      // the tool's delay in them
  ReportSteps baseline;
  ReportSteps preempted;
  ReportSteps left_out;
  ReportSteps not_measured;  // before the period was found, at the windows' edges, after the last step

  // A kind's time beyond T(P) a step: seconds - steps x T(P).
  [[nodiscard]] double beyond(const ReportSteps& kind) const { return kind.seconds - static_cast<double>(kind.steps) * iteration_time; }
};

struct ReportRegion {
  std::string kind = "loops";  // "loops": iterative parallel regions; "outer": one outer parallel region, in one run
  std::uint64_t id = 0;
  int length = 0;
  long iterations = 0;
  long expected_iterations = -1;
  long discarded = 0;
  int baseline = 0;  // 0 when it was never resolved
  double baseline_time = 0.0;
  double sequential_fraction = -1.0;  // f, -1 when unknown
  double amdahl_factor = 0.0;
  double estimated_time = -1.0;       // -1 when unknown
  int estimate_processors = 0;
  long estimated_at_iteration = 0;
  double estimated_at_fraction = -1.0;         // of the iterations that ran; -1 when unknown
  double latest_estimated_time = -1.0;         // an outer region's latest estimate, re-made at every baseline window; -1 when none
  long latest_estimated_at_iteration = 0;
  double latest_estimated_at_fraction = -1.0;
  double elapsed = 0.0;
  bool swept = false;
  std::vector<std::string> notes;
  std::vector<ReportPoint> points;
  // An outer region's one-run analysis (kind "outer"; 0 when absent).
  int team = 0;
  long measured_iterations = 0;
  double iteration_time = 0.0;    // T(P), seconds
  double one_thread_time = 0.0;   // T(1), seconds
  std::string one_thread_source;  // "baseline": baseline steps (threads one after the other); "work": the work added up
  double work_one_thread_time = 0.0;  // the used steps' work added up, seconds (T(1) when the source is "work")
  long baseline_steps = 0;
  // The baseline steps stopped for good: a thread waited for another inside a construct (a pipeline
  // synchronised with flags, as NPB LU's), so T(1) is the work added up with those waits in it.
  bool baseline_stopped = false;
  // Seconds a step the team's threads spun on flags, taken out of their work: `#pragma omp flush` loops seen
  // through libomp's flush callback (spin_source "flushes"), or spin loops in the code hit by the threads'
  // sampled program counters (libgomp, "samples"); negative when unknown.
  double spin_time = -1.0;
  std::string spin_source;
  double parallel_efficiency = 0.0;
  double load_balance = 0.0;
  double communication = 0.0;
  long placement_steps = 0;    // placement.steps: measured steps with every thread's core known (0 when absent)
  long placement_one_cpu = 0;  // placement.one_cpu_steps: of them, steps with every thread on one core
  ReportTimeAccount time_account;
  ReportNoise noise;

  [[nodiscard]] const ReportPoint* point(int processors) const;
};

struct Report {
  int version = 0;
  std::string mode;
  int allocated_processors = 0;
  std::vector<std::string> notes;
  std::vector<ReportRegion> regions;
  MachineContext machine;  // known false when the report has no "machine" (or null)

  // The region that ran longest, or nullptr when there is none.
  [[nodiscard]] const ReportRegion* main_region() const;
  [[nodiscard]] const ReportRegion* region(std::uint64_t id) const;
};

// Parses a report; throws core::InputError ("file:line:col: message") when it is not one.
[[nodiscard]] Report parse_report(const std::string& text, const std::string& file);

}  // namespace augur::selfanalysis
