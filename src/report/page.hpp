// The report page (docs/report.md): one self-contained HTML file (inline CSS, inline SVG charts, a few lines
// of inline JavaScript that sort tables), built from sections of paragraphs, charts and tables. Pure: the
// page in, HTML text out; every text is escaped here, charts are SVG from svg.hpp.
#pragma once

#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace augur::report {

struct Cell {
  std::string text;
  std::optional<double> number;  // the sort key of a numeric cell
};

// A cell of a number (shown with `significant` digits, sorted by value; "-" and last for a missing one).
[[nodiscard]] Cell number_cell(std::optional<double> value, int significant = 4);
[[nodiscard]] Cell text_cell(std::string text);

struct Table {
  std::string caption;
  std::vector<std::string> headers;
  std::vector<std::vector<Cell>> rows;
};

struct Block {
  enum class Kind { paragraph, svg, table } kind = Kind::paragraph;
  std::string text;  // a paragraph (plain text, escaped when written) or an SVG element
  Table table;
};

struct Section {
  std::string heading;
  std::vector<Block> blocks;
  void paragraph(std::string text);
  void svg(std::string element);
  void table(Table table);
};

struct Page {
  std::string title;
  std::vector<std::string> summary;  // plain-language lines at the top
  std::vector<Section> sections;
};

// The whole HTML document.
void write_page(std::ostream& out, const Page& page);

}  // namespace augur::report
