// A fresh temporary directory for one test, removed with everything in it when the test ends (passed,
// failed or thrown): the suite leaves nothing behind in $TMPDIR. Header-only, so that every test can use
// it whatever it links; augur_test() in tests/CMakeLists.txt puts tests/ on every test's include path
// ("support/temporary_directory.hpp").
#pragma once

#include <stdlib.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>
#include <stdexcept>
#include <string>
#include <system_error>
#include <vector>

namespace augur::test {

// $TMPDIR/<prefix>-XXXXXX (or /tmp when TMPDIR is unset or empty), made private by mkdtemp.
class TemporaryDirectory {
public:
  explicit TemporaryDirectory(const std::string& prefix = "augur-test") {
    const char* base = std::getenv("TMPDIR");
    std::string pattern = std::string(base != nullptr && *base != '\0' ? base : "/tmp") + "/" + prefix + "-XXXXXX";
    if (::mkdtemp(pattern.data()) == nullptr) {
      throw std::runtime_error("cannot create a temporary directory from " + pattern + ": " + std::strerror(errno));
    }
    path_ = pattern;
  }
  ~TemporaryDirectory() {
    std::error_code ignored;  // a destructor must not throw; what cannot be removed stays
    std::filesystem::remove_all(path_, ignored);
  }
  TemporaryDirectory(const TemporaryDirectory&) = delete;
  TemporaryDirectory& operator=(const TemporaryDirectory&) = delete;

  [[nodiscard]] const std::filesystem::path& path() const { return path_; }
  // The path of `name` inside the directory (the file need not exist).
  [[nodiscard]] std::string file(const std::string& name) const { return (path_ / name).string(); }
  // Writes `text` to the file `name` (may contain directories, created) and returns its path; throws when
  // it cannot.
  std::string write(const std::string& name, const std::string& text) const {
    const std::filesystem::path target = path_ / name;
    std::filesystem::create_directories(target.parent_path());
    std::ofstream stream(target, std::ios::binary);
    stream << text;
    if (!stream) throw std::runtime_error("cannot write " + target.string());
    return target.string();
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

}  // namespace augur::test
