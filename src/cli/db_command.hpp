// augur db: the performance database (docs/db.md): list what is stored, export tables as CSV or JSON,
// show the file's schema version and counts, add measurement files, delete a run.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace augur::cli {

struct DbOptions {
  std::string database;  // --db; empty: $AUGUR_DB or the default path
  double timeout = 5.0;  // --timeout: seconds to wait for another process' lock
  bool json = false;
  // list
  std::string what = "runs";  // runs, machines, applications, kernels
  std::string application;
  std::string machine_class;
  std::string dataset;
  std::optional<int> processors;
  // export
  std::string table;
  std::string format = "csv";
  std::string output;  // empty: standard output
  // delete
  std::int64_t run_id = 0;
  // add
  std::vector<std::string> files;

  // The subcommands, to tell which one was given.
  CLI::App* list_command = nullptr;
  CLI::App* export_command = nullptr;
  CLI::App* info_command = nullptr;
  CLI::App* delete_command = nullptr;
  CLI::App* add_command = nullptr;
};

// Declares the options of `augur db` on its subcommand (the table of commands.cpp makes it).
void add_db_options(CLI::App* command, DbOptions& options);
int run_db_command(const DbOptions& options);

}  // namespace augur::cli
