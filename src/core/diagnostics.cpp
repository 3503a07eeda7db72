#include "augur/core/diagnostics.hpp"

#include <algorithm>

namespace augur::core {

namespace {

// A word of the input quoted in a message ('...', no space inside) longer than this is cut to its first
// bytes and "...": a line of megabytes is never echoed whole.
constexpr std::size_t longest_quoted_word = 80;
constexpr std::size_t kept_of_long_word = 60;

std::string shorten_quoted_words(const std::string& message) {
  std::string out;
  std::size_t at = 0;
  while (at < message.size()) {
    const std::size_t open = message.find('\'', at);
    const std::size_t close = open == std::string::npos ? std::string::npos : message.find('\'', open + 1);
    if (close == std::string::npos) break;
    const std::size_t length = close - open - 1;
    const bool word = message.find_first_of(" \t\n", open + 1) >= close;
    if (!word || length <= longest_quoted_word) {
      out.append(message, at, close - at);
      at = close;  // the closing quote may open the next span
      continue;
    }
    std::size_t keep = kept_of_long_word;  // not inside a UTF-8 sequence
    while (keep > 0 && (static_cast<unsigned char>(message[open + 1 + keep]) & 0xC0U) == 0x80U) --keep;
    out.append(message, at, open + 1 + keep - at);
    out += "...' (" + std::to_string(length) + " bytes)";
    at = close + 1;
  }
  out.append(message, at, std::string::npos);
  return out;
}

}  // namespace

std::string format_diagnostic(const SourceLocation& location, const std::string& message) {
  std::string text = location.file;
  if (location.line > 0) {
    text += ":" + std::to_string(location.line);
    if (location.column > 0) text += ":" + std::to_string(location.column);
  }
  return text + ": " + message;
}

InputError::InputError(SourceLocation location, const std::string& message)
    : std::runtime_error(format_diagnostic(location, shorten_quoted_words(message))),
      location_(std::move(location)),
      message_(shorten_quoted_words(message)) {}

SourceLocation locate_offset(const std::string& file, const std::string& text, std::size_t offset) {
  offset = std::min(offset, text.size());
  SourceLocation location{file, 1, 1};
  for (std::size_t index = 0; index < offset; ++index) {
    if (text[index] == '\n') {
      ++location.line;
      location.column = 1;
    } else {
      ++location.column;
    }
  }
  return location;
}

}  // namespace augur::core
