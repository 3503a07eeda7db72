// The SQLite implementation of PerformanceStore: one file, WAL mode, foreign keys on, schema versioned
// with PRAGMA user_version and migrated in one transaction (schema.cpp). This file: opening the store,
// exporting its tables, counting their rows and checking its integrity; storing runs is sqlite_add.cpp,
// reading them sqlite_queries.cpp, the stored forms of values sqlite_values.cpp.
#include "sqlite_store.hpp"

#include <map>

#include "sqlite_open.hpp"
#include "sqlite_store_internal.hpp"

namespace augur::store::sqlite {

SqliteStore::SqliteStore(const std::string& path, OpenMode mode, const OpenOptions& options) {
  OpenedDatabase opened = open_database(path, mode, options);
  connection_ = std::move(opened.connection);
  notes_ = std::move(opened.notes);
}

namespace {

// The query of each exportable table: its columns, foreign keys followed by the names they point to.
const std::map<std::string, std::string>& export_queries() {
  static const std::map<std::string, std::string> queries = {
      {"machines",
       "SELECT id, hostname, cpu_model, cores, l1d_bytes, l2_bytes, l3_bytes, memory_bytes, machine_class FROM "
       "machines "
       "ORDER BY id"},
      {"applications", "SELECT id, name FROM applications ORDER BY id"},
      {"kernels",
       "SELECT k.id, k.application_id, a.name AS application, k.position, k.name, k.calls FROM kernels k JOIN "
       "applications a ON a.id = k.application_id ORDER BY a.id, k.position"},
      {"datasets",
       "SELECT d.id, d.application_id, a.name AS application, d.label, d.problem_size, d.footprint_bytes FROM datasets "
       "d "
       "JOIN applications a ON a.id = d.application_id ORDER BY d.id"},
      {"runs",
       "SELECT r.id, r.application_id, a.name AS application, r.machine_id, m.hostname, m.machine_class, r.dataset_id, "
       "d.label AS dataset, d.problem_size, d.footprint_bytes, r.threads, r.ranks, r.processors, r.iterations, "
       "r.started, r.options, r.application_seconds, r.application_ci_low, r.application_ci_high, "
       "r.application_repetitions, r.application_samples, r.source, r.added FROM runs r JOIN applications a ON a.id = "
       "r.application_id JOIN machines m ON m.id = r.machine_id JOIN datasets d ON d.id = r.dataset_id ORDER BY r.id"},
      {"measurements",
       "SELECT x.id, x.run_id, x.position, x.chain, (SELECT group_concat(name, '→') FROM (SELECT k.name FROM json_each("
       "'[' || x.chain || ']') j JOIN kernels k ON k.application_id = r.application_id AND k.position = j.value "
       "ORDER BY j.key)) AS kernels, x.length, x.seconds, x.ci_low, x.ci_high, x.repetitions, x.samples FROM "
       "measurements x JOIN runs r ON r.id = x.run_id ORDER BY x.run_id, x.position"},
      {"couplings",
       "SELECT c.id, c.run_id, c.chain, (SELECT group_concat(name, '→') FROM (SELECT k.name FROM json_each("
       "'[' || c.chain || ']') j JOIN kernels k ON k.application_id = r.application_id AND k.position = j.value "
       "ORDER BY j.key)) AS kernels, c.length, c.value, c.chain_seconds, c.sum_alone_seconds FROM couplings c JOIN "
       "runs r ON r.id = c.run_id ORDER BY c.run_id, c.length, c.id"},
  };
  return queries;
}

}  // namespace

Table SqliteStore::export_table(const std::string& name) {
  const auto& queries = export_queries();
  const auto query = queries.find(name);
  if (query == queries.end()) {
    std::string known;
    for (const std::string& table : table_names()) known += (known.empty() ? "" : ", ") + table;
    throw StoreError(ErrorKind::Invalid, location() + ": no table '" + name + "' (tables: " + known + ")");
  }
  Table table;
  table.name = name;
  table.json_columns = {"options", "samples", "application_samples"};
  Statement select(*connection_, query->second);
  for (int column = 0; column < select.columns(); ++column) table.columns.push_back(select.column_name(column));
  while (select.step()) {
    std::vector<Table::Value> row;
    for (int column = 0; column < select.columns(); ++column) {
      switch (select.type(column)) {
        case SQLITE_NULL:
          row.emplace_back(std::monostate{});
          break;
        case SQLITE_INTEGER:
          row.emplace_back(select.integer(column));
          break;
        case SQLITE_FLOAT:
          row.emplace_back(select.real(column));
          break;
        default:
          row.emplace_back(select.text(column));
          break;
      }
    }
    table.rows.push_back(std::move(row));
  }
  return table;
}

std::vector<std::pair<std::string, std::int64_t>> SqliteStore::counts() {
  std::vector<std::pair<std::string, std::int64_t>> list;
  const ReadSnapshot snapshot(*connection_);
  for (const std::string& table : table_names()) {
    list.emplace_back(table, connection_->integer("SELECT count(*) FROM " + table));
  }
  return list;
}

std::vector<std::string> SqliteStore::check_integrity() {
  std::vector<std::string> problems;
  {
    Statement check(*connection_, "PRAGMA quick_check");
    while (check.step()) {
      const std::string line = check.text(0);
      if (line != "ok") problems.push_back(line);
    }
  }
  Statement keys(*connection_, "PRAGMA foreign_key_check");
  while (keys.step()) {
    problems.push_back("row " + std::to_string(keys.integer(1)) + " of " + keys.text(0) +
                       " refers to a missing row of " + keys.text(2));
  }
  return problems;
}

std::unique_ptr<PerformanceStore> open_sqlite_store(const std::string& path, OpenMode mode,
                                                    const OpenOptions& options) {
  return std::make_unique<SqliteStore>(path, mode, options);
}

}  // namespace augur::store::sqlite
