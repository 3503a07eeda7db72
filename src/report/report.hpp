// augur report (docs/report.md): one self-contained HTML page from augur's JSON outputs. The kinds of input,
// told apart by their keys, and the page of each. Pure: parsed JSON in, a Page (page.hpp) out; the command
// (src/cli/report_command.cpp) reads the files, turns a performance database into JSON and writes the page.
#pragma once

#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "report/page.hpp"

namespace augur::report {

enum class Kind {
  self_analysis,       // libaugur's report (AUGUR_REPORT)
  run,                 // augur run --json
  speedup,             // augur speedup --json
  fit,                 // augur fit --json
  predict,             // augur predict --json
  couple,              // augur couple report --json
  tspp,                // augur tspp --json
  sim,                 // augur sim --json
  cache_sim,           // augur cache sim --json
  cache_curve,         // augur cache curve --json
  cache_predict,       // augur cache predict --json
  actors,              // augur actors simulate --json
  hierarchy_simulate,  // augur hierarchy simulate --json
  hierarchy_sweep,     // augur hierarchy sweep --json
  manager_simulate,    // augur manager simulate --json
  manage,              // augur manage --json FILE
  database,            // a performance database, as the command reads it (database_json below)
  trace,               // a Chrome trace: augur run --trace, AUGUR_TRACE, augur sim --trace
};

struct KindName {
  Kind kind;
  const char* name;         // for --kind
  const char* description;  // what produces it
};

// Every kind, in the order of docs/report.md.
[[nodiscard]] std::span<const KindName> kinds();
[[nodiscard]] std::optional<Kind> kind_named(std::string_view name);
[[nodiscard]] const KindName& name_of(Kind kind);
// "self-analysis (libaugur's AUGUR_REPORT), run (augur run --json), ..." for messages.
[[nodiscard]] std::string known_kinds();

// The kind of a document, from its keys; core::InputError {file} saying which kinds are known when none fits.
[[nodiscard]] Kind detect_kind(const nlohmann::ordered_json& document, const std::string& file);

struct TraceData;  // trace_fold.hpp

struct Input {
  std::string file;  // as named on the command line (shown on the page, in messages)
  nlohmann::ordered_json document;
  Kind kind;
  std::string label = {};  // its name in the legends of the charts that compare inputs (--label); "": input_names
  // A trace's events, folded while the file was parsed and dropped from `document` (trace_fold.hpp); null:
  // the page reads them from `document`.
  std::shared_ptr<const TraceData> trace = {};
};

// The inputs' names in the legends of the charts that compare several: each one's label, else its file's stem
// ("runs/a.json" → "a"), else, when two stems are the same, its file as named.
[[nodiscard]] std::vector<std::string> input_names(const std::vector<Input>& inputs);

// The page of all inputs, one part each, in order, after the charts that compare inputs of one kind (the
// speedups of several augur speedup --json, the models of one region, metric and parameter of several fits). A field missing or of the wrong type is a
// core::InputError {file} naming it ("missing field regions[0].speedup").
[[nodiscard]] Page build_page(const std::vector<Input>& inputs);

}  // namespace augur::report
