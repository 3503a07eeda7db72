// What e2e_test.cpp and libaugur_e2e_test.cpp share: a run with none of the caller's AUGUR_*, OMP_* and GOMP_*
// variables, swim's checksum line, a JSON file read, plausible speedups and a report's speedup entry.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/process.hpp"
#include "e2e_child.hpp"
#include "e2e_support.hpp"

namespace augur::e2e {

using Json = nlohmann::json;
using Environment = std::vector<std::pair<std::string, std::string>>;

// The names of this process' AUGUR_*, OMP_* and GOMP_* variables: removed from every child.
inline std::vector<std::string> controlled_variables() {
  std::vector<std::string> names;
  for (char** entry = environ; entry != nullptr && *entry != nullptr; ++entry) {
    const std::string_view text(*entry);
    const std::string_view name = text.substr(0, text.find('='));
    if (is_controlled_variable(name)) names.emplace_back(name);
  }
  return names;
}

// `argv` run with none of the caller's controlled variables, and `variables` set.
inline core::ProcessResult run(const std::vector<std::string>& argv, const Environment& variables = {}) {
  core::ProcessOptions options;
  options.unset = controlled_variables();
  options.environment = variables;
  return core::run_process(argv, options);
}

inline std::size_t count_occurrences(const std::string& text, const std::string& needle) {
  std::size_t count = 0;
  for (auto position = text.find(needle); position != std::string::npos; position = text.find(needle, position + 1)) ++count;
  return count;
}

// The "swim: checksum ..." line of swim's output, or "" when there is none.
inline std::string checksum_line(const std::string& output) {
  std::istringstream lines(output);
  std::string line;
  while (std::getline(lines, line)) {
    if (line.rfind("swim: checksum ", 0) == 0) return line;
  }
  return "";
}

// Parses the JSON file at `path` into `json`.
inline ::testing::AssertionResult load_json(const std::filesystem::path& path, Json& json) {
  if (!std::filesystem::exists(path)) return ::testing::AssertionFailure() << path << " does not exist";
  const std::string text = read_text(path);
  try {
    json = Json::parse(text);
  } catch (const Json::exception& error) {
    return ::testing::AssertionFailure() << path << " is not JSON: " << error.what() << "\n" << text;
  }
  return ::testing::AssertionSuccess();
}

inline bool positive_finite(const Json& value) {
  return value.is_number() && std::isfinite(value.get<double>()) && value.get<double>() > 0.0;
}

// A measured speedup (a ratio of wall times): positive and finite. No upper bound: one baseline
// iteration stretched by the scheduler inflates T(B) and every S(p) with it; with two busy processes
// beside the test, S(2) = 287 was seen (T(B) = 13 ms for iterations of 0.1 ms).
inline bool plausible_speedup(const Json& value) { return positive_finite(value); }

// ST' = busy CPU time / wall time of a process running at most 2 threads: physically below 2 (plus
// clock granularity), so 4 is a safe bound.
inline bool plausible_self_tuning(const Json& value) { return positive_finite(value) && value.get<double>() < 4.0; }

// The entry for p in a report region's "speedup" array, or null.
inline Json speedup_entry(const Json& region, int processors) {
  for (const Json& entry : region.at("speedup")) {
    if (entry.at("p") == processors) return entry;
  }
  return nullptr;
}

}  // namespace augur::e2e
