#include "sqlite_connection.hpp"

#include <cmath>
#include <cstdio>
#include <limits>

namespace augur::store::sqlite {

namespace {

// The SQLite message behind a code, with the connection's detail when it has one.
std::string sqlite_message(sqlite3* database, int code) {
  const char* generic = sqlite3_errstr(code);
  if (database == nullptr) return generic;
  const int current = sqlite3_extended_errcode(database);
  if ((current & 0xff) != (code & 0xff)) return generic;
  return sqlite3_errmsg(database);
}

}  // namespace

Connection::Connection(std::string path, bool writable, bool create, int busy_timeout_milliseconds, bool immutable)
    : path_(std::move(path)), busy_timeout_milliseconds_(busy_timeout_milliseconds) {
  int flags = writable && !immutable ? SQLITE_OPEN_READWRITE : SQLITE_OPEN_READONLY;
  if (writable && create && !immutable) flags |= SQLITE_OPEN_CREATE;
  flags |= SQLITE_OPEN_NOMUTEX;
  std::string name = path_;
  if (immutable) {
    // file:PATH?immutable=1, with the characters a URI gives a meaning to escaped.
    name = "file:";
    for (const char character : path_) {
      if (character == '%' || character == '?' || character == '#') {
        char escaped[4];
        std::snprintf(escaped, sizeof escaped, "%%%02X", static_cast<unsigned char>(character));
        name += escaped;
      } else {
        name += character;
      }
    }
    name += "?immutable=1";
    flags |= SQLITE_OPEN_URI;
  }
  const int code = sqlite3_open_v2(name.c_str(), &database_, flags, nullptr);
  if (code != SQLITE_OK) {
    try {
      fail(code, "cannot open");
    } catch (...) {
      sqlite3_close(database_);
      database_ = nullptr;
      throw;
    }
  }
  sqlite3_extended_result_codes(database_, 1);
  sqlite3_busy_timeout(database_, busy_timeout_milliseconds_);
}

Connection::~Connection() {
  if (database_ != nullptr) sqlite3_close_v2(database_);
}

void Connection::fail(int code, const std::string& what) const {
  const std::string detail = sqlite_message(database_, code);
  const std::string prefix = path_ + ": ";
  if (code == SQLITE_READONLY_ROLLBACK) {
    // A hot journal met by a read-only connection: not a permission problem (sqlite_open.cpp recovers it).
    throw StoreError(ErrorKind::Interrupted, prefix + "cannot " + what + ": a write to the database was interrupted " +
                                                 "(its rollback journal " + path_ +
                                                 "-journal is left over) and must be rolled back first");
  }
  switch (code & 0xff) {
    case SQLITE_NOTADB:
      throw StoreError(ErrorKind::NotADatabase,
                       prefix + "not an SQLite database (" + detail + "); augur leaves it unchanged");
    case SQLITE_CORRUPT:
      throw StoreError(ErrorKind::Corrupt, prefix + "the database is corrupt (" + detail + ") while trying to " + what +
                                               "; restore it from a copy or export what can still be read");
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
      throw StoreError(ErrorKind::Locked, prefix + "the database is locked by another process (waited " +
                                              std::to_string(busy_timeout_milliseconds_) + " ms to " + what +
                                              "); try again when it has finished");
    case SQLITE_READONLY:
      throw StoreError(ErrorKind::ReadOnly, prefix + "cannot " + what + ": the database is read-only (" + detail +
                                                "); check the permissions of the file and its folder");
    case SQLITE_PERM:
    case SQLITE_AUTH:
      throw StoreError(ErrorKind::ReadOnly, prefix + "permission denied (" + detail + ") while trying to " + what);
    case SQLITE_CANTOPEN:
      throw StoreError(ErrorKind::CannotOpen, prefix + "cannot open the database (" + detail +
                                                  "); check that its folder exists and can be written");
    case SQLITE_FULL:
      throw StoreError(ErrorKind::Other, prefix + "the disk is full while trying to " + what);
    case SQLITE_IOERR:
      throw StoreError(ErrorKind::Other, prefix + "input/output error (" + detail + ") while trying to " + what);
    default:
      throw StoreError(ErrorKind::Other, prefix + "cannot " + what + ": " + detail);
  }
}

void Connection::execute(const std::string& sql, const std::string& what) {
  char* message = nullptr;
  const int code = sqlite3_exec(database_, sql.c_str(), nullptr, nullptr, &message);
  sqlite3_free(message);
  if (code != SQLITE_OK) fail(code, what.empty() ? "update the database" : what);
}

std::int64_t Connection::integer(const std::string& sql) {
  Statement statement(*this, sql);
  if (!statement.step()) return 0;
  return statement.integer(0);
}

std::int64_t Connection::last_insert_id() const {
  return sqlite3_last_insert_rowid(database_);
}

Statement::Statement(Connection& connection, std::string_view sql) : connection_(connection) {
  const int code =
      sqlite3_prepare_v2(connection.handle(), sql.data(), static_cast<int>(sql.size()), &statement_, nullptr);
  if (code != SQLITE_OK) connection.fail(code, "read the database");
}

Statement::~Statement() {
  sqlite3_finalize(statement_);
}

Statement& Statement::bind(int index, std::int64_t value) {
  const int code = sqlite3_bind_int64(statement_, index, static_cast<sqlite3_int64>(value));
  if (code != SQLITE_OK) connection_.fail(code, "bind a value");
  return *this;
}

Statement& Statement::bind(int index, double value) {
  if (std::isnan(value)) return bind_null(index);
  const int code = sqlite3_bind_double(statement_, index, value);
  if (code != SQLITE_OK) connection_.fail(code, "bind a value");
  return *this;
}

Statement& Statement::bind(int index, const std::string& value) {
  const int code = sqlite3_bind_text(statement_, index, value.data(), static_cast<int>(value.size()), SQLITE_TRANSIENT);
  if (code != SQLITE_OK) connection_.fail(code, "bind a value");
  return *this;
}

Statement& Statement::bind_null(int index) {
  const int code = sqlite3_bind_null(statement_, index);
  if (code != SQLITE_OK) connection_.fail(code, "bind a value");
  return *this;
}

bool Statement::step() {
  const int code = sqlite3_step(statement_);
  if (code == SQLITE_ROW) return true;
  if (code == SQLITE_DONE) return false;
  const bool writes = sqlite3_stmt_readonly(statement_) == 0;
  connection_.fail(code, writes ? "write to the database" : "read the database");
}

void Statement::run() {
  while (step()) {
  }
}

void Statement::reset() {
  sqlite3_reset(statement_);
  sqlite3_clear_bindings(statement_);
}

int Statement::columns() const {
  return sqlite3_column_count(statement_);
}

std::string Statement::column_name(int column) const {
  const char* name = sqlite3_column_name(statement_, column);
  return name == nullptr ? std::string() : std::string(name);
}

bool Statement::is_null(int column) const {
  return sqlite3_column_type(statement_, column) == SQLITE_NULL;
}

int Statement::type(int column) const {
  return sqlite3_column_type(statement_, column);
}

std::int64_t Statement::integer(int column) const {
  return sqlite3_column_int64(statement_, column);
}

double Statement::real(int column) const {
  if (is_null(column)) return std::numeric_limits<double>::quiet_NaN();
  return sqlite3_column_double(statement_, column);
}

std::optional<double> Statement::optional_real(int column) const {
  if (is_null(column)) return std::nullopt;
  return sqlite3_column_double(statement_, column);
}

std::string Statement::text(int column) const {
  const auto* bytes = sqlite3_column_text(statement_, column);
  if (bytes == nullptr) return {};
  return {reinterpret_cast<const char*>(bytes), static_cast<std::size_t>(sqlite3_column_bytes(statement_, column))};
}

Transaction::Transaction(Connection& connection) : connection_(connection) {
  connection_.execute("BEGIN IMMEDIATE", "start writing");
}

Transaction::~Transaction() {
  if (open_) sqlite3_exec(connection_.handle(), "ROLLBACK", nullptr, nullptr, nullptr);
}

void Transaction::commit() {
  connection_.execute("COMMIT", "commit the change");
  open_ = false;
}

ReadSnapshot::ReadSnapshot(Connection& connection) : connection_(connection) {
  if (sqlite3_get_autocommit(connection_.handle()) == 0) return;
  connection_.execute("BEGIN", "start reading");
  open_ = true;
}

ReadSnapshot::~ReadSnapshot() {
  if (open_) sqlite3_exec(connection_.handle(), "ROLLBACK", nullptr, nullptr, nullptr);  // it wrote nothing
}

}  // namespace augur::store::sqlite
