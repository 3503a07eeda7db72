// The performance database: coupling runs (augur/coupling.hpp) stored with their machine, application,
// kernels, dataset, chain measurements and coupling values, so that they can be listed, exported and
// reused (isocoupling). One interface, PerformanceStore; one implementation today, an SQLite file
// (src/store/sqlite_store.cpp and its parts); a shared server database can implement the same interface
// later.
// Schema and migration policy: docs/formats.md, "Performance database"; the tool: docs/db.md.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <variant>
#include <vector>

#include "augur/coupling.hpp"

namespace augur::store {

// What went wrong, so that callers (and tests) can tell the cases apart; what() is always a full
// sentence that names the database file.
enum class ErrorKind {
  CannotOpen,    // the file or its folder cannot be created or opened
  NotFound,      // read-only open of a file that does not exist
  NotADatabase,  // the file is not an SQLite database
  NotAugur,      // an SQLite database, but not augur's performance database
  Corrupt,       // SQLite reports a malformed database image
  Locked,        // another process held a lock longer than the busy timeout
  ReadOnly,      // the file or its folder cannot be written
  Interrupted,   // a write was interrupted (a hot rollback journal) and cannot be rolled back from here
  NewerSchema,   // written by a newer augur (schema version above the one this binary knows)
  OlderSchema,   // needs a migration, but was opened read-only
  Duplicate,     // the run is already stored
  Invalid,       // a run or request that cannot be stored or answered (e.g. no such run)
  Other,
};

class StoreError : public std::runtime_error {
 public:
  StoreError(ErrorKind kind, const std::string& message) : std::runtime_error(message), kind_(kind) {}
  [[nodiscard]] ErrorKind kind() const { return kind_; }

 private:
  ErrorKind kind_;
};

enum class OpenMode {
  ReadOnly,   // never writes, except to roll back a write that a crash interrupted (a hot journal) when the
              // file and its folder can be written; the file must exist and be at the current schema version
  ReadWrite,  // creates the file (and its folders) when missing and migrates it to the current schema
};

struct OpenOptions {
  // How long to wait for another process' lock before giving up with ErrorKind::Locked.
  int busy_timeout_milliseconds = 5000;
};

// $AUGUR_DB when set and not empty, else ${XDG_DATA_HOME:-$HOME/.local/share}/augur/performance.db.
// Throws StoreError (CannotOpen) when neither AUGUR_DB, XDG_DATA_HOME nor HOME is set.
[[nodiscard]] std::string default_store_path();

// The schema version this binary writes and reads (PRAGMA user_version).
[[nodiscard]] int current_schema_version();

// A run as stored: its id in the store and where it came from.
struct StoredRun {
  std::int64_t id = 0;
  std::string source;  // the measurement file it was read from ("" when added from memory)
  std::string added;   // when it was stored, ISO 8601 UTC
  coupling::Run run;
};

// Which runs to load or list; empty / unset fields match everything.
struct RunFilter {
  std::string application;
  std::string machine_class;  // coupling::Machine::machine_class()
  std::string dataset;        // the dataset label
  std::optional<int> processors;
};

struct ApplicationSummary {
  std::int64_t id = 0;
  std::string name;
  std::int64_t kernels = 0;
  std::int64_t datasets = 0;
  std::int64_t runs = 0;
};

struct MachineSummary {
  std::int64_t id = 0;
  coupling::Machine machine;
  std::string machine_class;
  std::int64_t runs = 0;
};

struct KernelSummary {
  std::string application;
  int position = 0;  // index in the application's loop
  std::string name;
  int calls = 1;
};

struct RunSummary {
  std::int64_t id = 0;
  std::string application;
  std::string dataset;
  double problem_size = 0;
  double footprint_bytes = 0;
  std::string hostname;
  std::string machine_class;
  int threads = 1;
  int ranks = 1;
  int processors = 1;
  std::int64_t iterations = 1;
  std::string started;
  std::optional<double> loop_seconds;  // the measured application time
  std::int64_t measurements = 0;       // chains measured (kernels alone included)
  std::int64_t couplings = 0;          // coupling values stored
  std::string source;
  std::string added;
};

// A run just stored: its id and how many coupling values it got (counted in the transaction that stored it).
struct AddedRun {
  std::int64_t id = 0;
  std::int64_t couplings = 0;
};

// A table exported as it is stored (foreign keys with the names they point to).
struct Table {
  using Value = std::variant<std::monostate, std::int64_t, double, std::string>;  // monostate: NULL
  std::string name;
  std::vector<std::string> columns;
  std::vector<std::vector<Value>> rows;
  // Columns whose text is JSON (options, samples): to_json embeds their values instead of strings.
  std::vector<std::string> json_columns;
};

// The tables export_table knows: machines, applications, kernels, datasets, runs, measurements, couplings.
[[nodiscard]] const std::vector<std::string>& table_names();

// RFC 4180 CSV: a header line, then one line per row; fields with a comma, quote, line break or
// leading/trailing blank are quoted, quotes doubled; NULL is an empty field; numbers are written in
// the shortest form that reads back exactly.
[[nodiscard]] std::string to_csv(const Table& table);
// A JSON array of objects (column: value; NULL is null; the json_columns as JSON values), one object
// per row, ending in a newline.
[[nodiscard]] std::string to_json(const Table& table);

// An open store is used by one thread at a time; processes share the file safely (docs/db.md).
class PerformanceStore {
 public:
  virtual ~PerformanceStore() = default;

  // The file (or, for a server, the address) of the store.
  [[nodiscard]] virtual std::string location() const = 0;
  // What opening it did that its user should hear of (e.g. a write interrupted by a crash, rolled
  // back); empty: nothing.
  [[nodiscard]] virtual std::vector<std::string> notes() const { return {}; }
  [[nodiscard]] virtual int schema_version() = 0;

  // Stores a run with its machine, application, kernels, dataset, measurements and the coupling
  // values of every complete chain length (coupling::Run::complete_lengths()), all in one
  // transaction; returns its id. Throws StoreError: Duplicate when a run with the same application,
  // machine, dataset, threads, ranks and (non-empty) start time is stored; Invalid when the
  // application is stored with other kernels (names, order or calls) and still has runs.
  virtual std::int64_t add_run(const coupling::Run& run, const std::string& source = "") = 0;
  // Several runs in one transaction, in the order given: all are stored, or none. What it returns was
  // read inside that transaction: once it returns, the runs are stored and nothing is left to read
  // (a problem found later is not a failure of the add; docs/db.md).
  virtual std::vector<AddedRun> add_runs(const std::vector<std::pair<coupling::Run, std::string>>& runs) = 0;

  // The runs matching the filter, by id; each equal to the run that was added.
  [[nodiscard]] virtual std::vector<StoredRun> load_runs(const RunFilter& filter = {}) = 0;
  [[nodiscard]] virtual std::optional<StoredRun> load_run(std::int64_t id) = 0;

  [[nodiscard]] virtual std::vector<ApplicationSummary> applications() = 0;
  [[nodiscard]] virtual std::vector<MachineSummary> machines() = 0;
  // The kernels of one application ("" : of every application), in loop order.
  [[nodiscard]] virtual std::vector<KernelSummary> kernels(const std::string& application = "") = 0;
  [[nodiscard]] virtual std::vector<RunSummary> runs(const RunFilter& filter = {}) = 0;

  // Deletes a run with its measurements and coupling values (the machine, application, kernels and
  // dataset stay); returns the run as it was, read in the deleting transaction; nullopt when there is
  // no such run.
  virtual std::optional<RunSummary> delete_run(std::int64_t id) = 0;

  // One of table_names(); throws StoreError (Invalid) for another name.
  [[nodiscard]] virtual Table export_table(const std::string& name) = 0;
  // Rows per table, in the order of table_names().
  [[nodiscard]] virtual std::vector<std::pair<std::string, std::int64_t>> counts() = 0;
  // The problems a consistency check finds (SQLite's quick_check and the foreign keys); empty: none.
  [[nodiscard]] virtual std::vector<std::string> check_integrity() = 0;
};

// What `augur db info` shows of a store.
struct StoreDescription {
  std::string location;
  int schema_version = 0;        // the file's
  int known_schema_version = 0;  // current_schema_version(): this binary's
  std::vector<std::pair<std::string, std::int64_t>> rows;  // counts()
  std::vector<std::string> problems;                       // check_integrity(); empty: none
};
[[nodiscard]] StoreDescription describe_store(PerformanceStore& store);

// The applications named `name` (all when "").
[[nodiscard]] std::vector<ApplicationSummary> applications_named(PerformanceStore& store, const std::string& name);

// Opens (ReadWrite: creates or migrates) the performance database at `path`; "" means
// default_store_path(). Throws StoreError naming the file: never changes a file that is not augur's
// database, is corrupt, or has a newer schema.
[[nodiscard]] std::unique_ptr<PerformanceStore> open_store(const std::string& path, OpenMode mode,
                                                           const OpenOptions& options = {});

}  // namespace augur::store
