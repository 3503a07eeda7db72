// A thin RAII layer over the sqlite3 C API for the SQLite performance store: a connection, prepared
// statements, transactions, and SQLite result codes turned into StoreError messages that name the file.
#pragma once

#include <sqlite3.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "store/store.hpp"

namespace augur::store::sqlite {

class Connection;

class Statement {
 public:
  Statement(Connection& connection, std::string_view sql);
  ~Statement();
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;

  // Parameters are 1-based, as in SQL ("?1").
  Statement& bind(int index, std::int64_t value);
  Statement& bind(int index, int value) { return bind(index, static_cast<std::int64_t>(value)); }
  // NaN is stored as NULL (SQLite has no NaN).
  Statement& bind(int index, double value);
  Statement& bind(int index, const std::string& value);
  Statement& bind(int index, const char* value) { return bind(index, std::string(value)); }
  Statement& bind_null(int index);
  Statement& bind(int index, const std::optional<double>& value) {
    return value ? bind(index, *value) : bind_null(index);
  }

  // True while there is a row; false when done.
  bool step();
  // Runs a statement that returns no rows (or ignores them).
  void run();
  void reset();

  [[nodiscard]] int columns() const;
  [[nodiscard]] std::string column_name(int column) const;
  [[nodiscard]] bool is_null(int column) const;
  [[nodiscard]] int type(int column) const;
  [[nodiscard]] std::int64_t integer(int column) const;
  // NULL reads as NaN.
  [[nodiscard]] double real(int column) const;
  [[nodiscard]] std::optional<double> optional_real(int column) const;
  [[nodiscard]] std::string text(int column) const;

 private:
  Connection& connection_;
  sqlite3_stmt* statement_ = nullptr;
};

class Connection {
 public:
  // Opens without touching the file's content (SQLite reads lazily). `create`: create when missing.
  // `immutable`: read-only, and the file is promised not to change while open (no locks, no -shm
  // file): for databases in places that cannot be written.
  Connection(std::string path, bool writable, bool create, int busy_timeout_milliseconds, bool immutable = false);
  ~Connection();
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;

  [[nodiscard]] const std::string& path() const { return path_; }
  [[nodiscard]] sqlite3* handle() const { return database_; }
  [[nodiscard]] int busy_timeout_milliseconds() const { return busy_timeout_milliseconds_; }

  // Runs statements that return nothing (several may be separated by ';'); `what` names the action in
  // messages ("start a transaction").
  void execute(const std::string& sql, const std::string& what = "");
  // The first column of the first row of a query that returns one integer.
  [[nodiscard]] std::int64_t integer(const std::string& sql);
  [[nodiscard]] std::int64_t last_insert_id() const;

  // Throws the StoreError for SQLite result `code` while doing `what`.
  [[noreturn]] void fail(int code, const std::string& what) const;

 private:
  std::string path_;
  sqlite3* database_ = nullptr;
  int busy_timeout_milliseconds_;
};

// BEGIN IMMEDIATE (the write lock taken at once, waiting up to the busy timeout) ... COMMIT; rolled back
// when destroyed without commit(), so that an exception never leaves half a change.
class Transaction {
 public:
  explicit Transaction(Connection& connection);
  ~Transaction();
  Transaction(const Transaction&) = delete;
  Transaction& operator=(const Transaction&) = delete;
  void commit();

 private:
  Connection& connection_;
  bool open_ = true;
};

// One snapshot for several reads (BEGIN ... COMMIT): a writer that commits between them is not seen
// half (a run read without the measurements deleted meanwhile). Nothing when a transaction is open.
class ReadSnapshot {
 public:
  explicit ReadSnapshot(Connection& connection);
  ~ReadSnapshot();
  ReadSnapshot(const ReadSnapshot&) = delete;
  ReadSnapshot& operator=(const ReadSnapshot&) = delete;

 private:
  Connection& connection_;
  bool open_ = false;
};

}  // namespace augur::store::sqlite
