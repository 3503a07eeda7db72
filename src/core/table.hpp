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
// A fraction such as Amdahl's f: four decimals ("0.0543"), or two significant digits below 0.001 ("0.00023",
// "0.000023", at most 12 decimals), so that a small f never reads 0.0000 beside its 1/f; exactly 0 stays "0.0000".
[[nodiscard]] std::string format_fraction(double value);

}  // namespace augur::core
