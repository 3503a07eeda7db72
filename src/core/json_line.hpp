// One JSON object on one line of a JSON Lines file, with the place of each of its values, so that
// readers of line-based formats report errors at file:line:column.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <limits>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "augur/core/diagnostics.hpp"
#include "core/lines.hpp"

namespace augur::core {

// A JSON integer that fits T (std::in_range); a float never does (nlohmann would convert it with undefined
// behaviour when it is out of T's range, and truncate it otherwise). Other types: get<T> says what is wrong.
template <typename T>
bool json_integer_fits(const nlohmann::json& value) {
  if (value.is_number_unsigned()) return std::in_range<T>(value.get<std::uint64_t>());
  if (value.is_number_integer()) return std::in_range<T>(value.get<std::int64_t>());
  return !value.is_number_float();
}

// The value of field `key` of an object (`field`, found) as T; otherwise an InputError in `file`: "WHERE: field
// 'KEY' is not a whole number from MIN to MAX" (an integral T), or "... has the wrong type (TYPE)".
template <typename T>
T json_field_as(const nlohmann::json& field, const char* key, const std::string& where, const std::string& file) {
  if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
    if (!json_integer_fits<T>(field)) {
      throw InputError({file, 0, 0}, where + ": field '" + key + "' is not a whole number from " +
                                         std::to_string(std::numeric_limits<T>::min()) + " to " +
                                         std::to_string(std::numeric_limits<T>::max()));
    }
  }
  try {
    return field.get<T>();
  } catch (const nlohmann::json::exception&) {
    throw InputError({file, 0, 0}, where + ": field '" + key + "' has the wrong type (" + field.type_name() + ")");
  }
}

class JsonLine {
public:
  using Json = nlohmann::json;

  // Parses the line; throws InputError at the column at fault when it is not a JSON object.
  JsonLine(std::string file, const TextLine& line);

  [[nodiscard]] const Json& json() const { return json_; }
  [[nodiscard]] long line() const { return number_; }
  [[nodiscard]] const std::string& file() const { return file_; }
  [[nodiscard]] SourceLocation line_location() const { return {file_, number_, 1}; }

  // Where the value of `key` starts (the line, column 1, when it cannot be found).
  [[nodiscard]] SourceLocation at(const std::string& key) const;
  [[nodiscard]] bool has(const std::string& key) const { return json_.contains(key); }
  // The value of `key`; throws "missing key 'KEY'" when absent.
  [[nodiscard]] const Json& field(const std::string& key) const;
  // Throws "unknown key 'K' in WHAT (expected ...)" at the first key not in `allowed`.
  void check_keys(std::initializer_list<std::string_view> allowed, const std::string& what) const;
  [[nodiscard]] InputError unknown_key(const std::string& key, std::initializer_list<std::string_view> allowed,
                                       const std::string& what) const;

  [[nodiscard]] std::string string_of(const std::string& key) const;
  // A whole number from `minimum` to `maximum`.
  [[nodiscard]] std::int64_t integer_of(const std::string& key, std::int64_t minimum, std::int64_t maximum,
                                        const std::string& range_note = "") const;
  [[nodiscard]] static std::int64_t integer_value(const Json& value, const std::string& what, std::int64_t minimum,
                                                  std::int64_t maximum, const std::string& range_note,
                                                  const SourceLocation& location);
  // A finite number ≥ 0.
  [[nodiscard]] double seconds_of(const std::string& key) const;
  // A finite number ≥ 0 inside an array or object value (`what` names it in messages).
  [[nodiscard]] static double non_negative_value(const Json& value, const std::string& what,
                                                 const SourceLocation& location);

private:
  std::string file_;
  long number_;
  Json json_;
  std::vector<std::pair<std::string, std::size_t>> offsets_;
};

}  // namespace augur::core
