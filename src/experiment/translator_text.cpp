// Characters and places of the CALL pragma translator (translator_text.hpp): character classes, C
// identifiers and keywords, feature-test macros, C string literals, line and column of an offset.
#include "translator_text.hpp"

#include <algorithm>
#include <cstdio>
#include <set>

namespace augur::experiment::detail {

bool is_c_identifier(std::string_view text) {
  if (text.empty() || !is_letter(text.front())) return false;
  return std::all_of(text.begin(), text.end(), [](char c) { return is_letter(c) || is_digit(c); });
}

bool is_keyword(std::string_view word) {
  static const std::set<std::string_view> keywords{
      "alignas", "alignof", "and", "and_eq", "asm", "auto", "bitand", "bitor", "bool", "break", "case", "catch", "char",
      "char8_t", "char16_t", "char32_t", "class", "co_await", "co_return", "co_yield", "compl", "concept", "const",
      "consteval", "constexpr", "constinit", "const_cast", "continue", "decltype", "default", "delete", "do", "double",
      "dynamic_cast", "else", "enum", "explicit", "export", "extern", "false", "float", "for", "friend", "goto", "if",
      "inline", "int", "long", "mutable", "namespace", "new", "noexcept", "not", "not_eq", "nullptr", "operator", "or",
      "or_eq", "private", "protected", "public", "register", "reinterpret_cast", "requires", "restrict", "return",
      "short", "signed", "sizeof", "static", "static_assert", "static_cast", "struct", "switch", "template", "this",
      "thread_local", "throw", "true", "try", "typedef", "typeid", "typename", "union", "unsigned", "using", "virtual",
      "void", "volatile", "wchar_t", "while", "xor", "xor_eq", "_Alignas", "_Alignof", "_Atomic", "_Bool", "_Complex",
      "_Generic", "_Imaginary", "_Noreturn", "_Static_assert", "_Thread_local"};
  return keywords.count(word) != 0;
}

bool is_feature_macro(std::string_view name) {
  const auto ends_with = [&](std::string_view suffix) {
    return name.size() > suffix.size() && name.substr(name.size() - suffix.size()) == suffix;
  };
  return (name.size() > 1 && name[0] == '_' && ends_with("_SOURCE")) || name == "_FILE_OFFSET_BITS" || name == "_TIME_BITS" ||
         name == "_REENTRANT" || name == "_THREAD_SAFE" || name == "_FORTIFY_SOURCE" || name.rfind("__STDC_WANT_", 0) == 0 ||
         name == "__STDC_FORMAT_MACROS" || name == "__STDC_LIMIT_MACROS" || name == "__STDC_CONSTANT_MACROS";
}

std::string c_string(std::string_view text) {
  std::string result = "\"";
  for (std::size_t index = 0; index < text.size(); ++index) {
    const auto c = static_cast<unsigned char>(text[index]);
    if (c == '\\' || c == '"') {
      result += '\\';
      result += static_cast<char>(c);
    } else if (c == '\n') {
      result += "\\n";
    } else if (c == '\t') {
      result += "\\t";
    } else if (c < 0x20 || c == 0x7f) {
      char octal[8];
      std::snprintf(octal, sizeof octal, "\\%03o", static_cast<unsigned>(c));
      result += octal;
    } else if (c == '?' && index + 1 < text.size() && text[index + 1] == '?') {
      result += "\\?";  // no trigraph
    } else {
      result += static_cast<char>(c);
    }
  }
  return result + "\"";
}

Places::Places(const core::SourceText& source) : file_(source.file()) {
  line_starts_.push_back(0);
  const std::string& text = source.text();
  for (std::size_t index = 0; index < text.size(); ++index) {
    if (text[index] == '\n') line_starts_.push_back(index + 1);
  }
}

core::SourceLocation Places::locate(std::size_t offset) const {
  const auto next = std::upper_bound(line_starts_.begin(), line_starts_.end(), offset);
  const auto line = static_cast<long>(next - line_starts_.begin());
  return {file_, line, static_cast<long>(offset - line_starts_[static_cast<std::size_t>(line - 1)]) + 1};
}

}  // namespace augur::experiment::detail
