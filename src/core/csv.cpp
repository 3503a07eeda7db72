// CSV output (csv.hpp).
#include "csv.hpp"

#include <cmath>

#include "augur/core/expression.hpp"

namespace augur::core {

std::string csv_field(const std::string& text) {
  const bool quote =
      text.find_first_of(",\"\r\n") != std::string::npos ||
      (!text.empty() && (text.front() == ' ' || text.front() == '\t' || text.back() == ' ' || text.back() == '\t'));
  if (!quote) return text;
  std::string quoted = "\"";
  for (const char character : text) {
    if (character == '"') quoted += '"';
    quoted += character;
  }
  return quoted + "\"";
}

std::string csv_number(double value) { return std::isfinite(value) ? format_shortest(value) : std::string(); }

std::string csv_record(const std::vector<std::string>& fields) {
  std::string text;
  for (std::size_t index = 0; index < fields.size(); ++index) text += (index == 0 ? "" : ",") + fields[index];
  return text + "\n";
}

}  // namespace augur::core
