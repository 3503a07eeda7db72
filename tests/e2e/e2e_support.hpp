// What the end-to-end tests share: a process result described for a failure message, text files, and a
// fresh temporary directory removed afterwards (tests/support/temporary_directory.hpp).
#pragma once

#include <filesystem>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/process.hpp"
#include "support/temporary_directory.hpp"

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

// A fresh directory under $TMPDIR (or /tmp), removed with everything in it (tests/support/).
using TemporaryDirectory = test::TemporaryDirectory;

#ifdef AUGUR_MPIEXEC
// The launcher before a command: mpirun -np RANKS, allowed as root and with more ranks than cores.
inline std::vector<std::string> mpirun(int ranks) {
  return {AUGUR_MPIEXEC, "--allow-run-as-root", "--oversubscribe", "-np", std::to_string(ranks)};
}
#endif

}  // namespace augur::e2e
