// What the tests of the report page share (page_test.cpp, timeline_test.cpp, compare_test.cpp): a page built
// from JSON texts as augur report builds it, its HTML, its summary lines and its charts.
#pragma once

#include <algorithm>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "report/report.hpp"

namespace augur::report::test {

using Json = nlohmann::ordered_json;

inline std::size_t count(const std::string& text, const std::string& needle) {
  std::size_t found = 0;
  for (std::size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + needle.size())) ++found;
  return found;
}

struct Rendered {
  Kind kind;  // of the first input
  Page page;
  std::string html;
  [[nodiscard]] bool says(const std::string& line) const {
    return std::find(page.summary.begin(), page.summary.end(), line) != page.summary.end();
  }
  [[nodiscard]] std::string summary() const {
    std::string all;
    for (const std::string& line : page.summary) all += line + "\n";
    return all;
  }
  // The n-th <svg> element of the page ("" when there are fewer).
  [[nodiscard]] std::string svg(std::size_t index) const {
    std::size_t at = html.find("<svg");
    for (std::size_t k = 0; k < index && at != std::string::npos; ++k) at = html.find("<svg", at + 1);
    return at == std::string::npos ? "" : html.substr(at, html.find("</svg>", at) + 6 - at);
  }
};

// The page of the inputs (file name, JSON text), each of the kind its keys say; `labels` name the first ones.
inline Rendered render_files(const std::vector<std::pair<std::string, std::string>>& files, const std::vector<std::string>& labels = {}) {
  std::vector<Input> inputs;
  for (const auto& [file, text] : files) {
    const Json document = Json::parse(text);
    inputs.push_back(Input{file, document, detect_kind(document, file)});
  }
  for (std::size_t index = 0; index < labels.size() && index < inputs.size(); ++index) inputs[index].label = labels[index];
  Page page = build_page(inputs);
  std::ostringstream html;
  write_page(html, page);
  return {inputs.front().kind, std::move(page), html.str()};
}

// The page of one input named `file`.
inline Rendered render(const std::string& text, const std::string& file = "input.json") {
  return render_files({{file, text}});
}

}  // namespace augur::report::test
