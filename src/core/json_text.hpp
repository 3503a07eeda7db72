// JSON as augur writes it: every writer of JSON goes through json_text (never nlohmann's dump() with
// its default, which throws type_error.316 on text that is not valid UTF-8 and so loses the output).
// Text that is not valid UTF-8 (a program path, a region or kernel name in another encoding) is written
// with U+FFFD in place of each invalid byte. And what a user sees of nlohmann's own exceptions goes
// through describe_error: never the library's "[json.exception...]" text.
#pragma once

#include <exception>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace augur::core {

// The JSON text of `value` (compact when `indent` < 0, else indented by that many spaces). Never throws
// for invalid UTF-8: each invalid byte of a string becomes U+FFFD.
template <typename BasicJson>
[[nodiscard]] std::string json_text(const BasicJson& value, int indent = -1) {
  return value.dump(indent, ' ', false, BasicJson::error_handler_t::replace);
}

// `text` as a JSON string literal, with its quotes (for writers that build their JSON by hand).
[[nodiscard]] std::string json_quoted(std::string_view text);

// `text` with each byte that is not part of valid UTF-8 replaced by U+FFFD (for messages and tables).
[[nodiscard]] std::string valid_utf8(std::string_view text);

// What to tell a user of `error`: its message, except for nlohmann's exceptions, whose
// "[json.exception.type_error.316] ..." becomes "JSON: ..." without the library's tag.
[[nodiscard]] std::string describe_error(const std::exception& error);

}  // namespace augur::core
