// The SQLite implementation of PerformanceStore: one file, WAL mode, foreign keys on, schema versioned
// with PRAGMA user_version and migrated in one transaction (schema.cpp).
#include "sqlite_store.hpp"

#include <ctime>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <stdexcept>

#include "schema.hpp"
#include "sqlite_connection.hpp"
#include "core/json_text.hpp"
#include "sqlite_open.hpp"

namespace augur::store::sqlite {

namespace {

using Json = nlohmann::json;

std::string utc_now() {
  const std::time_t now = std::time(nullptr);
  std::tm parts{};
  gmtime_r(&now, &parts);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &parts);
  return text;
}

std::string chain_text(const std::vector<int>& chain) {
  std::string text;
  for (const int kernel : chain) text += (text.empty() ? "" : ",") + std::to_string(kernel);
  return text;
}

std::vector<int> parse_chain(const std::string& text, const std::string& path) {
  std::vector<int> chain;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t comma = std::min(text.find(',', start), text.size());
    const std::string part = text.substr(start, comma - start);
    try {
      std::size_t used = 0;
      const int value = std::stoi(part, &used);
      if (used != part.size() || value < 0) throw std::invalid_argument(part);
      chain.push_back(value);
    } catch (const std::exception&) {
      throw StoreError(ErrorKind::Corrupt, path + ": the database holds a malformed chain '" + text + "'");
    }
    start = comma + 1;
  }
  return chain;
}

std::string samples_text(const std::vector<double>& samples) {
  return core::json_text(Json(samples));
}

std::vector<double> parse_samples(const std::string& text, const std::string& path) {
  std::vector<double> samples;
  try {
    const Json json = Json::parse(text);
    for (const Json& value : json) samples.push_back(value.is_null() ? std::nan("") : value.get<double>());
  } catch (const std::exception&) {
    throw StoreError(ErrorKind::Corrupt, path + ": the database holds malformed samples '" + text + "'");
  }
  return samples;
}

std::string options_text(const std::map<std::string, std::string>& options) {
  return core::json_text(Json(options));
}

std::map<std::string, std::string> parse_options(const std::string& text, const std::string& path) {
  try {
    return Json::parse(text).get<std::map<std::string, std::string>>();
  } catch (const std::exception&) {
    throw StoreError(ErrorKind::Corrupt, path + ": the database holds malformed options '" + text + "'");
  }
}

std::string kernel_list(const std::vector<coupling::Kernel>& kernels) {
  std::string text;
  for (const coupling::Kernel& kernel : kernels) {
    text += (text.empty() ? "" : ", ") + kernel.name;
    if (kernel.calls != 1) text += " ×" + std::to_string(kernel.calls);
  }
  return text;
}

// The WHERE clause of a RunFilter over runs r, applications a, machines m, datasets d; parameters ?1..?4.
constexpr const char* kRunFilter =
    " WHERE (?1 IS NULL OR a.name = ?1) AND (?2 IS NULL OR m.machine_class = ?2)"
    " AND (?3 IS NULL OR d.label = ?3) AND (?4 IS NULL OR r.processors = ?4) ";

// A machine from seven consecutive columns of a row: hostname, CPU model, cores, L1d, L2, L3, memory.
coupling::Machine read_machine(const Statement& select, int first) {
  coupling::Machine machine;
  machine.hostname = select.text(first);
  machine.cpu_model = select.text(first + 1);
  machine.cores = static_cast<int>(select.integer(first + 2));
  machine.l1d_bytes = select.integer(first + 3);
  machine.l2_bytes = select.integer(first + 4);
  machine.l3_bytes = select.integer(first + 5);
  machine.memory_bytes = select.integer(first + 6);
  return machine;
}

void bind_filter(Statement& statement, const RunFilter& filter) {
  const auto text = [&](int index, const std::string& value) {
    if (value.empty()) {
      statement.bind_null(index);
    } else {
      statement.bind(index, value);
    }
  };
  text(1, filter.application);
  text(2, filter.machine_class);
  text(3, filter.dataset);
  if (filter.processors) {
    statement.bind(4, *filter.processors);
  } else {
    statement.bind_null(4);
  }
}

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
  [[nodiscard]] std::vector<RunSummary> summaries(const std::string& where, const RunFilter* filter, std::int64_t id);
  [[nodiscard]] std::string from(const std::string& source) const {
    return source.empty() ? std::string() : " from " + source;
  }

  std::unique_ptr<Connection> connection_;
  std::vector<std::string> notes_;
};

SqliteStore::SqliteStore(const std::string& path, OpenMode mode, const OpenOptions& options) {
  OpenedDatabase opened = open_database(path, mode, options);
  connection_ = std::move(opened.connection);
  notes_ = std::move(opened.notes);
}

void SqliteStore::validate(const coupling::Run& run, const std::string& source) const {
  const auto invalid = [&](const std::string& message) {
    throw StoreError(ErrorKind::Invalid, location() + ": cannot store the run" + from(source) + ": " + message);
  };
  if (run.application.empty()) invalid("it names no application");
  if (run.kernels.empty()) invalid("it has no kernels");
  if (run.threads < 1 || run.ranks < 1) invalid("threads and ranks must be at least 1");
  if (run.iterations < 1) invalid("iterations must be at least 1");
  for (const coupling::Kernel& kernel : run.kernels) {
    if (kernel.calls < 1) invalid("kernel '" + kernel.name + "' has calls < 1");
  }
  const int n = static_cast<int>(run.kernels.size());
  std::set<std::vector<int>> seen;
  for (const auto& [chain, timing] : run.chains) {
    if (chain.empty()) invalid("an empty chain");
    if (!seen.insert(chain).second) invalid("chain " + chain_text(chain) + " is measured twice");
    for (const int kernel : chain) {
      if (kernel < 0 || kernel >= n)
        invalid("chain " + chain_text(chain) + " names a kernel outside 0.." + std::to_string(n - 1));
    }
    if (timing.repetitions < 1) invalid("chain " + chain_text(chain) + " has repetitions < 1");
  }
}

std::int64_t SqliteStore::machine_id(const coupling::Machine& machine) {
  Statement find(*connection_,
                 "SELECT id FROM machines WHERE hostname = ?1 AND cpu_model = ?2 AND cores = ?3 AND l1d_bytes = ?4 "
                 "AND l2_bytes = ?5 AND l3_bytes = ?6 AND memory_bytes = ?7");
  find.bind(1, machine.hostname).bind(2, machine.cpu_model).bind(3, machine.cores).bind(4, machine.l1d_bytes);
  find.bind(5, machine.l2_bytes).bind(6, machine.l3_bytes).bind(7, machine.memory_bytes);
  if (find.step()) return find.integer(0);
  Statement insert(*connection_,
                   "INSERT INTO machines (hostname, cpu_model, cores, l1d_bytes, l2_bytes, l3_bytes, memory_bytes, "
                   "machine_class) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)");
  insert.bind(1, machine.hostname).bind(2, machine.cpu_model).bind(3, machine.cores).bind(4, machine.l1d_bytes);
  insert.bind(5, machine.l2_bytes).bind(6, machine.l3_bytes).bind(7, machine.memory_bytes);
  insert.bind(8, machine.machine_class());
  insert.run();
  return connection_->last_insert_id();
}

std::int64_t SqliteStore::application_id(const coupling::Run& run, const std::string& source) {
  std::int64_t id = 0;
  {
    Statement find(*connection_, "SELECT id FROM applications WHERE name = ?1");
    find.bind(1, run.application);
    if (find.step()) id = find.integer(0);
  }
  const auto insert_kernels = [&] {
    Statement insert(*connection_,
                     "INSERT INTO kernels (application_id, position, name, calls) VALUES (?1, ?2, ?3, ?4)");
    for (std::size_t position = 0; position < run.kernels.size(); ++position) {
      insert.reset();
      insert.bind(1, id).bind(2, static_cast<std::int64_t>(position)).bind(3, run.kernels[position].name);
      insert.bind(4, run.kernels[position].calls);
      insert.run();
    }
  };
  if (id == 0) {
    Statement insert(*connection_, "INSERT INTO applications (name) VALUES (?1)");
    insert.bind(1, run.application);
    insert.run();
    id = connection_->last_insert_id();
    insert_kernels();
    return id;
  }
  std::vector<coupling::Kernel> stored;
  {
    Statement find(*connection_, "SELECT name, calls FROM kernels WHERE application_id = ?1 ORDER BY position");
    find.bind(1, id);
    while (find.step()) stored.push_back({find.text(0), static_cast<int>(find.integer(1))});
  }
  bool same = stored.size() == run.kernels.size();
  for (std::size_t index = 0; same && index < stored.size(); ++index) {
    same = stored[index].name == run.kernels[index].name && stored[index].calls == run.kernels[index].calls;
  }
  if (same) return id;
  Statement count(*connection_, "SELECT count(*) FROM runs WHERE application_id = ?1");
  count.bind(1, id);
  count.step();
  if (count.integer(0) > 0) {
    throw StoreError(ErrorKind::Invalid,
                     location() + ": cannot store the run" + from(source) + ": application '" + run.application +
                         "' is stored with the kernels " + kernel_list(stored) + ", the run has " +
                         kernel_list(run.kernels) + " (store it under another application name, or delete the " +
                         std::to_string(count.integer(0)) + " stored runs of '" + run.application + "' first)");
  }
  // No run uses the old declaration: the application's kernels become the run's.
  Statement remove(*connection_, "DELETE FROM kernels WHERE application_id = ?1");
  remove.bind(1, id);
  remove.run();
  insert_kernels();
  return id;
}

std::int64_t SqliteStore::dataset_id(std::int64_t application, const coupling::Run& run) {
  Statement find(*connection_,
                 "SELECT id FROM datasets WHERE application_id = ?1 AND label = ?2 AND problem_size = ?3 AND "
                 "footprint_bytes = ?4");
  find.bind(1, application).bind(2, run.dataset).bind(3, run.problem_size).bind(4, run.footprint_bytes);
  if (find.step()) return find.integer(0);
  Statement insert(
      *connection_,
      "INSERT INTO datasets (application_id, label, problem_size, footprint_bytes) VALUES (?1, ?2, ?3, ?4)");
  insert.bind(1, application).bind(2, run.dataset).bind(3, run.problem_size).bind(4, run.footprint_bytes);
  insert.run();
  return connection_->last_insert_id();
}

AddedRun SqliteStore::insert_run(const coupling::Run& run, const std::string& source) {
  validate(run, source);
  const std::int64_t machine = machine_id(run.machine);
  const std::int64_t application = application_id(run, source);
  const std::int64_t dataset = dataset_id(application, run);
  if (!run.started.empty()) {
    Statement duplicate(*connection_,
                        "SELECT id FROM runs WHERE application_id = ?1 AND machine_id = ?2 AND dataset_id = ?3 AND "
                        "threads = ?4 AND ranks = ?5 AND started = ?6");
    duplicate.bind(1, application).bind(2, machine).bind(3, dataset).bind(4, run.threads).bind(5, run.ranks);
    duplicate.bind(6, run.started);
    if (duplicate.step()) {
      throw StoreError(ErrorKind::Duplicate, location() + ": the run" + from(source) + " is already stored as run " +
                                                 std::to_string(duplicate.integer(0)) +
                                                 " (same application, machine, dataset, processors and start time " +
                                                 run.started + ")");
    }
  }
  Statement insert(*connection_,
                   "INSERT INTO runs (application_id, machine_id, dataset_id, threads, ranks, processors, iterations, "
                   "started, options, application_seconds, application_ci_low, application_ci_high, "
                   "application_repetitions, application_samples, source, added) "
                   "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16)");
  insert.bind(1, application).bind(2, machine).bind(3, dataset).bind(4, run.threads).bind(5, run.ranks);
  insert.bind(6, static_cast<std::int64_t>(run.threads) * run.ranks).bind(7, run.iterations).bind(8, run.started);
  insert.bind(9, options_text(run.options));
  if (run.loop) {
    insert.bind(10, run.loop->seconds).bind(11, run.loop->ci_low).bind(12, run.loop->ci_high);
    insert.bind(13, run.loop->repetitions).bind(14, samples_text(run.loop->samples));
  } else {
    for (int index = 10; index <= 14; ++index) insert.bind_null(index);
  }
  insert.bind(15, source).bind(16, utc_now());
  insert.run();
  const std::int64_t id = connection_->last_insert_id();
  std::int64_t couplings = 0;

  Statement measurement(*connection_,
                        "INSERT INTO measurements (run_id, position, chain, length, seconds, ci_low, ci_high, "
                        "repetitions, samples) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)");
  for (std::size_t position = 0; position < run.chains.size(); ++position) {
    const auto& [chain, timing] = run.chains[position];
    measurement.reset();
    measurement.bind(1, id).bind(2, static_cast<std::int64_t>(position)).bind(3, chain_text(chain));
    measurement.bind(4, static_cast<std::int64_t>(chain.size())).bind(5, timing.seconds).bind(6, timing.ci_low);
    measurement.bind(7, timing.ci_high).bind(8, timing.repetitions).bind(9, samples_text(timing.samples));
    measurement.run();
  }

  Statement coupling_row(*connection_,
                         "INSERT INTO couplings (run_id, chain, length, value, chain_seconds, sum_alone_seconds) "
                         "VALUES (?1, ?2, ?3, ?4, ?5, ?6)");
  for (const int length : run.complete_lengths()) {
    std::vector<coupling::ChainCoupling> values;
    try {
      values = coupling::couplings(run, length);
    } catch (const std::invalid_argument&) {
      continue;  // a kernel of these chains was not measured alone: no coupling values for this length
    }
    for (const coupling::ChainCoupling& value : values) {
      coupling_row.reset();
      coupling_row.bind(1, id).bind(2, chain_text(value.chain)).bind(3, length).bind(4, value.value);
      coupling_row.bind(5, value.time).bind(6, value.sum_alone);
      coupling_row.run();
      ++couplings;
    }
  }
  return {id, couplings};
}

std::int64_t SqliteStore::add_run(const coupling::Run& run, const std::string& source) {
  return add_runs({{run, source}}).front().id;
}

// Everything returned is known before COMMIT: after it, nothing is read, so that a problem found later
// (a page that cannot be read) never reports a stored run as not stored.
std::vector<AddedRun> SqliteStore::add_runs(const std::vector<std::pair<coupling::Run, std::string>>& runs) {
  Transaction transaction(*connection_);
  std::vector<AddedRun> added;
  added.reserve(runs.size());
  for (const auto& [run, source] : runs) added.push_back(insert_run(run, source));
  transaction.commit();
  return added;
}

std::vector<StoredRun> SqliteStore::load(const std::string& where, const RunFilter* filter, std::int64_t id) {
  const std::string& path = location();
  const ReadSnapshot snapshot(*connection_);
  std::vector<StoredRun> loaded;
  {
    Statement select(
        *connection_,
        "SELECT r.id, a.name, d.label, d.problem_size, d.footprint_bytes, r.iterations, r.threads, r.ranks, "
        "m.hostname, m.cpu_model, m.cores, m.l1d_bytes, m.l2_bytes, m.l3_bytes, m.memory_bytes, r.started, "
        "r.options, r.application_seconds, r.application_ci_low, r.application_ci_high, "
        "r.application_repetitions, r.application_samples, r.source, r.added, r.application_id "
        "FROM runs r JOIN applications a ON a.id = r.application_id JOIN machines m ON m.id = r.machine_id "
        "JOIN datasets d ON d.id = r.dataset_id" +
            where + " ORDER BY r.id");
    if (filter != nullptr) {
      bind_filter(select, *filter);
    } else {
      select.bind(1, id);
    }
    std::vector<std::int64_t> applications;
    while (select.step()) {
      StoredRun stored;
      stored.id = select.integer(0);
      coupling::Run& run = stored.run;
      run.application = select.text(1);
      run.dataset = select.text(2);
      run.problem_size = select.real(3);
      run.footprint_bytes = select.real(4);
      run.iterations = select.integer(5);
      run.threads = static_cast<int>(select.integer(6));
      run.ranks = static_cast<int>(select.integer(7));
      run.machine = read_machine(select, 8);
      run.started = select.text(15);
      run.options = parse_options(select.text(16), path);
      if (!select.is_null(20)) {
        coupling::Timing timing;
        timing.seconds = select.real(17);
        timing.ci_low = select.real(18);
        timing.ci_high = select.real(19);
        timing.repetitions = select.integer(20);
        timing.samples = parse_samples(select.text(21), path);
        run.loop = timing;
      }
      stored.source = select.text(22);
      stored.added = select.text(23);
      applications.push_back(select.integer(24));
      loaded.push_back(std::move(stored));
    }
    // Kernels per application, read once each.
    std::map<std::int64_t, std::vector<coupling::Kernel>> kernels;
    Statement kernel_select(*connection_,
                            "SELECT name, calls FROM kernels WHERE application_id = ?1 ORDER BY position");
    for (std::size_t index = 0; index < loaded.size(); ++index) {
      auto [found, inserted] = kernels.try_emplace(applications[index]);
      if (inserted) {
        kernel_select.reset();
        kernel_select.bind(1, applications[index]);
        while (kernel_select.step()) {
          found->second.push_back({kernel_select.text(0), static_cast<int>(kernel_select.integer(1))});
        }
      }
      loaded[index].run.kernels = found->second;
    }
  }
  Statement measurements(*connection_,
                         "SELECT chain, seconds, ci_low, ci_high, repetitions, samples FROM measurements "
                         "WHERE run_id = ?1 ORDER BY position");
  for (StoredRun& stored : loaded) {
    measurements.reset();
    measurements.bind(1, stored.id);
    while (measurements.step()) {
      coupling::Timing timing;
      timing.seconds = measurements.real(1);
      timing.ci_low = measurements.real(2);
      timing.ci_high = measurements.real(3);
      timing.repetitions = measurements.integer(4);
      timing.samples = parse_samples(measurements.text(5), path);
      stored.run.chains.emplace_back(parse_chain(measurements.text(0), path), std::move(timing));
    }
  }
  return loaded;
}

std::vector<StoredRun> SqliteStore::load_runs(const RunFilter& filter) {
  return load(kRunFilter, &filter, 0);
}

std::optional<StoredRun> SqliteStore::load_run(std::int64_t id) {
  std::vector<StoredRun> runs = load(" WHERE r.id = ?1", nullptr, id);
  if (runs.empty()) return std::nullopt;
  return std::move(runs.front());
}

std::vector<ApplicationSummary> SqliteStore::applications() {
  Statement select(*connection_,
                   "SELECT a.id, a.name, (SELECT count(*) FROM kernels k WHERE k.application_id = a.id), "
                   "(SELECT count(*) FROM datasets d WHERE d.application_id = a.id), "
                   "(SELECT count(*) FROM runs r WHERE r.application_id = a.id) FROM applications a ORDER BY a.name");
  std::vector<ApplicationSummary> list;
  while (select.step()) {
    list.push_back({select.integer(0), select.text(1), select.integer(2), select.integer(3), select.integer(4)});
  }
  return list;
}

std::vector<MachineSummary> SqliteStore::machines() {
  Statement select(
      *connection_,
      "SELECT m.id, m.hostname, m.cpu_model, m.cores, m.l1d_bytes, m.l2_bytes, m.l3_bytes, m.memory_bytes, "
      "m.machine_class, (SELECT count(*) FROM runs r WHERE r.machine_id = m.id) FROM machines m "
      "ORDER BY m.id");
  std::vector<MachineSummary> list;
  while (select.step()) {
    MachineSummary summary;
    summary.id = select.integer(0);
    summary.machine = read_machine(select, 1);
    summary.machine_class = select.text(8);
    summary.runs = select.integer(9);
    list.push_back(std::move(summary));
  }
  return list;
}

std::vector<KernelSummary> SqliteStore::kernels(const std::string& application) {
  Statement select(*connection_,
                   "SELECT a.name, k.position, k.name, k.calls FROM kernels k JOIN applications a ON a.id = "
                   "k.application_id WHERE ?1 IS NULL OR a.name = ?1 ORDER BY a.name, k.position");
  if (application.empty()) {
    select.bind_null(1);
  } else {
    select.bind(1, application);
  }
  std::vector<KernelSummary> list;
  while (select.step()) {
    list.push_back(
        {select.text(0), static_cast<int>(select.integer(1)), select.text(2), static_cast<int>(select.integer(3))});
  }
  return list;
}

std::vector<RunSummary> SqliteStore::runs(const RunFilter& filter) {
  return summaries(kRunFilter, &filter, 0);
}

std::vector<RunSummary> SqliteStore::summaries(const std::string& where, const RunFilter* filter, std::int64_t id) {
  Statement select(*connection_,
                   std::string("SELECT r.id, a.name, d.label, d.problem_size, d.footprint_bytes, m.hostname, "
                               "m.machine_class, r.threads, r.ranks, r.processors, r.iterations, r.started, "
                               "r.application_seconds, r.application_repetitions, "
                               "(SELECT count(*) FROM measurements x WHERE x.run_id = r.id), "
                               "(SELECT count(*) FROM couplings c WHERE c.run_id = r.id), r.source, r.added "
                               "FROM runs r JOIN applications a ON a.id = r.application_id JOIN machines m ON "
                               "m.id = r.machine_id JOIN datasets d ON d.id = r.dataset_id") +
                       where + " ORDER BY r.id");
  if (filter != nullptr) {
    bind_filter(select, *filter);
  } else {
    select.bind(1, id);
  }
  std::vector<RunSummary> list;
  while (select.step()) {
    RunSummary summary;
    summary.id = select.integer(0);
    summary.application = select.text(1);
    summary.dataset = select.text(2);
    summary.problem_size = select.real(3);
    summary.footprint_bytes = select.real(4);
    summary.hostname = select.text(5);
    summary.machine_class = select.text(6);
    summary.threads = static_cast<int>(select.integer(7));
    summary.ranks = static_cast<int>(select.integer(8));
    summary.processors = static_cast<int>(select.integer(9));
    summary.iterations = select.integer(10);
    summary.started = select.text(11);
    if (!select.is_null(13)) summary.loop_seconds = select.real(12);
    summary.measurements = select.integer(14);
    summary.couplings = select.integer(15);
    summary.source = select.text(16);
    summary.added = select.text(17);
    list.push_back(std::move(summary));
  }
  return list;
}

// What is reported is read in the deleting transaction: the run deleted, not one read before it (ids
// of deleted runs are given again), and nothing is read after COMMIT.
std::optional<RunSummary> SqliteStore::delete_run(std::int64_t id) {
  Transaction transaction(*connection_);
  std::vector<RunSummary> found = summaries(" WHERE r.id = ?1", nullptr, id);
  if (found.empty()) return std::nullopt;
  Statement remove(*connection_, "DELETE FROM runs WHERE id = ?1");
  remove.bind(1, id);
  remove.run();
  transaction.commit();
  return std::move(found.front());
}

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

}  // namespace

std::unique_ptr<PerformanceStore> open_sqlite_store(const std::string& path, OpenMode mode,
                                                    const OpenOptions& options) {
  return std::make_unique<SqliteStore>(path, mode, options);
}

}  // namespace augur::store::sqlite
