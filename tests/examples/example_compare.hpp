// What the example tests (example_test) and the documentation test (docs_test) share: the filter that
// masks what an example measures, the comparison of an output with its expected-output file (exact, or
// numbers within a relative tolerance), a unified-style diff for the failure message, and the manifest of
// the examples that tests/examples/CMakeLists.txt writes from the augur_example() calls.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <optional>
#include <regex>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace augur::examples {

// How an example's output is compared with its expected-output file.
struct Filter {
  // ECMAScript regular expressions, applied to each line in turn; every match, in the output and in the
  // expected file alike, becomes the placeholder `{masked}` before the comparison (what is measured: times,
  // speedups, paths), and runs of blanks become one.
  std::vector<std::string> masks;
  // 0: the texts must be equal. Otherwise the texts with their numbers taken out must be equal, and each
  // number within this relative difference of the expected one.
  double tolerance = 0.0;
};

// One augur_example() call, as recorded in the manifest.
struct Example {
  std::string name;
  std::vector<std::string> command;      // as a user types it: "augur", "build/bin/swim", paths from the top folder
  std::vector<std::string> environment;  // VAR=value, set for the command
  std::string expected;                  // the expected-output file, from the top folder
  std::string stream = "stdout";         // stdout, stderr or both (stdout then stderr)
  int exit_code = 0;
  Filter filter;
  // Not empty: the command runs in this folder of the build tree (a link `examples` in it leads to the
  // examples), for commands that write files (`augur db`); `fresh` empties it first.
  std::string scratch;
  bool fresh = false;
  int attempts = 1;  // runs of a measuring example, until one output matches
};

inline std::string read_text(const std::filesystem::path& path) {
  std::ifstream stream(path, std::ios::binary);
  if (!stream) throw std::runtime_error("cannot read " + path.string());
  return {std::istreambuf_iterator<char>(stream), std::istreambuf_iterator<char>()};
}

inline std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream stream(text);
  for (std::string line; std::getline(stream, line);) {
    if (!line.empty() && line.back() == '\r') line.pop_back();  // CSV lines end with CRLF; a page's with LF
    lines.push_back(line);
  }
  return lines;
}

// Each mask applies to each line in turn (so `^` and `$` are a line's ends). Masked text also has its runs
// of blanks made one: a table's columns are as wide as the widest value, which is measured too.
inline std::string apply_masks(const std::string& text, const std::vector<std::string>& masks) {
  if (masks.empty()) return text;
  std::vector<std::regex> patterns;
  for (const auto& mask : masks) patterns.emplace_back(mask);
  static const std::regex blanks(" {2,}");
  std::string masked;
  std::istringstream stream(text);
  for (std::string line; std::getline(stream, line);) {
    for (const auto& pattern : patterns) line = std::regex_replace(line, pattern, "{masked}");
    masked += std::regex_replace(line, blanks, " ") + "\n";
  }
  return masked;
}

namespace detail {

inline const std::regex& number_pattern() {
  static const std::regex pattern(R"([-+]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][-+]?[0-9]+)?)");
  return pattern;
}

// A line as its text with every number replaced by '#', and the numbers.
inline std::pair<std::string, std::vector<double>> take_numbers(const std::string& line) {
  std::string skeleton;
  std::vector<double> numbers;
  auto begin = std::sregex_iterator(line.begin(), line.end(), number_pattern());
  std::size_t position = 0;
  for (auto match = begin; match != std::sregex_iterator(); ++match) {
    skeleton += line.substr(position, static_cast<std::size_t>(match->position()) - position) + "#";
    numbers.push_back(std::strtod(match->str().c_str(), nullptr));
    position = static_cast<std::size_t>(match->position() + match->length());
  }
  skeleton += line.substr(position);
  return {skeleton, numbers};
}

inline bool lines_match(const std::string& expected, const std::string& actual, double tolerance) {
  if (expected == actual) return true;
  if (tolerance <= 0.0) return false;
  const auto [expected_skeleton, expected_numbers] = take_numbers(expected);
  const auto [actual_skeleton, actual_numbers] = take_numbers(actual);
  if (expected_skeleton != actual_skeleton || expected_numbers.size() != actual_numbers.size()) return false;
  for (std::size_t i = 0; i < expected_numbers.size(); ++i) {
    const double scale = std::max(std::fabs(expected_numbers[i]), std::fabs(actual_numbers[i]));
    if (std::fabs(expected_numbers[i] - actual_numbers[i]) > tolerance * scale) return false;
  }
  return true;
}

}  // namespace detail

// A unified-style diff of two line sequences (a longest common subsequence, every line shown): ' ' kept,
// '-' expected only, '+' actual only. `equal` decides whether two lines match.
template <typename Equal>
std::string unified_diff(const std::vector<std::string>& expected, const std::vector<std::string>& actual, Equal equal) {
  const std::size_t n = expected.size();
  const std::size_t m = actual.size();
  std::vector<std::vector<std::size_t>> common(n + 1, std::vector<std::size_t>(m + 1, 0));
  for (std::size_t i = n; i-- > 0;) {
    for (std::size_t j = m; j-- > 0;) {
      common[i][j] = equal(expected[i], actual[j]) ? common[i + 1][j + 1] + 1 : std::max(common[i + 1][j], common[i][j + 1]);
    }
  }
  std::string diff = "--- expected\n+++ actual\n";
  std::size_t i = 0;
  std::size_t j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && equal(expected[i], actual[j])) {
      diff += " " + actual[j] + "\n";
      ++i;
      ++j;
    } else if (i < n && (j == m || common[i + 1][j] >= common[i][j + 1])) {
      diff += "-" + expected[i++] + "\n";
    } else {
      diff += "+" + actual[j++] + "\n";
    }
  }
  return diff;
}

// Nothing when `actual` matches `expected` under the filter; otherwise the diff of the filtered texts.
inline std::optional<std::string> compare(const std::string& expected, const std::string& actual, const Filter& filter) {
  const auto expected_lines = split_lines(apply_masks(expected, filter.masks));
  const auto actual_lines = split_lines(apply_masks(actual, filter.masks));
  const auto equal = [&](const std::string& a, const std::string& b) { return detail::lines_match(a, b, filter.tolerance); };
  bool same = expected_lines.size() == actual_lines.size();
  for (std::size_t i = 0; same && i < expected_lines.size(); ++i) same = equal(expected_lines[i], actual_lines[i]);
  if (same) return std::nullopt;
  return unified_diff(expected_lines, actual_lines, equal);
}

// The manifest: a JSON array of the examples, one object per augur_example() call.
inline std::vector<Example> read_manifest(const std::filesystem::path& path) {
  const auto json = nlohmann::json::parse(read_text(path));
  std::vector<Example> examples;
  for (const auto& entry : json) {
    Example example;
    example.name = entry.at("name").get<std::string>();
    example.command = entry.at("command").get<std::vector<std::string>>();
    example.environment = entry.value("environment", std::vector<std::string>{});
    example.expected = entry.at("expected").get<std::string>();
    example.stream = entry.value("stream", std::string("stdout"));
    example.exit_code = std::stoi(entry.value("exit_code", std::string("0")));
    example.filter.masks = entry.value("masks", std::vector<std::string>{});
    example.filter.tolerance = std::stod(entry.value("tolerance", std::string("0")));
    example.scratch = entry.value("scratch", std::string());
    example.fresh = entry.value("fresh", false);
    example.attempts = entry.value("attempts", 1);
    examples.push_back(std::move(example));
  }
  return examples;
}

}  // namespace augur::examples
