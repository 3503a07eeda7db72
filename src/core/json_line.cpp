// JSON Lines records with the places of their values (include/augur/core/json_line.hpp).
#include "core/json_line.hpp"

#include <algorithm>
#include <cmath>

#include "core/json_text.hpp"

namespace augur::core {
namespace {

bool is_blank(char character) {
  return character == ' ' || character == '\t' || character == '\r';
}

// Where the value of each top-level key of a JSON object starts on its line (0-based offsets), found by
// a small scan of a line that is already known to be valid JSON. Keys are compared as written.
std::vector<std::pair<std::string, std::size_t>> value_offsets(std::string_view text) {
  std::vector<std::pair<std::string, std::size_t>> offsets;
  std::size_t position = 0;
  const auto skip_blanks = [&] {
    while (position < text.size() && (is_blank(text[position]) || text[position] == '\n')) ++position;
  };
  const auto skip_string = [&] {  // at the opening quote; ends after the closing one
    for (++position; position < text.size() && text[position] != '"'; ++position) {
      if (text[position] == '\\') ++position;
    }
    ++position;
  };
  skip_blanks();
  if (position >= text.size() || text[position] != '{') return offsets;
  ++position;
  while (true) {
    skip_blanks();
    if (position >= text.size() || text[position] != '"') return offsets;
    const std::size_t key_start = position + 1;
    skip_string();
    const std::string key(text.substr(key_start, position - 1 - key_start));
    skip_blanks();
    if (position >= text.size() || text[position] != ':') return offsets;
    ++position;
    skip_blanks();
    offsets.emplace_back(key, position);
    int depth = 0;  // skip the value up to the ',' or '}' that ends it
    while (position < text.size()) {
      const char character = text[position];
      if (character == '"') {
        skip_string();
        continue;
      }
      if (character == '[' || character == '{') ++depth;
      if (character == ']' || character == '}') {
        if (depth == 0) return offsets;
        --depth;
      }
      if (character == ',' && depth == 0) break;
      ++position;
    }
    if (position >= text.size()) return offsets;
    ++position;  // the comma
  }
}

}  // namespace

JsonLine::JsonLine(std::string file, const TextLine& line) : file_(std::move(file)), number_(line.number) {
  try {
    json_ = Json::parse(line.text.begin(), line.text.end());
  } catch (const Json::exception& error) {
    // "[json.exception.parse_error.101] parse error at line 1, column 5: syntax error ..." → "syntax error ...";
    // "[json.exception.out_of_range.406] number overflow parsing '1e999'" → "number overflow parsing '1e999'"
    const std::string message = error.what();
    const auto* syntax_error = dynamic_cast<const Json::parse_error*>(&error);
    const std::size_t start = syntax_error ? message.find(": ", message.find(", column ")) : message.find("] ");
    const long column = syntax_error && syntax_error->byte > 0 ? static_cast<long>(syntax_error->byte) : 1;
    throw InputError({file_, number_, column},
                     "invalid JSON: " + (start == std::string::npos ? message : message.substr(start + 2)));
  }
  if (!json_.is_object()) throw InputError(line_location(), "expected a JSON object");
  offsets_ = value_offsets(line.text);
}

SourceLocation JsonLine::at(const std::string& key) const {
  for (const auto& [name, offset] : offsets_) {
    if (name == key) return {file_, number_, static_cast<long>(offset) + 1};
  }
  return line_location();
}

const JsonLine::Json& JsonLine::field(const std::string& key) const {
  const auto found = json_.find(key);
  if (found == json_.end()) throw InputError(line_location(), "missing key '" + key + "'");
  return *found;
}

void JsonLine::check_keys(std::initializer_list<std::string_view> allowed, const std::string& what) const {
  for (const auto& [key, value] : json_.items()) {
    if (std::find(allowed.begin(), allowed.end(), key) == allowed.end()) throw unknown_key(key, allowed, what);
  }
}

InputError JsonLine::unknown_key(const std::string& key, std::initializer_list<std::string_view> allowed,
                                 const std::string& what) const {
  std::string message = "unknown key '" + key + "' in " + what + " (expected ";
  for (const std::string_view name : allowed) {
    if (name != *allowed.begin()) message += ", ";
    message += name;
  }
  return {at(key), message + ")"};
}

std::string JsonLine::string_of(const std::string& key) const {
  const Json& value = field(key);
  if (!value.is_string()) throw InputError(at(key), "'" + key + "' must be a string");
  return value.get<std::string>();
}

std::int64_t JsonLine::integer_of(const std::string& key, std::int64_t minimum, std::int64_t maximum,
                                  const std::string& range_note) const {
  return integer_value(field(key), key, minimum, maximum, range_note, at(key));
}

std::int64_t JsonLine::integer_value(const Json& value, const std::string& what, std::int64_t minimum,
                                     std::int64_t maximum, const std::string& range_note,
                                     const SourceLocation& location) {
  if (!value.is_number_integer()) throw InputError(location, "'" + what + "' must be an integer");
  if (!value.is_number_unsigned()) {
    const auto number = value.get<std::int64_t>();
    if (number < 0 && minimum >= 0) {
      throw InputError(location, "'" + what + "' must not be negative (" + std::to_string(number) + ")");
    }
    if (number < minimum) {
      throw InputError(location, "'" + what + "' must be at least " + std::to_string(minimum) + " (" +
                                     std::to_string(number) + ")");
    }
    return number;
  }
  const auto number = value.get<std::uint64_t>();
  if (number < static_cast<std::uint64_t>(std::max<std::int64_t>(minimum, 0))) {
    throw InputError(location,
                     "'" + what + "' must be at least " + std::to_string(minimum) + " (" + std::to_string(number) + ")");
  }
  if (number > static_cast<std::uint64_t>(maximum)) {
    throw InputError(location, "'" + what + "' is " + std::to_string(number) +
                                   (range_note.empty() ? ", too large" : ", " + range_note));
  }
  return static_cast<std::int64_t>(number);
}

double JsonLine::seconds_of(const std::string& key) const { return non_negative_value(field(key), key, at(key)); }

double JsonLine::non_negative_value(const Json& value, const std::string& what, const SourceLocation& location) {
  if (!value.is_number()) throw InputError(location, "'" + what + "' must be a number");
  const double number = value.get<double>();
  if (!std::isfinite(number)) throw InputError(location, "'" + what + "' is not finite");
  if (number < 0) throw InputError(location, "'" + what + "' must not be negative (" + json_text(value) + ")");
  return number;
}

}  // namespace augur::core
