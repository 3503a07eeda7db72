// The plain verdict that ends `augur speedup`, `augur run` and libaugur's summary: the parallel efficiency on P
// threads, the sequential fraction f and the Amdahl limit 1/f, whether the measurement was noisy and why, and
// what to do. One pure function of the figures and a machine snapshot (the snapshot is read from /proc by an
// edge: src/runtime/machine_context.hpp); the noise detection itself is the noise verdict's
// (augur/selfanalysis_noise.hpp), whose reasons this one repeats. Rules and sentences: docs/self-analysis.md,
// "The plain verdict".
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "augur/selfanalysis_noise.hpp"
#include "augur/selfanalysis_report.hpp"
#include "selfanalysis/speedup_experiment.hpp"

namespace augur::selfanalysis {

struct VerdictInput {
  int processors = 0;  // P
  int baseline = 0;    // B; 0 when unknown (e.g. the traditional speedup of augur speedup)
  // S(P): measured, or, when baseline == processors, the engine's Amdahl's Factor AF(P) computed from f. < 0: unknown.
  double speedup = -1.0;
  std::string speedup_name = "S";  // how the lines name it: "S" (self-analysis), "TS" (augur speedup)
  double sequential_fraction = -1.0;  // f; < 0: unknown (see core::karp_flatt_fraction for a measured speedup)
  bool fraction_from_speedup = false;  // f was derived from S(P) by Karp and Flatt's formula, not measured
  double efficiency = -1.0;  // measured directly (one-run analysis of an outer region); < 0: S(P) / P

  // The noise verdict(s) of the measurement.
  bool judged = false;                    // a noise verdict was given
  bool meaningless = false;               // it said meaningless
  std::string noise_verdict;              // its sentence ("measurement clean: ...", "measurement disturbed: ..."), if any
  std::vector<std::string> noise_reasons; // its reasons, as sentences
  bool machine_in_reasons = false;        // those reasons already judge `machine` (a one-run verdict)
  bool sentence_has_all_reasons = false;  // the sentence joins every reason (an outer region's); else it quotes the first
  long preempted_windows = 0;             // windows with many involuntary context switches
  double window_spread = -1.0;            // MAD / median of the window times; < 0: unknown
  bool imprecise = false;                 // the run did not fix S(P) (an outer region's windows disagree)
  bool competed = false;                  // other processes competed with the team (an outer region's reason)
  bool table_outside = false;             // the table's history-weighted S(P) is far from the windows' median
  double window_median = -1.0;            // then, the windows' median S(P) (the efficiency line gives both); < 0: none
  double repetition_spread = -1.0;        // (max - min) / median of S(P) over repetitions; < 0: unknown
  int repetitions = 0;                    // runs behind repetition_spread
  MachineContext machine;                 // the machine snapshot; `known` false when none was taken
};

struct Verdict {
  double efficiency = -1.0;   // < 0: unknown
  std::string efficiency_source;  // "measured" (S(P)/P or the run's own), "amdahl" (AF(P)/P, B = P), "" unknown
  bool amdahl_factor_only = false;  // B = P: S(P) is Amdahl's Factor, not a measured speedup
  double sequential_fraction = -1.0;
  double amdahl_limit = -1.0;  // 1/f; < 0 when f is unknown or 0 (no limit)
  bool noisy = false;
  std::vector<std::string> reasons;
  std::vector<std::string> advice;
  std::vector<std::string> lines;  // the plain lines, in order (the text outputs print them, the JSON carries them)
};

// The thresholds of the rules beyond the noise verdict's own (NoiseThresholds).
inline constexpr double repetition_spread_limit = 0.10;  // (max - min) / median of the repetitions
inline constexpr double steal_limit = 0.05;             // CPU steal over the run

[[nodiscard]] Verdict judge_verdict(const VerdictInput& input);

// The input from the engine's region and its noise verdict (libaugur's summary and report), P = `allocated`.
[[nodiscard]] VerdictInput verdict_input(const Region& region, const NoiseVerdict& noise, const MachineContext& machine,
                                         int allocated);
// The input from a region of a report read back (augur run): its noise verdict, the report's machine, P the
// report's allocated processors (an outer region: its team, its measured efficiency).
[[nodiscard]] VerdictInput verdict_input(const ReportRegion& region, const Report& report);

// The input from augur speedup's experiment: P the largest count with a traditional speedup TS(P), f by
// Karp-Flatt from it, the spread of its repetitions, the analyzed runs' noise verdicts counted, and the
// machine snapshot taken around the experiment (not judged by those verdicts).
[[nodiscard]] VerdictInput verdict_input(const ExperimentResult& result, int repeat, const MachineContext& machine);

// The lines, each after `prefix` and ending with a newline.
[[nodiscard]] std::string verdict_text(const Verdict& verdict, const std::string& prefix);

// {"efficiency", "efficiency_source", "amdahl_factor_only", "f", "amdahl_limit", "noisy", "reasons", "advice",
// "lines"}; unknown numbers are null.
[[nodiscard]] nlohmann::ordered_json verdict_json(const Verdict& verdict);

}  // namespace augur::selfanalysis
