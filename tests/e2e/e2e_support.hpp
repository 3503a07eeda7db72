// What the end-to-end tests share: a process result described for a failure message, text files, and a
// fresh temporary directory removed afterwards.
#pragma once

#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>
#include <stdexcept>
#include <string>
#include <system_error>
#include <vector>

#include "core/process.hpp"

namespace augur::e2e {

// "exited with status 1" and both outputs, for a failed expectation.
inline std::string describe(const core::ProcessResult& result) {
  return result.describe_status() + "\n--- stdout ---\n" + result.standard_output + "--- stderr ---\n" + result.standard_error;
}

inline bool contains(const std::string& text, const std::string& needle) { return text.find(needle) != std::string::npos; }
inline bool starts_with(const std::string& text, const std::string& prefix) { return text.rfind(prefix, 0) == 0; }

inline std::string read_text(const std::filesystem::path& path) {
  std::ifstream stream(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(stream), std::istreambuf_iterator<char>()};
}

// Writes `text` to `path`, creating its parent directories; throws when it cannot.
inline void write_text(const std::filesystem::path& path, const std::string& text) {
  if (path.has_parent_path()) std::filesystem::create_directories(path.parent_path());
  std::ofstream stream(path, std::ios::binary);
  stream << text;
  if (!stream) throw std::runtime_error("cannot write " + path.string());
}

// A fresh directory under the system's temporary directory, removed with everything in it.
class TemporaryDirectory {
public:
  TemporaryDirectory() {
    std::string pattern = (std::filesystem::temp_directory_path() / "augur-e2e-XXXXXX").string();
    if (::mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("cannot create a temporary directory from " + pattern);
    path_ = pattern;
  }
  ~TemporaryDirectory() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  TemporaryDirectory(const TemporaryDirectory&) = delete;
  TemporaryDirectory& operator=(const TemporaryDirectory&) = delete;

  [[nodiscard]] const std::filesystem::path& path() const { return path_; }
  [[nodiscard]] std::string file(const std::string& name) const { return (path_ / name).string(); }
  // Writes `text` to the file `name` (may contain directories) and returns its path.
  std::string write(const std::string& name, const std::string& text) const {
    write_text(path_ / name, text);
    return file(name);
  }
  // The names of the entries directly in the directory, sorted.
  [[nodiscard]] std::vector<std::string> names() const {
    std::set<std::string> sorted;
    for (const auto& entry : std::filesystem::directory_iterator(path_)) sorted.insert(entry.path().filename().string());
    return {sorted.begin(), sorted.end()};
  }
  // Every regular file under the directory, relative to it, sorted.
  [[nodiscard]] std::vector<std::string> files() const {
    std::set<std::string> sorted;
    for (const auto& entry : std::filesystem::recursive_directory_iterator(path_)) {
      if (entry.is_regular_file()) sorted.insert(std::filesystem::relative(entry.path(), path_).string());
    }
    return {sorted.begin(), sorted.end()};
  }

private:
  std::filesystem::path path_;
};

}  // namespace augur::e2e
