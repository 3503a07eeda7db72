// What the tests of libaugur's experiment records share (experiment_runtime_test.cpp, superstep_trace_test.cpp,
// experiment_threads_test.cpp): a scratch file that outlives libaugur's exit handlers, and JSON Lines read back.
#pragma once

#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "support/temporary_directory.hpp"

namespace augur::test {

// A file in this program's scratch directory. The directory lives until the program exits, after
// libaugur's exit handlers (registered later, so run earlier), which may still write records.
inline std::string temporary_path(const std::string& name) {
  static const TemporaryDirectory directory("augur-experiment-test");
  return directory.file(name);
}

// The records of a JSON Lines file, one JSON value a line.
inline std::vector<nlohmann::json> read_lines(const std::string& path) {
  std::ifstream input(path);
  std::vector<nlohmann::json> lines;
  std::string line;
  while (std::getline(input, line)) lines.push_back(nlohmann::json::parse(line));
  return lines;
}

}  // namespace augur::test
