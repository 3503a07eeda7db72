// Storing runs in the SQLite performance store (sqlite_store_internal.hpp): a run is checked, its machine,
// application (with its kernels) and dataset found or added, a duplicate refused, then the run, its chain
// measurements and its coupling values inserted; add_runs stores all of them in one transaction.
#include <set>
#include <stdexcept>

#include "sqlite_store_internal.hpp"

namespace augur::store::sqlite {

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

}  // namespace augur::store::sqlite
