// Opening the SQLite performance database: the checks made before SQLite touches the file, the roll-back
// of a write that a crash interrupted (a hot journal), the fallback for read-only media, and the check
// of the file's header and schema (and, read-write, the migration). The runs themselves: sqlite_add.cpp
// (storing) and sqlite_queries.cpp (reading).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "sqlite_connection.hpp"
#include "store/store.hpp"

namespace augur::store::sqlite {

struct OpenedDatabase {
  std::unique_ptr<Connection> connection;
  // What opening did that the user should hear of (a rolled-back interrupted write); empty: nothing.
  std::vector<std::string> notes;
};

// The connection to augur's database at `path`, checked (augur's, a schema this binary knows) and,
// ReadWrite, created and migrated. Throws StoreError naming the file.
[[nodiscard]] OpenedDatabase open_database(const std::string& path, OpenMode mode, const OpenOptions& options);

}  // namespace augur::store::sqlite
