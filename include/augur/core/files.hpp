// Files: written whole or not at all.
#pragma once

#include <string>
#include <string_view>

namespace augur::core {

// Writes `content` to a temporary file beside `path`, then renames it over `path`, so that a reader
// never sees half a file and a failure leaves no partial output. Throws std::runtime_error naming
// the path on failure.
void write_file_atomically(const std::string& path, std::string_view content);

// Reads a whole file; throws std::runtime_error naming the path when it cannot.
[[nodiscard]] std::string read_file(const std::string& path);

}  // namespace augur::core
