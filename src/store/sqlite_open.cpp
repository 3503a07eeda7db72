#include "sqlite_open.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <system_error>

#include "schema.hpp"

namespace augur::store::sqlite {

namespace {

namespace fs = std::filesystem;

[[noreturn]] void newer_schema(const std::string& path, std::int64_t version, const std::string& advice) {
  throw StoreError(ErrorKind::NewerSchema, path + ": the performance database has schema version " +
                                               std::to_string(version) + ", newer than this augur knows (" +
                                               std::to_string(current_schema_version()) + "); " + advice);
}

// Reads the header first: a file that is not a database, or another program's database, is refused
// before anything is written to it. Then, ReadWrite, WAL mode and the migrations (one transaction).
void check_and_migrate(Connection& connection, OpenMode mode) {
  const std::string& path = connection.path();
  const int known = current_schema_version();
  const auto version = connection.integer("PRAGMA user_version");
  const auto application = connection.integer("PRAGMA application_id");
  const auto objects = connection.integer("SELECT count(*) FROM sqlite_master");
  if (application != kApplicationId && (application != 0 || version != 0 || objects != 0)) {
    throw StoreError(ErrorKind::NotAugur, path +
                                              ": an SQLite database, but not augur's performance database; augur "
                                              "leaves it unchanged (give another file with --db or AUGUR_DB)");
  }
  if (version > known) newer_schema(path, version, "use a newer augur (the file is unchanged)");
  connection.execute("PRAGMA foreign_keys = ON", "turn foreign keys on");
  if (mode == OpenMode::ReadOnly) {
    if (version < known) {
      throw StoreError(ErrorKind::OlderSchema, path + ": the performance database has schema version " +
                                                   std::to_string(version) + (version == 0 ? " (empty)" : "") +
                                                   "; this augur needs version " + std::to_string(known) +
                                                   " and migrates it when it next writes to it (augur db add)");
    }
    return;
  }
  {
    Statement journal(connection, "PRAGMA journal_mode = WAL");
    journal.step();
  }
  if (version == known) return;
  Transaction transaction(connection);
  // Another process may have migrated it between the check and the lock.
  const auto locked_version = connection.integer("PRAGMA user_version");
  if (locked_version > known) newer_schema(path, locked_version, "use a newer augur");
  for (const Migration& migration : migrations()) {
    if (migration.version <= locked_version) continue;
    connection.execute(migration.sql, "migrate the database to schema version " + std::to_string(migration.version) +
                                          " (" + migration.description + ")");
    connection.execute("PRAGMA user_version = " + std::to_string(migration.version), "set the schema version");
  }
  connection.execute("PRAGMA application_id = " + std::to_string(kApplicationId), "mark the database as augur's");
  transaction.commit();
}

[[noreturn]] void refuse_folder(const std::string& path, const std::error_code& error, const std::string& what) {
  const bool denied = error == std::errc::read_only_file_system || error == std::errc::permission_denied;
  throw StoreError(denied ? ErrorKind::ReadOnly : ErrorKind::CannotOpen, path + ": " + what + ": " + error.message());
}

// The checks SQLite would answer less clearly: what is at `path`, and (ReadWrite) its folder made and
// writable. Returns whether the folder can be written.
bool check_place(const std::string& path, OpenMode mode) {
  std::error_code error;
  const bool exists = fs::exists(path, error);
  // A folder on the way that cannot be searched, for one: not "no database here".
  if (error) refuse_folder(path, error, "cannot look at the database");
  if (exists && fs::is_directory(path, error)) {
    throw StoreError(ErrorKind::CannotOpen, path + ": cannot open the database: it is a directory");
  }
  if (mode == OpenMode::ReadOnly && !exists) {
    throw StoreError(ErrorKind::NotFound,
                     path + ": no performance database here (store runs with 'augur db add' or 'augur couple')");
  }
  const fs::path parent = fs::path(path).parent_path();
  if (mode == OpenMode::ReadWrite && !exists && !parent.empty() && !fs::is_directory(parent, error)) {
    fs::create_directories(parent, error);
    if (error) refuse_folder(path, error, "cannot create the folder " + parent.string());
  }
  const fs::path folder = parent.empty() ? fs::path(".") : parent;
  const bool folder_writable = ::access(folder.c_str(), W_OK) == 0;
  const int folder_errno = errno;
  if (mode == OpenMode::ReadWrite && !folder_writable) {
    // SQLite writes its journal beside the database: the folder must be writable too.
    throw StoreError(ErrorKind::ReadOnly, path + ": cannot write in the folder " + folder.string() + " (" +
                                              std::strerror(folder_errno) +
                                              "); check the permissions of the folder, or give another file with --db");
  }
  if (mode == OpenMode::ReadWrite && exists && ::access(path.c_str(), W_OK) != 0) {
    const int reason = errno;
    throw StoreError(ErrorKind::ReadOnly, path + ": cannot write to the database (" + std::strerror(reason) +
                                              "); check the permissions of the file");
  }
  return folder_writable;
}

std::unique_ptr<Connection> open_checked(const std::string& path, OpenMode mode, const OpenOptions& options) {
  auto connection =
      std::make_unique<Connection>(path, mode == OpenMode::ReadWrite, true, options.busy_timeout_milliseconds);
  check_and_migrate(*connection, mode);
  return connection;
}

// A read-only connection that meets a hot journal (a writer stopped mid-transaction: a crash, kill -9)
// cannot read until it is rolled back. Where the file and its folder can be written, a read-write
// connection's first read rolls it back (SQLite's own recovery, under its locks, as the next writer
// would do); otherwise the error says what is wrong and how to recover.
std::string roll_back_interrupted_write(const std::string& path, const OpenOptions& options) {
  const fs::path parent = fs::path(path).parent_path();
  const std::string folder = parent.empty() ? std::string(".") : parent.string();
  std::string obstacle;
  if (::access(folder.c_str(), W_OK) != 0) {
    obstacle = "its folder " + folder + " cannot be written (" + std::strerror(errno) + ")";
  } else if (::access(path.c_str(), W_OK) != 0) {
    obstacle = "the file cannot be written (" + std::string(std::strerror(errno)) + ")";
  }
  const std::string what = path + ": a write to the database was interrupted (a process stopped while writing, " +
                           "e.g. a crash or kill -9, and left its rollback journal " + path + "-journal)";
  if (!obstacle.empty()) {
    throw StoreError(ErrorKind::Interrupted,
                     what + "; it must be rolled back before the database can be read, but " + obstacle +
                         ": run a command that writes (augur db add) as a user who can write there, or copy the "
                         "database together with its -journal file to a writable folder and read the copy");
  }
  Connection recovery(path, true, false, options.busy_timeout_milliseconds);
  (void)recovery.integer("SELECT count(*) FROM sqlite_master");
  return what + "; rolled it back: the database is as it was before that write";
}

}  // namespace

OpenedDatabase open_database(const std::string& path, OpenMode mode, const OpenOptions& options) {
  const bool folder_writable = check_place(path, mode);
  OpenedDatabase opened;
  try {
    opened.connection = open_checked(path, mode, options);
    return opened;
  } catch (const StoreError& failure) {
    if (failure.kind() == ErrorKind::Interrupted) {
      const std::string note = roll_back_interrupted_write(path, options);
      try {
        opened.connection = open_checked(path, mode, options);
      } catch (const StoreError& then) {  // e.g. a creation interrupted: the file is empty again
        throw StoreError(then.kind(), note + ". " + then.what());
      }
      opened.notes.push_back(note);
      return opened;
    }
    // A WAL database in a folder that cannot be written (read-only media, an archive) cannot make its
    // shared-memory file: read it as immutable instead, since nothing can change it there either.
    const bool cannot_open = failure.kind() == ErrorKind::CannotOpen || failure.kind() == ErrorKind::ReadOnly;
    if (mode != OpenMode::ReadOnly || folder_writable || !cannot_open) throw;
  }
  // Immutable reading ignores a write-ahead log: with one that holds commits, it would show an older
  // database without a word. Refuse instead.
  const fs::path folder = fs::path(path).has_parent_path() ? fs::path(path).parent_path() : fs::path(".");
  const fs::path wal = path + "-wal";
  std::error_code error;
  if (fs::exists(wal, error) && fs::file_size(wal, error) > 0) {
    throw StoreError(ErrorKind::ReadOnly,
                     path + ": cannot read the database: its folder " + folder.string() +
                         " cannot be written, and its write-ahead log " + wal.string() +
                         " holds commits that reading it as read-only media would miss; copy the database and "
                         "its -wal file to a writable folder");
  }
  opened.connection = std::make_unique<Connection>(path, false, false, options.busy_timeout_milliseconds, true);
  check_and_migrate(*opened.connection, mode);
  return opened;
}

}  // namespace augur::store::sqlite
