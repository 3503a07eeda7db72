// The line reader of the hierarchical simulator's formats (words.hpp).
#include "sim/hierarchy/words.hpp"

#include <cmath>
#include <cstdlib>

namespace augur::sim::hierarchy {

std::vector<std::vector<Word>> lines_of_words(const std::string& text) {
  std::vector<std::vector<Word>> lines;
  const auto blank = [](char c) { return c == ' ' || c == '\t' || c == '\r'; };
  for (std::size_t begin = 0; begin <= text.size();) {
    std::size_t end = text.find('\n', begin);
    if (end == std::string::npos) end = text.size();
    std::vector<Word> words;
    for (std::size_t position = begin; position < end;) {
      while (position < end && blank(text[position])) ++position;
      if (position >= end || text[position] == '#') break;
      const std::size_t start = position;
      while (position < end && !blank(text[position]) && text[position] != '#') ++position;
      words.push_back({text.substr(start, position - start), start});
    }
    if (!words.empty()) lines.push_back(std::move(words));
    begin = end + 1;
  }
  return lines;
}

double number_of(const core::SourceText& source, const Word& word) {
  char* end = nullptr;
  const double value = std::strtod(word.text.c_str(), &end);
  if (word.text.empty() || *end != '\0' || !std::isfinite(value)) source.fail(word.offset, "expected a number, found '" + word.text + "'");
  return value;
}

long whole_of(const core::SourceText& source, const Word& word, long minimum, long maximum) {
  const double value = number_of(source, word);
  if (value != std::floor(value) || value < static_cast<double>(minimum) || value > static_cast<double>(maximum))
    source.fail(word.offset, "expected a whole number from " + std::to_string(minimum) + " to " + std::to_string(maximum) + ", found '" + word.text + "'");
  return static_cast<long>(value);
}

}  // namespace augur::sim::hierarchy
