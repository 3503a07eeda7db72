// What the tests of the CALL pragma translator share (translator_test.cpp, translator_errors_test.cpp): the
// seed's figures as test data, a translation of a text, its lines after the preamble, its error messages.
#pragma once

#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

#include "augur/core/diagnostics.hpp"
#include "experiment/translator.hpp"

namespace augur::experiment::translator_test {

inline const std::string data_directory = AUGUR_EXPERIMENT_DATA_DIR;

inline std::string read_data(const std::string& name) {
  std::ifstream stream(data_directory + "/" + name, std::ios::binary);
  EXPECT_TRUE(stream) << name;
  return {std::istreambuf_iterator<char>(stream), std::istreambuf_iterator<char>()};
}

inline Translation run(const std::string& text, const std::string& file = "t.c") { return translate(core::SourceText(file, text)); }

inline std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::string line;
  std::istringstream stream(text);
  while (std::getline(stream, line)) lines.push_back(line);
  return lines;
}

// The translated lines after the preamble's '#line 1': line k of the result is line k of the source.
inline std::vector<std::string> body_lines(const Translation& translation, const std::string& file = "t.c") {
  const std::string marker = "#line 1 \"" + file + "\"\n";
  const std::size_t at = translation.code.find(marker);
  EXPECT_NE(at, std::string::npos) << translation.code;
  if (at == std::string::npos) return {};
  return split_lines(translation.code.substr(at + marker.size()));
}

inline std::vector<std::string> messages(const Translation& translation) {
  std::vector<std::string> result;
  for (const auto& error : translation.errors) result.emplace_back(error.what());
  return result;
}

// The single error of translating `text`.
inline std::string error_of(const std::string& text) {
  const Translation translation = run(text);
  EXPECT_EQ(translation.errors.size(), 1u) << ::testing::PrintToString(messages(translation));
  EXPECT_TRUE(translation.code.empty());
  return translation.errors.empty() ? "no error" : translation.errors.front().what();
}

inline bool contains(const std::string& text, const std::string& needle) { return text.find(needle) != std::string::npos; }

}  // namespace augur::experiment::translator_test
