// augur report INPUT... [-o PAGE.html] [--kind KIND]: one self-contained HTML page from augur's JSON outputs
// and performance databases (docs/report.md). The page is built by src/report/; this file reads and writes.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <filesystem>
#include <sstream>

#include "augur/core/diagnostics.hpp"
#include "command.hpp"
#include "core/files.hpp"
#include "core/json_text.hpp"
#include "core/table.hpp"
#include "flags.hpp"
#include "report/report.hpp"
#include "report_inputs.hpp"

namespace augur::cli {
namespace {

struct ReportOptions {
  std::vector<std::string> inputs;
  std::string output;
  std::string kind;
  std::vector<std::string> labels;  // --label, one per input in order
  bool json = false;
};

// The page's default name: the first input's stem with .html, in the current folder.
std::string default_output(const ReportOptions& options) {
  const std::string& first = options.inputs.front();
  if (first == "-") throw CLI::ValidationError("-o", "give the page's name (-o PAGE.html) when the input is standard input");
  return std::filesystem::path(first).stem().string() + ".html";
}

int run_report(const ReportOptions& options) {
  const std::string output = options.output.empty() ? default_output(options) : options.output;
  const bool to_stdout = output == "-";
  if (!to_stdout) core::refuse_output_over_inputs(output, options.inputs);
  std::optional<report::Kind> forced;
  if (!options.kind.empty()) {
    forced = report::kind_named(options.kind);
    if (!forced) throw core::InputError({"--kind", 0, 0}, "unknown kind '" + options.kind + "'; known: " + report::known_kinds());
  }
  if (options.labels.size() > options.inputs.size()) {
    throw CLI::ValidationError("--label", std::to_string(options.labels.size()) + " labels for " + std::to_string(options.inputs.size()) +
                                              " inputs: give at most one per input, in their order");
  }
  std::vector<report::Input> inputs;
  for (const std::string& file : options.inputs) inputs.push_back(read_report_input(file, forced));
  for (std::size_t index = 0; index < options.labels.size(); ++index) inputs[index].label = options.labels[index];
  std::ostringstream page;
  report::write_page(page, report::build_page(inputs));  // every input checked before anything is written
  if (to_stdout) {  // the page itself on standard output, nothing else
    std::fwrite(page.str().data(), 1, page.str().size(), stdout);
    return 0;
  }
  core::write_file_atomically(output, page.str());
  if (options.json) {
    nlohmann::ordered_json json{{"output", output}, {"inputs", nlohmann::ordered_json::array()}};
    for (const report::Input& input : inputs) json["inputs"].push_back({{"file", input.file}, {"kind", report::name_of(input.kind).name}});
    std::printf("%s\n", core::json_text(json, 2).c_str());
  } else {
    core::TextTable table({"input", "kind"});
    for (const report::Input& input : inputs) table.add_row({input.file, report::name_of(input.kind).name});
    std::printf("%spage: %s\n", table.render().c_str(), output.c_str());
  }
  return 0;
}

}  // namespace

Runner declare_report_command(CLI::App& command) {
  auto options = std::make_shared<ReportOptions>();
  command.add_option("inputs", options->inputs,
                     "JSON outputs of augur (speedup, run, fit, predict, couple report, tspp, sim, cache, actors, hierarchy, "
                     "manager, manage, a self-analysis report) or performance databases; '-': standard input")
      ->required();
  command.add_option("-o,--output", options->output, "The page (default: the first input's name with .html, in the current folder; '-': standard output, the page alone)");
  command.add_option("--kind", options->kind, "Read every input as this kind instead of detecting it from its keys");
  command.add_option("--label", options->labels,
                     "The name of an input in the legends of the charts that compare inputs of one kind; repeated: the first "
                     "names the first input, and so on (default: each input's file name without its folder and extension)")
      ->type_name("NAME")
      ->allow_extra_args(false);  // one NAME per --label, so that an input after it stays an input
  add_json_flag(command, options->json, "Print what was written (the page, each input's kind) as JSON");
  command.footer("One HTML file that opens offline: charts drawn as inline SVG, sortable tables, a summary in plain words.\n"
                 "Kinds: " + report::known_kinds() + ".\n"
                 "Several speedups, or fits of one region, metric and parameter, are also drawn on one chart (--label names them).\n"
                 "Guide: docs/report.md. Example:\n"
                 "  augur fit examples/model/fft_t3e.csv --json > fit.json && augur report fit.json -o fit.html");
  return [options]() {
    try {
      return run_report(*options);
    } catch (const CLI::ValidationError& error) {
      std::fprintf(stderr, "augur report: %s\n", error.what());
      return 2;
    } catch (const std::exception& error) {
      return report_error("report", error);
    }
  };
}

}  // namespace augur::cli
