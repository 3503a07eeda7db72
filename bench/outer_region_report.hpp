// What bench_outer_region reads from one run: the self-analysis report of `augur run --json` (its
// interposition part and, once the one-run analysis of outer-region programs exists, the region of kind
// "outer"; docs/formats.md) and the time a program prints. Every field may be missing: a missing one is
// "not reported", never an error, so that the benchmark runs before and after the fields exist.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "bench_median.hpp"

namespace augur::bench {

using nlohmann::json;

// One `augur run --json` report, as far as the benchmark reads it.
struct RunReport {
  bool written = false;             // augur run wrote a report (not when it found nothing at all)
  std::optional<int> period;        // interpose.worksharing.length, when a period was found
  std::optional<double> one_run;    // the outer region's speedup[] point p = 2: `value`
  std::optional<double> one_run_error;  // its noise.speedup_error: two standard errors of the run's own evidence
  std::optional<double> two_run;    // interpose.worksharing.speedup (the second run's T(1)/T(2))
  std::optional<double> estimated;  // the outer region's estimated_time_s (the first estimate)
  std::optional<double> estimated_at;  // estimated_at_fraction: the share of the run gone by when it was made
  std::optional<double> latest;     // latest_estimated_time_s (re-made at every baseline window)
  std::optional<double> latest_at;  // latest_estimated_at_fraction
  std::optional<double> elapsed;    // the outer region's elapsed_s
  std::optional<bool> disturbed;    // a noise verdict: the region's, or the report's (machine, noise)
  std::string verdict;              // its sentence, when there is one
  std::vector<std::string> reasons;  // why disturbed: the verdicts' reasons, "oversubscribed (...)" for the machine's
  std::string counters;             // the outer region's noise counters and the machine's load, as text
  std::optional<int> measured;      // interpose.worksharing.measured_iterations
  // The two sides of the one-run S(2) (T(1) / T(2), docs/self-analysis.md, "Where the one-run S(2) errs"):
  std::optional<double> one_thread;  // one_thread_time_s: T(1) per step (baseline steps, or the work added up)
  std::string one_thread_source;     // one_thread_source: "baseline", "work" or "step" (one thread)
  std::optional<double> step_time;   // the speedup point p = 2's iteration_time_s: T(2) per step, delay out
  std::optional<double> one_core;    // placement.one_cpu_fraction: the share of its steps the team ran on one core
};

inline std::optional<double> number_at(const json& object, const char* key) {
  if (!object.is_object()) return std::nullopt;
  const auto found = object.find(key);
  if (found == object.end() || !found->is_number()) return std::nullopt;
  return found->get<double>();
}

inline std::optional<bool> bool_at(const json& object, const char* key) {
  if (!object.is_object()) return std::nullopt;
  const auto found = object.find(key);
  if (found == object.end() || !found->is_boolean()) return std::nullopt;
  return found->get<bool>();
}

// The region of kind "outer" that ran longest, or null.
inline const json* outer_region(const json& report) {
  const json* best = nullptr;
  const auto regions = report.find("regions");
  if (regions == report.end() || !regions->is_array()) return nullptr;
  for (const json& region : *regions) {
    if (!region.is_object() || region.value("kind", std::string()) != "outer") continue;
    if (best == nullptr || number_at(region, "elapsed_s").value_or(0.0) > number_at(*best, "elapsed_s").value_or(0.0))
      best = &region;
  }
  return best;
}

// The verdicts: the region's `noise` ({disturbed, verdict}), then the report's `noise` and `machine`
// (oversubscribed); disturbed as soon as one says so, clean when one speaks and none says so.
inline void read_verdict(const json& report, const json* region, RunReport& run) {
  const auto consider = [&run](std::optional<bool> said, const json& holder) {
    if (!said) return;
    if (*said && holder.is_object() && holder.contains("verdict") && holder["verdict"].is_string())
      run.verdict = holder["verdict"].get<std::string>();
    if (*said && run.verdict.empty()) run.verdict = "oversubscribed";
    run.disturbed = run.disturbed.value_or(false) || *said;
  };
  const auto reasons = [&run](const json& noise) {
    if (!noise.is_object() || !noise.value("disturbed", false) || !noise.contains("reasons") || !noise["reasons"].is_array()) return;
    for (const json& reason : noise["reasons"])
      if (reason.is_string()) run.reasons.push_back(reason.get<std::string>());
  };
  const json none;
  const json& noise = region != nullptr && region->contains("noise") ? (*region)["noise"] : none;
  if (noise.is_object()) {
    consider(bool_at(noise, "disturbed"), noise);
    reasons(noise);
  }
  if (report.contains("noise")) {
    consider(bool_at(report["noise"], "disturbed"), report["noise"]);
    reasons(report["noise"]);
  }
  const json& machine = report.contains("machine") ? report["machine"] : none;
  char text[320];
  char other[32] = "unknown";
  if (const auto load = number_at(machine, "other_cpu_load")) std::snprintf(other, sizeof other, "%.2f", *load);
  std::snprintf(text, sizeof text, "load %.1f-%.1f, other processes %s processors", number_at(machine, "load_average_start").value_or(-1.0),
                number_at(machine, "load_average_end").value_or(-1.0), other);
  run.counters = text;
  if (machine.is_object()) {
    consider(bool_at(machine, "oversubscribed"), machine);
    if (bool_at(machine, "oversubscribed").value_or(false)) run.reasons.push_back("oversubscribed (" + run.counters + ")");
  }
  if (noise.is_object()) {
    std::snprintf(text, sizeof text, "; steps %.0f, preempted %.0f (%.0f%% of the time), on one core with own switches %.0f, spread %.2f",
                  number_at(noise, "steps").value_or(-1.0), number_at(noise, "steps_preempted").value_or(-1.0),
                  100.0 * number_at(noise, "preempted_time_share").value_or(-0.01), number_at(noise, "steps_switched_in_team").value_or(-1.0),
                  number_at(noise, "iteration_time_spread").value_or(-1.0));
    run.counters += text;
  }
}

// The kind of a verdict's reason, for the benchmark's counts: "oversubscribed", "meaningless", "preempted",
// "preempted on one core" (the reason names steps on one core), "scatter", "too few steps", "imprecise" (the run
// did not fix S(P)), "competed" (other processes beside the run) or "other".
inline std::string reason_kind(const std::string& reason) {
  if (reason.rfind("oversubscribed", 0) == 0 || reason.find("machine is oversubscribed") != std::string::npos) return "oversubscribed";
  if (reason.rfind("OMP_WAIT_POLICY", 0) == 0) return "meaningless";
  if (reason.find("steps preempted") != std::string::npos)
    return reason.find("on one core, where") != std::string::npos ? "preempted on one core" : "preempted";
  if (reason.find("windows") != std::string::npos && reason.find("preempted") != std::string::npos) return "preempted";
  if (reason.find("scatter") != std::string::npos || reason.find("spread") != std::string::npos) return "scatter";
  if (reason.rfind("only ", 0) == 0) return "too few steps";
  if (reason.rfind("the run does not fix", 0) == 0) return "imprecise";  // the baseline windows disagree
  if (reason.find("competed") != std::string::npos) return "competed";
  return "other";
}

// Counts by kind as text: "competed 3, imprecise 1" (empty when none).
inline std::string kinds_text(const std::map<std::string, int>& counts) {
  std::string text;
  for (const auto& [kind, count] : counts) text += (text.empty() ? "" : ", ") + kind + " " + std::to_string(count);
  return text;
}

inline RunReport read_report(const json& report) {
  RunReport run;
  run.written = true;
  const json interpose = report.value("interpose", json::object());
  const json worksharing = interpose.is_object() ? interpose.value("worksharing", json()) : json();
  if (worksharing.is_object() && worksharing.value("found", false)) {
    if (const auto length = number_at(worksharing, "length")) run.period = static_cast<int>(*length);
    run.two_run = number_at(worksharing, "speedup");
    if (const auto measured = number_at(worksharing, "measured_iterations")) run.measured = static_cast<int>(*measured);
  }
  const json* region = outer_region(report);
  if (region != nullptr) {
    const auto points = region->find("speedup");
    if (points != region->end() && points->is_array()) {
      for (const json& point : *points) {
        if (number_at(point, "p").value_or(0.0) != 2.0) continue;
        run.one_run = number_at(point, "value");
        run.step_time = number_at(point, "iteration_time_s");
      }
    }
    run.estimated = number_at(*region, "estimated_time_s");
    run.estimated_at = number_at(*region, "estimated_at_fraction");
    run.latest = number_at(*region, "latest_estimated_time_s");
    run.latest_at = number_at(*region, "latest_estimated_at_fraction");
    run.elapsed = number_at(*region, "elapsed_s");
    run.one_thread = number_at(*region, "one_thread_time_s");
    if (region->contains("noise")) run.one_run_error = number_at((*region)["noise"], "speedup_error");
    if (region->contains("placement")) run.one_core = number_at((*region)["placement"], "one_cpu_fraction");
    if (region->contains("one_thread_source") && (*region)["one_thread_source"].is_string())
      run.one_thread_source = (*region)["one_thread_source"].get<std::string>();
  }
  read_verdict(report, region, run);
  return run;
}

// The time a program printed for its time loop: `time_s=T` (the repository's examples) or NPB's
// `Time in seconds = T`; nullopt when it printed neither.
inline std::optional<double> printed_time(const std::string& output) {
  for (const std::string marker : {"time_s=", "Time in seconds ="}) {
    const std::size_t at = output.find(marker);
    if (at == std::string::npos) continue;
    const char* start = output.c_str() + at + marker.size();
    char* end = nullptr;
    const double value = std::strtod(start, &end);
    if (end != start) return value;
  }
  return std::nullopt;
}

// The pace of a program's loop by its own clock: marks (b_j, t_j), t_j the seconds its first b_j steps took, the
// last b_M = S (the whole loop). From an example under EXAMPLE_PACE=1 (examples/interpose/pace_marks.h):
// `<name>: pace steps=S marks=M at_s=t1 ... tM`, b_j = floor(j S / M); from NPB's progress lines: npb_pace.
struct LoopPaceMarks {
  long steps = 0;
  std::vector<long> done;  // b1 .. bM, increasing, bM = steps
  std::vector<double> at;  // t1 .. tM
};
inline std::optional<LoopPaceMarks> read_pace(const std::string& output) {
  const std::size_t at = output.find(": pace steps=");
  if (at == std::string::npos) return std::nullopt;
  LoopPaceMarks pace;
  int marks = 0, used = 0;
  const char* text = output.c_str() + at;
  if (std::sscanf(text, ": pace steps=%ld marks=%d at_s=%n", &pace.steps, &marks, &used) != 2 || used == 0 || marks < 2 ||
      marks > pace.steps)
    return std::nullopt;
  text += used;
  for (int j = 0; j < marks; ++j) {
    char* end = nullptr;
    const double value = std::strtod(text, &end);
    if (end == text || !(value > 0.0) || (!pace.at.empty() && !(value >= pace.at.back()))) return std::nullopt;
    pace.at.push_back(value);
    pace.done.push_back(static_cast<long>(j + 1) * pace.steps / marks);
    text = end;
  }
  return pace;
}

// A line of a program's output and when it came (seconds on any one clock).
struct StampedLine {
  double at = 0.0;
  std::string text;
};

// NPB's pace from its progress lines, stamped as they came (stdout line-buffered): ` Time step N` (BT, SP, LU:
// at the start of step N, N - 1 done) and `  iter N` (MG: at the start of iteration N), or CG's `    N   ||r||
// zeta` (once iteration N has run its solver: N done). The loop starts at the mark with none done (the line of
// step 1; MG prints it after one residual and its norm, which its timer counts: its first marks read a little
// early), or, without one, `total` (the time NPB prints) before the mark of the last step; the last mark is
// (S, total) (or the mark before it, when later: NPB prints the time to two decimals). nullopt without three
// marks, or when they do not increase.
inline std::optional<LoopPaceMarks> npb_pace(const std::vector<StampedLine>& lines, long steps, double total) {
  std::vector<std::pair<long, double>> marks, cg;  // (steps done, stamp); CG's lines apart, used only alone
  for (const StampedLine& line : lines) {
    long number = 0;
    double residual_norm = 0.0, zeta = 0.0;
    char rest[8] = "";
    if (std::sscanf(line.text.c_str(), " Time step %ld %7s", &number, rest) == 1 ||
        std::sscanf(line.text.c_str(), " iter %ld %7s", &number, rest) == 1) {
      marks.emplace_back(number - 1, line.at);
    } else if (std::sscanf(line.text.c_str(), " %ld %lf %lf %7s", &number, &residual_norm, &zeta, rest) == 3) {
      cg.emplace_back(number, line.at);
    }
  }
  if (marks.empty()) marks = cg;
  if (steps <= 0 || !(total > 0.0) || marks.empty()) return std::nullopt;
  double origin = 0.0;
  if (marks.front().first == 0) origin = marks.front().second;
  else if (marks.back().first == steps) origin = marks.back().second - total;
  else return std::nullopt;
  LoopPaceMarks pace;
  pace.steps = steps;
  for (const auto& [done, stamp] : marks) {
    if (done <= 0 || done >= steps) continue;
    if ((!pace.done.empty() && done <= pace.done.back()) || !(stamp - origin > (pace.at.empty() ? 0.0 : pace.at.back())))
      return std::nullopt;
    pace.done.push_back(done);
    pace.at.push_back(stamp - origin);
  }
  pace.done.push_back(steps);
  pace.at.push_back(std::max(total, pace.at.empty() ? 0.0 : pace.at.back()));  // NPB prints two decimals
  if (pace.at.size() < 3) return std::nullopt;
  return pace;
}

// The error against the loop's time tM of an estimate made at `fraction` of the loop from the pace since its
// first part (the first holds the start: the team's creation, the first touch of the data): at the first mark
// k >= 2 with b_k >= fraction S, t_k + (S - b_k) (t_k - t_1) / (b_k - b_1); how far any estimate made there from
// the steps before it falls when the program's pace moves later, with no tool in the run. nullopt when k >= M.
inline std::optional<double> pace_estimate_error(const LoopPaceMarks& pace, double fraction) {
  const std::size_t marks = pace.at.size();
  if (marks < 3 || pace.done.size() != marks) return std::nullopt;
  std::size_t k = 1;  // 0-based
  while (k < marks && static_cast<double>(pace.done[k]) < fraction * static_cast<double>(pace.steps) - 1e-9) ++k;
  if (k >= marks - 1) return std::nullopt;
  const double per_step = (pace.at[k] - pace.at[0]) / static_cast<double>(pace.done[k] - pace.done[0]);
  return (pace.at[k] + static_cast<double>(pace.steps - pace.done[k]) * per_step) / pace.at[marks - 1] - 1.0;
}

// "0.5200 s at 12% of the run against 0.5000 s (+4.0%)", its error appended to `errors`; "none" without one.
inline std::string estimate_text(const std::optional<double>& estimate, const std::optional<double>& at,
                                 const std::optional<double>& elapsed, std::vector<double>& errors) {
  if (!estimate || !elapsed || *elapsed <= 0.0) return "none";
  errors.push_back(*estimate / *elapsed - 1.0);
  char text[160];
  std::snprintf(text, sizeof text, "%.4f s at %s of the run against %.4f s (%+.1f%%)", *estimate,
                at ? (std::to_string(static_cast<int>(std::lround(100.0 * *at))) + "%").c_str() : "?", *elapsed,
                100.0 * errors.back());
  return text;
}

}  // namespace augur::bench
