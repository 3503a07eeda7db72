#include "augur/selfanalysis_report.hpp"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <string>
#include <type_traits>
#include <utility>
#include <nlohmann/json.hpp>

#include "augur/core/diagnostics.hpp"
#include "core/json_line.hpp"
#include "core/json_text.hpp"
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
  return json;
}

ordered_json render_machine(const MachineContext& machine) {
  if (!machine.known) return nullptr;
  ordered_json json;
  json["load_average_start"] = number_or_null(machine.load_average_start, machine.load_average_start >= 0.0);
  json["load_average_end"] = number_or_null(machine.load_average_end, machine.load_average_end >= 0.0);
  json["steal_fraction"] = number_or_null(machine.steal_fraction, machine.steal_fraction >= 0.0);
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
  const NoiseVerdict noise = judge_noise(region, context.config.noise, context.machine, context.allocated_processors);
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

std::string format(const char* pattern, double value) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, pattern, value);
  return buffer;
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
            count(region.iterations_closed, "iteration", "iterations") + " in " + format("%.3f", region.elapsed) + " s";
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
            format("%.3f", region.baseline_time * 1e3) + " ms, f=" + (f >= 0.0 ? format("%.4f", f) : std::string("unknown")) +
            ", AF(B)=" + format("%.3f", region.amdahl_factor()) + "\n";
    for (const ProcessorStats& stats : region.by_processors) {
      if (stats.state != SpeedupState::Calculated) continue;
      // On the baseline's count S(B) is AF(B), computed from f (state AF): the reference, not a measured speedup.
      const bool reference = stats.processors == region.baseline_processors;
      text += "augur:   S(" + std::to_string(stats.processors) + ")=" + format("%.3f", region.speedup(stats.processors)) +
              (reference ? " AF" : " PC");
      if (stats.self_tuning_wall > 0.0) text += "  ST'=" + format("%.3f", stats.self_tuning_speedup());
      text += "  T(p)=" + format("%.3f", stats.iteration_time * 1e3) + " ms\n";
    }
    if (region.first_estimate >= 0.0) {
      text += "augur:   estimated time on " + std::to_string(region.first_estimate_processors) + " processors " +
              format("%.3f", region.first_estimate) + " s (at iteration " + std::to_string(region.first_estimate_iteration) +
              "), elapsed " + format("%.3f", region.elapsed) + " s\n";
    }
    if (region.swept) text += "augur:   speedups from a sweep in one run (SA(1 exec)): data placement distorts them\n";
    const NoiseVerdict noise = judge_noise(region, context.config.noise, context.machine, context.allocated_processors);
    text += verdict_text(judge_verdict(verdict_input(region, noise, context.machine, context.allocated_processors)), "augur:   ");
  }
  for (const std::string& note : context.notes) text += "augur: note: " + note + "\n";
  return text;
}

const ReportPoint* ReportRegion::point(int processors) const {
  for (const ReportPoint& candidate : points) {
    if (candidate.processors == processors) return &candidate;
  }
  return nullptr;
}

const ReportRegion* Report::main_region() const {
  const ReportRegion* best = nullptr;
  for (const ReportRegion& candidate : regions) {
    if (best == nullptr || candidate.elapsed > best->elapsed) best = &candidate;
  }
  return best;
}

const ReportRegion* Report::region(std::uint64_t id) const {
  for (const ReportRegion& candidate : regions) {
    if (candidate.id == id) return &candidate;
  }
  return nullptr;
}

namespace {

// Reads a report field with a clear message when it is missing or of the wrong type.
class FieldReader {
public:
  explicit FieldReader(const std::string& file) : file_(file) {}

  template <typename T>
  T get(const nlohmann::json& object, const char* key, const std::string& where) const {
    const auto found = object.find(key);
    if (found == object.end()) fail(where + ": missing field '" + key + "'");
    if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
      if (!core::json_integer_fits<T>(*found)) {
        fail(where + ": field '" + key + "' is not a whole number from " + std::to_string(std::numeric_limits<T>::min()) +
             " to " + std::to_string(std::numeric_limits<T>::max()));
      }
    }
    try {
      return found->get<T>();
    } catch (const nlohmann::json::exception&) {
      fail(where + ": field '" + key + "' has the wrong type (" + found->type_name() + ")");
    }
  }

  template <typename T>
  T get_or(const nlohmann::json& object, const char* key, T fallback, const std::string& where) const {
    const auto found = object.find(key);
    if (found == object.end() || found->is_null()) return fallback;
    return get<T>(object, key, where);
  }

  [[noreturn]] void fail(const std::string& message) const { throw core::InputError({file_, 0, 0}, message); }

private:
  std::string file_;
};

// The one-run analysis of an outer region (team_report.cpp writes it).
void read_outer(const FieldReader& reader, const nlohmann::json& entry, const std::string& where, ReportRegion& region) {
  region.team = reader.get<int>(entry, "team", where);
  region.measured_iterations = reader.get<long>(entry, "measured_iterations", where);
  region.iteration_time = reader.get_or<double>(entry, "iteration_time_s", 0.0, where);
  region.one_thread_time = reader.get_or<double>(entry, "one_thread_time_s", 0.0, where);
  region.one_thread_source = reader.get_or<std::string>(entry, "one_thread_source", "work", where);
  region.baseline_steps = reader.get_or<long>(entry, "baseline_steps", 0, where);
  region.estimated_at_fraction = reader.get_or<double>(entry, "estimated_at_fraction", -1.0, where);
  region.latest_estimated_time = reader.get_or<double>(entry, "latest_estimated_time_s", -1.0, where);
  region.latest_estimated_at_iteration = reader.get_or<long>(entry, "latest_estimated_at_iteration", 0, where);
  region.latest_estimated_at_fraction = reader.get_or<double>(entry, "latest_estimated_at_fraction", -1.0, where);
  const auto efficiency = entry.find("efficiency");
  if (efficiency == entry.end() || !efficiency->is_object()) reader.fail(where + ": missing object 'efficiency'");
  region.parallel_efficiency = reader.get_or<double>(*efficiency, "parallel", 0.0, where + ".efficiency");
  region.load_balance = reader.get_or<double>(*efficiency, "load_balance", 0.0, where + ".efficiency");
  region.communication = reader.get_or<double>(*efficiency, "communication", 0.0, where + ".efficiency");
}

void read_interval(const FieldReader& reader, const nlohmann::json& item, const std::string& where, ReportPoint& point) {
  const auto interval = item.find("interval");
  if (interval == item.end() || interval->is_null()) return;
  if (!interval->is_array() || interval->size() != 2 || !(*interval)[0].is_number() || !(*interval)[1].is_number()) {
    reader.fail(where + ": field 'interval' is not an array of two numbers");
  }
  point.has_interval = true;
  point.interval_low = (*interval)[0].get<double>();
  point.interval_high = (*interval)[1].get<double>();
  point.median_speedup = reader.get_or<double>(item, "median_value", 0.0, where);
}

ReportNoise read_noise(const FieldReader& reader, const nlohmann::json& entry, const std::string& region_where) {
  ReportNoise noise;
  const auto found = entry.find("noise");
  if (found == entry.end() || found->is_null()) return noise;
  const std::string where = region_where + ".noise";
  if (!found->is_object()) reader.fail(where + ": not an object");
  noise.present = true;
  noise.disturbed = reader.get<bool>(*found, "disturbed", where);
  noise.meaningless = reader.get_or<bool>(*found, "meaningless", false, where);
  noise.verdict = reader.get<std::string>(*found, "verdict", where);
  noise.reasons = reader.get_or<std::vector<std::string>>(*found, "reasons", {}, where);
  noise.baseline_windows = reader.get_or<long>(*found, "baseline_windows", 0, where);
  noise.disturbed_baseline_windows = reader.get_or<long>(*found, "disturbed_baseline_windows", 0, where);
  noise.baseline_spread = reader.get_or<double>(*found, "baseline_spread", -1.0, where);
  noise.iteration_time_spread = reader.get_or<double>(*found, "iteration_time_spread", -1.0, where);
  noise.involuntary_switches = reader.get_or<long>(*found, "involuntary_switches", -1, where);
  return noise;
}

MachineContext read_machine(const FieldReader& reader, const nlohmann::json& json) {
  MachineContext machine;
  const auto found = json.find("machine");
  if (found == json.end() || found->is_null()) return machine;
  if (!found->is_object()) reader.fail("report.machine: not an object");
  machine.known = true;
  machine.available_processors = reader.get_or<int>(json, "available_processors", 0, "report");
  machine.load_average_start = reader.get_or<double>(*found, "load_average_start", -1.0, "report.machine");
  machine.load_average_end = reader.get_or<double>(*found, "load_average_end", -1.0, "report.machine");
  machine.steal_fraction = reader.get_or<double>(*found, "steal_fraction", -1.0, "report.machine");
  machine.involuntary_switches = reader.get_or<long>(*found, "involuntary_switches", -1, "report.machine");
  machine.wait_policy = reader.get_or<std::string>(*found, "wait_policy", "", "report.machine");
  return machine;
}

}  // namespace

Report parse_report(const std::string& text, const std::string& file) {
  nlohmann::json json;
  try {
    json = nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& error) {
    const std::size_t offset = error.byte > 0 ? error.byte - 1 : 0;
    std::string message = error.what();
    const auto colon = message.rfind(": ");
    throw core::InputError(core::locate_offset(file, text, offset),
                           "not a JSON augur report: " + (colon == std::string::npos ? message : message.substr(colon + 2)));
  } catch (const nlohmann::json::exception& error) {
    // A number beyond double's range ("[json.exception.out_of_range.406] number overflow parsing '1e999'").
    const std::string message = error.what();
    const auto words = message.find("] ");
    throw core::InputError({file, 0, 0}, "not a JSON augur report: " +
                                             (words == std::string::npos ? message : message.substr(words + 2)));
  }
  const FieldReader reader(file);
  if (!json.is_object()) reader.fail("not an augur report: the top level is not a JSON object");
  Report report;
  report.version = reader.get<int>(json, "augur_report", "report");
  if (report.version != report_format_version) {
    reader.fail("augur report version " + std::to_string(report.version) + " is not supported (expected " +
                std::to_string(report_format_version) + ")");
  }
  report.mode = reader.get<std::string>(json, "mode", "report");
  report.allocated_processors = reader.get<int>(json, "allocated_processors", "report");
  report.notes = reader.get_or<std::vector<std::string>>(json, "notes", {}, "report");
  report.machine = read_machine(reader, json);
  const auto regions = json.find("regions");
  if (regions == json.end() || !regions->is_array()) reader.fail("report: missing array 'regions'");
  for (std::size_t index = 0; index < regions->size(); ++index) {
    const nlohmann::json& entry = (*regions)[index];
    const std::string where = "regions[" + std::to_string(index) + "]";
    ReportRegion region;
    region.kind = reader.get_or<std::string>(entry, "kind", "loops", where);
    if (region.kind != "loops" && region.kind != "outer") reader.fail(where + ": kind '" + region.kind + "' is neither loops nor outer");
    region.id = reader.get<std::uint64_t>(entry, "id", where);
    region.length = reader.get<int>(entry, "length", where);
    region.iterations = reader.get<long>(entry, "iterations", where);
    region.expected_iterations = reader.get_or<long>(entry, "expected_iterations", -1, where);
    region.elapsed = reader.get<double>(entry, "elapsed_s", where);
    if (report.mode == "analyze") {
      region.discarded = reader.get<long>(entry, "discarded_iterations", where);
      region.baseline = reader.get_or<int>(entry, "baseline", 0, where);
      region.baseline_time = reader.get_or<double>(entry, "baseline_time_s", 0.0, where);
      region.sequential_fraction = reader.get_or<double>(entry, "f", -1.0, where);
      region.amdahl_factor = reader.get_or<double>(entry, "af", 0.0, where);
      region.estimated_time = reader.get_or<double>(entry, "estimated_time_s", -1.0, where);
      region.estimate_processors = reader.get_or<int>(entry, "estimate_processors", 0, where);
      region.estimated_at_iteration = reader.get_or<long>(entry, "estimated_at_iteration", 0, where);
      region.swept = reader.get_or<bool>(entry, "sweep", false, where);
      region.notes = reader.get_or<std::vector<std::string>>(entry, "notes", {}, where);
      region.noise = read_noise(reader, entry, where);
      const auto points = entry.find("speedup");
      if (points == entry.end() || !points->is_array()) reader.fail(where + ": missing array 'speedup'");
      for (std::size_t p = 0; p < points->size(); ++p) {
        const nlohmann::json& item = (*points)[p];
        const std::string point_where = where + ".speedup[" + std::to_string(p) + "]";
        ReportPoint point;
        point.processors = reader.get<int>(item, "p", point_where);
        const std::string state = reader.get<std::string>(item, "state", point_where);
        if (state != "PC" && state != "PNC") reader.fail(point_where + ": state '" + state + "' is neither PC nor PNC");
        point.calculated = state == "PC";
        point.speedup = reader.get_or<double>(item, "value", 0.0, point_where);
        point.mean_speedup = reader.get_or<double>(item, "mean_value", 0.0, point_where);
        point.iteration_time = reader.get_or<double>(item, "iteration_time_s", 0.0, point_where);
        point.self_tuning = reader.get_or<double>(item, "self_tuning", 0.0, point_where);
        point.measured = reader.get_or<bool>(item, "measured", true, point_where);
        point.amdahl_factor = reader.get_or<double>(item, "amdahl_factor", 0.0, point_where);
        read_interval(reader, item, point_where, point);
        region.points.push_back(point);
      }
      if (region.kind == "outer") read_outer(reader, entry, where, region);
    }
    report.regions.push_back(std::move(region));
  }
  return report;
}

}  // namespace augur::selfanalysis
