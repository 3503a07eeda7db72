// The validation experiment of the self-analyzer (seed 000, section 4.1; thesis 4.6): run a program
// with P = 1 .. N threads and compare the traditional speedup TS with the self-analyzer's SA(N exec),
// SA(1 exec) and the self-tuning' ST'. This file is the pure part: it turns the runs' reports into
// the table, and plans the runs (which, in what order, with which environment). Starting the program
// is the `augur speedup` command's job.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "augur/selfanalysis_report.hpp"

namespace augur::selfanalysis {

// One run of the program.
struct ExperimentRun {
  int processors = 0;       // OMP_NUM_THREADS of the run
  int repetition = 0;       // which repetition of the experiment it belongs to
  double wall_seconds = 0;  // the whole process, measured from outside
  Report report;
};

struct ExperimentInput {
  std::vector<ExperimentRun> timed;     // AUGUR_MODE=time: the program without the self-analyzer
  std::vector<ExperimentRun> analyzed;  // AUGUR_MODE=analyze, one run per P: SA(N exec)
  std::vector<ExperimentRun> swept;     // AUGUR_MODE=analyze with a sweep on N threads: SA(1 exec)
  bool choose_region = false;           // use `region_id` instead of the longest-running region
  std::uint64_t region_id = 0;
};

// One row of the table; NaN where a value could not be measured.
struct ExperimentPoint {
  int processors = 0;
  double time = 0;              // median wall time of the program without the self-analyzer, s
  double region_time = 0;       // median time of the region without the self-analyzer, s
  double analyzed_time = 0;     // median wall time with the self-analyzer, s
  double traditional = 0;       // TS(p) = region_time(1) / region_time(p)
  double traditional_min = 0;   // range of TS over the repetitions (each from its own pair of runs)
  double traditional_max = 0;
  double self_analyzer = 0;     // SA(N exec): S(p) of the run on p threads
  double self_analyzer_min = 0; // range of SA(N exec) over the repetitions
  double self_analyzer_max = 0;
  double self_analyzer_mean = 0; // SA(N exec) over whole runs: T(B) / mean T(p) x AF(B), no history
  double self_analyzer_one = 0; // SA(1 exec): S(p) from the sweep run
  double self_tuning = 0;       // ST'(p) of the run on p threads
  double estimated_time = 0;    // the self-analyzer's first estimate of the region time, s
  double analyzed_region_time = 0;  // the region time it estimated, s
  double overhead = 0;          // analyzed_time / time
  int judged_runs = 0;          // analyzed runs on p with a noise verdict
  int disturbed_runs = 0;       // of them, disturbed (meaningless ones included)
  std::vector<std::string> verdicts;  // each judged run's verdict, in the order of the runs
};

struct ExperimentResult {
  std::uint64_t region_id = 0;
  int region_length = 0;
  int baseline = 0;  // B of the analyzed runs on the largest P
  std::vector<ExperimentPoint> points;
  double overhead = 0;  // sum of analyzed times / sum of times without
  std::string noise_verdict;  // one plain line on the analyzed runs' noise verdicts; empty when none was judged
  std::vector<std::string> notes;
};

// Throws std::runtime_error when the runs hold no usable region.
[[nodiscard]] ExperimentResult summarize_experiment(const ExperimentInput& input);

// ---- The plan of the runs ----

enum class RunKind {
  time,     // AUGUR_MODE=time: the program without the self-analyzer
  analyze,  // AUGUR_MODE=analyze on p threads: SA(N exec)
  sweep,    // AUGUR_MODE=analyze on N threads sweeping p = 1 .. N: SA(1 exec)
};
[[nodiscard]] const char* run_kind_name(RunKind kind);  // "time", "analyze", "sweep"

struct PlannedRun {
  RunKind kind = RunKind::time;
  int processors = 1;  // OMP_NUM_THREADS
  int repetition = 0;
};

// In each of `repeat` repetitions: for p = 1 .. max_threads a time run and an analyze run, then,
// when `sweep`, one sweep run on max_threads.
[[nodiscard]] std::vector<PlannedRun> plan_experiment(int max_threads, int repeat, bool sweep);

// What every run of one experiment shares.
struct RunSettings {
  int max_threads = 1;
  std::string wait_policy = "passive";  // OMP_WAIT_POLICY
  std::string baseline;                 // AUGUR_BASELINE; empty: libaugur's default
  int sweep_every = 10;                 // AUGUR_SWEEP_EVERY
};

// The variables a run adds to the environment: OpenMP's thread count and wait policy (docs/speedup.md).
[[nodiscard]] std::vector<std::pair<std::string, std::string>> run_environment(const PlannedRun& run,
                                                                               const RunSettings& settings);

// libaugur's options for a run, as (key, value), which augur speedup passes in the tool channel: the
// mode, the report file, no summary, the baseline and the sweep (docs/speedup.md).
[[nodiscard]] std::vector<std::pair<std::string, std::string>> run_options(const PlannedRun& run,
                                                                           const RunSettings& settings,
                                                                           const std::string& report_path);

// Files a finished run into `input` by its kind.
void add_run(ExperimentInput& input, RunKind kind, ExperimentRun run);

// The last `count` lines of `text` (a final newline does not start a line); all of it when shorter.
[[nodiscard]] std::string last_lines(const std::string& text, int count);

}  // namespace augur::selfanalysis
