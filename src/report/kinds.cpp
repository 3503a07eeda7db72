#include <algorithm>
#include <iterator>

#include "augur/core/diagnostics.hpp"
#include "builders.hpp"
#include "report/report.hpp"
#include "report/svg.hpp"

namespace augur::report {
namespace {

constexpr KindName kind_table[] = {
    {Kind::self_analysis, "self-analysis", "libaugur's report, AUGUR_REPORT"},
    {Kind::run, "run", "augur run --json"},
    {Kind::speedup, "speedup", "augur speedup --json"},
    {Kind::fit, "fit", "augur fit --json"},
    {Kind::predict, "predict", "augur predict --json"},
    {Kind::couple, "couple", "augur couple report --json"},
    {Kind::tspp, "tspp", "augur tspp --json"},
    {Kind::sim, "sim", "augur sim --json"},
    {Kind::cache_sim, "cache-sim", "augur cache sim --json"},
    {Kind::cache_curve, "cache-curve", "augur cache curve --json"},
    {Kind::cache_predict, "cache-predict", "augur cache predict --json"},
    {Kind::actors, "actors", "augur actors simulate --json"},
    {Kind::hierarchy_simulate, "hierarchy-simulate", "augur hierarchy simulate --json"},
    {Kind::hierarchy_sweep, "hierarchy-sweep", "augur hierarchy sweep --json"},
    {Kind::manager_simulate, "manager-simulate", "augur manager simulate --json"},
    {Kind::manage, "manage", "augur manage --json"},
    {Kind::database, "db", "a performance database, augur db"},
    {Kind::trace, "trace", "a Chrome trace of augur run --trace, augur sim --trace or AUGUR_TRACE"},
};

bool has_all(const nlohmann::ordered_json& document, std::initializer_list<const char*> keys) {
  return std::all_of(keys.begin(), keys.end(), [&](const char* key) { return document.contains(key); });
}

std::optional<Kind> detect(const nlohmann::ordered_json& d) {
  if (d.contains("augur_report")) return has_all(d, {"interpose"}) || d.contains("exit_code") ? Kind::run : Kind::self_analysis;
  if (d.contains("augur_database")) return Kind::database;
  if (has_all(d, {"data", "models"})) return Kind::fit;
  if (has_all(d, {"data", "predictions"})) return Kind::predict;
  if (has_all(d, {"kernels", "couplings"})) return Kind::couple;
  if (has_all(d, {"points", "max_threads"})) return Kind::speedup;
  if (has_all(d, {"tasks", "completion", "resources"})) return d.contains("replications") ? Kind::sim : Kind::tspp;
  if (has_all(d, {"levels", "references", "model"})) return Kind::cache_predict;
  if (has_all(d, {"points", "line", "method"})) return Kind::cache_curve;
  if (has_all(d, {"levels", "accesses"})) return Kind::cache_sim;
  if (has_all(d, {"sites", "links", "players"})) return Kind::actors;
  if (has_all(d, {"ideal_time", "levels"})) return Kind::hierarchy_simulate;
  if (has_all(d, {"points", "levels", "replications"})) return Kind::hierarchy_sweep;
  if (has_all(d, {"policy", "jobs", "log"})) return Kind::manage;
  if (has_all(d, {"policy", "jobs", "makespan"})) return Kind::manager_simulate;
  if (d.contains("traceEvents")) return Kind::trace;
  return std::nullopt;
}

}  // namespace

std::span<const KindName> kinds() {
  return kind_table;
}

std::optional<Kind> kind_named(std::string_view name) {
  for (const KindName& entry : kind_table) {
    if (name == entry.name) return entry.kind;
  }
  return std::nullopt;
}

const KindName& name_of(Kind kind) {
  return *std::find_if(std::begin(kind_table), std::end(kind_table),
                       [kind](const KindName& entry) { return entry.kind == kind; });
}

std::string known_kinds() {
  std::string text;
  for (const KindName& entry : kind_table) {
    text += (text.empty() ? "" : ", ") + std::string(entry.name) + " (" + entry.description + ")";
  }
  return text;
}

namespace {

// The JSON array form of a Chrome trace: its events alone.
bool is_event_array(const nlohmann::ordered_json& document) {
  return document.is_array() && !document.empty() && document.front().is_object() && document.front().contains("ph");
}

}  // namespace

Kind detect_kind(const nlohmann::ordered_json& document, const std::string& file) {
  if (is_event_array(document)) return Kind::trace;
  if (!document.is_object()) {
    throw core::InputError({file, 0, 0}, "not a JSON object: augur report reads " + known_kinds());
  }
  if (const auto kind = detect(document)) return *kind;
  throw core::InputError({file, 0, 0}, "none of the kinds augur report knows (use --kind to name one): " + known_kinds());
}

Page build_page(const std::vector<Input>& inputs) {
  Page page;
  page.title = "augur report";
  if (inputs.size() == 1) page.title += ": " + inputs.front().file;
  for (const Input& input : inputs) {
    Part part{page, inputs.size() > 1 ? input.file + ": " : ""};
    const View view(input.document, input.file);
    if (!input.document.is_object() && !(input.kind == Kind::trace && input.document.is_array())) view.fail("expected a JSON object (" + std::string(name_of(input.kind).description) + ")");
    switch (input.kind) {
      case Kind::self_analysis:
      case Kind::run: add_self_analysis(part, view); break;
      case Kind::speedup: add_speedup(part, view); break;
      case Kind::fit: add_fit(part, view); break;
      case Kind::predict: add_predict(part, view); break;
      case Kind::couple: add_couple(part, view); break;
      case Kind::tspp: add_tasks(part, view, false); break;
      case Kind::sim: add_tasks(part, view, true); break;
      case Kind::cache_sim: add_cache(part, view, 0); break;
      case Kind::cache_curve: add_cache(part, view, 1); break;
      case Kind::cache_predict: add_cache(part, view, 2); break;
      case Kind::actors: add_actors(part, view); break;
      case Kind::hierarchy_simulate: add_hierarchy_simulate(part, view); break;
      case Kind::hierarchy_sweep: add_hierarchy_sweep(part, view); break;
      case Kind::manager_simulate: add_manager_simulate(part, view); break;
      case Kind::manage: add_manage(part, view); break;
      case Kind::database: add_database(part, view); break;
      case Kind::trace: add_trace(part, view, input.trace.get()); break;
    }
    page.sections.push_back(Section{part.prefix + "Source", {}});
    page.sections.back().paragraph("From " + input.file + " (" + name_of(input.kind).description + ").");
  }
  Page compared;  // after every input was read alone, so that an error names what that input lacks
  add_comparisons(compared, inputs);
  page.summary.insert(page.summary.begin(), compared.summary.begin(), compared.summary.end());
  page.sections.insert(page.sections.begin(), compared.sections.begin(), compared.sections.end());
  return page;
}

std::string percent(double fraction, int significant) {
  return format_number(fraction * 100, significant) + "%";
}

std::string joined_words(const View& words) {
  if (words.json().is_string()) return words.text();  // a command written as one string
  std::string text;
  for (std::size_t index = 0; index < words.size(); ++index) text += (index ? " " : "") + words[index].text();
  return text;
}

Table scalar_table(const View& object, const std::string& caption) {
  Table table{caption, {"field", "value"}, {}};
  if (!object.is_object()) return table;
  for (const auto& [key, value] : object.json().items()) {
    if (value.is_structured()) continue;
    table.rows.push_back({text_cell(key), value.is_number() ? number_cell(value.get<double>(), 6) : text_cell(scalar_text(value))});
  }
  return table;
}

Table rows_table(const View& array, const std::string& caption) {
  Table table{caption, {}, {}};
  if (array.size() == 0) return table;
  std::vector<std::string> columns;
  for (const auto& [key, value] : array[0].json().items()) {
    if (!value.is_structured()) columns.push_back(key);
  }
  table.headers = columns;
  for (std::size_t index = 0; index < array.size(); ++index) {
    const View row = array[index];
    std::vector<Cell> cells;
    for (const std::string& column : columns) {
      const nlohmann::ordered_json* value = row.is_object() && row.json().contains(column) ? &row.json().at(column) : nullptr;
      if (value && value->is_number()) {
        cells.push_back(number_cell(value->get<double>(), 5));
      } else {
        cells.push_back(text_cell(value ? scalar_text(*value) : "-"));
      }
    }
    table.rows.push_back(std::move(cells));
  }
  return table;
}

}  // namespace augur::report
