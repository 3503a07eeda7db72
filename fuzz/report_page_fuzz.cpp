// augur report's page builders (src/report/): any JSON, read as the kind its keys say and then as every kind
// (and twice, for the kinds compared on one chart), either gives a page or a core::InputError; no text of the
// input ever reaches the page unescaped. A trace folded while it is parsed (report/trace_fold.hpp) gives the
// page, or the error, of the whole document.
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "augur/core/diagnostics.hpp"
#include "fuzz_common.hpp"
#include "report/report.hpp"
#include "report/trace_fold.hpp"

namespace {

// One input of `kind`; for the kinds that are compared on one chart (speedup, fit), two copies of it as well.
void build(const nlohmann::ordered_json& document, augur::report::Kind kind) {
  using namespace augur;
  try {
    std::vector<report::Input> inputs{report::Input{"input.json", document, kind}};
    if (kind == report::Kind::speedup || kind == report::Kind::fit) inputs.push_back(report::Input{"other.json", document, kind, "<b>"});
    std::ostringstream html;
    report::write_page(html, report::build_page(inputs));
    const std::string page = html.str();
    std::size_t scripts = 0;
    for (std::size_t at = page.find("<script"); at != std::string::npos; at = page.find("<script", at + 1)) ++scripts;
    fuzz::expect(scripts == 2, "a <script> of the input on the page", page.substr(0, 2000));
  } catch (const core::InputError&) {
  }
}

// The page of a trace, or its error's text.
std::string trace_page(augur::report::Input input) {
  using namespace augur;
  try {
    std::ostringstream html;
    report::write_page(html, report::build_page({std::move(input)}));
    return html.str();
  } catch (const core::InputError& error) {
    return std::string("error: ") + error.what();
  }
}

void compare_folded(const std::string& text, const nlohmann::ordered_json& document) {
  using namespace augur;
  const std::string file = "input.json";
  auto trace = std::make_shared<report::TraceData>();
  report::Input folded{file, {}, report::Kind::trace};
  try {
    folded.document = nlohmann::ordered_json::parse(text, report::trace_folding_callback(*trace, file));
  } catch (const core::InputError& error) {
    if (std::string(error.what()).find("given twice") != std::string::npos) return;  // the whole document keeps the last
    const std::string whole = trace_page(report::Input{file, document, report::Kind::trace});
    fuzz::expect(whole == std::string("error: ") + error.what(), "folding while parsing failed otherwise", whole + "\n" + error.what());
    return;
  }
  if (!trace->folded_while_parsing) return;
  report::finish_trace(*trace);
  folded.trace = trace;
  const std::string whole = trace_page(report::Input{file, document, report::Kind::trace});
  fuzz::expect(trace_page(std::move(folded)) == whole, "the folded trace's page is not the whole document's", whole.substr(0, 2000));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace augur;
  if (size > fuzz::max_input) return 0;
  nlohmann::ordered_json document;
  try {
    document = nlohmann::ordered_json::parse(fuzz::text_of(data, size));
  } catch (const nlohmann::ordered_json::exception&) {
    return 0;  // not JSON: the command's reader reports it (src/cli/report_inputs.cpp)
  }
  try {
    build(document, report::detect_kind(document, "input.json"));
  } catch (const core::InputError&) {
  }
  for (const report::KindName& kind : report::kinds()) build(document, kind.kind);
  compare_folded(fuzz::text_of(data, size), document);
  return 0;
}
