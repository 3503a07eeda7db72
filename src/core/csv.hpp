// CSV output shared by every --csv table and the database export (RFC 4180): one header row, names quoted
// when they need it, numbers at full precision (the shortest text that reads back to the same double).
#pragma once

#include <string>
#include <vector>

namespace augur::core {

// A field: quoted when it holds a separator, a quote, a line break or blanks at either end; quotes doubled.
[[nodiscard]] std::string csv_field(const std::string& text);
// A number at full precision; empty for NaN and the infinities (a missing value).
[[nodiscard]] std::string csv_number(double value);
// One record: the fields (already quoted where needed, e.g. by csv_field) joined by commas, then "\n".
[[nodiscard]] std::string csv_record(const std::vector<std::string>& fields);

}  // namespace augur::core
