// The coupling measurement file (docs/formats.md, "Kernel coupling measurements"): JSON Lines, one
// "run" record, then its "kernel" records in loop order, "chain" records and one "application" record.
#include <cmath>
#include <limits>
#include <set>
#include <sstream>

#include "core/json_line.hpp"
#include "core/json_text.hpp"
#include "core/lines.hpp"
#include "augur/coupling.hpp"

namespace augur::coupling {

namespace {

using core::InputError;
using core::JsonLine;
using Json = nlohmann::json;

constexpr int kVersion = 1;
constexpr std::int64_t kMaxCount = std::numeric_limits<int>::max();

std::int64_t bytes_field(const Json& object, const char* key, const JsonLine& record) {
  const auto found = object.find(key);
  if (found == object.end() || found->is_null()) return 0;
  return JsonLine::integer_value(*found, std::string("machine.") + key, 0, std::numeric_limits<std::int64_t>::max(),
                                 "", record.at("machine"));
}

Timing read_timing(const JsonLine& record, bool with_repetitions) {
  Timing timing;
  timing.seconds = record.seconds_of("seconds");
  timing.ci_low = record.has("ci_low") ? record.seconds_of("ci_low") : timing.seconds;
  timing.ci_high = record.has("ci_high") ? record.seconds_of("ci_high") : timing.seconds;
  if (timing.ci_low > timing.seconds || timing.ci_high < timing.seconds) {
    throw InputError(record.at("ci_low"), "the interval [ci_low, ci_high] must contain 'seconds'");
  }
  if (record.has("samples")) {
    const Json& samples = record.field("samples");
    if (!samples.is_array()) throw InputError(record.at("samples"), "'samples' must be an array of seconds");
    for (const Json& sample : samples) {
      timing.samples.push_back(JsonLine::non_negative_value(sample, "samples", record.at("samples")));
    }
  }
  if (with_repetitions && record.has("repetitions")) {
    timing.repetitions = record.integer_of("repetitions", 1, std::numeric_limits<std::int64_t>::max());
  }
  return timing;
}

void read_header(const JsonLine& record, Run& run) {
  record.check_keys({"record", "format", "version", "application", "dataset", "problem_size", "footprint_bytes",
                     "iterations", "threads", "ranks", "started", "machine", "options"},
                    "the run record");
  if (record.string_of("format") != "augur-coupling") {
    throw InputError(record.at("format"), "not an augur coupling measurement file (format '" +
                                              record.string_of("format") + "', expected 'augur-coupling')");
  }
  const auto version = record.integer_of("version", 1, kMaxCount);
  if (version > kVersion) {
    throw InputError(record.at("version"), "version " + std::to_string(version) + " is newer than this augur reads (" +
                                               std::to_string(kVersion) + ")");
  }
  run.application = record.string_of("application");
  if (run.application.empty()) throw InputError(record.at("application"), "'application' must not be empty");
  if (record.has("dataset")) run.dataset = record.string_of("dataset");
  run.problem_size = record.seconds_of("problem_size");
  if (record.has("footprint_bytes")) run.footprint_bytes = record.seconds_of("footprint_bytes");
  // Bounds that keep N_i = iterations × calls and processors = threads × ranks far from overflow.
  run.iterations = record.integer_of("iterations", 1, std::int64_t{1} << 40);
  run.threads = static_cast<int>(record.integer_of("threads", 1, 1 << 20));
  run.ranks = record.has("ranks") ? static_cast<int>(record.integer_of("ranks", 1, 1 << 20)) : 1;
  if (record.has("started")) run.started = record.string_of("started");
  if (record.has("machine")) {
    const Json& machine = record.field("machine");
    if (!machine.is_object()) throw InputError(record.at("machine"), "'machine' must be an object");
    const auto text = [&](const char* key) {
      const auto found = machine.find(key);
      if (found == machine.end() || found->is_null()) return std::string();
      if (!found->is_string()) throw InputError(record.at("machine"), std::string("'machine.") + key + "' must be a string");
      return found->get<std::string>();
    };
    run.machine.hostname = text("hostname");
    run.machine.cpu_model = text("cpu_model");
    run.machine.cores = static_cast<int>(bytes_field(machine, "cores", record));
    run.machine.l1d_bytes = bytes_field(machine, "l1d_bytes", record);
    run.machine.l2_bytes = bytes_field(machine, "l2_bytes", record);
    run.machine.l3_bytes = bytes_field(machine, "l3_bytes", record);
    run.machine.memory_bytes = bytes_field(machine, "memory_bytes", record);
  }
  if (record.has("options")) {
    const Json& options = record.field("options");
    if (!options.is_object()) throw InputError(record.at("options"), "'options' must be an object of strings");
    for (const auto& [key, value] : options.items()) {
      if (!value.is_string()) throw InputError(record.at("options"), "option '" + key + "' must be a string");
      run.options[key] = value.get<std::string>();
    }
  }
}

}  // namespace

Run read_run(const std::string& text, const std::string& file) {
  const auto lines = core::significant_lines(text);
  if (lines.empty()) throw InputError({file, 0, 0}, "empty file: expected an augur coupling measurement file");
  Run run;
  std::set<std::vector<int>> seen;
  bool kernels_done = false;
  for (std::size_t position = 0; position < lines.size(); ++position) {
    const JsonLine record(file, lines[position]);
    const std::string kind = record.has("record") ? record.string_of("record") : std::string();
    if (position == 0) {
      if (kind != "run") throw InputError(record.at("record"), "the first record must be the \"run\" record");
      read_header(record, run);
      continue;
    }
    if (kind == "kernel") {
      record.check_keys({"record", "index", "name", "calls"}, "a kernel record");
      if (kernels_done) throw InputError(record.line_location(), "kernel records must come before chain records");
      const auto index = record.integer_of("index", 0, kMaxCount);
      if (index != static_cast<std::int64_t>(run.kernels.size())) {
        throw InputError(record.at("index"), "kernel index " + std::to_string(index) + " out of order (expected " +
                                                 std::to_string(run.kernels.size()) + ")");
      }
      Kernel kernel{record.string_of("name"), 1};
      if (kernel.name.empty()) throw InputError(record.at("name"), "a kernel's name must not be empty");
      for (const Kernel& other : run.kernels) {
        if (other.name == kernel.name) throw InputError(record.at("name"), "kernel '" + kernel.name + "' declared twice");
      }
      if (record.has("calls")) kernel.calls = static_cast<int>(record.integer_of("calls", 1, 1 << 20));
      run.kernels.push_back(kernel);
    } else if (kind == "chain") {
      record.check_keys({"record", "chain", "seconds", "ci_low", "ci_high", "repetitions", "samples"}, "a chain record");
      kernels_done = true;
      const Json& chain_json = record.field("chain");
      if (!chain_json.is_array() || chain_json.empty()) {
        throw InputError(record.at("chain"), "'chain' must be a non-empty array of kernel indices");
      }
      std::vector<int> chain;
      for (const Json& index : chain_json) {
        const auto kernel = JsonLine::integer_value(index, "chain", 0, kMaxCount, "", record.at("chain"));
        if (kernel >= static_cast<std::int64_t>(run.kernels.size())) {
          throw InputError(record.at("chain"), "kernel index " + std::to_string(kernel) + " in 'chain' is not declared (" +
                                                   std::to_string(run.kernels.size()) + " kernels)");
        }
        chain.push_back(static_cast<int>(kernel));
      }
      if (!seen.insert(chain).second) {
        throw InputError(record.at("chain"), "chain " + chain_name(run, chain) + " measured twice");
      }
      run.chains.emplace_back(chain, read_timing(record, true));
    } else if (kind == "application") {
      record.check_keys({"record", "seconds", "ci_low", "ci_high", "samples"}, "the application record");
      kernels_done = true;
      if (run.loop) throw InputError(record.line_location(), "the application's time is given twice");
      run.loop = read_timing(record, false);
    } else if (kind == "run") {
      throw InputError(record.at("record"), "a second \"run\" record (one run per file)");
    } else {
      throw InputError(record.has("record") ? record.at("record") : record.line_location(),
                       "unknown record '" + kind + "' (expected run, kernel, chain or application)");
    }
  }
  if (run.kernels.empty()) throw InputError({file, 0, 0}, "no kernel records");
  return run;
}

std::string write_run(const Run& run) {
  const auto timing_json = [](Json& record, const Timing& timing, bool with_repetitions) {
    record["seconds"] = timing.seconds;
    record["ci_low"] = timing.ci_low;
    record["ci_high"] = timing.ci_high;
    if (with_repetitions) record["repetitions"] = timing.repetitions;
    record["samples"] = timing.samples;
  };
  std::ostringstream out;
  Json header = Json::object();
  header["record"] = "run";
  header["format"] = "augur-coupling";
  header["version"] = kVersion;
  header["application"] = run.application;
  header["dataset"] = run.dataset;
  header["problem_size"] = run.problem_size;
  header["footprint_bytes"] = run.footprint_bytes;
  header["iterations"] = run.iterations;
  header["threads"] = run.threads;
  header["ranks"] = run.ranks;
  header["started"] = run.started;
  header["machine"] = {{"hostname", run.machine.hostname}, {"cpu_model", run.machine.cpu_model},
                       {"cores", run.machine.cores},       {"l1d_bytes", run.machine.l1d_bytes},
                       {"l2_bytes", run.machine.l2_bytes}, {"l3_bytes", run.machine.l3_bytes},
                       {"memory_bytes", run.machine.memory_bytes}};
  header["options"] = run.options;
  out << core::json_text(header) << '\n';
  for (std::size_t index = 0; index < run.kernels.size(); ++index) {
    const Json kernel = {{"record", "kernel"},
                         {"index", index},
                         {"name", run.kernels[index].name},
                         {"calls", run.kernels[index].calls}};
    out << core::json_text(kernel) << '\n';
  }
  for (const auto& [chain, timing] : run.chains) {
    Json record = {{"record", "chain"}, {"chain", chain}};
    timing_json(record, timing, true);
    out << core::json_text(record) << '\n';
  }
  if (run.loop) {
    Json record = {{"record", "application"}};
    timing_json(record, *run.loop, false);
    out << core::json_text(record) << '\n';
  }
  return out.str();
}

}  // namespace augur::coupling
