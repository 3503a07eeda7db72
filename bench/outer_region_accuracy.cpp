// The goals of issue 16 for programs with one outer parallel region, measured with the real `augur run` on
// the repository's outer-region examples (gcc builds, and clang builds where they exist) and, when
// AUGUR_NPB_DIR names a folder of built NPB-CPP programs, on SP, BT, LU, CG and MG (docs/benchmarks.md):
//   - the machine's steadiness before each program: 1 ms chunks of fixed arithmetic and of fixed reads, on 1
//     thread and on 2 at once, the mean's excess over the median chunk (steadiness.hpp);
//   - period stability: the period found by K runs of `augur run -p 2 --one-run` (goal: the same in all);
//   - accuracy: R interleaved rounds of {`augur run -p 2 --json`, the program alone on 1 thread, on 2, on 2
//     again, on 1 again} (ABBA, so that a machine drifting within the round weighs on both pairs alike): the
//     median one-run S(2) (the report's region of kind "outer", speedup p = 2) against the median T(1)/T(2) of
//     the times the program prints over the 2R pairs (goal: within 10%), and the median error of the report's
//     estimated_time_s against its elapsed_s (goal: within 5%); the reference against itself: the median over
//     the R first pairs against that over the R second pairs (how far two traditional measurements of R runs
//     each fall apart on this machine: the noise floor of the check);
//   - disturbance: D runs with a CPU-bound process started halfway through: S(2) within 15% of the idle
//     T(1)/T(2), or a report that says the measurement was disturbed (goal: every run), the flags' reasons by kind;
//   - minimum iterations: programs with too few steps get no speedup.
//   - false alarms: the idle rounds whose verdict said disturbed, with their reasons and counters, counted by kind;
// Prints figures; never fails on a time or a missed goal (exit 1 only when a program cannot run, 2 on usage).
//
// --split traces the accuracy rounds' runs (`augur run --trace`) and splits the first estimate's error into
// selection, drift and tail (outer_region_split.hpp).
// usage: bench_outer_region [--runs K] [--rounds R] [--disturbed D] [--only TEXT] [--env KEY=VALUE]... [--split] [--quick]
// The command line and the programs: outer_region_options.hpp; how each side runs: outer_region_runs.hpp.
#include <signal.h>
#include <sys/wait.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/files.hpp"
#include "outer_region_options.hpp"
#include "outer_region_report.hpp"
#include "outer_region_runs.hpp"
#include "outer_region_split.hpp"
#include "outer_region_summary.hpp"
#include "placement_rounds.hpp"

namespace {

namespace fs = std::filesystem;
using augur::bench::alone;
using augur::bench::augur_run;
using augur::bench::estimate_text;
using augur::bench::median;
using augur::bench::Program;
using augur::bench::RunReport;
using augur::bench::Settings;
using augur::bench::Summary;
using augur::bench::print_summary;
using augur::bench::start_competitor;


std::string format(const char* pattern, double value) {
  if (std::isnan(value)) return "-";
  char text[64];
  std::snprintf(text, sizeof text, pattern, value);
  return text;
}

std::string optional_text(const std::optional<double>& value, const char* pattern) {
  return value ? format(pattern, *value) : std::string("none");
}

// Period stability: K runs with --one-run; returns the median wall time of a run.
double stability(const Program& program, const Settings& settings, const fs::path& scratch, Summary& summary) {
  std::map<int, int> periods;  // 0: none found
  std::vector<double> walls;
  for (int run = 0; run < settings.runs; ++run) {
    double wall = 0.0;
    const RunReport report = augur_run(program, {"--one-run"}, scratch, &wall);
    ++periods[report.period.value_or(0)];
    walls.push_back(wall);
  }
  std::string text;
  if (periods.size() == 1 && periods.begin()->first != 0) {
    summary.goals.same_period = true;
    text = std::to_string(settings.runs) + "/" + std::to_string(settings.runs) + " same period (" +
           std::to_string(periods.begin()->first) + ")";
  } else {
    for (const auto& [period, count] : periods) {
      text += (text.empty() ? "" : ", ") + (period == 0 ? std::string("none") : std::to_string(period)) + ": " +
              std::to_string(count);
    }
    text = "periods " + text + " (of " + std::to_string(settings.runs) + ")";
  }
  std::printf("  period stability, %d runs of augur run -p 2 --one-run: %s\n", settings.runs, text.c_str());
  summary.stability = text;
  return median(walls);
}

// The two sides of the error of one round's S(2): the one-run T(1) and T(2) per step against the times alone
// (the means of the round's two runs on each side) divided by the time steps (NPB and the examples print the
// time loop's time); appended to the ratios.
std::string sides_text(const RunReport& report, long steps, double one, double two, std::vector<double>& one_ratios,
                       std::vector<double>& two_ratios) {
  if (!report.one_thread || !report.step_time || steps <= 0) return "";
  const double alone_one = one / static_cast<double>(steps);
  const double alone_two = two / static_cast<double>(steps);
  one_ratios.push_back(*report.one_thread / alone_one);
  two_ratios.push_back(*report.step_time / alone_two);
  char text[200];
  std::snprintf(text, sizeof text, "      sides: T(1) %.4f ms (%s) against %.4f ms alone (%+.1f%%), T(2) %.4f ms against %.4f ms alone (%+.1f%%)\n",
                1e3 * *report.one_thread, report.one_thread_source.c_str(), 1e3 * alone_one,
                100.0 * (one_ratios.back() - 1.0), 1e3 * *report.step_time, 1e3 * alone_two, 100.0 * (two_ratios.back() - 1.0));
  return text;
}

// --split: the first estimate's error of the round's traced run, split (outer_region_split.hpp).
void print_split(const fs::path& scratch, std::vector<augur::bench::EstimateSplit>& splits) {
  const fs::path report = scratch / "report.json", trace = scratch / "trace.json";
  if (!fs::exists(report) || !fs::exists(trace)) return;
  const auto split = augur::bench::estimate_split(nlohmann::json::parse(augur::core::read_file(report)),
                                                  nlohmann::json::parse(augur::core::read_file(trace), nullptr, false));
  fs::remove(trace);  // a later round that writes none reads none
  if (!split) {
    std::printf("      estimate split: none (no estimate, or its step boundaries not found in the timeline)\n");
    return;
  }
  splits.push_back(*split);
  std::printf("      estimate split: error %+.1f%% = selection %+.1f%% + drift %+.1f%% + tail %+.1f%% (p_all over %s)\n",
              100.0 * split->error, 100.0 * split->selection, 100.0 * split->drift, 100.0 * split->tail,
              split->stretches > 0 ? (std::to_string(split->stretches) + (split->stretches == 1 ? " whole stretch" : " whole stretches")).c_str()
                                  : "every step since the stop");
}

// With 10 rounds or more, the goals' "median of 5 runs" taken again on each group of 5 consecutive rounds: the
// median one-run S(2) of the group against the median T(1)/T(2) of its 10 pairs, and its median first-estimate
// error: how far the figure of 5 rounds moves from one group to the next on this machine.
void print_groups(const std::vector<std::optional<double>>& one_run, const std::vector<std::optional<double>>& estimate,
                  const std::vector<double>& firsts, const std::vector<double>& seconds) {
  constexpr std::size_t size = 5;
  if (one_run.size() < 2 * size) return;
  std::string speedups, estimates;
  for (std::size_t start = 0; start + size <= one_run.size(); start += size) {
    std::vector<double> runs, pairs, errors;
    for (std::size_t round = start; round < start + size; ++round) {
      if (one_run[round]) runs.push_back(*one_run[round]);
      if (estimate[round]) errors.push_back(*estimate[round]);
      pairs.insert(pairs.end(), {firsts[round], seconds[round]});
    }
    speedups += (speedups.empty() ? "" : " / ") + (runs.empty() ? std::string("none") : format("%+.1f%%", 100.0 * (median(runs) / median(pairs) - 1.0)));
    estimates += (estimates.empty() ? "" : " / ") + (errors.empty() ? std::string("none") : format("%+.1f%%", 100.0 * median(errors)));
  }
  std::printf("    groups of %zu rounds: one-run S(2) against the group's T(1)/T(2) %s; first estimate %s\n", size, speedups.c_str(),
              estimates.c_str());
}

// The program's own pace alone on `threads`: an estimate at `point` of the loop from the steps before it
// (pace_estimate_error), printed over the runs; returns its median (NaN when no run printed its pace).
double print_pace_alone(const std::vector<augur::bench::LoopPaceMarks>& paces, const char* threads, double point, bool quarter) {
  std::vector<double> errors, sizes;
  for (const augur::bench::LoopPaceMarks& pace : paces) {
    if (const auto error = augur::bench::pace_estimate_error(pace, point)) {
      errors.push_back(*error);
      sizes.push_back(std::fabs(*error));
    }
  }
  if (errors.empty()) return std::nan("");
  const std::string middle = format("%+.1f%%", 100.0 * median(errors));
  std::printf("    the pace alone on %s (its own clock: EXAMPLE_PACE=1, or NPB's progress lines stamped): an estimate at %.0f%% of the "
              "loop (%s) from the steps before it falls %s in the median (|error| %.1f%%, from %+.1f%% to %+.1f%%) of %zu runs: "
              "what the pace moves after it\n",
              threads, 100.0 * point, quarter ? "a quarter: no first estimate" : "the first estimates' median point", middle.c_str(),
              100.0 * median(sizes), 100.0 * *std::min_element(errors.begin(), errors.end()),
              100.0 * *std::max_element(errors.begin(), errors.end()), errors.size());
  return median(errors);
}

// Accuracy: interleaved rounds; returns the median traditional speedup T(1)/T(2) over all pairs.
double accuracy(const Program& program, const Settings& settings, const fs::path& scratch, Summary& summary) {
  std::vector<std::optional<double>> round_one_run, round_estimate;  // per round, for the groups of 5 rounds
  std::vector<std::pair<double, double>> intervals;  // the rounds' one-run S(2) and its +- (noise.speedup_error)
  std::vector<double> one_runs, traditionals, firsts, seconds, errors, latest_errors, one_ratios, two_ratios;
  std::vector<augur::bench::LoopPaceMarks> paces;      // the runs alone on 2 threads that printed their pace
  std::vector<augur::bench::LoopPaceMarks> paces_one;  // and on 1 thread
  std::vector<double> estimate_points;               // where the first estimates were made (fraction of the loop)
  std::vector<augur::bench::EstimateSplit> splits;
  augur::bench::PlacementRounds placements;
  std::printf("  accuracy, %d interleaved rounds of {augur run -p 2 --json; alone on 1 thread; on 2; on 2; on 1}:\n",
              settings.rounds);
  std::vector<std::string> extra;
  int idle_flagged = 0;  // idle rounds whose verdict said disturbed (false alarms, on an idle machine)
  std::map<std::string, int> idle_reasons;  // their reasons by kind (augur::bench::reason_kind)
  if (program.iterations > 0) extra = {"--iterations", std::to_string(program.iterations)};
  if (settings.split) extra.insert(extra.end(), {"--trace", (scratch / "trace.json").string()});
  for (int round = 1; round <= settings.rounds; ++round) {
    const RunReport report = augur_run(program, extra, scratch);
    const double one = alone(program, "1", &paces_one);
    augur::bench::PlacementProbe probe;
    const double two = alone(program, "2", &paces);
    placements.add(report, probe.stop(), one, two);
    const double two_again = alone(program, "2", &paces);
    const double one_again = alone(program, "1", &paces_one);
    firsts.push_back(one / two);
    seconds.push_back(one_again / two_again);
    traditionals.insert(traditionals.end(), {one / two, one_again / two_again});
    if (report.one_run) one_runs.push_back(*report.one_run);
    round_one_run.push_back(report.one_run);
    if (report.one_run && report.one_run_error) intervals.emplace_back(*report.one_run, *report.one_run_error);
    if (report.disturbed.value_or(false)) {
      ++idle_flagged;
      for (const std::string& reason : report.reasons) ++idle_reasons[augur::bench::reason_kind(reason)];
    }
    const std::size_t estimates = errors.size();
    const std::string estimate = estimate_text(report.estimated, report.estimated_at, report.elapsed, errors);
    round_estimate.push_back(errors.size() > estimates ? std::optional<double>(errors.back()) : std::nullopt);
    if (errors.size() > estimates && report.estimated_at) estimate_points.push_back(*report.estimated_at);
    const std::string latest = estimate_text(report.latest, report.latest_at, report.elapsed, latest_errors);
    std::printf(
        "    round %d: period %s, one-run S(2) %s%s, two-run S(2) %s, T(1) %.4f s, T(2) %.4f s, T(1)/T(2) %.3f, time "
        "estimate %s, latest %s; again: T(2) %.4f s, T(1) %.4f s, T(1)/T(2) %.3f\n",
        round, report.period ? std::to_string(*report.period).c_str() : "none",
        optional_text(report.one_run, "%.3f").c_str(), report.one_run_error ? format(" ± %.3f", *report.one_run_error).c_str() : "",
        optional_text(report.two_run, "%.3f").c_str(), one, two,
        one / two, estimate.c_str(), latest.c_str(), two_again, one_again, one_again / two_again);
    std::printf("%s%s", sides_text(report, program.iterations, (one + one_again) / 2.0, (two + two_again) / 2.0, one_ratios, two_ratios).c_str(), placements.last_text().c_str());
    if (report.disturbed.value_or(false)) {
      std::printf("      flagged disturbed (%s):\n", report.counters.c_str());
      for (const std::string& reason : report.reasons)
        std::printf("        [%s] %s\n", augur::bench::reason_kind(reason).c_str(), reason.c_str());
    }
    if (settings.split) print_split(scratch, splits);
    std::fflush(stdout);
  }
  const double traditional = median(traditionals);
  summary.traditional = format("%.3f", traditional);
  summary.goals.reference_split = median(seconds) / median(firsts) - 1.0;
  summary.reference_split = format("%+.1f%%", 100.0 * summary.goals.reference_split);
  std::printf("    the reference against itself: median T(1)/T(2) of the second pairs %.3f, of the first pairs %.3f: %s\n",
              median(seconds), median(firsts), summary.reference_split.c_str());
  // The program's own pace alone, on 2 threads and on 1 (the control), where the first estimates were made.
  const double point = estimate_points.empty() ? 0.25 : median(estimate_points);
  summary.goals.pace_alone = print_pace_alone(paces, "2 threads", point, estimate_points.empty());
  summary.alone = format("%+.1f%%", 100.0 * summary.goals.pace_alone);
  summary.alone_one = format("%+.1f%%", 100.0 * print_pace_alone(paces_one, "1 thread", point, estimate_points.empty()));
  if (one_runs.empty()) {
    std::printf("    no one-run speedup (no region of kind \"outer\" with S(2) in any report); median T(1)/T(2) %.3f\n",
                traditional);
    summary.one_run = summary.error = "none";
  } else {
    const double one_run = median(one_runs);
    summary.one_run = format("%.3f", one_run);
    summary.goals.speedup_error = one_run / traditional - 1.0;
    summary.error = format("%+.1f%%", 100.0 * summary.goals.speedup_error);
    std::printf(
        "    median one-run S(2) %.3f (%zu of %d rounds) against median T(1)/T(2) %.3f (%zu pairs): %s (goal: within 10%%)\n",
        one_run, one_runs.size(), settings.rounds, traditional, traditionals.size(), summary.error.c_str());
  }
  print_groups(round_one_run, round_estimate, firsts, seconds);
  if (!intervals.empty()) {
    // The run's own precision against the reference: how often S(2) +- two standard errors held it.
    int held = 0;
    std::vector<double> widths;
    for (const auto& [value, error] : intervals) {
      held += std::fabs(value - traditional) <= error ? 1 : 0;
      widths.push_back(error / value);
    }
    std::printf("    the one-run ± (two standard errors over the run's windows and blocks): median ±%.1f%%, held the median "
                "T(1)/T(2) in %d of the %zu rounds with a ±\n",
                100.0 * median(widths), held, intervals.size());
  }
  if (!splits.empty()) {
    std::vector<double> parts[4];
    for (const augur::bench::EstimateSplit& split : splits) {
      parts[0].push_back(split.error);
      parts[1].push_back(split.selection);
      parts[2].push_back(split.drift);
      parts[3].push_back(split.tail);
    }
    std::printf("    estimate split (median over %zu rounds): error %+.1f%% = selection %+.1f%% + drift %+.1f%% + tail %+.1f%%\n",
                splits.size(), 100.0 * median(parts[0]), 100.0 * median(parts[1]), 100.0 * median(parts[2]), 100.0 * median(parts[3]));
  }
  if (!one_ratios.empty())
    std::printf("    sides (median over rounds): one-run T(1) %+.1f%% of alone, one-run T(2) %+.1f%% of alone\n",
                100.0 * (median(one_ratios) - 1.0), 100.0 * (median(two_ratios) - 1.0));
  std::printf("%s", placements.summary_text().c_str());
  if (!errors.empty()) summary.goals.estimate_error = median(errors);
  summary.estimate = errors.empty() ? "none" : format("%+.1f%%", 100.0 * summary.goals.estimate_error);
  summary.latest = latest_errors.empty() ? "none" : format("%+.1f%%", 100.0 * median(latest_errors));
  summary.idle_flags = std::to_string(idle_flagged) + "/" + std::to_string(settings.rounds);
  summary.idle_kinds = augur::bench::kinds_text(idle_reasons);
  std::printf("    verdict \"disturbed\" in %s idle rounds%s\n", summary.idle_flags.c_str(),
              summary.idle_kinds.empty() ? "" : (" (reasons: " + summary.idle_kinds + ")").c_str());
  std::printf("    time estimate: %s\n", errors.empty() ? "none in any report"
                                                        : ("median error " + summary.estimate + " over " +
                                                           std::to_string(errors.size()) + " rounds (goal: within 5%)")
                                                              .c_str());
  if (!latest_errors.empty())
    std::printf("    latest estimate (re-made at every baseline window): median error %s\n", summary.latest.c_str());
  return traditional;
}

void disturbance(const Program& program, const Settings& settings, const fs::path& scratch, double expected,
                 double idle, Summary& summary) {
  int good = 0;
  std::map<std::string, int> kinds;  // the flagged runs' reasons by kind
  std::printf("  disturbance, %d runs of augur run -p 2 --json with a CPU-bound process from %.3f s (half the run):\n",
              settings.disturbed, expected / 2.0);
  for (int run = 1; run <= settings.disturbed; ++run) {
    const pid_t competitor = start_competitor(expected / 2.0);
    RunReport report;
    try {
      report = augur_run(program, {}, scratch);
    } catch (...) {
      kill(competitor, SIGKILL);
      waitpid(competitor, nullptr, 0);
      throw;
    }
    kill(competitor, SIGKILL);
    waitpid(competitor, nullptr, 0);
    const bool within = report.one_run && std::fabs(*report.one_run / idle - 1.0) <= 0.15;
    const bool flagged = report.disturbed.value_or(false);
    good += within || flagged ? 1 : 0;
    for (const std::string& reason : flagged ? report.reasons : std::vector<std::string>{}) ++kinds[augur::bench::reason_kind(reason)];
    const std::string verdict = !report.disturbed ? "no verdict"
                                : flagged         ? "disturbed: " + report.verdict
                                                  : "not disturbed";
    std::printf("    run %d: one-run S(2) %s (%s of the idle T(1)/T(2) %.3f), verdict %s -> %s\n      (%s)\n", run,
                optional_text(report.one_run, "%.3f").c_str(),
                report.one_run ? format("%+.1f%%", 100.0 * (*report.one_run / idle - 1.0)).c_str() : "-", idle,
                verdict.c_str(), within || flagged ? "within 15% or flagged" : "NEITHER", report.counters.c_str());
    std::fflush(stdout);
  }
  summary.goals.disturbed_good = good;
  summary.goals.disturbed_runs = settings.disturbed;
  summary.disturbed = std::to_string(good) + "/" + std::to_string(settings.disturbed);
  std::printf("    %d/%d runs: within 15%% or flagged (goal: all)%s\n", good, settings.disturbed,
              kinds.empty() ? "" : (" (the flags' reasons: " + augur::bench::kinds_text(kinds) + ")").c_str());
}

void measure(const Program& program, const Settings& settings, const fs::path& scratch,
             std::vector<Summary>& summaries) {
  Summary summary;
  summary.label = summary.goals.label = program.label;
  std::string command;
  for (const std::string& word : program.argv) command += (command.empty() ? "" : " ") + word;
  std::printf("== %s (%s)\n", program.label.c_str(), command.c_str());
  std::fflush(stdout);
  // The machine before the program: how far a mean over a run can fall from a median through the machine alone.
  const double seconds = settings.quick ? 0.2 : 1.0;
  summary.steadiness = augur::bench::measure_steadiness(seconds, 2);
  std::printf("%s", augur::bench::steadiness_lines(summary.steadiness, seconds).c_str());
  std::fflush(stdout);
  const double expected = stability(program, settings, scratch, summary);
  const double idle = accuracy(program, settings, scratch, summary);
  disturbance(program, settings, scratch, expected, idle, summary);
  summaries.push_back(summary);
}

// Too few steps: the report must give no speedup (neither the one-run nor the two-run one).
void minimum_iterations(const fs::path& scratch) {
  std::printf("== no report from fewer than the minimum iterations\n");
  const fs::path bin = AUGUR_BIN_DIR;
  const std::vector<std::pair<std::vector<std::string>, Program>> cases{
      {{"--dpd-window", "256"}, {"gcc cg_steps", {(bin / "cg_steps").string(), "96", "6"}, 0, {}}},
      {{}, {"gcc outer_region", {(bin / "outer_region").string(), "200000", "16"}, 0, {}}},
      {{}, {"gcc adi_sweep", {(bin / "adi_sweep").string(), "24", "12"}, 0, {}}}};
  for (const auto& [extra, program] : cases) {
    const RunReport report = augur_run(program, extra, scratch);
    const bool speedup = report.one_run.has_value() || report.two_run.has_value();
    std::printf("  %s %s %s: period %s, measured iterations %s, one-run S(2) %s, two-run S(2) %s -> %s\n",
                program.label.c_str(), program.argv[1].c_str(), program.argv[2].c_str(),
                report.period ? std::to_string(*report.period).c_str() : "none",
                report.measured ? std::to_string(*report.measured).c_str() : "-",
                optional_text(report.one_run, "%.3f").c_str(), optional_text(report.two_run, "%.3f").c_str(),
                speedup ? "A SPEEDUP WAS REPORTED" : "no speedup reported");
  }
}


}  // namespace

int main(int argc, char** argv) {
  const Settings settings = augur::bench::parse_options(argc, argv);
  try {
    const augur::core::TemporaryFolder scratch("augur-bench-outer");
    const std::vector<Program> list = augur::bench::programs(settings);
    std::string environment;
    for (const auto& [key, value] : settings.environment) environment += " " + key + "=" + value;
    std::printf("outer-region programs under augur run -p 2 (OMP_WAIT_POLICY=passive%s): %zu programs%s\n", environment.c_str(),
                list.size(), std::getenv("AUGUR_NPB_DIR") != nullptr ? "" : " (set AUGUR_NPB_DIR for NPB's SP, BT, LU, CG and MG)");
    std::vector<Summary> summaries;
    for (const Program& program : list) measure(program, settings, scratch.path(), summaries);
    minimum_iterations(scratch.path());
    print_summary(summaries);
  } catch (const std::exception& error) {
    std::fprintf(stderr, "bench_outer_region: %s\n", error.what());
    return 1;
  }
  return 0;
}
