// Reading the SQLite performance store (sqlite_store_internal.hpp): runs loaded whole (their kernels and
// chain measurements), the summaries of applications, machines, kernels and runs, and deleting a run.
#include <map>
#include <utility>

#include "sqlite_store_internal.hpp"

namespace augur::store::sqlite {

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
    load_kernels(loaded, applications);
  }
  load_measurements(loaded);
  return loaded;
}

void SqliteStore::load_kernels(std::vector<StoredRun>& loaded, const std::vector<std::int64_t>& applications) {
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

void SqliteStore::load_measurements(std::vector<StoredRun>& loaded) {
  const std::string& path = location();
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

}  // namespace augur::store::sqlite
