// Line-oriented input: the lines of a text that carry data, with their numbers, for the readers of
// line-based formats (JSON Lines records, superstep traces, CSV).
#pragma once

#include <string_view>
#include <vector>

namespace augur::core {

// A line that carries data: neither blank nor a '#' comment.
struct TextLine {
  std::string_view text;  // without the line break (and without a '\r' before it)
  long number = 0;        // 1-based
};

// The lines of `text` whose first non-blank character exists and is not '#' (blanks: space, tab, '\r').
// A UTF-8 byte order mark at the start is skipped. The views point into `text`.
[[nodiscard]] std::vector<TextLine> significant_lines(std::string_view text);

}  // namespace augur::core
