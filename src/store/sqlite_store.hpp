// The SQLite performance store (one file; docs/formats.md, "Performance database").
#pragma once

#include <memory>
#include <string>

#include "store/store.hpp"

namespace augur::store::sqlite {

[[nodiscard]] std::unique_ptr<PerformanceStore> open_sqlite_store(const std::string& path, OpenMode mode,
                                                                  const OpenOptions& options);

}  // namespace augur::store::sqlite
