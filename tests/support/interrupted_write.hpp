// A write to an SQLite database interrupted by kill -9, for the tests of the performance database
// (tests/store, tests/e2e/db_e2e_test.cpp). Header-only; the test links sqlite3.
#pragma once

#include <gtest/gtest.h>
#include <signal.h>
#include <sqlite3.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <string>

namespace augur::test {

// A child process opens `path` (creating it when missing) in rollback-journal mode, begins a transaction
// that runs `writes` and then writes more pages than its cache holds (so that changed pages reach the
// file), and is killed with SIGKILL before it commits: the hot journal that kill -9 during a write leaves.
inline void kill_a_writer(const std::string& path, const std::string& writes) {
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    sqlite3* database = nullptr;
    if (sqlite3_open(path.c_str(), &database) != SQLITE_OK) ::_exit(3);
    const std::string sql = "PRAGMA journal_mode = DELETE; PRAGMA cache_size = 10; BEGIN; " + writes +
                            "; CREATE TABLE junk (x); WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n "
                            "WHERE i < 2000) INSERT INTO junk SELECT randomblob(300) FROM n;";
    if (sqlite3_exec(database, sql.c_str(), nullptr, nullptr, nullptr) != SQLITE_OK) ::_exit(4);
    ::kill(::getpid(), SIGKILL);
    ::_exit(5);
  }
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL) << "the writer's status: " << status;
  ASSERT_GT(std::filesystem::file_size(path + "-journal"), 0u);
}

}  // namespace augur::test
