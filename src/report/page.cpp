#include "report/page.hpp"

#include <cstdio>

#include "report/svg.hpp"

namespace augur::report {
namespace {

constexpr const char* style = R"(body{font-family:system-ui,-apple-system,"Segoe UI",Helvetica,Arial,sans-serif;margin:24px auto;max-width:1100px;padding:0 16px;color:#222;line-height:1.4}
h1{font-size:1.5em;margin-bottom:.3em}h2{font-size:1.2em;margin-top:1.6em;border-bottom:1px solid #ccc;padding-bottom:.2em}
.summary{background:#f4f7fb;border-left:4px solid #0072B2;padding:8px 14px;margin:12px 0}.summary p{margin:.3em 0}
svg.chart{display:block;margin:10px 0;max-width:100%;height:auto;font-size:12px}svg .chart-title{font-weight:600;font-size:13px}
table{border-collapse:collapse;margin:10px 0;font-size:13px}caption{text-align:left;font-weight:600;padding:4px 0}
th,td{border:1px solid #ddd;padding:3px 8px}th{background:#f0f0f0;cursor:pointer;user-select:none}
th.sorted-up::after{content:" \25B2"}th.sorted-down::after{content:" \25BC"}td.number{text-align:right;font-variant-numeric:tabular-nums}
div.table{overflow-x:auto;max-width:100%}
)";

// Errors of the page's own scripts are written into the page (data-script-error on <body>), where a test that
// dumps the DOM finds them; data-ready says the scripts ran to their end.
constexpr const char* error_hook =
    R"(window.addEventListener("error",function(e){document.documentElement.setAttribute("data-script-error",String(e.message))});)";

// A click on a header sorts its table by that column (numbers by value, text alphabetically); again: reversed.
constexpr const char* sorter = R"(document.querySelectorAll("table.sortable").forEach(function(table){
 table.querySelectorAll("th").forEach(function(header,column){header.addEventListener("click",function(){
  var body=table.tBodies[0],rows=Array.prototype.slice.call(body.rows),up=!header.classList.contains("sorted-up");
  table.querySelectorAll("th").forEach(function(h){h.classList.remove("sorted-up","sorted-down")});
  header.classList.add(up?"sorted-up":"sorted-down");
  function key(row){var cell=row.cells[column];if(!cell)return"";var n=cell.getAttribute("data-sort");
   return n===null?cell.textContent:(n===""?Infinity:parseFloat(n))}
  rows.sort(function(a,b){var x=key(a),y=key(b),r=(typeof x==="number"&&typeof y==="number")?x-y:String(x).localeCompare(String(y));
   return up?r:-r});
  rows.forEach(function(row){body.appendChild(row)});})})});
document.documentElement.setAttribute("data-ready","1");
)";

void write_table(std::ostream& out, const Table& table) {
  out << "<div class=\"table\"><table class=\"sortable\">";
  if (!table.caption.empty()) out << "<caption>" << escape_html(table.caption) << "</caption>";
  out << "<thead><tr>";
  for (const std::string& header : table.headers) out << "<th>" << escape_html(header) << "</th>";
  out << "</tr></thead><tbody>\n";
  for (const auto& row : table.rows) {
    out << "<tr>";
    for (const Cell& cell : row) {
      if (cell.number) {
        char key[40];
        std::snprintf(key, sizeof key, "%.17g", *cell.number);
        out << "<td class=\"number\" data-sort=\"" << key << "\">";
      } else if (cell.text == "-") {
        out << "<td class=\"number\" data-sort=\"\">";
      } else {
        out << "<td>";
      }
      out << escape_html(cell.text) << "</td>";
    }
    out << "</tr>\n";
  }
  out << "</tbody></table></div>\n";
}

}  // namespace

Cell number_cell(std::optional<double> value, int significant) {
  if (!value) return Cell{"-", std::nullopt};
  return Cell{format_number(*value, significant), *value};
}

Cell text_cell(std::string text) {
  return Cell{std::move(text), std::nullopt};
}

void Section::paragraph(std::string text) {
  blocks.push_back(Block{Block::Kind::paragraph, std::move(text), {}});
}

void Section::svg(std::string element) {
  blocks.push_back(Block{Block::Kind::svg, std::move(element), {}});
}

void Section::table(Table content) {
  blocks.push_back(Block{Block::Kind::table, {}, std::move(content)});
}

void write_page(std::ostream& out, const Page& page) {
  out << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      << "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
      << "<meta name=\"generator\" content=\"augur report\">\n<title>" << escape_html(page.title) << "</title>\n"
      << "<script>" << error_hook << "</script>\n<style>\n" << style << "</style>\n</head>\n<body>\n";
  out << "<h1>" << escape_html(page.title) << "</h1>\n";
  if (!page.summary.empty()) {
    out << "<div class=\"summary\">\n";
    for (const std::string& line : page.summary) out << "<p>" << escape_html(line) << "</p>\n";
    out << "</div>\n";
  }
  for (const Section& section : page.sections) {
    out << "<section>\n<h2>" << escape_html(section.heading) << "</h2>\n";
    for (const Block& block : section.blocks) {
      switch (block.kind) {
        case Block::Kind::paragraph: out << "<p>" << escape_html(block.text) << "</p>\n"; break;
        case Block::Kind::svg: out << block.text << "\n"; break;
        case Block::Kind::table: write_table(out, block.table); break;
      }
    }
    out << "</section>\n";
  }
  out << "<script>\n" << sorter << "</script>\n</body>\n</html>\n";
}

}  // namespace augur::report
