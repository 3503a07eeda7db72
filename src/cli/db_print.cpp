#include "db_print.hpp"

#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <optional>

#include "core/table.hpp"
#include "core/json_text.hpp"

namespace augur::cli {
namespace {

using Json = nlohmann::ordered_json;

std::string general(double value, int digits = 6) {
  if (!std::isfinite(value)) return "-";
  char text[64];
  std::snprintf(text, sizeof text, "%.*g", digits, value);
  return text;
}

// 32768 → "32 KiB"; 0 → "-".
std::string bytes_text(double bytes) {
  if (!(bytes > 0)) return "-";
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
  int unit = 0;
  while (bytes >= 1024 && unit < 5) {
    bytes /= 1024;
    ++unit;
  }
  return general(bytes, 3) + " " + units[unit];
}

Json optional_number(const std::optional<double>& value) {
  return value && std::isfinite(*value) ? Json(*value) : Json(nullptr);
}

Json finite(double value) {
  return std::isfinite(value) ? Json(value) : Json(nullptr);
}

std::string plural(std::int64_t count, const std::string& word) {
  return std::to_string(count) + " " + word + (count == 1 ? "" : "s");
}

}  // namespace

std::string render_runs(const std::vector<store::RunSummary>& runs, const std::string& location, bool json) {
  if (json) {
    Json list = Json::array();
    for (const store::RunSummary& run : runs) {
      list.push_back({{"id", run.id},
                      {"application", run.application},
                      {"dataset", run.dataset},
                      {"problem_size", finite(run.problem_size)},
                      {"footprint_bytes", finite(run.footprint_bytes)},
                      {"hostname", run.hostname},
                      {"machine_class", run.machine_class},
                      {"threads", run.threads},
                      {"ranks", run.ranks},
                      {"processors", run.processors},
                      {"iterations", run.iterations},
                      {"started", run.started},
                      {"application_seconds", optional_number(run.loop_seconds)},
                      {"measurements", run.measurements},
                      {"couplings", run.couplings},
                      {"source", run.source},
                      {"added", run.added}});
    }
    return core::json_text(list, 2) + "\n";
  }
  if (runs.empty()) return "no runs stored in " + location + "\n";
  core::TextTable table({"id", "application", "dataset", "size", "footprint", "threads", "ranks", "machine",
                         "iterations", "time (s)", "chains", "couplings", "started"});
  for (const store::RunSummary& run : runs) {
    table.add_row({std::to_string(run.id), run.application, run.dataset.empty() ? "-" : run.dataset,
                   general(run.problem_size), bytes_text(run.footprint_bytes), std::to_string(run.threads),
                   std::to_string(run.ranks), run.hostname.empty() ? "-" : run.hostname, std::to_string(run.iterations),
                   run.loop_seconds ? general(*run.loop_seconds, 5) : "-", std::to_string(run.measurements),
                   std::to_string(run.couplings), run.started.empty() ? "-" : run.started});
  }
  return table.render() + "(" + plural(static_cast<std::int64_t>(runs.size()), "run") + " in " + location +
         ")\n";
}

std::string render_machines(const std::vector<store::MachineSummary>& machines, const std::string& location, bool json) {
  if (json) {
    Json list = Json::array();
    for (const store::MachineSummary& entry : machines) {
      const coupling::Machine& machine = entry.machine;
      list.push_back({{"id", entry.id},
                      {"hostname", machine.hostname},
                      {"cpu_model", machine.cpu_model},
                      {"cores", machine.cores},
                      {"l1d_bytes", machine.l1d_bytes},
                      {"l2_bytes", machine.l2_bytes},
                      {"l3_bytes", machine.l3_bytes},
                      {"memory_bytes", machine.memory_bytes},
                      {"machine_class", entry.machine_class},
                      {"runs", entry.runs}});
    }
    return core::json_text(list, 2) + "\n";
  }
  if (machines.empty()) return "no machines stored in " + location + "\n";
  core::TextTable table({"id", "hostname", "cpu", "cores", "L1d", "L2", "L3", "memory", "runs"});
  for (const store::MachineSummary& entry : machines) {
    const coupling::Machine& machine = entry.machine;
    table.add_row({std::to_string(entry.id), machine.hostname.empty() ? "-" : machine.hostname,
                   machine.cpu_model.empty() ? "-" : machine.cpu_model,
                   machine.cores > 0 ? std::to_string(machine.cores) : "-",
                   bytes_text(static_cast<double>(machine.l1d_bytes)),
                   bytes_text(static_cast<double>(machine.l2_bytes)), bytes_text(static_cast<double>(machine.l3_bytes)),
                   bytes_text(static_cast<double>(machine.memory_bytes)), std::to_string(entry.runs)});
  }
  return table.render();
}

std::string render_applications(const std::vector<store::ApplicationSummary>& applications, const std::string& location,
                                bool json) {
  if (json) {
    Json list = Json::array();
    for (const store::ApplicationSummary& entry : applications) {
      list.push_back({{"id", entry.id},
                      {"name", entry.name},
                      {"kernels", entry.kernels},
                      {"datasets", entry.datasets},
                      {"runs", entry.runs}});
    }
    return core::json_text(list, 2) + "\n";
  }
  if (applications.empty()) return "no applications stored in " + location + "\n";
  core::TextTable table({"id", "application", "kernels", "datasets", "runs"});
  for (const store::ApplicationSummary& entry : applications) {
    table.add_row({std::to_string(entry.id), entry.name, std::to_string(entry.kernels), std::to_string(entry.datasets),
                   std::to_string(entry.runs)});
  }
  return table.render();
}

std::string render_kernels(const std::vector<store::KernelSummary>& kernels, const std::string& location, bool json) {
  if (json) {
    Json list = Json::array();
    for (const store::KernelSummary& kernel : kernels) {
      list.push_back({{"application", kernel.application},
                      {"position", kernel.position},
                      {"name", kernel.name},
                      {"calls", kernel.calls}});
    }
    return core::json_text(list, 2) + "\n";
  }
  if (kernels.empty()) return "no kernels stored in " + location + "\n";
  core::TextTable table({"application", "position", "kernel", "calls"});
  for (const store::KernelSummary& kernel : kernels) {
    table.add_row({kernel.application, std::to_string(kernel.position), kernel.name, std::to_string(kernel.calls)});
  }
  return table.render();
}

std::string render_description(const store::StoreDescription& description, bool json) {
  if (json) {
    Json out;
    out["database"] = description.location;
    out["schema_version"] = description.schema_version;
    out["known_schema_version"] = description.known_schema_version;
    Json rows = Json::object();
    for (const auto& [table, count] : description.rows) rows[table] = count;
    out["rows"] = rows;
    out["integrity"] = description.problems.empty() ? Json("ok") : Json(description.problems);
    return core::json_text(out, 2) + "\n";
  }
  const std::vector<std::string>& problems = description.problems;
  std::string text = "database        " + description.location + "\n";
  text += "schema version  " + std::to_string(description.schema_version) +
          " (this augur: " + std::to_string(description.known_schema_version) + ")\n";
  text += "integrity       " +
          (problems.empty() ? std::string("ok") : plural(static_cast<std::int64_t>(problems.size()), "problem")) + "\n";
  for (const std::string& problem : problems) text += "  " + problem + "\n";
  core::TextTable table({"table", "rows"});
  for (const auto& [name, count] : description.rows) table.add_row({name, std::to_string(count)});
  return text + "\n" + table.render();
}

std::string render_deleted(const store::RunSummary& run, const std::string& location, bool json) {
  if (json) return core::json_text(Json{{"deleted", run.id}, {"database", location}}, 2) + "\n";
  return "deleted run " + std::to_string(run.id) + " (" + run.application +
         (run.dataset.empty() ? "" : " dataset " + run.dataset) + ", " + plural(run.processors, "processor") +
         ") from " + location + "\n";
}

std::string render_added(const std::vector<std::pair<coupling::Run, std::string>>& runs,
                         const std::vector<std::string>& files, const std::vector<store::AddedRun>& added,
                         const std::string& location, bool json) {
  Json list = Json::array();
  std::string text;
  for (std::size_t index = 0; index < added.size(); ++index) {
    const coupling::Run& run = runs[index].first;
    const std::int64_t id = added[index].id;
    const std::int64_t couplings = added[index].couplings;
    list.push_back({{"id", id},
                    {"source", files[index]},
                    {"application", run.application},
                    {"dataset", run.dataset},
                    {"processors", run.processors()},
                    {"measurements", run.chains.size()},
                    {"couplings", couplings}});
    text += "stored run " + std::to_string(id) + ": " + run.application +
            (run.dataset.empty() ? "" : " dataset " + run.dataset) + ", " + plural(run.threads, "thread") +
            (run.ranks > 1 ? " x " + plural(run.ranks, "rank") : "") + ", " +
            plural(static_cast<std::int64_t>(run.chains.size()), "measurement") + ", " +
            plural(couplings, "coupling value") + " (from " + files[index] + ")\n";
  }
  if (json) return core::json_text(Json{{"database", location}, {"runs", list}}, 2) + "\n";
  return text + "in " + location + "\n";
}

}  // namespace augur::cli
