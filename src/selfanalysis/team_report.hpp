// The outer regions in the self-analysis report: the team's placement, the tool's own time, the region's result
// and its JSON (docs/formats.md, "Self-analysis report"); the analysis itself is team.hpp.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "selfanalysis/team.hpp"

namespace augur::selfanalysis {

// Where the team ran (docs/self-analysis.md, "The team's placement"): of the measured steps on the team whose
// threads' cores were all known, how many had every thread on one core. On a machine whose scheduler may pack
// an unpinned team on one core, the one-run figures are those of the placement this run got.
struct TeamPlacement {
  long steps = 0;    // steps on the team with every thread's core known
  long one_cpu = 0;  // of them, steps with every thread on the same core
  // One step on the team, `cpus[t]` the core thread t last ran on (negative: unknown; the step is not counted).
  void count(const int* cpus, int threads);
  // one_cpu / steps; negative when no step was counted.
  [[nodiscard]] double one_cpu_fraction() const;
};

// The tool's own time in an outer region's run, for the report (docs/self-analysis.md, "The tool's time on the
// master"): the master's stints in the tool at the barriers of the measured region (its arrival stamp and sample
// before the runtime's barrier, its bookkeeping after it; at step boundaries the step's figures too), at the
// barriers of steps on the team (not of baseline windows, nor at their edges), and the other threads' courtesy
// waits for it (all of them). Measured by the edge; sums over the run.
struct ToolTime {
  long barriers = 0;                 // barriers of steps on the team that the master passed
  long boundaries = 0;               // of them, step boundaries
  double arrival_seconds = 0.0;      // the master's arrival stamps and samples, before the runtime's barrier
  double bookkeeping_seconds = 0.0;  // its bookkeeping after the barriers
  double boundary_seconds = 0.0;     // of that, after the step boundaries
  long courtesy_waits = 0;           // waits of the other threads for the master in the tool
  long courtesy_ran_out = 0;         // of them, ended with the master not yet there (the thread may then sleep)
  double courtesy_seconds = 0.0;     // their time
};

// One outer region as the report shows it (kind "outer"; docs/formats.md, "Self-analysis report").
struct OuterRegionResult {
  std::uint64_t id = 0;             // the region's outlined function (libgomp) or call site (libomp)
  int length = 0;                   // worksharing constructs per iteration
  long iterations = 0;              // iterations (time steps) that ran
  long expected_iterations = -1;    // run.iterations, negative when unknown
  double elapsed = 0.0;             // the region's time, seconds
  TimeEstimate first_estimate;      // the first estimate of it (none: seconds negative)
  TimeEstimate latest_estimate;     // the latest, re-made at every baseline window
  int predict_up_to = 0;            // speedup[] lists p = 1 .. this
  TeamSummary summary;
  TeamPlacement placement;          // the team on one core or not, over its measured steps
  ToolTime tool;                    // the tool's own time on the master and the courtesy waits
  bool baseline_stopped = false;    // the baseline steps stopped: threads waited on each other inside a construct
  // The region ran once after its period was found: `elapsed` (the last entry's) and the steps (all entries')
  // cover the same run, and the time account (render_account) holds; false: no account.
  bool account_whole = true;
  bool sees_spins = false;        // the spins on flags are seen (spin_source): summary.spin is known
  std::string spin_source = "";   // how: "flushes" (libomp's flush callback) or "samples" (sampled spin loops)
};

// The report text of render_report with the outer regions appended to its `regions`.
[[nodiscard]] std::string add_outer_regions(const std::string& report, const std::vector<OuterRegionResult>& outer);
// The summary lines ("augur: ...") of one outer region.
[[nodiscard]] std::string outer_summary(const OuterRegionResult& outer);

}  // namespace augur::selfanalysis
