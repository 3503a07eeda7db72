#include "augur/selfanalysis_report.hpp"

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>
#include <utility>
#include <nlohmann/json.hpp>

#include "augur/core/diagnostics.hpp"
#include "core/json_text.hpp"
#include "core/table.hpp"
#include "selfanalysis/verdict.hpp"

namespace augur::selfanalysis {
namespace {

using ordered_json = nlohmann::ordered_json;

const char* state_name(SpeedupState state) { return state == SpeedupState::Calculated ? "PC" : "PNC"; }

template <typename Number>
ordered_json number_or_null(Number value, bool known) {
  return known ? ordered_json(value) : ordered_json(nullptr);
}

ordered_json render_noise(const NoiseVerdict& verdict) {
  if (!verdict.judged) return nullptr;
  ordered_json json;
  json["disturbed"] = verdict.disturbed;
  json["meaningless"] = verdict.meaningless;
  json["verdict"] = verdict.verdict;
  json["reasons"] = verdict.reasons;
  json["baseline_windows"] = verdict.baseline_windows;
  json["disturbed_baseline_windows"] = verdict.disturbed_baseline_windows;
  json["slowed_baseline_windows"] = verdict.slowed_baseline_windows;
  json["preempted_baseline_windows"] = verdict.preempted_baseline_windows;
  json["baseline_spread"] = number_or_null(verdict.baseline_spread, verdict.baseline_spread >= 0.0);
  json["spread_processors"] = number_or_null(verdict.spread_processors, verdict.spread_processors > 0);
  json["iteration_time_spread"] = number_or_null(verdict.iteration_time_spread, verdict.iteration_time_spread >= 0.0);
  json["measured_windows"] = verdict.measured_windows;
  json["preempted_windows"] = verdict.preempted_windows;
  json["involuntary_switches"] = number_or_null(verdict.involuntary_switches, verdict.involuntary_switches >= 0);
  json["table_outside"] = verdict.table_outside;
  return json;
}

ordered_json render_machine(const MachineContext& machine) {
  if (!machine.known) return nullptr;
  ordered_json json;
  json["load_average_start"] = number_or_null(machine.load_average_start, machine.load_average_start >= 0.0);
  json["load_average_end"] = number_or_null(machine.load_average_end, machine.load_average_end >= 0.0);
  json["steal_fraction"] = number_or_null(machine.steal_fraction, machine.steal_fraction >= 0.0);
  json["other_cpu_load"] = number_or_null(machine.other_cpu_load, machine.other_cpu_load >= 0.0);
  json["other_cpu_window_s"] = number_or_null(machine.cpu_window_s, machine.cpu_window_s >= 0.0);
  json["other_cpu_source"] = machine.other_cpu_source.empty() ? ordered_json(nullptr) : ordered_json(machine.other_cpu_source);
  json["involuntary_switches"] = number_or_null(machine.involuntary_switches, machine.involuntary_switches >= 0);
  json["wait_policy"] = machine.wait_policy;
  json["oversubscribed"] = machine.oversubscribed();
  return json;
}

ordered_json render_region(const RunContext& context, const Region& region) {
  ordered_json json;
  json["id"] = region.ipr;
  json["length"] = region.length;
  json["iterations"] = region.iterations_closed;
  json["expected_iterations"] = number_or_null(region.expected_iterations, region.expected_iterations >= 0);
  json["elapsed_s"] = region.elapsed;
  if (context.mode != "analyze") return json;
  json["entries"] = region.entries;
  json["discarded_iterations"] = region.iterations_discarded;
  json["baseline"] = number_or_null(region.baseline_processors, region.baseline_processors > 0);
  json["baseline_time_s"] = number_or_null(region.baseline_time, region.baseline_done);
  const double f = region.sequential_fraction();
  json["f"] = number_or_null(f, f >= 0.0);
  json["af"] = number_or_null(region.amdahl_factor(), region.baseline_processors > 0);
  json["estimated_time_s"] = number_or_null(region.first_estimate, region.first_estimate >= 0.0);
  json["estimate_processors"] = number_or_null(region.first_estimate_processors, region.first_estimate >= 0.0);
  json["estimated_at_iteration"] = number_or_null(region.first_estimate_iteration, region.first_estimate >= 0.0);
  json["sweep"] = region.swept;
  ordered_json points = ordered_json::array();
  for (const ProcessorStats& stats : region.by_processors) {
    if (stats.processors < 1) continue;
    const bool calculated = stats.state == SpeedupState::Calculated;
    const bool tuned = stats.self_tuning_wall > 0.0;
    if (!calculated && !tuned && stats.processors > context.allocated_processors) continue;
    ordered_json point;
    point["p"] = stats.processors;
    point["value"] = number_or_null(region.speedup(stats.processors), calculated);
    point["mean_value"] = number_or_null(region.mean_speedup(stats.processors), calculated);
    point["state"] = state_name(stats.state);
    point["iteration_time_s"] = number_or_null(stats.iteration_time, calculated);
    point["measured_iterations"] = stats.iterations;
    point["measured_time_s"] = stats.measured_time;
    point["self_tuning"] = number_or_null(stats.self_tuning_speedup(), tuned);
    point["self_tuning_efficiency"] = number_or_null(stats.self_tuning_speedup() / stats.processors, tuned);
    const SpeedupInterval interval = speedup_interval(region, stats.processors, context.config.noise);
    point["median_value"] = number_or_null(interval.median, interval.known);
    point["interval"] = interval.known ? ordered_json::array({interval.low, interval.high}) : ordered_json(nullptr);
    point["windows"] = stats.windows_log.total;
    point["spread"] = number_or_null(interval.spread, interval.known && interval.windows >= 2);
    point["involuntary_switches"] = number_or_null(interval.involuntary_switches, interval.involuntary_switches >= 0);
    points.push_back(std::move(point));
  }
  json["speedup"] = std::move(points);
  const NoiseVerdict noise = judge_noise(region, noise_thresholds(context.config), context.machine, context.allocated_processors);
  json["noise"] = render_noise(noise);
  json["verdict"] = verdict_json(judge_verdict(verdict_input(region, noise, context.machine, context.allocated_processors)));
  ordered_json notes = ordered_json::array();
  if (!region.parallel_loops_seen) {
    notes.push_back("no parallel loop was marked (augur_init_par/augur_end_par): f is unknown and AF(B) assumes f = 0");
  }
  if (region.swept) {
    notes.push_back("speedups measured in one run while changing the processors every few iterations (SA(1 exec)): "
                    "data placement distorts them; trust their trend more than their values (seed 000, section 4.1)");
  }
  if (!region.baseline_done) notes.push_back("the baseline did not complete: too few iterations for any speedup");
  if (region.entries > 1) {
    notes.push_back("the region was entered " + std::to_string(region.entries) +
                    " times: expected_iterations and estimated_time_s are for one entry");
  }
  json["notes"] = std::move(notes);
  return json;
}

std::string count(long value, const char* singular, const char* plural) {
  return std::to_string(value) + " " + (value == 1 ? singular : plural);
}

}  // namespace

std::string render_report(const RunContext& context, const std::vector<Region>& regions) {
  ordered_json json;
  json["augur_report"] = report_format_version;
  json["mode"] = context.mode;
  json["program"] = context.program;
  json["pid"] = context.process_id;
  json["allocated_processors"] = context.allocated_processors;
  json["available_processors"] = context.available_processors;
  json["wait_policy"] = context.wait_policy.empty() ? ordered_json(nullptr) : ordered_json(context.wait_policy);
  if (context.mode == "analyze") {
    ordered_json config;
    config["baseline"] = context.config.baseline.describe();
    config["warmup_iterations"] = context.config.warmup_iterations;
    config["baseline_iterations"] = context.config.baseline_iterations;
    config["measure_iterations"] = context.config.measure_iterations;
    config["history"] = context.config.history_weight;
    config["sweep"] = context.config.sweep;
    config["sweep_every"] = context.config.sweep_every;
    config["self_tuning"] = context.config.self_tuning;
    config["baseline_every"] = context.config.baseline_every;
    json["config"] = std::move(config);
  }
  json["machine"] = render_machine(context.machine);
  ordered_json list = ordered_json::array();
  for (const Region& region : regions) list.push_back(render_region(context, region));
  json["regions"] = std::move(list);
  json["notes"] = context.notes;
  return core::json_text(json, 2) + "\n";
}

std::string render_summary(const RunContext& context, const std::vector<Region>& regions) {
  std::string text;
  if (regions.empty()) return "augur: no iterative parallel region was measured\n";
  for (const Region& region : regions) {
    text += "augur: region " + std::to_string(region.ipr) + " (" + count(region.length, "loop", "loops") + "): " +
            count(region.iterations_closed, "iteration", "iterations") + " in " + core::format_value("%.3f", region.elapsed) + " s";
    if (context.mode != "analyze") {
      text += "\n";
      continue;
    }
    text += ", " + std::to_string(region.iterations_discarded) + " discarded\n";
    if (!region.baseline_done) {
      text += "augur:   the baseline did not complete: no speedup (give the region more iterations than warm-up + " +
              count(context.config.baseline_iterations, "baseline iteration", "baseline iterations") + ")\n";
      continue;
    }
    const double f = region.sequential_fraction();
    text += "augur:   baseline B=" + std::to_string(region.baseline_processors) + ": T(B)=" +
            core::format_value("%.3f", region.baseline_time * 1e3) + " ms, f=" + (f >= 0.0 ? core::format_value("%.4f", f) : std::string("unknown")) +
            ", AF(B)=" + core::format_value("%.3f", region.amdahl_factor()) + "\n";
    for (const ProcessorStats& stats : region.by_processors) {
      if (stats.state != SpeedupState::Calculated) continue;
      // On the baseline's count S(B) is AF(B), computed from f (state AF): the reference, not a measured speedup.
      const bool reference = stats.processors == region.baseline_processors;
      text += "augur:   S(" + std::to_string(stats.processors) + ")=" + core::format_value("%.3f", region.speedup(stats.processors)) +
              (reference ? " AF" : " PC");
      if (stats.self_tuning_wall > 0.0) text += "  ST'=" + core::format_value("%.3f", stats.self_tuning_speedup());
      text += "  T(p)=" + core::format_value("%.3f", stats.iteration_time * 1e3) + " ms\n";
    }
    if (region.first_estimate >= 0.0) {
      text += "augur:   estimated time on " + std::to_string(region.first_estimate_processors) + " processors " +
              core::format_value("%.3f", region.first_estimate) + " s (at iteration " + std::to_string(region.first_estimate_iteration) +
              "), elapsed " + core::format_value("%.3f", region.elapsed) + " s\n";
    }
    if (region.swept) text += "augur:   speedups from a sweep in one run (SA(1 exec)): data placement distorts them\n";
    const NoiseVerdict noise = judge_noise(region, noise_thresholds(context.config), context.machine, context.allocated_processors);
    text += verdict_text(judge_verdict(verdict_input(region, noise, context.machine, context.allocated_processors)), "augur:   ");
  }
  for (const std::string& note : context.notes) text += "augur: note: " + note + "\n";
  return text;
}

}  // namespace augur::selfanalysis
