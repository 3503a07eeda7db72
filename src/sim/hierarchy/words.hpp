// The line reader shared by the hierarchical simulator's three file formats (machine, program model,
// program; docs/formats.md): one setting a line, words separated by blanks, '#' starts a comment. Each word
// keeps its offset in the text, so that every error is located at file:line:col.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "augur/core/expression.hpp"

namespace augur::sim::hierarchy {

struct Word {
  std::string text;
  std::size_t offset = 0;
};

// The lines of `text` that hold at least one word, each as its words.
[[nodiscard]] std::vector<std::vector<Word>> lines_of_words(const std::string& text);

// A number read from `word`, or an error located at the word ("expected a number, found 'x'").
[[nodiscard]] double number_of(const core::SourceText& source, const Word& word);
// A whole number in [minimum, maximum], or an error located at the word.
[[nodiscard]] long whole_of(const core::SourceText& source, const Word& word, long minimum, long maximum);

}  // namespace augur::sim::hierarchy
