// The performance database opened: an empty file migrated, read-only openings, and the files it refuses or
// cannot use (unwritable, newer, not a database, another program's, corrupt, locked), each a clear error that
// leaves the file as it was (the round trips, filters and exports: store_test.cpp).
#include "store/store.hpp"

#include <gtest/gtest.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <unistd.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "core/files.hpp"
#include "augur/coupling.hpp"
#include "store_test_support.hpp"

namespace {

using namespace store_test;  // MeasuredRun, test_run, StoreTest, raw_connection, expect_store_error, ...

TEST_F(StoreTest, AnEmptyFileIsMigratedToTheCurrentSchema) {
  augur::core::write_file_atomically(path(), "");
  auto database = augur::store::open_store(path(), OpenMode::ReadWrite);
  EXPECT_EQ(database->schema_version(), augur::store::current_schema_version());
  const auto counts = database->counts();
  ASSERT_EQ(counts.size(), augur::store::table_names().size());
  for (const auto& [table, rows] : counts) EXPECT_EQ(rows, 0) << table;
  database.reset();
  sqlite3* raw = raw_connection(path());
  sqlite3_stmt* statement = nullptr;
  ASSERT_EQ(sqlite3_prepare_v2(raw, "PRAGMA journal_mode", -1, &statement, nullptr), SQLITE_OK);
  ASSERT_EQ(sqlite3_step(statement), SQLITE_ROW);
  EXPECT_STREQ(reinterpret_cast<const char*>(sqlite3_column_text(statement, 0)), "wal");
  sqlite3_finalize(statement);
  sqlite3_close(raw);
  // Opened again: nothing to migrate, same version.
  EXPECT_EQ(augur::store::open_store(path(), OpenMode::ReadOnly)->schema_version(),
            augur::store::current_schema_version());
}

TEST_F(StoreTest, FoldersOfANewDatabaseAreCreated) {
  const std::string nested = path("deeper/still/perf.db");
  auto database = augur::store::open_store(nested, OpenMode::ReadWrite);
  EXPECT_EQ(database->location(), nested);
  EXPECT_TRUE(std::filesystem::exists(nested));
}

TEST_F(StoreTest, ReadOnlyOpeningNeitherCreatesNorMigrates) {
  expect_store_error([&] { (void)augur::store::open_store(path("missing.db"), OpenMode::ReadOnly); },
                     ErrorKind::NotFound, path("missing.db"));
  EXPECT_FALSE(std::filesystem::exists(path("missing.db")));
  augur::core::write_file_atomically(path("empty.db"), "");
  expect_store_error([&] { (void)augur::store::open_store(path("empty.db"), OpenMode::ReadOnly); },
                     ErrorKind::OlderSchema, path("empty.db"));
  EXPECT_EQ(std::filesystem::file_size(path("empty.db")), 0u);
}

TEST_F(StoreTest, AReadOnlyStoreRefusesToWrite) {
  augur::store::open_store(path(), OpenMode::ReadWrite)->add_run(test_run());
  auto database = augur::store::open_store(path(), OpenMode::ReadOnly);
  expect_store_error([&] { database->add_run(test_run("sp", "B")); }, ErrorKind::ReadOnly, path());
  EXPECT_EQ(database->load_runs().size(), 1u);
}

TEST_F(StoreTest, AnUnwritableLocationIsAClearError) {
  const std::string inside_a_file = path("plain-file") + "/perf.db";
  augur::core::write_file_atomically(path("plain-file"), "not a folder");
  try {
    (void)augur::store::open_store(inside_a_file, OpenMode::ReadWrite);
    ADD_FAILURE() << "no StoreError";
  } catch (const StoreError& error) {
    EXPECT_TRUE(error.kind() == ErrorKind::CannotOpen || error.kind() == ErrorKind::ReadOnly) << error.what();
    EXPECT_NE(std::string(error.what()).find(inside_a_file), std::string::npos) << error.what();
  }
  try {
    (void)augur::store::open_store("/proc/augur-store-test/perf.db", OpenMode::ReadWrite);
    ADD_FAILURE() << "no StoreError";
  } catch (const StoreError& error) {
    EXPECT_TRUE(error.kind() == ErrorKind::CannotOpen || error.kind() == ErrorKind::ReadOnly) << error.what();
    EXPECT_NE(std::string(error.what()).find("/proc/augur-store-test/perf.db"), std::string::npos) << error.what();
  }
  expect_store_error([&] { (void)augur::store::open_store(folder.path().string(), OpenMode::ReadWrite); },
                     ErrorKind::CannotOpen, folder.path().string(), "directory");
  // A folder that exists but cannot be written (even by root).
  if (::access("/proc/self", W_OK) != 0) {
    expect_store_error([&] { (void)augur::store::open_store("/proc/self/augur-store-test.db", OpenMode::ReadWrite); },
                       ErrorKind::ReadOnly, "/proc/self/augur-store-test.db", "cannot write in the folder /proc/self");
  }
}

TEST_F(StoreTest, ADatabaseInAFolderThatCannotBeWrittenIsReadButNotWritten) {
  const std::string locked_folder = path("archive");
  std::filesystem::create_directories(locked_folder);
  const std::string file = locked_folder + "/perf.db";
  augur::store::open_store(file, OpenMode::ReadWrite)->add_run(test_run());
  std::filesystem::permissions(locked_folder, std::filesystem::perms::owner_read | std::filesystem::perms::owner_exec);
  if (::access(locked_folder.c_str(), W_OK) == 0) {  // root writes anyway
    std::filesystem::permissions(locked_folder, std::filesystem::perms::owner_all);
    GTEST_SKIP() << "permissions do not apply to this user";
  }
  const std::string before = augur::core::read_file(file);
  expect_store_error([&] { (void)augur::store::open_store(file, OpenMode::ReadWrite); }, ErrorKind::ReadOnly, file,
                     "cannot write in the folder");
  const auto runs = augur::store::open_store(file, OpenMode::ReadOnly)->load_runs();
  EXPECT_EQ(runs.size(), 1u);
  EXPECT_EQ(augur::core::read_file(file), before);
  std::filesystem::permissions(locked_folder, std::filesystem::perms::owner_all);
}

TEST_F(StoreTest, ANewerSchemaIsRefusedAndLeftUnchanged) {
  augur::store::open_store(path(), OpenMode::ReadWrite)->add_run(test_run());
  sqlite3* raw = raw_connection(path());
  raw_execute(raw, "PRAGMA journal_mode = DELETE; PRAGMA user_version = 99");
  sqlite3_close(raw);
  const std::string before = augur::core::read_file(path());
  for (const OpenMode mode : {OpenMode::ReadWrite, OpenMode::ReadOnly}) {
    expect_store_error([&] { (void)augur::store::open_store(path(), mode); }, ErrorKind::NewerSchema, path(),
                       "schema version 99");
  }
  EXPECT_EQ(augur::core::read_file(path()), before);
  EXPECT_FALSE(std::filesystem::exists(path() + "-wal"));
}

TEST_F(StoreTest, AFileThatIsNotADatabaseIsRefusedAndLeftUnchanged) {
  const std::string text = "application,threads,seconds\nsp,2,1.5\n";
  augur::core::write_file_atomically(path("runs.csv"), text);
  for (const OpenMode mode : {OpenMode::ReadWrite, OpenMode::ReadOnly}) {
    expect_store_error([&] { (void)augur::store::open_store(path("runs.csv"), mode); }, ErrorKind::NotADatabase,
                       path("runs.csv"), "not an SQLite database");
  }
  EXPECT_EQ(augur::core::read_file(path("runs.csv")), text);
  EXPECT_FALSE(std::filesystem::exists(path("runs.csv") + "-wal"));
}

TEST_F(StoreTest, AnotherProgramsDatabaseIsRefusedAndLeftUnchanged) {
  sqlite3* raw = raw_connection(path("other.db"));
  raw_execute(raw, "CREATE TABLE notes (text TEXT); INSERT INTO notes VALUES ('keep me')");
  sqlite3_close(raw);
  const std::string before = augur::core::read_file(path("other.db"));
  expect_store_error([&] { (void)augur::store::open_store(path("other.db"), OpenMode::ReadWrite); },
                     ErrorKind::NotAugur, path("other.db"));
  EXPECT_EQ(augur::core::read_file(path("other.db")), before);
}

TEST_F(StoreTest, ACorruptDatabaseIsAClearError) {
  {
    auto database = augur::store::open_store(path(), OpenMode::ReadWrite);
    database->add_run(test_run());
    database->add_run(test_run("sp", "B"));
  }
  ASSERT_FALSE(std::filesystem::exists(path() + "-wal"));  // checkpointed when the last connection closed
  std::string bytes = augur::core::read_file(path());
  ASSERT_GT(bytes.size(), 8192u);
  for (std::size_t at = 4096; at < bytes.size(); ++at) bytes[at] = static_cast<char>(0xA5 ^ (at * 7));
  augur::core::write_file_atomically(path(), bytes);
  expect_store_error(
      [&] {
        auto database = augur::store::open_store(path(), OpenMode::ReadOnly);
        (void)database->load_runs();
      },
      ErrorKind::Corrupt, path(), "corrupt");
}

TEST_F(StoreTest, ALockedDatabaseIsAClearErrorAndNothingIsHalfAdded) {
  augur::store::OpenOptions options;
  options.busy_timeout_milliseconds = 100;
  auto database = augur::store::open_store(path(), OpenMode::ReadWrite, options);
  database->add_run(test_run());

  sqlite3* other = raw_connection(path());
  raw_execute(other, "BEGIN EXCLUSIVE; INSERT INTO applications (name) VALUES ('held')");
  expect_store_error([&] { database->add_run(test_run("sp", "B")); }, ErrorKind::Locked, path(), "locked");
  expect_store_error([&] { (void)database->delete_run(1); }, ErrorKind::Locked, path());
  // Another process opening it while the lock is held: also a clear error, or (WAL) reading still works.
  auto reader = augur::store::open_store(path(), OpenMode::ReadOnly, options);
  EXPECT_EQ(reader->load_runs().size(), 1u);
  raw_execute(other, "ROLLBACK");
  sqlite3_close(other);

  EXPECT_EQ(database->load_runs().size(), 1u);
  EXPECT_EQ(database->export_table("measurements").rows.size(), test_run().chains.size());
  database->add_run(test_run("sp", "B"));
  EXPECT_EQ(database->load_runs().size(), 2u);
}

TEST_F(StoreTest, ADatabaseLockedInRollbackModeCannotBeOpened) {
  // A database left in rollback-journal mode (e.g. by another tool) whose lock is held: even opening
  // waits, then fails clearly, and nothing changes.
  augur::store::open_store(path(), OpenMode::ReadWrite)->add_run(test_run());
  sqlite3* other = raw_connection(path());
  raw_execute(other, "PRAGMA journal_mode = DELETE");
  raw_execute(other, "BEGIN EXCLUSIVE; INSERT INTO applications (name) VALUES ('held')");
  augur::store::OpenOptions options;
  options.busy_timeout_milliseconds = 100;
  expect_store_error([&] { (void)augur::store::open_store(path(), OpenMode::ReadWrite, options); }, ErrorKind::Locked,
                     path(), "waited 100 ms");
  raw_execute(other, "ROLLBACK");
  sqlite3_close(other);
  EXPECT_EQ(augur::store::open_store(path(), OpenMode::ReadWrite)->applications().size(), 1u);
}

}  // namespace
