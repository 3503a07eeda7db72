#include "augur/core/diagnostics.hpp"

#include <algorithm>

namespace augur::core {

std::string format_diagnostic(const SourceLocation& location, const std::string& message) {
  std::string text = location.file;
  if (location.line > 0) {
    text += ":" + std::to_string(location.line);
    if (location.column > 0) text += ":" + std::to_string(location.column);
  }
  return text + ": " + message;
}

InputError::InputError(SourceLocation location, const std::string& message)
    : std::runtime_error(format_diagnostic(location, message)), location_(std::move(location)), message_(message) {}

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
