// End-to-end tests of augur db: the built binary run as a user runs it, on hand-written coupling
// measurement files (docs/formats.md) in a fresh temporary directory. Bad, locked and newer database
// files must give one clear message, a non-zero status and no change.
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/process.hpp"
#include "e2e_support.hpp"
#include "support/interrupted_write.hpp"

namespace {

using namespace augur::e2e;  // describe, contains, read_text, TemporaryDirectory, ...

namespace fs = std::filesystem;
using augur::core::ProcessResult;
using Json = nlohmann::json;
using Arguments = std::vector<std::string>;

const std::string augur_exe = AUGUR_EXE;

ProcessResult db(const Arguments& arguments, const augur::core::ProcessOptions& options = {}) {
  Arguments argv{augur_exe, "db"};
  argv.insert(argv.end(), arguments.begin(), arguments.end());
  augur::core::ProcessOptions with_clean_environment = options;
  with_clean_environment.unset.push_back("AUGUR_DB");
  return augur::core::run_process(argv, with_clean_environment);
}

Json json_of(const ProcessResult& result) {
  EXPECT_EQ(result.exit_code, 0) << describe(result);
  try {
    return Json::parse(result.standard_output);
  } catch (const Json::exception& error) {
    ADD_FAILURE() << "stdout is not JSON: " << error.what() << "\n" << describe(result);
    return {};
  }
}

// Status 1, nothing on stdout, one line on stderr that contains every fragment.
::testing::AssertionResult fails_with(const ProcessResult& result, const std::vector<std::string>& fragments) {
  if (result.signal != 0 || result.exit_code != 1) {
    return ::testing::AssertionFailure() << "expected status 1\n" << describe(result);
  }
  if (!result.standard_output.empty()) {
    return ::testing::AssertionFailure() << "expected nothing on stdout\n" << describe(result);
  }
  const std::string& message = result.standard_error;
  if (message.empty() || message.back() != '\n' || message.find('\n') != message.size() - 1) {
    return ::testing::AssertionFailure() << "expected one line on stderr\n" << describe(result);
  }
  for (const std::string& fragment : fragments) {
    if (!contains(message, fragment)) {
      return ::testing::AssertionFailure() << "expected '" << fragment << "' on stderr\n" << describe(result);
    }
  }
  return ::testing::AssertionSuccess();
}

// A three-kernel loop measured alone, in every chain of length 2 and whole (docs/formats.md,
// "Kernel coupling measurements"): C(a→b) = 2.625 / 3 = 0.875, C(b→c) = 5.5 / 5 = 1.1, C(c→a) = 4.2 / 4 = 1.05.
std::string measurement_file(const std::string& application, const std::string& dataset, int threads,
                             const std::string& started) {
  return "# written by hand for the tests of augur db\n"
         "{\"record\":\"run\",\"format\":\"augur-coupling\",\"version\":1,\"application\":\"" +
         application + "\",\"dataset\":\"" + dataset +
         "\",\"problem_size\":1000,\"footprint_bytes\":32768,\"iterations\":10,\"threads\":" + std::to_string(threads) +
         ",\"ranks\":1,\"started\":\"" + started +
         "\",\"machine\":{\"hostname\":\"box\",\"cpu_model\":\"Test CPU\",\"cores\":2,\"l1d_bytes\":32768,"
         "\"l2_bytes\":1048576,\"l3_bytes\":0,\"memory_bytes\":25769803776},\"options\":{\"samples\":\"3\"}}\n"
         "{\"record\":\"kernel\",\"index\":0,\"name\":\"a\"}\n"
         "{\"record\":\"kernel\",\"index\":1,\"name\":\"b\",\"calls\":2}\n"
         "{\"record\":\"kernel\",\"index\":2,\"name\":\"c\"}\n"
         "{\"record\":\"chain\",\"chain\":[0],\"seconds\":1.0,\"ci_low\":0.9,\"ci_high\":1.1,\"repetitions\":10,"
         "\"samples\":[1.0,0.9,1.1]}\n"
         "{\"record\":\"chain\",\"chain\":[1],\"seconds\":2.0,\"repetitions\":10,\"samples\":[2.0]}\n"
         "{\"record\":\"chain\",\"chain\":[2],\"seconds\":3.0}\n"
         "{\"record\":\"chain\",\"chain\":[0,1],\"seconds\":2.625}\n"
         "{\"record\":\"chain\",\"chain\":[1,2],\"seconds\":5.5}\n"
         "{\"record\":\"chain\",\"chain\":[2,0],\"seconds\":4.2}\n"
         "{\"record\":\"application\",\"seconds\":80.0,\"ci_low\":79,\"ci_high\":81,\"samples\":[80,79,81]}\n";
}

class DbCommand : public ::testing::Test {
 protected:
  TemporaryDirectory directory;
  std::string database = directory.file("perf.db");
  std::string first = directory.write("toy-S.coupling.jsonl", measurement_file("toy", "S", 2, "2024-05-01T10:00:00Z"));
  std::string second = directory.write("toy-M.coupling.jsonl", measurement_file("toy", "M", 1, "2024-05-01T11:00:00Z"));
};

TEST_F(DbCommand, AddListInfoExportDelete) {
  const ProcessResult added = db({"add", "--db", database, first, second});
  ASSERT_EQ(added.exit_code, 0) << describe(added);
  EXPECT_TRUE(
      contains(added.standard_output, "stored run 1: toy dataset S, 2 threads, 6 measurements, 3 coupling values"))
      << added.standard_output;
  EXPECT_TRUE(contains(added.standard_output, "stored run 2: toy dataset M, 1 thread")) << added.standard_output;

  const ProcessResult table = db({"list", "--db", database});
  ASSERT_EQ(table.exit_code, 0) << describe(table);
  EXPECT_TRUE(contains(table.standard_output, "application")) << table.standard_output;
  EXPECT_TRUE(contains(table.standard_output, "2024-05-01T10:00:00Z")) << table.standard_output;
  EXPECT_TRUE(contains(table.standard_output, "(2 runs in " + database + ")")) << table.standard_output;

  const Json runs = json_of(db({"list", "runs", "--db", database, "--json"}));
  ASSERT_EQ(runs.size(), 2u);
  EXPECT_EQ(runs[0]["id"], 1);
  EXPECT_EQ(runs[0]["application"], "toy");
  EXPECT_EQ(runs[0]["dataset"], "S");
  EXPECT_EQ(runs[0]["processors"], 2);
  EXPECT_EQ(runs[0]["application_seconds"], 80.0);
  EXPECT_EQ(runs[0]["measurements"], 6);
  EXPECT_EQ(runs[0]["couplings"], 3);
  EXPECT_EQ(runs[0]["source"], fs::path(first).lexically_normal().string());
  EXPECT_EQ(json_of(db({"list", "--db", database, "--processors", "1", "--json"})).size(), 1u);
  EXPECT_EQ(json_of(db({"list", "--db", database, "--dataset", "S", "--json"})).size(), 1u);
  EXPECT_EQ(json_of(db({"list", "--db", database, "--application", "other", "--json"})).size(), 0u);

  const Json kernels = json_of(db({"list", "kernels", "--db", database, "--application", "toy", "--json"}));
  ASSERT_EQ(kernels.size(), 3u);
  EXPECT_EQ(kernels[1]["name"], "b");
  EXPECT_EQ(kernels[1]["calls"], 2);
  const Json machines = json_of(db({"list", "machines", "--db", database, "--json"}));
  ASSERT_EQ(machines.size(), 1u);
  EXPECT_EQ(machines[0]["cpu_model"], "Test CPU");
  EXPECT_EQ(machines[0]["runs"], 2);
  const Json applications = json_of(db({"list", "applications", "--db", database, "--json"}));
  ASSERT_EQ(applications.size(), 1u);
  EXPECT_EQ(applications[0]["datasets"], 2);

  const Json info = json_of(db({"info", "--db", database, "--json"}));
  EXPECT_EQ(info["database"], database);
  EXPECT_EQ(info["schema_version"], info["known_schema_version"]);
  EXPECT_EQ(info["rows"]["runs"], 2);
  EXPECT_EQ(info["rows"]["measurements"], 12);
  EXPECT_EQ(info["rows"]["couplings"], 6);
  EXPECT_EQ(info["integrity"], "ok");

  const std::string csv = directory.file("couplings.csv");
  const ProcessResult exported = db({"export", "--db", database, "--table", "couplings", "--format", "csv", "-o", csv});
  ASSERT_EQ(exported.exit_code, 0) << describe(exported);
  EXPECT_EQ(exported.standard_output, "");
  EXPECT_EQ(read_text(csv),
            "id,run_id,chain,kernels,length,value,chain_seconds,sum_alone_seconds\r\n"
            "1,1,\"0,1\",a→b,2,0.875,2.625,3\r\n"
            "2,1,\"1,2\",b→c,2,1.1,5.5,5\r\n"
            "3,1,\"2,0\",c→a,2,1.05,4.2,4\r\n"
            "4,2,\"0,1\",a→b,2,0.875,2.625,3\r\n"
            "5,2,\"1,2\",b→c,2,1.1,5.5,5\r\n"
            "6,2,\"2,0\",c→a,2,1.05,4.2,4\r\n");
  const Json measurements = json_of(db({"export", "--db", database, "--table", "measurements", "--format", "json"}));
  ASSERT_EQ(measurements.size(), 12u);
  EXPECT_EQ(measurements[0]["samples"], Json::parse("[1.0,0.9,1.1]"));
  EXPECT_EQ(measurements[0]["repetitions"], 10);
  EXPECT_EQ(measurements[3]["chain"], "0,1");
  EXPECT_EQ(measurements[3]["kernels"], "a→b");

  const ProcessResult deleted = db({"delete", "--db", database, "1"});
  ASSERT_EQ(deleted.exit_code, 0) << describe(deleted);
  EXPECT_TRUE(contains(deleted.standard_output, "deleted run 1 (toy dataset S, 2 processors)"))
      << deleted.standard_output;
  const Json after = json_of(db({"info", "--db", database, "--json"}));
  EXPECT_EQ(after["rows"]["runs"], 1);
  EXPECT_EQ(after["rows"]["measurements"], 6);
  EXPECT_EQ(after["rows"]["couplings"], 3);
  EXPECT_TRUE(fails_with(db({"delete", "--db", database, "1"}), {database, "no run 1"}));
}

TEST_F(DbCommand, TheDatabaseComesFromTheEnvironment) {
  augur::core::ProcessOptions with_augur_db;
  with_augur_db.environment = {{"AUGUR_DB", database}};
  Arguments argv{augur_exe, "db", "add", first};
  ASSERT_EQ(augur::core::run_process(argv, with_augur_db).exit_code, 0);
  EXPECT_TRUE(fs::exists(database));

  // Without AUGUR_DB: ${XDG_DATA_HOME}/augur/performance.db, its folders created.
  augur::core::ProcessOptions with_xdg;
  with_xdg.environment = {{"XDG_DATA_HOME", directory.file("data")}};
  ASSERT_EQ(db({"add", first}, with_xdg).exit_code, 0);
  EXPECT_TRUE(fs::exists(directory.file("data/augur/performance.db")));
  // ... and without XDG_DATA_HOME: $HOME/.local/share/augur/performance.db.
  augur::core::ProcessOptions with_home;
  with_home.environment = {{"HOME", directory.file("home")}};
  with_home.unset = {"XDG_DATA_HOME"};
  ASSERT_EQ(db({"add", first}, with_home).exit_code, 0);
  const Json info = json_of(db({"info", "--json"}, with_home));
  EXPECT_EQ(info["database"], directory.file("home/.local/share/augur/performance.db"));
}

TEST_F(DbCommand, ABadMeasurementFileStoresNothing) {
  const std::string bad = directory.write(
      "bad.jsonl", measurement_file("toy", "S", 2, "x") + "{\"record\":\"chain\",\"chain\":[7],\"seconds\":1}\n");
  EXPECT_TRUE(fails_with(db({"add", "--db", database, first, bad}), {bad + ":13:"}));
  EXPECT_FALSE(fs::exists(database));
  ASSERT_EQ(db({"add", "--db", database, first}).exit_code, 0);
  const std::string before = read_text(database);
  EXPECT_TRUE(fails_with(db({"add", "--db", database, second, bad}), {bad + ":13:", "not declared"}));
  EXPECT_EQ(json_of(db({"list", "--db", database, "--json"})).size(), 1u);
  // The same run twice: refused, nothing added.
  EXPECT_TRUE(fails_with(db({"add", "--db", database, second, first}), {database, "already stored as run 1"}));
  EXPECT_EQ(json_of(db({"list", "--db", database, "--json"})).size(), 1u);
}

TEST_F(DbCommand, AFileThatIsNotADatabaseIsLeftUnchanged) {
  const std::string text = "id,name\n1,toy\n";
  const std::string not_database = directory.write("runs.csv", text);
  for (const Arguments& arguments : std::vector<Arguments>{{"add", "--db", not_database, first},
                                                           {"list", "--db", not_database},
                                                           {"info", "--db", not_database},
                                                           {"delete", "--db", not_database, "1"},
                                                           {"export", "--db", not_database, "--table", "runs"}}) {
    EXPECT_TRUE(fails_with(db(arguments), {"augur db: " + not_database + ": not an SQLite database"})) << arguments[0];
  }
  EXPECT_EQ(read_text(not_database), text);
  EXPECT_EQ(directory.names(), (std::vector<std::string>{"runs.csv", "toy-M.coupling.jsonl", "toy-S.coupling.jsonl"}));
}

TEST_F(DbCommand, AMissingOrNewerDatabaseIsAClearError) {
  EXPECT_TRUE(fails_with(db({"list", "--db", database}), {database, "no performance database here"}));
  EXPECT_FALSE(fs::exists(database));
  ASSERT_EQ(db({"add", "--db", database, first}).exit_code, 0);
  sqlite3* raw = nullptr;
  ASSERT_EQ(sqlite3_open(database.c_str(), &raw), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(raw, "PRAGMA user_version = 42", nullptr, nullptr, nullptr), SQLITE_OK);
  sqlite3_close(raw);
  const std::string before = read_text(database);
  EXPECT_TRUE(fails_with(db({"add", "--db", database, second}), {database, "schema version 42", "newer"}));
  EXPECT_TRUE(fails_with(db({"info", "--db", database}), {database, "schema version 42"}));
  EXPECT_EQ(read_text(database), before);
}

TEST_F(DbCommand, ALockedDatabaseIsAClearErrorAndStaysConsistent) {
  ASSERT_EQ(db({"add", "--db", database, first}).exit_code, 0);
  sqlite3* holder = nullptr;
  ASSERT_EQ(sqlite3_open(database.c_str(), &holder), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(holder, "BEGIN EXCLUSIVE; INSERT INTO applications (name) VALUES ('held')", nullptr, nullptr,
                         nullptr),
            SQLITE_OK);
  const ProcessResult locked = db({"add", "--db", database, "--timeout", "0.2", second});
  EXPECT_TRUE(fails_with(locked, {"augur db: " + database + ": the database is locked by another process", "200 ms"}));
  EXPECT_TRUE(fails_with(db({"delete", "--db", database, "--timeout", "0.2", "1"}), {database, "locked"}));
  // Readers are not blocked by a writer (WAL).
  EXPECT_EQ(json_of(db({"list", "--db", database, "--json"})).size(), 1u);
  sqlite3_exec(holder, "ROLLBACK", nullptr, nullptr, nullptr);
  sqlite3_close(holder);

  ASSERT_EQ(db({"add", "--db", database, second}).exit_code, 0);
  const Json info = json_of(db({"info", "--db", database, "--json"}));
  EXPECT_EQ(info["rows"]["runs"], 2);
  EXPECT_EQ(info["rows"]["applications"], 1);
  EXPECT_EQ(info["integrity"], "ok");
}

TEST_F(DbCommand, ExportWritesWholeFilesOrNone) {
  ASSERT_EQ(db({"add", "--db", database, first}).exit_code, 0);
  const std::string inside_missing = directory.file("no/such/folder/runs.csv");
  EXPECT_TRUE(fails_with(db({"export", "--db", database, "--table", "runs", "-o", inside_missing}), {inside_missing}));
  EXPECT_FALSE(fs::exists(directory.file("no")));
  const std::string json = directory.file("runs.json");
  ASSERT_EQ(db({"export", "--db", database, "--table", "runs", "--format", "json", "-o", json}).exit_code, 0);
  const Json runs = Json::parse(read_text(json));
  ASSERT_EQ(runs.size(), 1u);
  EXPECT_EQ(runs[0]["options"]["samples"], "3");
  EXPECT_EQ(runs[0]["started"], "2024-05-01T10:00:00Z");
  EXPECT_TRUE(contains(runs[0]["machine_class"].get<std::string>(), "Test CPU"));
  for (const std::string& entry : directory.names()) EXPECT_FALSE(contains(entry, ".tmp")) << entry;
}

TEST_F(DbCommand, UsageErrorsExitWithTwo) {
  EXPECT_EQ(db({}).exit_code, 2);
  EXPECT_EQ(db({"export", "--db", database}).exit_code, 2);                              // --table is required
  EXPECT_EQ(db({"export", "--db", database, "--table", "sqlite_master"}).exit_code, 2);  // not a table of ours
  EXPECT_EQ(db({"export", "--db", database, "--table", "runs", "--format", "xml"}).exit_code, 2);
  EXPECT_EQ(db({"list", "everything", "--db", database}).exit_code, 2);
  EXPECT_EQ(db({"delete", "--db", database, "zero"}).exit_code, 2);
  EXPECT_EQ(db({"add", "--db", database}).exit_code, 2);
  EXPECT_FALSE(fs::exists(database));
}

// Once `add` has committed, it reports success with what it stored: a corrupt page that the write did
// not need (a leaf of older runs, read only by a report read after COMMIT before) is not its failure.
TEST_F(DbCommand, AddReportsTheRunItStoredWhenOtherPagesAreCorrupt) {
  Arguments old{"add", "--db", database};
  for (int minute = 10; minute < 50; ++minute) {
    const std::string started = "2024-05-01T10:" + std::to_string(minute) + ":00Z";
    old.push_back(
        directory.write("old-" + std::to_string(minute) + ".jsonl", measurement_file("toy", "S", 2, started)));
  }
  ASSERT_EQ(db(old).exit_code, 0);
  std::string bytes = read_text(database);
  const std::size_t at = bytes.find("old-15.jsonl");
  ASSERT_NE(at, std::string::npos);
  for (std::size_t index = at / 4096 * 4096; index < at / 4096 * 4096 + 4096; ++index) {
    bytes[index] = static_cast<char>(0xA5 ^ (index * 7));
  }
  directory.write("perf.db", bytes);
  const std::string fresh = directory.write("fresh.jsonl", measurement_file("fresh", "S", 2, "2024-05-02T10:00:00Z"));
  const ProcessResult added = db({"add", "--db", database, fresh});
  EXPECT_EQ(added.exit_code, 0) << describe(added);
  EXPECT_TRUE(contains(added.standard_output, "stored run 41: fresh dataset S, 2 threads, 6 measurements, 3 coupling"))
      << describe(added);
  EXPECT_EQ(added.standard_error, "");
  EXPECT_TRUE(fails_with(db({"add", "--db", database, fresh}), {database, "already stored as run 41"}));
  EXPECT_TRUE(fails_with(db({"list", "--db", database}), {database, "corrupt"}));  // it is, where the old runs are
}

// kill -9 during a write leaves a hot journal: list, info and export roll it back (the folder can be
// written) and read the database as it was before that write, with a note on stderr.
TEST_F(DbCommand, ReadersRollBackAWriteInterruptedByKill) {
  for (const Arguments& command : std::vector<Arguments>{
           {"list", "--json"}, {"info", "--json"}, {"export", "--table", "runs", "--format", "json"}}) {
    const std::string file = directory.file(command[0] + ".db");
    ASSERT_EQ(db({"add", "--db", file, first, second}).exit_code, 0);
    augur::test::kill_a_writer(file, "DELETE FROM couplings; DELETE FROM measurements; DELETE FROM runs");
    Arguments arguments = command;
    arguments.insert(arguments.begin() + 1, {"--db", file});
    const ProcessResult result = db(arguments);
    const Json json = json_of(result);
    EXPECT_EQ(command[0] == "info" ? json["rows"]["runs"].get<std::size_t>() : json.size(), 2u) << describe(result);
    if (command[0] == "info") {
      EXPECT_EQ(json["integrity"], "ok");
    }
    EXPECT_TRUE(
        contains(result.standard_error, "augur db: note: " + file + ": a write to the database was interrupted"))
        << describe(result);
    EXPECT_TRUE(contains(result.standard_error, "rolled it back")) << describe(result);
    EXPECT_FALSE(fs::exists(file + "-journal"));
  }
}

// augur couple reads the same database: it rolls the journal back too, and says so as augur db does.
TEST_F(DbCommand, CoupleReportRollsBackAWriteInterruptedByKillAndSaysSo) {
  ASSERT_EQ(db({"add", "--db", database, first, second}).exit_code, 0);
  augur::test::kill_a_writer(database, "DELETE FROM couplings; DELETE FROM measurements; DELETE FROM runs");
  const ProcessResult result = augur::core::run_process({augur_exe, "couple", "report", "--db", database});
  EXPECT_EQ(result.exit_code, 0) << describe(result);
  EXPECT_TRUE(contains(result.standard_error,
                       "augur couple: note: " + database + ": a write to the database was interrupted"))
      << describe(result);
  EXPECT_FALSE(fs::exists(database + "-journal"));
}

// kill -9 while a new database was being created: rolled back to the empty file it was, and said so.
TEST_F(DbCommand, AnInterruptedCreationIsSaidSo) {
  augur::test::kill_a_writer(database, "PRAGMA user_version = 1");
  EXPECT_TRUE(fails_with(db({"list", "--db", database}),
                         {database, "a write to the database was interrupted", "rolled it back", "schema version 0"}));
  ASSERT_EQ(db({"add", "--db", database, first}).exit_code, 0);
  EXPECT_EQ(json_of(db({"list", "--db", database, "--json"})).size(), 1u);
}

}  // namespace
