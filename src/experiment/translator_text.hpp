// The translator's view of characters and places (private to src/experiment): the character classes of
// its lexer, C identifiers and keywords, the feature-test macros that must precede the first system
// header, C string literals for the generated code, and the line and column of an offset in the source.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "augur/core/diagnostics.hpp"
#include "augur/core/expression.hpp"

namespace augur::experiment::detail {

inline bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v'; }
inline bool is_digit(char c) { return c >= '0' && c <= '9'; }
inline bool is_letter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
// Identifier characters of the lexer: also '$' and the bytes of UTF-8 sequences, which GCC accepts.
inline bool is_identifier_start(char c) { return is_letter(c) || c == '$' || static_cast<unsigned char>(c) >= 0x80; }
inline bool is_identifier_char(char c) { return is_identifier_start(c) || is_digit(c); }

bool is_c_identifier(std::string_view text);
bool is_keyword(std::string_view word);

// Macros that select what the C library declares: they only work before its first header.
bool is_feature_macro(std::string_view name);

// A C string literal of `text` (also good for the file name of #line).
std::string c_string(std::string_view text);

// Line and column of offsets in the original text.
class Places {
public:
  explicit Places(const core::SourceText& source);
  [[nodiscard]] core::SourceLocation locate(std::size_t offset) const;
  [[nodiscard]] long line(std::size_t offset) const { return locate(offset).line; }

private:
  std::string file_;
  std::vector<std::size_t> line_starts_;
};

}  // namespace augur::experiment::detail
