// The schema of the SQLite performance database as an ordered list of migrations: migration i takes
// a database from schema version i − 1 to i (PRAGMA user_version). Released migrations are never
// edited; a change of schema is a new migration at the end (docs/formats.md, "Performance database").
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace augur::store::sqlite {

struct Migration {
  int version = 0;          // the schema version after it
  std::string description;  // for messages
  std::string sql;          // statements separated by ';', run inside the migration's transaction
};

[[nodiscard]] const std::vector<Migration>& migrations();

// PRAGMA application_id of augur's performance databases: "augr" in ASCII.
inline constexpr std::int32_t kApplicationId = 0x61756772;

}  // namespace augur::store::sqlite
