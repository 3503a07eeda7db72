// The self-analysis report read back (augur/selfanalysis_report.hpp, docs/formats.md, "Self-analysis report"):
// parse_report and the lookups of its regions and points; render_report writes it (report.cpp).
#include "augur/selfanalysis_report.hpp"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>
#include <nlohmann/json.hpp>

#include "augur/core/diagnostics.hpp"
#include "core/json_line.hpp"

namespace augur::selfanalysis {

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
    return core::json_field_as<T>(*found, key, where, file_);
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

ReportSteps read_steps(const FieldReader& reader, const nlohmann::json& account, const char* name, const std::string& where) {
  const auto found = account.find(name);
  if (found == account.end() || !found->is_object()) reader.fail(where + ": missing object '" + name + "'");
  const std::string inside = where + "." + name;
  ReportSteps steps{reader.get<long>(*found, "steps", inside), reader.get<double>(*found, "seconds", inside)};
  if (steps.steps < 0) reader.fail(inside + ".steps: must be at least 0");
  return steps;
}

// An outer region's time_account (absent in reports written before it, null without T(P)).
void read_account(const FieldReader& reader, const nlohmann::json& entry, const std::string& region_where, ReportRegion& region) {
  const auto found = entry.find("time_account");
  if (found == entry.end() || found->is_null()) return;
  const std::string where = region_where + ".time_account";
  if (!found->is_object()) reader.fail(where + ": not an object");
  ReportTimeAccount& account = region.time_account;
  account.iterations = reader.get<long>(*found, "iterations", where);
  account.iteration_time = reader.get<double>(*found, "iteration_time_s", where);
  account.elapsed = reader.get<double>(*found, "elapsed_s", where);
  account.team = read_steps(reader, *found, "team_steps", where);
  account.tool_delay = reader.get_or<double>(found->at("team_steps"), "tool_delay_s", 0.0, where + ".team_steps");
  account.baseline = read_steps(reader, *found, "baseline_steps", where);
  account.preempted = read_steps(reader, *found, "preempted_steps", where);
  account.left_out = read_steps(reader, *found, "left_out_steps", where);
  account.not_measured = read_steps(reader, *found, "not_measured", where);
  account.known = true;
}

// The one-run analysis of an outer region (team_report.cpp writes it).
void read_outer(const FieldReader& reader, const nlohmann::json& entry, const std::string& where, ReportRegion& region) {
  region.team = reader.get<int>(entry, "team", where);
  region.measured_iterations = reader.get<long>(entry, "measured_iterations", where);
  region.iteration_time = reader.get_or<double>(entry, "iteration_time_s", 0.0, where);
  region.one_thread_time = reader.get_or<double>(entry, "one_thread_time_s", 0.0, where);
  region.one_thread_source = reader.get_or<std::string>(entry, "one_thread_source", "work", where);
  region.work_one_thread_time = reader.get_or<double>(entry, "work_one_thread_time_s", 0.0, where);
  region.baseline_steps = reader.get_or<long>(entry, "baseline_steps", 0, where);
  region.baseline_stopped = reader.get_or<bool>(entry, "baseline_stopped", false, where);
  region.spin_time = reader.get_or<double>(entry, "spin_time_s", -1.0, where);
  if (region.spin_time < 0.0 && entry.contains("spin_time_s") && !entry["spin_time_s"].is_null())
    reader.fail(where + ".spin_time_s: must be at least 0");
  region.spin_source = reader.get_or<std::string>(entry, "spin_source", "", where);
  region.estimated_at_fraction = reader.get_or<double>(entry, "estimated_at_fraction", -1.0, where);
  region.latest_estimated_time = reader.get_or<double>(entry, "latest_estimated_time_s", -1.0, where);
  region.latest_estimated_at_iteration = reader.get_or<long>(entry, "latest_estimated_at_iteration", 0, where);
  region.latest_estimated_at_fraction = reader.get_or<double>(entry, "latest_estimated_at_fraction", -1.0, where);
  const auto efficiency = entry.find("efficiency");
  if (efficiency == entry.end() || !efficiency->is_object()) reader.fail(where + ": missing object 'efficiency'");
  region.parallel_efficiency = reader.get_or<double>(*efficiency, "parallel", 0.0, where + ".efficiency");
  region.load_balance = reader.get_or<double>(*efficiency, "load_balance", 0.0, where + ".efficiency");
  region.communication = reader.get_or<double>(*efficiency, "communication", 0.0, where + ".efficiency");
  const auto placement = entry.find("placement");  // absent in reports written before it
  if (placement != entry.end() && !placement->is_null()) {
    if (!placement->is_object()) reader.fail(where + ".placement: not an object");
    region.placement_steps = reader.get<long>(*placement, "steps", where + ".placement");
    region.placement_one_cpu = reader.get<long>(*placement, "one_cpu_steps", where + ".placement");
    if (region.placement_steps < 0 || region.placement_one_cpu < 0 || region.placement_one_cpu > region.placement_steps) {
      reader.fail(where + ".placement: one_cpu_steps must be between 0 and steps");
    }
  }
  read_account(reader, entry, where, region);
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
  machine.other_cpu_load = reader.get_or<double>(*found, "other_cpu_load", -1.0, "report.machine");
  machine.cpu_window_s = reader.get_or<double>(*found, "other_cpu_window_s", -1.0, "report.machine");
  const auto source = found->find("other_cpu_source");
  if (source != found->end() && !source->is_null())
    machine.other_cpu_source = reader.get_or<std::string>(*found, "other_cpu_source", "", "report.machine");
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
        point.measured_iterations = reader.get_or<long>(item, "measured_iterations", 0, point_where);
        point.measured_time = reader.get_or<double>(item, "measured_time_s", -1.0, point_where);
        if (point.measured_iterations < 0) reader.fail(point_where + ".measured_iterations: must be at least 0");
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

