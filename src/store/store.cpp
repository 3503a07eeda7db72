// What every PerformanceStore shares: where the database lives by default, the exported tables in CSV
// and JSON, and the factory.
#include "store/store.hpp"

#include <cstdlib>
#include <nlohmann/json.hpp>

#include "augur/core/expression.hpp"
#include "core/csv.hpp"
#include "core/json_text.hpp"
#include "schema.hpp"
#include "sqlite_store.hpp"

namespace augur::store {

namespace {

std::string environment(const char* name) {
  const char* value = std::getenv(name);
  return value == nullptr ? std::string() : std::string(value);
}

using core::csv_field;

std::string csv_value(const Table::Value& value) {
  if (std::holds_alternative<std::monostate>(value)) return "";
  if (const auto* integer = std::get_if<std::int64_t>(&value)) return std::to_string(*integer);
  if (const auto* real = std::get_if<double>(&value)) return core::format_shortest(*real);
  return csv_field(std::get<std::string>(value));
}

}  // namespace

std::string default_store_path() {
  const std::string explicit_path = environment("AUGUR_DB");
  if (!explicit_path.empty()) return explicit_path;
  std::string data_home = environment("XDG_DATA_HOME");
  if (data_home.empty()) {
    const std::string home = environment("HOME");
    if (home.empty()) {
      throw StoreError(ErrorKind::CannotOpen,
                       "cannot place the performance database: neither AUGUR_DB, XDG_DATA_HOME nor HOME is "
                       "set (give the file with --db)");
    }
    data_home = home + "/.local/share";
  }
  return data_home + "/augur/performance.db";
}

int current_schema_version() {
  return sqlite::migrations().back().version;
}

const std::vector<std::string>& table_names() {
  static const std::vector<std::string> names = {"machines", "applications", "kernels",  "datasets",
                                                 "runs",     "measurements", "couplings"};
  return names;
}

std::string to_csv(const Table& table) {
  std::string text;
  for (std::size_t column = 0; column < table.columns.size(); ++column) {
    text += (column == 0 ? "" : ",") + csv_field(table.columns[column]);
  }
  text += "\r\n";
  for (const auto& row : table.rows) {
    for (std::size_t column = 0; column < row.size(); ++column)
      text += (column == 0 ? "" : ",") + csv_value(row[column]);
    text += "\r\n";
  }
  return text;
}

std::string to_json(const Table& table) {
  nlohmann::ordered_json rows = nlohmann::ordered_json::array();
  for (const auto& row : table.rows) {
    nlohmann::ordered_json object = nlohmann::ordered_json::object();
    for (std::size_t column = 0; column < row.size() && column < table.columns.size(); ++column) {
      const Table::Value& value = row[column];
      nlohmann::ordered_json& field = object[table.columns[column]];
      if (const auto* integer = std::get_if<std::int64_t>(&value)) {
        field = *integer;
      } else if (const auto* real = std::get_if<double>(&value)) {
        field = *real;
      } else if (const auto* text = std::get_if<std::string>(&value)) {
        field = *text;
        if (std::find(table.json_columns.begin(), table.json_columns.end(), table.columns[column]) !=
            table.json_columns.end()) {
          field = nlohmann::ordered_json::parse(*text, nullptr, false);
          if (field.is_discarded()) field = *text;
        }
      } else {
        field = nullptr;
      }
    }
    rows.push_back(std::move(object));
  }
  return core::json_text(rows, 2) + "\n";
}

std::unique_ptr<PerformanceStore> open_store(const std::string& path, OpenMode mode, const OpenOptions& options) {
  return sqlite::open_sqlite_store(path.empty() ? default_store_path() : path, mode, options);
}

StoreDescription describe_store(PerformanceStore& store) {
  StoreDescription description;
  description.location = store.location();
  description.schema_version = store.schema_version();
  description.known_schema_version = current_schema_version();
  description.rows = store.counts();
  description.problems = store.check_integrity();
  return description;
}

std::vector<ApplicationSummary> applications_named(PerformanceStore& store, const std::string& name) {
  std::vector<ApplicationSummary> applications = store.applications();
  if (!name.empty()) std::erase_if(applications, [&](const ApplicationSummary& entry) { return entry.name != name; });
  return applications;
}

}  // namespace augur::store
