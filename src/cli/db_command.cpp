#include "db_command.hpp"

#include <CLI/CLI.hpp>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <iterator>
#include <nlohmann/json.hpp>

#include "augur/core/diagnostics.hpp"
#include "core/files.hpp"
#include "core/table.hpp"
#include "augur/coupling.hpp"
#include "store/store.hpp"

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

std::string database_path(const DbOptions& options) {
  return options.database.empty() ? store::default_store_path() : options.database;
}

std::unique_ptr<store::PerformanceStore> open(const DbOptions& options, store::OpenMode mode) {
  store::OpenOptions open_options;
  open_options.busy_timeout_milliseconds = static_cast<int>(std::lround(options.timeout * 1000.0));
  return store::open_store(database_path(options), mode, open_options);
}

void emit(const std::string& text) {
  std::fputs(text.c_str(), stdout);
}

std::string plural(std::int64_t count, const std::string& word) {
  return std::to_string(count) + " " + word + (count == 1 ? "" : "s");
}

store::RunFilter filter_of(const DbOptions& options) {
  store::RunFilter filter;
  filter.application = options.application;
  filter.machine_class = options.machine_class;
  filter.dataset = options.dataset;
  filter.processors = options.processors;
  return filter;
}

std::string list_runs(store::PerformanceStore& database, const DbOptions& options) {
  const auto runs = database.runs(filter_of(options));
  if (options.json) {
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
    return list.dump(2) + "\n";
  }
  if (runs.empty()) return "no runs stored in " + database.location() + "\n";
  core::TextTable table({"id", "application", "dataset", "size", "footprint", "threads", "ranks", "machine",
                         "iterations", "time (s)", "chains", "couplings", "started"});
  for (const store::RunSummary& run : runs) {
    table.add_row({std::to_string(run.id), run.application, run.dataset.empty() ? "-" : run.dataset,
                   general(run.problem_size), bytes_text(run.footprint_bytes), std::to_string(run.threads),
                   std::to_string(run.ranks), run.hostname.empty() ? "-" : run.hostname, std::to_string(run.iterations),
                   run.loop_seconds ? general(*run.loop_seconds, 5) : "-", std::to_string(run.measurements),
                   std::to_string(run.couplings), run.started.empty() ? "-" : run.started});
  }
  return table.render() + "(" + plural(static_cast<std::int64_t>(runs.size()), "run") + " in " + database.location() +
         ")\n";
}

std::string list_machines(store::PerformanceStore& database, const DbOptions& options) {
  const auto machines = database.machines();
  if (options.json) {
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
    return list.dump(2) + "\n";
  }
  if (machines.empty()) return "no machines stored in " + database.location() + "\n";
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

std::string list_applications(store::PerformanceStore& database, const DbOptions& options) {
  auto applications = database.applications();
  if (!options.application.empty()) {
    std::erase_if(applications,
                  [&](const store::ApplicationSummary& entry) { return entry.name != options.application; });
  }
  if (options.json) {
    Json list = Json::array();
    for (const store::ApplicationSummary& entry : applications) {
      list.push_back({{"id", entry.id},
                      {"name", entry.name},
                      {"kernels", entry.kernels},
                      {"datasets", entry.datasets},
                      {"runs", entry.runs}});
    }
    return list.dump(2) + "\n";
  }
  if (applications.empty()) return "no applications stored in " + database.location() + "\n";
  core::TextTable table({"id", "application", "kernels", "datasets", "runs"});
  for (const store::ApplicationSummary& entry : applications) {
    table.add_row({std::to_string(entry.id), entry.name, std::to_string(entry.kernels), std::to_string(entry.datasets),
                   std::to_string(entry.runs)});
  }
  return table.render();
}

std::string list_kernels(store::PerformanceStore& database, const DbOptions& options) {
  const auto kernels = database.kernels(options.application);
  if (options.json) {
    Json list = Json::array();
    for (const store::KernelSummary& kernel : kernels) {
      list.push_back({{"application", kernel.application},
                      {"position", kernel.position},
                      {"name", kernel.name},
                      {"calls", kernel.calls}});
    }
    return list.dump(2) + "\n";
  }
  if (kernels.empty()) return "no kernels stored in " + database.location() + "\n";
  core::TextTable table({"application", "position", "kernel", "calls"});
  for (const store::KernelSummary& kernel : kernels) {
    table.add_row({kernel.application, std::to_string(kernel.position), kernel.name, std::to_string(kernel.calls)});
  }
  return table.render();
}

int run_list(const DbOptions& options) {
  const auto database = open(options, store::OpenMode::ReadOnly);
  if (options.what == "machines") {
    emit(list_machines(*database, options));
  } else if (options.what == "applications") {
    emit(list_applications(*database, options));
  } else if (options.what == "kernels") {
    emit(list_kernels(*database, options));
  } else {
    emit(list_runs(*database, options));
  }
  return 0;
}

int run_export(const DbOptions& options) {
  const auto database = open(options, store::OpenMode::ReadOnly);
  const store::Table table = database->export_table(options.table);
  const std::string text = options.format == "json" ? store::to_json(table) : store::to_csv(table);
  if (options.output.empty() || options.output == "-") {
    emit(text);
  } else {
    core::write_file_atomically(options.output, text);
  }
  return 0;
}

int run_info(const DbOptions& options) {
  const auto database = open(options, store::OpenMode::ReadOnly);
  const int version = database->schema_version();
  const auto counts = database->counts();
  const auto problems = database->check_integrity();
  if (options.json) {
    Json json;
    json["database"] = database->location();
    json["schema_version"] = version;
    json["known_schema_version"] = store::current_schema_version();
    Json rows = Json::object();
    for (const auto& [table, count] : counts) rows[table] = count;
    json["rows"] = rows;
    json["integrity"] = problems.empty() ? Json("ok") : Json(problems);
    emit(json.dump(2) + "\n");
  } else {
    std::string text = "database        " + database->location() + "\n";
    text += "schema version  " + std::to_string(version) +
            " (this augur: " + std::to_string(store::current_schema_version()) + ")\n";
    text += "integrity       " +
            (problems.empty() ? std::string("ok") : plural(static_cast<std::int64_t>(problems.size()), "problem")) +
            "\n";
    for (const std::string& problem : problems) text += "  " + problem + "\n";
    core::TextTable table({"table", "rows"});
    for (const auto& [name, count] : counts) table.add_row({name, std::to_string(count)});
    text += "\n" + table.render();
    emit(text);
  }
  return problems.empty() ? 0 : 1;
}

int run_delete(const DbOptions& options) {
  const auto database = open(options, store::OpenMode::ReadWrite);
  const auto run = database->load_run(options.run_id);
  if (!run || !database->delete_run(options.run_id)) {
    std::fprintf(stderr, "augur db: %s: no run %lld\n", database->location().c_str(),
                 static_cast<long long>(options.run_id));
    return 1;
  }
  if (options.json) {
    emit(Json{{"deleted", options.run_id}, {"database", database->location()}}.dump(2) + "\n");
  } else {
    emit("deleted run " + std::to_string(options.run_id) + " (" + run->run.application +
         (run->run.dataset.empty() ? "" : " dataset " + run->run.dataset) + ", " +
         plural(run->run.processors(), "processor") + ") from " + database->location() + "\n");
  }
  return 0;
}

int run_add(const DbOptions& options) {
  // Every file is read before anything is stored: a bad file stores nothing.
  std::vector<std::pair<coupling::Run, std::string>> runs;
  for (const std::string& file : options.files) {
    std::string text;
    std::string name = file;
    std::string source;
    if (file == "-") {
      text.assign(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
      name = "<stdin>";
    } else {
      text = core::read_file(file);
      std::error_code error;
      const std::filesystem::path absolute = std::filesystem::absolute(file, error);
      source = error ? file : absolute.lexically_normal().string();
    }
    runs.emplace_back(coupling::read_run(text, name), source);
  }
  const auto database = open(options, store::OpenMode::ReadWrite);
  const std::vector<std::int64_t> ids = database->add_runs(runs);
  const auto summaries = database->runs();
  Json list = Json::array();
  std::string text;
  for (std::size_t index = 0; index < ids.size(); ++index) {
    const coupling::Run& run = runs[index].first;
    std::int64_t couplings = 0;
    for (const store::RunSummary& summary : summaries) {
      if (summary.id == ids[index]) couplings = summary.couplings;
    }
    list.push_back({{"id", ids[index]},
                    {"source", options.files[index]},
                    {"application", run.application},
                    {"dataset", run.dataset},
                    {"processors", run.processors()},
                    {"measurements", run.chains.size()},
                    {"couplings", couplings}});
    text += "stored run " + std::to_string(ids[index]) + ": " + run.application +
            (run.dataset.empty() ? "" : " dataset " + run.dataset) + ", " + plural(run.threads, "thread") +
            (run.ranks > 1 ? " x " + plural(run.ranks, "rank") : "") + ", " +
            plural(static_cast<std::int64_t>(run.chains.size()), "measurement") + ", " +
            plural(couplings, "coupling value") + " (from " + options.files[index] + ")\n";
  }
  if (options.json) {
    emit(Json{{"database", database->location()}, {"runs", list}}.dump(2) + "\n");
  } else {
    emit(text + "in " + database->location() + "\n");
  }
  return 0;
}

void add_common(CLI::App& command, DbOptions& options) {
  command
      .add_option("--db", options.database,
                  "The performance database (default: $AUGUR_DB, else "
                  "${XDG_DATA_HOME:-$HOME/.local/share}/augur/performance.db)")
      ->type_name("FILE");
  command
      .add_option("--timeout", options.timeout,
                  "Seconds to wait for another process that holds the database's lock (default 5)")
      ->type_name("SECONDS")
      ->check(CLI::Range(0.0, 3600.0));
}

}  // namespace

CLI::App* add_db_command(CLI::App& app, DbOptions& options) {
  CLI::App* command = app.add_subcommand(
      "db", "The performance database: list, export, add and delete the stored coupling runs (docs/db.md).");
  command->require_subcommand(1);

  CLI::App* list = command->add_subcommand("list", "List the stored runs, machines, applications or kernels");
  add_common(*list, options);
  list->add_option("WHAT", options.what, "runs (default), machines, applications or kernels")
      ->check(CLI::IsMember({"runs", "machines", "applications", "kernels"}));
  list->add_option("--application", options.application, "Only this application")->type_name("NAME");
  list->add_option("--machine-class", options.machine_class, "Only runs on machines of this class (runs)")
      ->type_name("CLASS");
  list->add_option("--dataset", options.dataset, "Only runs of this dataset label (runs)")->type_name("LABEL");
  list->add_option("--processors", options.processors, "Only runs on this many processors, threads x ranks (runs)")
      ->type_name("P")
      ->check(CLI::PositiveNumber);
  list->add_flag("--json", options.json, "Write JSON instead of a table");
  options.list_command = list;

  CLI::App* exporter = command->add_subcommand("export", "Export a table as CSV or JSON");
  add_common(*exporter, options);
  exporter->add_option("--table", options.table, "The table")
      ->required()
      ->check(CLI::IsMember(store::table_names()))
      ->type_name("TABLE");
  exporter->add_option("--format", options.format, "csv (default) or json")->check(CLI::IsMember({"csv", "json"}));
  exporter->add_option("-o,--output", options.output, "Write to this file (whole or not at all) instead of stdout")
      ->type_name("FILE");
  options.export_command = exporter;

  CLI::App* info = command->add_subcommand("info", "The database's file, schema version, rows per table and integrity");
  add_common(*info, options);
  info->add_flag("--json", options.json, "Write JSON instead of text");
  options.info_command = info;

  CLI::App* remove = command->add_subcommand("delete", "Delete a run with its measurements and coupling values");
  add_common(*remove, options);
  remove->add_option("RUN_ID", options.run_id, "The run's id (augur db list)")->required()->check(CLI::PositiveNumber);
  remove->add_flag("--json", options.json, "Write JSON instead of text");
  options.delete_command = remove;

  CLI::App* add = command->add_subcommand(
      "add", "Store coupling measurement files (written by the harness, docs/formats.md); all or none");
  add_common(*add, options);
  add->add_option("FILE", options.files, "Measurement files (JSON Lines); '-': standard input")->required();
  add->add_flag("--json", options.json, "Write JSON instead of text");
  options.add_command = add;

  command->footer(
      "Examples:\n"
      "  augur db add sp-24.coupling.jsonl sp-36.coupling.jsonl   store two runs\n"
      "  augur db list                                            the stored runs\n"
      "  augur db list kernels --application sp                   an application's kernels\n"
      "  augur db export --table couplings --format csv -o c.csv  the coupling values\n"
      "  augur db info --db perf.db                               schema version, rows, integrity\n"
      "  augur db delete 3                                        forget run 3\n"
      "Guide: docs/db.md; schema: docs/formats.md");
  return command;
}

int run_db_command(const DbOptions& options) {
  try {
    if (options.list_command != nullptr && options.list_command->parsed()) return run_list(options);
    if (options.export_command != nullptr && options.export_command->parsed()) return run_export(options);
    if (options.info_command != nullptr && options.info_command->parsed()) return run_info(options);
    if (options.delete_command != nullptr && options.delete_command->parsed()) return run_delete(options);
    if (options.add_command != nullptr && options.add_command->parsed()) return run_add(options);
    return 2;
  } catch (const core::InputError& error) {
    std::fprintf(stderr, "%s\n", error.what());
    return 1;
  } catch (const std::exception& error) {
    std::fprintf(stderr, "augur db: %s\n", error.what());
    return 1;
  }
}

}  // namespace augur::cli
