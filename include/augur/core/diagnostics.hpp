// Errors that users can cause, with the place in their input at fault.
#pragma once

#include <stdexcept>
#include <string>

namespace augur::core {

struct SourceLocation {
  std::string file;  // a path, "<stdin>", or a variable name
  long line = 0;     // 1-based; 0 when the location is the whole file
  long column = 0;   // 1-based; 0 when unknown
};

// "file:line:col: message" (line and column omitted when unknown).
[[nodiscard]] std::string format_diagnostic(const SourceLocation& location, const std::string& message);

// An error in a user's input; what() is the formatted diagnostic.
class InputError : public std::runtime_error {
public:
  InputError(SourceLocation location, const std::string& message);
  [[nodiscard]] const SourceLocation& location() const { return location_; }
  // The message without its location (to restate it under another place).
  [[nodiscard]] const std::string& message() const { return message_; }

private:
  SourceLocation location_;
  std::string message_;
};

// Line and column (1-based) of the byte at `offset` in `text`.
[[nodiscard]] SourceLocation locate_offset(const std::string& file, const std::string& text, std::size_t offset);

}  // namespace augur::core
