#include "core/table.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace augur::core {

TextTable::TextTable(std::vector<std::string> header) { rows_.push_back(std::move(header)); }

void TextTable::add_row(std::vector<std::string> cells) { rows_.push_back(std::move(cells)); }

std::string TextTable::render() const {
  std::vector<std::size_t> widths;
  for (const auto& row : rows_) {
    if (widths.size() < row.size()) widths.resize(row.size(), 0);
    for (std::size_t column = 0; column < row.size(); ++column) widths[column] = std::max(widths[column], row[column].size());
  }
  std::string text;
  for (const auto& row : rows_) {
    std::string line;
    for (std::size_t column = 0; column < row.size(); ++column) {
      const std::string& cell = row[column];
      const std::string padding(widths[column] - cell.size(), ' ');
      if (column > 0) line += "  ";
      line += column == 0 ? cell + padding : padding + cell;
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    text += line + "\n";
  }
  return text;
}

std::string format_value(const char* pattern, double value) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, pattern, value);
  return buffer;
}

std::string format_fraction(double value) {
  if (!(std::fabs(value) < 0.001) || value == 0.0) return format_value("%.4f", value);
  // Two significant digits in fixed notation (no exponent): 0.00023, 0.000023; the decade of the value rounded to
  // two digits (0.00099996 is 0.0010, 0.0000996 is 0.00010).
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.1e", std::fabs(value));
  const int exponent = std::atoi(std::strchr(buffer, 'e') + 1);
  if (exponent >= -3) return format_value("%.4f", value);
  const int decimals = std::min(12, 1 - exponent);
  std::snprintf(buffer, sizeof buffer, "%.*f", decimals, value);
  return buffer;
}

std::string format_number(double value, int decimals) {
  if (std::isnan(value)) return "-";
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.*f", decimals, value);
  return buffer;
}

}  // namespace augur::core
