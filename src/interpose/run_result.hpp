// What `augur run` makes of the interposition files (docs/run.md, "The interposition file") that
// libaugur_preload and libaugur_ompt write at the program's exit: one run read into a typed record, and
// for a program with one outer parallel region (its period found in its worksharing constructs), the
// second run on the baseline thread count combined with the first into the speedup T(B)/T(P) per
// iteration.
//
// Pure: reads no file and runs nothing; the command launches the runs and passes in what they left.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "augur/selfanalysis.hpp"

namespace augur::interpose {

// The period of one outer parallel region, found in its worksharing constructs (the file's `worksharing`
// when its `found` is true).
struct WorksharingPeriod {
  int length = 0;                        // constructs per iteration
  long iterations = 0;                   // iterations (time steps) that ran
  int team_size = 0;                     // threads of the region's team
  long measured_iterations = 0;          // iterations timed
  std::optional<double> iteration_time;  // median time per iteration, seconds; none when none was timed
  // The constructs of one iteration as "module+offset kind", which do not move between runs (addresses may).
  std::vector<std::string> constructs;
};

// What one run reported (the interposition file's fields augur run decides on).
struct RunInfo {
  int dpd_window = 0;
  long intercepted = 0;  // parallel regions seen
  int distinct_loops = 0;
  std::optional<std::string> disabled;  // why the preload measured nothing
  std::size_t regions = 0;              // iterative parallel regions found
  // The worksharing detector: whether the run had one (the file's `worksharing` is an object, not null),
  // its samples, and the period when it found one.
  bool worksharing_detector = false;
  long worksharing_samples = 0;
  std::optional<WorksharingPeriod> worksharing;
};

// Reads an interposition file's text. Throws core::InputError naming `file` (and the line and column of a
// JSON syntax error) when it is not one, or a field has the wrong type.
[[nodiscard]] RunInfo parse_run_info(const std::string& text, const std::string& file);

// Why the run measured no iterative parallel region ("" when it found one): disabled, no region ran, or
// regions without a periodic pattern. The preload's reasons in the words of augur run.
[[nodiscard]] std::string run_problem(const RunInfo& info);

// Why nothing was measured, for the message of a run that found no iterative parallel region (or wrote no
// report): run_problem's reason, or for one parallel region that ran once, what its worksharing showed.
[[nodiscard]] std::string nothing_measured_reason(const RunInfo& info);

// The run found no iterative parallel region, only the period of one outer region in its worksharing
// constructs (the second-run speedup applies).
[[nodiscard]] bool outer_region_only(const RunInfo& info);

// The baseline B of the second run for a team of `team` threads: `baseline` resolved as libaugur does
// (never above the team); when that is the team's own size, 1 if the team has more than one thread.
// 0: no other count to run on.
[[nodiscard]] int second_run_threads(const selfanalysis::BaselinePolicy& baseline, int team);

// The fewest measured iterations of each run that a two-run ratio is made of (the one-run analysis's minimum,
// selfanalysis::TeamPolicy::min_steps).
inline constexpr long min_measured_iterations = 5;

// The first run qualifies for a second one: another thread count exists and it timed its iterations.
[[nodiscard]] bool second_run_wanted(const WorksharingPeriod& first, int threads);

// How the second run ended, as the command saw it.
struct SecondRunEnd {
  int signal = 0;  // the signal that killed it, 0 if none
  int exit_code = 0;
  std::optional<RunInfo> info;  // its interposition file, none when it wrote none
};

// The speedup from two runs of one outer parallel region: T(B)/T(P) per iteration, the medians of each
// run's measured iterations (docs/run.md, "One outer parallel region").
struct SecondRunResult {
  int threads = 0;                          // B, the second run's OMP_NUM_THREADS
  int team = 0;                             // P, the first run's team
  bool ran = false;                         // the program was run a second time (false: `problem` says why not)
  std::optional<WorksharingPeriod> period;  // what the second run found, when it found a period
  std::optional<double> speedup;            // T(B)/T(P), when both runs agree
  std::string problem;                      // why there is no speedup ("" when there is one)

  // The file's `speedup_note` when the program `ran` a second time: how the speedup was obtained, or why
  // it was not.
  [[nodiscard]] std::string note() const;
};

// The first run exited with `exit_code` (not 0): the program is not run again.
[[nodiscard]] SecondRunResult not_run_again(const WorksharingPeriod& first, int threads, int exit_code);

// Combines the first run's period with the second run on `threads` threads: the speedup when the second
// run found the same period (same constructs in the same cyclic order, same iterations) on a team of
// `threads` and both timed their iterations; otherwise the reason in `problem`.
[[nodiscard]] SecondRunResult combine_runs(const WorksharingPeriod& first, int threads, const SecondRunEnd& second);

// Same constructs in the same cyclic order (the detector may mark the period at another construct).
[[nodiscard]] bool same_cycle(const std::vector<std::string>& first, const std::vector<std::string>& second);

}  // namespace augur::interpose
