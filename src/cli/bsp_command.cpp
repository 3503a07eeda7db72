#include "bsp_command.hpp"

#include <CLI/CLI.hpp>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "command.hpp"
#include "bsp/bsp.hpp"
#include "bsp_print.hpp"
#include "augur/core/diagnostics.hpp"
#include "model/dataset.hpp"
#include "model_common.hpp"
#include "flags.hpp"

namespace augur::cli {
namespace {

BspParameterSource cost_parameters(const BspOptions& options) {
  BspParameterSource source;
  const bsp::Combine combine = options.combine == "max" ? bsp::Combine::Max : bsp::Combine::Sum;
  source.parameters.combine = combine;
  if (options.hrelation.empty()) {
    source.parameters.g = *options.g;
    source.parameters.L = *options.L;
    return source;
  }
  source.fit = bsp::fit_hrelation_records(model::read_dataset(options.hrelation), options.hrelation, options.experiment, combine);
  source.parameters = source.fit->parameters;
  source.records = options.hrelation;
  source.experiment = options.experiment;
  return source;
}

}  // namespace

void add_bsp_options(CLI::App* command, BspOptions& options) {
  command->add_option("TRACE", options.trace, "The superstep trace, JSON Lines (docs/formats.md); '-': standard input")
      ->required();
  const CLI::Validator non_negative(
      [](std::string& text) -> std::string {
        char* end = nullptr;
        const double value = std::strtod(text.c_str(), &end);
        if (text.empty() || *end != '\0' || !std::isfinite(value) || value < 0) {
          return "expected a finite number >= 0, not '" + text + "'";
        }
        return {};
      },
      "", "non-negative");
  CLI::Option* g = command->add_option("--g", options.g, "g: seconds per byte of an h-relation (seed eq. 2)")
                       ->type_name("SECONDS_PER_BYTE")
                       ->check(non_negative);
  CLI::Option* latency = command->add_option("--L", options.L, "L: seconds per synchronisation (seed eq. 2)")
                             ->type_name("SECONDS")
                             ->check(non_negative);
  CLI::Option* hrelation =
      command
          ->add_option(
              "--hrelation", options.hrelation,
              "Fit g and L to these h-relation benchmark records (augur experiment records, JSON Lines) instead")
          ->type_name("RECORDS");
  command
      ->add_option("--experiment", options.experiment, "The experiment of the h-relation records to fit (variable h)")
      ->type_name("NAME")
      ->default_val("hrelation")
      ->needs(hrelation);
  g->excludes(hrelation);
  latency->excludes(hrelation);
  g->needs(latency);
  latency->needs(g);
  command
      ->add_option("--combine", options.combine,
                   "How in and out bytes combine into h (the @ of seed eq. 4): sum or max")
      ->default_val("sum")
      ->check(CLI::IsMember({"sum", "max"}));
  command->add_flag("--supersteps", options.supersteps,
                    "Add a table per machine and superstep (predicted F, measured end)");
  add_json_flag(*command, options.json, "Write JSON instead of tables");
  command->footer(
      "Examples:\n"
      "  augur bsp examples/bsp/figure1.jsonl --g 0 --L 2           the seed's Figure 1: 10 s, OBSP* 10 s, BSP 12 s\n"
      "  augur bsp fft.jsonl --g 1e-9 --L 5e-5 --supersteps         every machine and superstep\n"
      "  augur bsp fft.jsonl --hrelation hrel.jsonl --combine max   g and L fitted to a benchmark\n"
      "Guide and method: docs/bsp.md; formats: docs/formats.md");
}

int run_bsp_command(const BspOptions& options) {
  if (options.hrelation.empty() && (!options.g || !options.L)) {
    std::fprintf(stderr,
                 "augur bsp: give the machine parameters, --g SECONDS_PER_BYTE and --L SECONDS, or fit them "
                 "with --hrelation RECORDS.jsonl\nRun with --help for more information.\n");
    return 2;
  }
  try {
    const bsp::Trace trace = bsp::read_trace(options.trace);
    const BspParameterSource source = cost_parameters(options);
    const bsp::Comparison comparison = bsp::compare(trace, source.parameters);
    const BspReport report{trace, source, comparison};
    const std::string output =
        options.json ? render_bsp_json(report, options.supersteps) : render_bsp_table(report, options.supersteps);
    std::fputs(output.c_str(), stdout);
    return 0;
  } catch (const std::exception& error) {
    return report_error("bsp", error);
  }
}

Runner declare_bsp_command(CLI::App& command) {
  auto options = std::make_shared<BspOptions>();
  add_bsp_options(&command, *options);
  return [options] { return run_bsp_command(*options); };
}

}  // namespace augur::cli
