// The SQLite implementation of PerformanceStore (private to src/store): the class, and the text forms of the
// values it stores (chains "0,1", samples and options as JSON) with the pieces of SQL its queries share.
// Its parts: sqlite_store.cpp (opening, export, counts, integrity), sqlite_add.cpp (storing runs),
// sqlite_queries.cpp (loading runs, the summaries, deleting), sqlite_values.cpp (the values).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "sqlite_connection.hpp"
#include "store/store.hpp"

namespace augur::store::sqlite {

// ---- The values (sqlite_values.cpp) ----

// Now, ISO 8601 UTC.
std::string utc_now();
// "0,1,2"; parse_chain throws StoreError (Corrupt, naming `path`) on a malformed chain.
std::string chain_text(const std::vector<int>& chain);
std::vector<int> parse_chain(const std::string& text, const std::string& path);
// A JSON array (NaN as null); parse_samples throws StoreError (Corrupt) on malformed samples.
std::string samples_text(const std::vector<double>& samples);
std::vector<double> parse_samples(const std::string& text, const std::string& path);
// A JSON object; parse_options throws StoreError (Corrupt) on malformed options.
std::string options_text(const std::map<std::string, std::string>& options);
std::map<std::string, std::string> parse_options(const std::string& text, const std::string& path);
// "a, b ×2" for the messages.
std::string kernel_list(const std::vector<coupling::Kernel>& kernels);

// The WHERE clause of a RunFilter over runs r, applications a, machines m, datasets d; parameters ?1..?4.
inline constexpr const char* kRunFilter =
    " WHERE (?1 IS NULL OR a.name = ?1) AND (?2 IS NULL OR m.machine_class = ?2)"
    " AND (?3 IS NULL OR d.label = ?3) AND (?4 IS NULL OR r.processors = ?4) ";

// A machine from seven consecutive columns of a row: hostname, CPU model, cores, L1d, L2, L3, memory.
coupling::Machine read_machine(const Statement& select, int first);
// Binds a RunFilter to the parameters ?1..?4 of kRunFilter.
void bind_filter(Statement& statement, const RunFilter& filter);

// ---- The store ----

class SqliteStore final : public PerformanceStore {
 public:
  SqliteStore(const std::string& path, OpenMode mode, const OpenOptions& options);

  [[nodiscard]] std::string location() const override { return connection_->path(); }
  [[nodiscard]] int schema_version() override { return static_cast<int>(connection_->integer("PRAGMA user_version")); }
  std::int64_t add_run(const coupling::Run& run, const std::string& source) override;
  std::vector<AddedRun> add_runs(const std::vector<std::pair<coupling::Run, std::string>>& runs) override;
  [[nodiscard]] std::vector<StoredRun> load_runs(const RunFilter& filter) override;
  [[nodiscard]] std::optional<StoredRun> load_run(std::int64_t id) override;
  [[nodiscard]] std::vector<ApplicationSummary> applications() override;
  [[nodiscard]] std::vector<MachineSummary> machines() override;
  [[nodiscard]] std::vector<KernelSummary> kernels(const std::string& application) override;
  [[nodiscard]] std::vector<RunSummary> runs(const RunFilter& filter) override;
  std::optional<RunSummary> delete_run(std::int64_t id) override;
  [[nodiscard]] std::vector<std::string> notes() const override { return notes_; }
  [[nodiscard]] Table export_table(const std::string& name) override;
  [[nodiscard]] std::vector<std::pair<std::string, std::int64_t>> counts() override;
  [[nodiscard]] std::vector<std::string> check_integrity() override;

 private:
  AddedRun insert_run(const coupling::Run& run, const std::string& source);
  std::int64_t machine_id(const coupling::Machine& machine);
  std::int64_t application_id(const coupling::Run& run, const std::string& source);
  std::int64_t dataset_id(std::int64_t application, const coupling::Run& run);
  void validate(const coupling::Run& run, const std::string& source) const;
  [[nodiscard]] std::vector<StoredRun> load(const std::string& where, const RunFilter* filter, std::int64_t id);
  // The kernels of each loaded run (its application's, read once per application), then its chains.
  void load_kernels(std::vector<StoredRun>& loaded, const std::vector<std::int64_t>& applications);
  void load_measurements(std::vector<StoredRun>& loaded);
  [[nodiscard]] std::vector<RunSummary> summaries(const std::string& where, const RunFilter* filter, std::int64_t id);
  [[nodiscard]] std::string from(const std::string& source) const {
    return source.empty() ? std::string() : " from " + source;
  }

  std::unique_ptr<Connection> connection_;
  std::vector<std::string> notes_;
};

}  // namespace augur::store::sqlite
