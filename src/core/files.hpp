// Files: written whole or not at all.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

namespace augur::core {

// Writes `content` to a temporary file beside `path`, then renames it over `path`, so that a reader
// never sees half a file and a failure leaves no partial output. Throws std::runtime_error naming
// the path on failure.
void write_file_atomically(const std::string& path, std::string_view content);

// Reads a whole file; throws std::runtime_error "PATH: cannot read: why" when it cannot (a directory
// included).
[[nodiscard]] std::string read_file(const std::string& path);

// `text` made a safe part of a file name: every character other than a letter, a digit, '.' or '_'
// becomes '_' (a name given by a user or a program may hold '/', blanks, anything).
[[nodiscard]] std::string file_name_part(std::string text);

// A fresh private folder, $TMPDIR/PREFIX-XXXXXX (or /tmp), removed with its contents at destruction.
// Throws std::runtime_error when it cannot be made.
class TemporaryFolder {
public:
  explicit TemporaryFolder(const std::string& prefix);
  ~TemporaryFolder();
  TemporaryFolder(const TemporaryFolder&) = delete;
  TemporaryFolder& operator=(const TemporaryFolder&) = delete;
  [[nodiscard]] const std::filesystem::path& path() const { return path_; }

private:
  std::filesystem::path path_;
};

}  // namespace augur::core
