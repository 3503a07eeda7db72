#include "report_inputs.hpp"

#include <filesystem>
#include <iostream>
#include <iterator>
#include <stdexcept>

#include "augur/core/diagnostics.hpp"
#include "core/files.hpp"
#include "couple_print.hpp"
#include "model/dataset.hpp"
#include "report/trace_fold.hpp"
#include "store/store.hpp"

namespace augur::cli {
namespace {

using json = nlohmann::ordered_json;

constexpr std::string_view sqlite_magic("SQLite format 3\0", 16);

// `trace`, when given, receives a trace's events as they are parsed (report/trace_fold.hpp): they are not
// kept in the document.
json parse_json(const std::string& text, const std::string& file, report::TraceData* trace = nullptr) {
  if (text.find_first_not_of(" \t\r\n") == std::string::npos) throw core::InputError({file, 0, 0}, "empty: not JSON");
  try {
    if (trace != nullptr) return json::parse(text, report::trace_folding_callback(*trace, file));
    return json::parse(text);
  } catch (const json::parse_error& error) {
    const std::size_t at = error.byte > 0 ? error.byte - 1 : 0;
    throw core::InputError(core::locate_offset(file, text, std::min(at, text.size())), "not JSON (a syntax error here)");
  } catch (const json::exception& error) {
    const std::string message = error.what();
    const auto words = message.find("] ");
    throw core::InputError({file, 0, 0}, "malformed JSON: " + (words == std::string::npos ? message : message.substr(words + 2)));
  }
}

// Each stored run predicted as `augur couple predict --target-run ID --json` predicts it (the same engine and
// the same JSON, couple_json.cpp): from the coupling values of every other stored run. A run that cannot be
// predicted (no problem size, no source with a complete set of chains) says why.
json database_predictions(store::PerformanceStore& database) {
  std::vector<SourcedRun> runs;
  for (store::StoredRun& stored : database.load_runs()) runs.push_back({std::move(stored.run), "run " + std::to_string(stored.id)});
  json predictions = json::array();
  for (std::size_t target = 0; target < runs.size(); ++target) {
    std::vector<SourcedRun> sources;
    for (std::size_t other = 0; other < runs.size(); ++other) {
      if (other != target) sources.push_back(runs[other]);
    }
    const SourcedRun& predicted = runs[target];
    try {
      if (predicted.run.problem_size <= 0) throw std::invalid_argument("no problem size (augur_coupling_set_problem)");
      predictions.push_back(isocoupling_json(predicted, sources, coupling::isocouple(predicted.run, runs_of(sources), std::nullopt)));
    } catch (const std::invalid_argument& error) {
      predictions.push_back({{"source", predicted.source}, {"not_predicted", error.what()}});
    }
  }
  return predictions;
}

// Every table of the database, as augur db export --format json writes it, and the predictions of its runs.
json database_json(const std::string& file) {
  const auto database = store::open_store(file, store::OpenMode::ReadOnly);
  json document;
  document["augur_database"] = file;
  document["tables"] = json::object();
  for (const std::string& name : store::table_names()) {
    document["tables"][name] = json::parse(store::to_json(database->export_table(name)));
  }
  document["predictions"] = database_predictions(*database);
  return document;
}

// fit --json names its data file: its series are attached as "measurements" for the page's chart, when the
// file can still be read (from the current folder, or beside the JSON file).
void attach_measurements(json& document, const std::string& file) {
  if (!document.contains("data") || !document["data"].is_string()) return;
  const std::filesystem::path data = document["data"].get<std::string>();
  std::vector<std::filesystem::path> candidates{data};
  if (data.is_relative() && file != "-") candidates.push_back(std::filesystem::path(file).parent_path() / data);
  for (const auto& candidate : candidates) {
    std::error_code error;
    if (!std::filesystem::is_regular_file(candidate, error)) continue;
    try {
      const model::Dataset dataset = model::read_dataset(candidate.string());
      json all = json::array();
      for (const model::Series& series : dataset.series) {
        json points = json::array();
        for (const model::Measurement& measurement : series.measurements) {
          points.push_back({{"at", measurement.point}, {"values", measurement.values}});
        }
        all.push_back({{"region", series.region}, {"metric", series.metric}, {"parameters", series.parameters}, {"points", points}});
      }
      document["measurements"] = all;
      return;
    } catch (const std::exception&) {
      // Not readable as measurements any more: the page says the measurements are missing.
    }
  }
}

}  // namespace

report::Input read_report_input(const std::string& file, std::optional<report::Kind> forced) {
  std::string text;
  if (file == "-") {
    text.assign(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
  } else {
    text = core::read_file(file);
  }
  const std::string name = file == "-" ? "<stdin>" : file;
  report::Input input{name, {}, report::Kind::database};
  if (text.compare(0, sqlite_magic.size(), sqlite_magic) == 0) {
    if (file == "-") throw core::InputError({name, 0, 0}, "a performance database must be named, not given on standard input");
    input.document = database_json(file);
    if (forced && *forced != report::Kind::database) {
      throw core::InputError({name, 0, 0}, std::string("--kind ") + report::name_of(*forced).name + ": this is a performance database");
    }
    return input;
  }
  // A trace is folded as it is parsed (unless --kind names another kind): its events, millions in a long
  // run's trace, never all in memory as JSON.
  auto trace = std::make_shared<report::TraceData>();
  const bool fold = !forced || *forced == report::Kind::trace;
  input.document = parse_json(text, name, fold ? trace.get() : nullptr);
  std::string().swap(text);
  if (trace->folded_while_parsing) {
    report::finish_trace(*trace);
    input.trace = std::move(trace);
  }
  // The array form of a trace is empty once folded: it is a trace.
  const bool event_array = input.trace != nullptr && input.document.is_array();
  input.kind = forced ? *forced : event_array ? report::Kind::trace : report::detect_kind(input.document, name);
  if (input.kind == report::Kind::fit) attach_measurements(input.document, file);
  return input;
}

}  // namespace augur::cli
