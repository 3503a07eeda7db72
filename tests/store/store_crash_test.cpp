// The performance database after a crash or around damage: a write interrupted by kill -9 (a hot
// rollback journal) is rolled back by the next reader that may write the file, or explained where it
// may not; a stored run is reported as stored even when pages the write did not need are corrupt.
#include <gtest/gtest.h>
#include <sqlite3.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <string>

#include "core/files.hpp"
#include "store/store.hpp"
#include "store_test_support.hpp"
#include "support/interrupted_write.hpp"

namespace {

using namespace store_test;  // MeasuredRun, test_run, StoreTest, raw_connection, expect_store_error, ...
namespace fs = std::filesystem;
using augur::test::kill_a_writer;

TEST_F(StoreTest, AReaderRollsBackAWriteInterruptedByKill) {
  augur::store::open_store(path(), OpenMode::ReadWrite)
      ->add_runs({{test_run("sp", "W"), "w"}, {test_run("sp", "A"), "a"}});
  kill_a_writer(path(), "DELETE FROM couplings; DELETE FROM measurements; DELETE FROM runs");
  auto database = augur::store::open_store(path(), OpenMode::ReadOnly);
  ASSERT_EQ(database->notes().size(), 1u);
  EXPECT_NE(database->notes()[0].find("a write to the database was interrupted"), std::string::npos);
  EXPECT_NE(database->notes()[0].find("rolled it back"), std::string::npos);
  EXPECT_FALSE(fs::exists(path() + "-journal"));
  const auto runs = database->load_runs();
  ASSERT_EQ(runs.size(), 2u);
  expect_equal(runs[0].run, test_run("sp", "W"));
  expect_equal(runs[1].run, test_run("sp", "A"));
  EXPECT_TRUE(database->check_integrity().empty());
  // Opened again: nothing left to say.
  EXPECT_TRUE(augur::store::open_store(path(), OpenMode::ReadOnly)->notes().empty());
}

TEST_F(StoreTest, AnInterruptedCreationIsRolledBackAndSaidSo) {
  kill_a_writer(path(), "PRAGMA user_version = 1");
  ASSERT_GT(fs::file_size(path()), 0u);  // pages of the unfinished creation reached the file
  expect_store_error([&] { (void)augur::store::open_store(path(), OpenMode::ReadOnly); }, ErrorKind::OlderSchema,
                     path(), "was interrupted");
  EXPECT_EQ(fs::file_size(path()), 0u);  // as before the creation began
  auto database = augur::store::open_store(path(), OpenMode::ReadWrite);
  database->add_run(test_run());
  EXPECT_EQ(database->load_runs().size(), 1u);
}

// Where the file and its folder cannot be written, the reader cannot roll the write back: it says so
// (not "check the permissions", not a half-written database read as it is) and changes nothing.
TEST_F(StoreTest, AnInterruptedWriteWhereNothingCanBeWrittenIsExplained) {
  augur::store::open_store(path(), OpenMode::ReadWrite)->add_run(test_run());
  kill_a_writer(path(), "DELETE FROM couplings; DELETE FROM measurements; DELETE FROM runs");
  const std::string journal = augur::core::read_file(path() + "-journal");
  const auto check = [&] {
    try {
      (void)augur::store::open_store(path(), OpenMode::ReadOnly);
      return std::string("opened");
    } catch (const StoreError& error) {
      const std::string message = error.what();
      const bool right = error.kind() == ErrorKind::Interrupted &&
                         message.find("was interrupted") != std::string::npos &&
                         message.find(path() + "-journal") != std::string::npos &&
                         message.find("cannot be written") != std::string::npos;
      return right ? std::string() : message;
    }
  };
  const std::string place = folder.path().string();
  if (::geteuid() == 0) {
    // Root writes everywhere: the reader runs as nobody, in a folder and on files that nobody can write.
    fs::permissions(place, fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec |
                               fs::perms::others_read | fs::perms::others_exec);
    const pid_t child = ::fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
      if (::setgid(65534) != 0 || ::setuid(65534) != 0) ::_exit(3);
      const std::string problem = check();
      if (!problem.empty()) std::fprintf(stderr, "%s\n", problem.c_str());
      ::_exit(problem.empty() ? 0 : 1);
    }
    int status = 0;
    ASSERT_EQ(::waitpid(child, &status, 0), child);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "child status " << status;
  } else {
    fs::permissions(place, fs::perms::owner_read | fs::perms::owner_exec);
    EXPECT_EQ(check(), "");
    fs::permissions(place, fs::perms::owner_all);
  }
  EXPECT_EQ(augur::core::read_file(path() + "-journal"), journal);  // left for a writer to roll back
  EXPECT_EQ(augur::store::open_store(path(), OpenMode::ReadWrite)->load_runs().size(), 1u);
}

// The run is stored by COMMIT; what `add` reports was read before it. A corrupt page that the write
// did not need (a leaf of older runs) must not turn a stored run into a reported failure.
TEST_F(StoreTest, AStoredRunIsReportedEvenWhenPagesItDidNotNeedAreCorrupt) {
  {
    std::vector<std::pair<MeasuredRun, std::string>> old;
    for (int index = 0; index < 40; ++index) {
      old.emplace_back(test_run("old", "W", 2, "2024-05-01T10:" + std::to_string(10 + index) + ":00Z"),
                       "old-" + std::to_string(10 + index) + ".jsonl");
    }
    augur::store::open_store(path(), OpenMode::ReadWrite)->add_runs(old);
  }
  std::string bytes = augur::core::read_file(path());
  const std::size_t at = bytes.find("old-15.jsonl");
  ASSERT_NE(at, std::string::npos);
  const std::size_t page = at / 4096 * 4096;
  for (std::size_t index = page; index < page + 4096; ++index) bytes[index] = static_cast<char>(0xA5 ^ (index * 7));
  augur::core::write_file_atomically(path(), bytes);

  auto database = augur::store::open_store(path(), OpenMode::ReadWrite);
  const auto added = database->add_runs({{test_run("fresh"), "fresh.jsonl"}});
  ASSERT_EQ(added.size(), 1u);
  EXPECT_EQ(added[0].id, 41);
  EXPECT_EQ(added[0].couplings, 8);  // 4 chains of length 2, 4 of length 3
  expect_store_error([&] { (void)database->add_run(test_run("fresh"), "fresh.jsonl"); }, ErrorKind::Duplicate, path(),
                     "already stored as run 41");
  // The database is corrupt where the old runs are: reading all runs finds it.
  expect_store_error([&] { (void)database->runs(); }, ErrorKind::Corrupt, path(), "corrupt");
}

// The store's connection, caught as SQLite opens it (sqlite3_auto_extension), to watch its statements.
sqlite3* caught_connection = nullptr;
int catch_connection(sqlite3* database, const char**, const sqlite3_api_routines*) {
  caught_connection = database;
  return SQLITE_OK;
}

// Reading runs takes several statements (runs, kernels, measurements): another process that deletes a run
// between them must not make it read back without its measurements. Here the deletion commits just as the
// measurements are about to be read.
TEST_F(StoreTest, RunsAreReadFromOneSnapshotWhileAnotherProcessDeletesThem) {
  augur::store::open_store(path(), OpenMode::ReadWrite)
      ->add_runs({{test_run("sp", "W"), "w"}, {test_run("sp", "A"), "a"}});
  sqlite3_auto_extension(reinterpret_cast<void (*)()>(catch_connection));
  auto database = augur::store::open_store(path(), OpenMode::ReadOnly);
  sqlite3_cancel_auto_extension(reinterpret_cast<void (*)()>(catch_connection));
  ASSERT_NE(caught_connection, nullptr);
  struct Deleter {
    sqlite3* other = nullptr;
    bool deleted = false;
  } deleter{raw_connection(path())};
  const auto on_statement = [](unsigned, void* context, void* statement, void*) -> int {
    auto& state = *static_cast<Deleter*>(context);
    const char* sql = sqlite3_sql(static_cast<sqlite3_stmt*>(statement));
    if (!state.deleted && sql != nullptr && std::string(sql).rfind("SELECT chain", 0) == 0) {
      state.deleted = sqlite3_exec(state.other, "DELETE FROM couplings; DELETE FROM measurements; DELETE FROM runs",
                                   nullptr, nullptr, nullptr) == SQLITE_OK;
    }
    return 0;
  };
  sqlite3_trace_v2(caught_connection, SQLITE_TRACE_STMT, on_statement, &deleter);
  const auto runs = database->load_runs();
  sqlite3_trace_v2(caught_connection, 0, nullptr, nullptr);
  sqlite3_close(deleter.other);
  ASSERT_TRUE(deleter.deleted);
  ASSERT_EQ(runs.size(), 2u);
  expect_equal(runs[0].run, test_run("sp", "W"));
  expect_equal(runs[1].run, test_run("sp", "A"));
  EXPECT_TRUE(database->load_runs().empty());  // the next read sees the deletion
}

}  // namespace
