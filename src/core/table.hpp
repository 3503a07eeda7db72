// Plain-text tables for the human output of the commands.
#pragma once

#include <string>
#include <vector>

namespace augur::core {

class TextTable {
public:
  explicit TextTable(std::vector<std::string> header);
  void add_row(std::vector<std::string> cells);
  // Columns separated by two spaces; the first column left-aligned, the others right-aligned.
  [[nodiscard]] std::string render() const;

private:
  std::vector<std::vector<std::string>> rows_;
};

// A number with `decimals` digits after the point, or "-" when it is NaN.
[[nodiscard]] std::string format_number(double value, int decimals);
// One number through a printf pattern ("%.2f", "%.0f%%", "%#.3g"), for sentences; at most 63 characters.
[[nodiscard]] std::string format_value(const char* pattern, double value);

}  // namespace augur::core
