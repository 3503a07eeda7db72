#include "db_command.hpp"

#include <CLI/CLI.hpp>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <iterator>

#include "command.hpp"
#include "augur/core/diagnostics.hpp"
#include "core/files.hpp"
#include "augur/coupling.hpp"
#include "db_print.hpp"
#include "store/store.hpp"
#include "flags.hpp"

namespace augur::cli {
namespace {

std::string database_path(const DbOptions& options) {
  return options.database.empty() ? store::default_store_path() : options.database;
}

std::unique_ptr<store::PerformanceStore> open(const DbOptions& options, store::OpenMode mode) {
  store::OpenOptions open_options;
  open_options.busy_timeout_milliseconds = static_cast<int>(std::lround(options.timeout * 1000.0));
  auto database = store::open_store(database_path(options), mode, open_options);
  for (const std::string& note : database->notes()) std::fprintf(stderr, "augur db: note: %s\n", note.c_str());
  return database;
}

void emit(const std::string& text) {
  std::fputs(text.c_str(), stdout);
}

store::RunFilter filter_of(const DbOptions& options) {
  store::RunFilter filter;
  filter.application = options.application;
  filter.machine_class = options.machine_class;
  filter.dataset = options.dataset;
  filter.processors = options.processors;
  return filter;
}

int run_list(const DbOptions& options) {
  const auto database = open(options, store::OpenMode::ReadOnly);
  const std::string location = database->location();
  if (options.what == "machines") {
    emit(render_machines(database->machines(), location, options.json));
  } else if (options.what == "applications") {
    emit(render_applications(store::applications_named(*database, options.application), location, options.json));
  } else if (options.what == "kernels") {
    emit(render_kernels(database->kernels(options.application), location, options.json));
  } else {
    emit(render_runs(database->runs(filter_of(options)), location, options.json));
  }
  return 0;
}

int run_export(const DbOptions& options) {
  const bool to_file = !options.output.empty() && options.output != "-";
  if (to_file) core::refuse_output_over_inputs(options.output, {database_path(options)});
  const auto database = open(options, store::OpenMode::ReadOnly);
  const store::Table table = database->export_table(options.table);
  const std::string text = options.format == "json" ? store::to_json(table) : store::to_csv(table);
  if (!to_file) {
    emit(text);
  } else {
    core::write_file_atomically(options.output, text);
  }
  return 0;
}

int run_info(const DbOptions& options) {
  const auto database = open(options, store::OpenMode::ReadOnly);
  const store::StoreDescription description = store::describe_store(*database);
  emit(render_description(description, options.json));
  return description.problems.empty() ? 0 : 1;
}

int run_delete(const DbOptions& options) {
  const auto database = open(options, store::OpenMode::ReadWrite);
  // What is reported was read in the deleting transaction; nothing is read after it (docs/db.md).
  const std::optional<store::RunSummary> run = database->delete_run(options.run_id);
  if (!run) {
    std::fprintf(stderr, "augur db: %s: no run %lld\n", database->location().c_str(),
                 static_cast<long long>(options.run_id));
    return 1;
  }
  emit(render_deleted(*run, database->location(), options.json));
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
  // What is reported was counted in the storing transaction: once it has committed, nothing can turn the
  // add into a failure (docs/db.md).
  const std::vector<store::AddedRun> added = database->add_runs(runs);
  emit(render_added(runs, options.files, added, database->location(), options.json));
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
      ->check(finite_number())
      ->check(CLI::Range(0.0, 3600.0));
}

}  // namespace

void add_db_options(CLI::App* command, DbOptions& options) {
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
  add_json_flag(*list, options.json, "Write JSON instead of a table");
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
  add_json_flag(*info, options.json, "Write JSON instead of text");
  options.info_command = info;

  CLI::App* remove = command->add_subcommand("delete", "Delete a run with its measurements and coupling values");
  add_common(*remove, options);
  remove->add_option("RUN_ID", options.run_id, "The run's id (augur db list)")->required()->check(CLI::PositiveNumber);
  add_json_flag(*remove, options.json, "Write JSON instead of text");
  options.delete_command = remove;

  CLI::App* add = command->add_subcommand(
      "add", "Store coupling measurement files (written by the harness, docs/formats.md); all or none");
  add_common(*add, options);
  add->add_option("FILE", options.files, "Measurement files (JSON Lines); '-': standard input")->required();
  add_json_flag(*add, options.json, "Write JSON instead of text");
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

Runner declare_db_command(CLI::App& command) {
  auto options = std::make_shared<DbOptions>();
  add_db_options(&command, *options);
  return [options] { return run_db_command(*options); };
}

}  // namespace augur::cli
