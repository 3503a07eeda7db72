// The outer regions in the self-analysis report (team.hpp; docs/formats.md, "Self-analysis report").
#include <algorithm>
#include <nlohmann/json.hpp>
#include <string>

#include "core/json_text.hpp"
#include "core/table.hpp"
#include "selfanalysis/team_report.hpp"

namespace augur::selfanalysis {
namespace {

using ordered_json = nlohmann::ordered_json;

ordered_json known(double value, bool valid) { return valid ? ordered_json(value) : ordered_json(nullptr); }

ordered_json render_noise(const TeamSummary& summary) {
  ordered_json noise;
  noise["disturbed"] = summary.disturbed;
  noise["meaningless"] = summary.meaningless;
  noise["verdict"] = summary.verdict();
  noise["reasons"] = summary.reasons;
  noise["steps"] = summary.steps;
  noise["steps_used"] = summary.steps_used;
  noise["steps_preempted"] = summary.steps_preempted;
  noise["steps_switched_in_team"] = summary.steps_switched_in_team;
  noise["quiet_machine"] = summary.quiet_machine;
  noise["preempted_time_share"] = summary.preempted_time_share;
  noise["involuntary_switches"] = summary.switches;
  noise["iteration_time_spread"] = summary.spread;
  noise["speedup_range"] = summary.enough ? ordered_json::array({summary.speedup_low, summary.speedup_high}) : ordered_json(nullptr);
  noise["speedup_error"] = known(summary.speedup_error(), summary.speedup_error() >= 0.0);
  const SpeedupPrecision& precision = summary.precision;
  if (!summary.enough) {
    noise["precision"] = nullptr;  // not computed: too few steps for a speedup
    return noise;
  }
  ordered_json& detail = noise["precision"];
  detail["baseline_windows"] = precision.windows;
  detail["team_blocks"] = precision.blocks;
  detail["one_thread_relative_error"] = known(precision.one_thread_error, precision.one_thread_error >= 0.0);
  detail["step_time_relative_error"] = known(precision.step_time_error, precision.step_time_error >= 0.0);
  detail["speedup_relative_error"] = known(precision.relative_error, precision.relative_error >= 0.0);
  return noise;
}

// The fraction of the region's iterations that had begun when an estimate was made.
double run_fraction(const OuterRegionResult& outer, const TimeEstimate& estimate) {
  return outer.iterations > 0 ? static_cast<double>(estimate.at_iteration) / static_cast<double>(outer.iterations) : 0.0;
}

// The tool's own time (ToolTime): sums in seconds, and the master's time in the tool per barrier in microseconds.
ordered_json render_tool_time(const ToolTime& tool) {
  ordered_json json;
  json["barriers"] = tool.barriers;
  json["step_boundaries"] = tool.boundaries;
  json["master_arrival_s"] = tool.arrival_seconds;
  json["master_bookkeeping_s"] = tool.bookkeeping_seconds;
  json["master_boundary_s"] = tool.boundary_seconds;
  const double per_barrier = tool.barriers > 0 ? (tool.arrival_seconds + tool.bookkeeping_seconds) / static_cast<double>(tool.barriers) : 0.0;
  json["master_per_barrier_us"] = known(per_barrier * 1e6, tool.barriers > 0);
  json["courtesy_waits"] = tool.courtesy_waits;
  json["courtesy_ran_out"] = tool.courtesy_ran_out;
  json["courtesy_s"] = tool.courtesy_seconds;
  return json;
}

ordered_json render_steps(const StepsTime& steps) { return ordered_json{{"steps", steps.steps}, {"seconds", steps.seconds}}; }

// Where the region's time went (TeamTimeAccount), and what no measured step holds: the steps before the period
// was found, those dropped (at the windows' edges, incomplete), the time after the last step; null without T(P),
// when the region was entered again after its period was found (its steps span the entries, its time the last),
// or when more steps were measured than the region counts (a period replaced by a longer one).
ordered_json render_account(const OuterRegionResult& outer) {
  const TeamSummary& summary = outer.summary;
  const TeamTimeAccount& account = summary.account;
  const long measured = account.used.steps + account.baseline.steps + account.preempted.steps + account.left_out.steps;
  if (!summary.enough || !outer.account_whole || measured > outer.iterations) return nullptr;
  ordered_json json;
  json["iterations"] = outer.iterations;
  json["iteration_time_s"] = summary.step_time;
  json["elapsed_s"] = outer.elapsed;
  json["team_steps"] = render_steps(account.used);
  json["team_steps"]["tool_delay_s"] = account.used_tool_delay;
  json["baseline_steps"] = render_steps(account.baseline);
  json["preempted_steps"] = render_steps(account.preempted);
  json["left_out_steps"] = render_steps(account.left_out);
  const double seconds = account.used.seconds + account.baseline.seconds + account.preempted.seconds + account.left_out.seconds;
  json["not_measured"] = render_steps(StepsTime{outer.iterations - measured, outer.elapsed - seconds});
  return json;
}

ordered_json render_outer(const OuterRegionResult& outer) {
  const TeamSummary& summary = outer.summary;
  const bool valid = summary.enough;
  ordered_json json;
  json["kind"] = "outer";
  json["id"] = outer.id;
  json["length"] = outer.length;
  json["iterations"] = outer.iterations;
  json["expected_iterations"] = outer.expected_iterations >= 0 ? ordered_json(outer.expected_iterations) : ordered_json(nullptr);
  json["elapsed_s"] = outer.elapsed;
  json["entries"] = 1;
  json["discarded_iterations"] = 0;
  json["team"] = summary.team;
  json["baseline"] = nullptr;
  json["baseline_time_s"] = nullptr;
  json["measured_iterations"] = summary.steps;
  json["iteration_time_s"] = known(summary.step_time, valid);
  json["one_thread_time_s"] = known(summary.one_thread, valid);
  json["one_thread_source"] = summary.team == 1 ? "step" : summary.baseline_measured ? "baseline" : "work";
  json["baseline_steps"] = summary.baseline_steps;
  json["baseline_stopped"] = outer.baseline_stopped;
  json["work_one_thread_time_s"] = known(summary.work_one_thread, valid);
  json["spin_time_s"] = known(summary.spin, valid && outer.sees_spins);
  json["spin_source"] = valid && outer.sees_spins ? ordered_json(outer.spin_source) : ordered_json(nullptr);
  json["f"] = known(summary.f, valid && summary.f >= 0.0);
  json["af"] = known(summary.amdahl_factor(summary.team), valid);
  const TimeEstimate& first = outer.first_estimate;
  const TimeEstimate& latest = outer.latest_estimate;
  json["estimated_time_s"] = known(first.seconds, first.made());
  json["estimate_processors"] = first.made() ? ordered_json(summary.team) : ordered_json(nullptr);
  json["estimated_at_iteration"] = first.made() ? ordered_json(first.at_iteration) : ordered_json(nullptr);
  json["estimated_at_fraction"] = known(run_fraction(outer, first), first.made() && outer.iterations > 0);
  json["latest_estimated_time_s"] = known(latest.seconds, latest.made());
  json["latest_estimated_at_iteration"] = latest.made() ? ordered_json(latest.at_iteration) : ordered_json(nullptr);
  json["latest_estimated_at_fraction"] = known(run_fraction(outer, latest), latest.made() && outer.iterations > 0);
  json["sweep"] = false;
  ordered_json efficiency;
  efficiency["parallel"] = known(summary.parallel_efficiency(), valid);
  efficiency["load_balance"] = known(summary.load_balance, valid);
  efficiency["communication"] = known(summary.communication, valid);
  json["efficiency"] = std::move(efficiency);
  ordered_json points = ordered_json::array();
  if (valid) {
    for (int threads = 1; threads <= outer.predict_up_to; ++threads) {
      ordered_json point;
      point["p"] = threads;
      point["value"] = summary.predicted_speedup(threads);
      point["mean_value"] = summary.predicted_speedup(threads);
      point["state"] = "PC";
      point["measured"] = threads == summary.team;
      point["iteration_time_s"] = summary.predicted_time(threads);
      point["measured_iterations"] = threads == summary.team ? summary.steps_used : 0;
      point["amdahl_factor"] = summary.amdahl_factor(threads);
      point["self_tuning"] = nullptr;
      point["self_tuning_efficiency"] = nullptr;
      points.push_back(std::move(point));
    }
  }
  json["speedup"] = std::move(points);
  json["noise"] = render_noise(summary);
  ordered_json placement;
  placement["steps"] = outer.placement.steps;
  placement["one_cpu_steps"] = outer.placement.one_cpu;
  placement["one_cpu_fraction"] = known(outer.placement.one_cpu_fraction(), outer.placement.steps > 0);
  json["placement"] = std::move(placement);
  json["tool_time"] = render_tool_time(outer.tool);
  json["time_account"] = render_account(outer);
  ordered_json notes = ordered_json::array();
  notes.push_back(summary.team == 1
                      ? "one run: T(1) is the measured step; the other counts a model (docs/self-analysis.md, \"One outer "
                        "parallel region, in one run\")"
                  : summary.baseline_measured
                      ? "one run: T(1) is the work of baseline steps, the team's threads run one after the other; the other "
                        "counts a model (docs/self-analysis.md, \"One outer parallel region, in one run\")"
                      : "one run: T(1) is the threads' work between barriers added up (no baseline steps); the other counts "
                        "a model (docs/self-analysis.md, \"One outer parallel region, in one run\")");
  if (!valid) notes.push_back(summary.verdict());
  json["notes"] = std::move(notes);
  return json;
}

}  // namespace

void TeamPlacement::count(const int* cpus, int threads) {
  if (threads < 2) return;
  bool one = true;
  for (int thread = 0; thread < threads; ++thread) {
    if (cpus[thread] < 0) return;
    one = one && cpus[thread] == cpus[0];
  }
  ++steps;
  if (one) ++one_cpu;
}

double TeamPlacement::one_cpu_fraction() const { return steps > 0 ? static_cast<double>(one_cpu) / static_cast<double>(steps) : -1.0; }

std::string TeamSummary::verdict() const {
  std::string text = meaningless ? "measurement meaningless: " : disturbed ? "measurement disturbed: " : "measurement clean: ";
  if (disturbed) {
    for (std::size_t index = 0; index < reasons.size(); ++index) text += (index == 0 ? "" : "; ") + reasons[index];
  } else {
    text += std::to_string(steps_preempted) + " of " + std::to_string(steps) + " steps preempted";
    if (steps_switched_in_team > 0 && quiet_machine) {
      text += ", " + std::to_string(steps_switched_in_team) + " more with the team's own switches";
    } else if (steps_switched_in_team > 0) {
      text += " (" + std::to_string(steps_switched_in_team) + " of them on one core, where the switches may be the team's own)";
    }
    text += ", step times within " + core::format_value("%.0f", spread * 100.0) + "%";
    if (quiet_machine) text += ", no other process beside the run (" + core::format_value("%.2f", std::max(other_cpu_load, 0.0)) + " processors)";
  }
  if (enough && team == 1) {
    text += "; from " + std::to_string(steps_used) + " steps (one thread: no speedup to measure)";
  } else if (enough) {
    // The ± only for a clean measurement: a disturbed one errs by more than the run's own precision.
    const bool precise = speedup_error() >= 0.0 && !disturbed;
    text += "; speedup " + core::format_value("%.2f", speedup) + (precise ? " ± " + core::format_value("%.2f", speedup_error()) : std::string()) + " (" +
            (precise ? "two standard errors within this run; " : "") + core::format_value("%.2f", speedup_low) + "-" + core::format_value("%.2f", speedup_high) +
            " over the steps) from " + std::to_string(steps_used) + " steps";
  } else if (!disturbed && steps > 0) {
    text += "; no speedup: only " + std::to_string(steps_used) + (steps_used == 1 ? " usable step" : " usable steps") + " (at least " + std::to_string(min_steps) + " are needed for a speedup)";
  }
  return text;
}

std::string add_outer_regions(const std::string& report, const std::vector<OuterRegionResult>& outer) {
  if (outer.empty()) return report;
  ordered_json json = ordered_json::parse(report);
  for (const OuterRegionResult& region : outer) json["regions"].push_back(render_outer(region));
  return core::json_text(json, 2) + "\n";
}

std::string outer_summary(const OuterRegionResult& outer) {
  const TeamSummary& summary = outer.summary;
  std::string text = "augur: outer region " + std::to_string(outer.id) + " (" + std::to_string(outer.length) +
                     " worksharing constructs per iteration): " + std::to_string(outer.iterations) + " iterations in " +
                     core::format_value("%.3f", outer.elapsed) + " s\n";
  if (summary.enough) {
    if (summary.team == 1) {
      text += "augur:   one run on 1 thread: T(1)=" + core::format_value("%.3f", summary.step_time * 1e3) + " ms (the measured step; its work " +
              core::format_value("%.3f", summary.work_one_thread * 1e3) + " ms), f=" + core::format_fraction(summary.f) + ", communication " +
              core::format_value("%.3f", summary.communication) + "\n";
    } else {
      text += "augur:   one run on " + std::to_string(summary.team) + " threads: T(1)=" + core::format_value("%.3f", summary.one_thread * 1e3) +
              (summary.baseline_measured ? " ms (baseline steps), T(" : " ms (work added up), T(") + std::to_string(summary.team) + ")=" +
              core::format_value("%.3f", summary.step_time * 1e3) + " ms, S=" + core::format_value("%.3f", summary.speedup) +
              ", f=" + core::format_fraction(summary.f) + ", load balance " + core::format_value("%.3f", summary.load_balance) +
              ", communication " + core::format_value("%.3f", summary.communication) + "\n";
    }
  }
  if (outer.placement.steps > 0) {
    text += "augur:   placement: the team on one core in " + std::to_string(outer.placement.one_cpu) + " of " +
            std::to_string(outer.placement.steps) + " steps (" + core::format_value("%.0f", 100.0 * outer.placement.one_cpu_fraction()) +
            "%): the figures are for that placement\n";
  }
  const TimeEstimate& first = outer.first_estimate;
  const TimeEstimate& latest = outer.latest_estimate;
  if (first.made()) {
    text += "augur:   estimated time " + core::format_value("%.3f", first.seconds) + " s (first, at iteration " + std::to_string(first.at_iteration) +
            ", " + core::format_value("%.0f", 100.0 * run_fraction(outer, first)) + "% of the run), " + core::format_value("%.3f", latest.seconds) +
            " s (latest, at iteration " + std::to_string(latest.at_iteration) + ", " + core::format_value("%.0f", 100.0 * run_fraction(outer, latest)) +
            "%), elapsed " + core::format_value("%.3f", outer.elapsed) + " s\n";
  }
  return text + "augur:   " + summary.verdict() + "\n";
}

}  // namespace augur::selfanalysis
