// augur couple: parses the options, loads the runs (couple_runs.cpp), asks the coupling engine
// (src/coupling/analysis.hpp) and prints (couple_print.cpp, couple_json.cpp).
#include "couple_command.hpp"

#include <CLI/CLI.hpp>
#include <cstdio>
#include <stdexcept>

#include "command.hpp"
#include "couple_print.hpp"
#include "core/json_text.hpp"
#include "model_common.hpp"
#include "options_command.hpp"
#include "progress.hpp"
#include "flags.hpp"

namespace augur::cli {
namespace {

// Writes the output whole to stdout.
void emit(const std::string& text) { std::fputs(text.c_str(), stdout); }

void emit_json(const CoupleJson& json) { emit(core::json_text(json, 2) + "\n"); }

// ---- the subcommands ---------------------------------------------------------------------------------

int report_runs(const std::vector<SourcedRun>& runs, const CoupleOptions& options) {
  std::vector<coupling::Analysis> analyses;
  for (const SourcedRun& sourced : runs) {
    try {
      analyses.push_back(coupling::analyse(sourced.run, options.length));
    } catch (const std::invalid_argument& error) {  // a run that lacks a kernel alone: say which run
      throw std::runtime_error(sourced.source + ": " + error.what());
    }
  }
  if (options.csv) {
    emit(options.summary ? summary_csv(runs, analyses) : report_csv(runs, analyses));
    return 0;
  }
  if (options.summary) {
    if (options.json) {
      emit_json(summary_json(runs, analyses));
    } else {
      emit(summary_text(runs, analyses));
    }
    return 0;
  }
  CoupleJson documents = CoupleJson::array();
  std::string text;
  for (std::size_t i = 0; i < runs.size(); ++i) {
    if (options.json) {
      documents.push_back(report_json(runs[i], analyses[i]));
    } else {
      text += (text.empty() ? "" : "\n") + report_text(runs[i], analyses[i], options.all_chains, options.length);
    }
  }
  if (options.json) {
    emit_json(runs.size() == 1 ? documents[0] : documents);
  } else {
    emit(text);
  }
  return 0;
}

int measure(const CoupleOptions& options) {
  SourcedRun measured;
  if (const int status = measure_program(options, measured); status != 0) return status;
  return report_runs({measured}, options);
}

int predict(const CoupleOptions& options) {
  if (options.target.empty() == !options.target_run) {
    throw std::runtime_error("give the target configuration: --target FILE or --target-run ID");
  }
  const SourcedRun target = options.target_run ? load_runs(options, {}, {*options.target_run}).front()
                                               : load_file(options.target);
  const std::vector<SourcedRun> sources = load_runs(options, options.files, {}, options.target_run);
  if (target.run.problem_size <= 0) {
    throw std::runtime_error(target.source + ": the target has no problem size (augur_coupling_set_problem), so no "
                             "configuration is nearer than another");
  }
  const coupling::Isocoupling isocoupling = coupling::isocouple(target.run, runs_of(sources), options.length);
  if (options.json) {
    emit_json(isocoupling_json(target, sources, isocoupling));
  } else {
    emit(isocoupling_text(target, sources, isocoupling));
  }
  return isocoupling.candidates.empty() ? 1 : 0;
}

int reuse(const CoupleOptions& options) {
  const std::vector<SourcedRun> runs = load_runs(options, options.files, options.runs);
  const std::vector<coupling::Reuse> reuses = coupling::reuse_each(runs_of(runs), options.length);
  if (options.json) {
    emit_json(reuse_json(runs, reuses));
  } else {
    emit(reuse_text(runs, reuses));
  }
  return 0;
}

int transitions(const CoupleOptions& options) {
  const std::vector<SourcedRun> runs = load_runs(options, options.files, options.runs);
  const coupling::SizeSeries series = coupling::along_size(runs_of(runs), options.length, options.threshold);
  if (options.json) {
    emit_json(size_series_json(runs, series, options.threshold));
  } else {
    emit(size_series_text(runs, series, options.threshold));
  }
  return 0;
}

// ---- options -----------------------------------------------------------------------------------------

void add_length(CLI::App* sub, CoupleOptions& options) {
  sub->add_option("--length,-k", options.length, "Chain length k of the coupling predictor (default: the longest measured)")
      ->check(CLI::Range(2, 1000000));
}

void add_json(CLI::App* sub, CoupleOptions& options) {
  add_json_flag(*sub, options.json, "Write JSON instead of tables");
}

void add_db(CLI::App* sub, CoupleOptions& options, const char* help) {
  sub->add_option("--db", options.db, help)->type_name("FILE");
}

// --db and --application: the stored runs read when no files are given.
void add_stored(CLI::App* sub, CoupleOptions& options) {
  add_db(sub, options, "The performance database read when no files are given (default: $AUGUR_DB, else "
                       "~/.local/share/augur/performance.db)");
  sub->add_option("--application", options.application, "Only the stored runs of this application")->type_name("NAME");
}

void add_measure(CLI::App* command, CoupleOptions& options) {
  CLI::App* measure_command = command->add_subcommand(
      "measure", "Run PROGRAM, which declares its kernels to libaugur's coupling harness (augur/coupling.h), and report "
                 "its coupling values and predictions.");
  add_output_option(*measure_command, options.save, "Keep the measurement file here (JSON Lines)");
  measure_command->add_option("--save", options.save, "The old name of -o/--output, kept for scripts")->type_name("FILE");
  add_threads_option(*measure_command, options.threads, "OMP_NUM_THREADS for the program (default: as set)");
  // The harness's options, declared once in its registry (runtime/options.hpp): names, help, defaults, checks.
  for (const char* key : {"min_time", "samples", "warmup", "application_samples", "chains"}) {
    add_registry_option(*measure_command, runtime::coupling_option_set(), key, options.coupling_choices);
  }
  measure_command->add_flag("--quiet,-q", options.quiet, "No progress bar on stderr while measuring (shown on a terminal only)");
  measure_command->add_flag("--progress", options.progress, "Progress lines on stderr even when it is not a terminal");
  add_db(measure_command, options, "Store the run in this performance database (default: $AUGUR_DB, else "
                                   "~/.local/share/augur/performance.db)");
  measure_command->add_flag("--no-db", options.no_db, "Do not store the run");
  add_length(measure_command, options);
  measure_command->add_flag("--all-chains", options.all_chains, "Show the coupling values of every chain length");
  add_json(measure_command, options);
  measure_command->add_option("COMMAND", options.command, "PROGRAM [ARGS...] (after --)")->required();
  measure_command->footer("Example:\n  augur couple measure -o sp-24.jsonl -- build/bin/sp --measure --size 24\n"
                          "Guide: docs/couple.md; method: docs/coupling.md");
}

void add_report(CLI::App* command, CoupleOptions& options) {
  CLI::App* report_command =
      command->add_subcommand("report", "Coupling values and predictions of measurement files already taken.");
  report_command->add_option("FILES", options.files, "Measurement files (augur couple measure -o); none: the stored runs");
  report_command->add_option("--run", options.runs, "Stored runs to report (augur db list)")
      ->check(integer_within_64_bits(false))
      ->type_name("ID");
  add_stored(report_command, options);
  add_length(report_command, options);
  report_command->add_flag("--all-chains", options.all_chains, "Show the coupling values of every chain length");
  report_command->add_flag("--summary", options.summary,
                           "One line per run: the errors of the summation and coupling predictors, and their means");
  add_json(report_command, options);
  add_csv_flag(*report_command, options.csv, "CSV instead of the tables: one line per chain (with --summary: per run)");
}

void add_predict(CLI::App* command, CoupleOptions& options) {
  CLI::App* predict_command = command->add_subcommand(
      "predict", "Isocoupling: predict a configuration's time from the coupling values measured for others, choosing "
                 "the nearest (same machine class, closest problem size per processor), with the error of each.");
  predict_command->add_option("--target", options.target, "The configuration to predict: its measurement file (its kernels alone suffice)")
      ->type_name("FILE");
  predict_command->add_option("--target-run", options.target_run, "... or its stored run")
      ->check(integer_within_64_bits(false))
      ->type_name("ID");
  predict_command->add_option("FROM", options.files, "Measurement files of other configurations; none: the stored runs");
  add_stored(predict_command, options);
  add_length(predict_command, options);
  add_json(predict_command, options);
}

void add_reuse_and_transitions(CLI::App* command, CoupleOptions& options) {
  CLI::App* reuse_command = command->add_subcommand(
      "reuse", "Isocoupling for every run: each predicted from the coupling values of the nearest other configuration, "
               "with the mean errors of the sources of the same and of other processor counts.");
  reuse_command->add_option("FILES", options.files, "Measurement files; none: the stored runs");
  reuse_command->add_option("--run", options.runs, "Only these stored runs")
      ->check(integer_within_64_bits(false))
      ->type_name("ID");
  add_stored(reuse_command, options);
  add_length(reuse_command, options);
  add_json(reuse_command, options);

  CLI::App* transitions_command = command->add_subcommand(
      "transitions", "Coupling values along problem size, and where they jump (data leaving a level of the memory hierarchy).");
  transitions_command->add_option("FILES", options.files, "Measurement files; none: the stored runs");
  add_stored(transitions_command, options);
  add_length(transitions_command, options);
  transitions_command->add_option("--threshold", options.threshold, "Mean |change| of C_W that makes a transition (default 0.05)")
      ->check(finite_number())
      ->check(CLI::PositiveNumber);
  add_json(transitions_command, options);
}

}  // namespace

void add_couple_options(CLI::App* command, CoupleOptions& options) {
  command->require_subcommand(1);
  add_measure(command, options);
  add_report(command, options);
  add_predict(command, options);
  add_reuse_and_transitions(command, options);
  command->footer("Guide: docs/couple.md; method: docs/coupling.md; file formats: docs/formats.md");
}

int run_couple_command(const CLI::App& command, const CoupleOptions& options) {
  try {
    if (command.got_subcommand("measure")) return measure(options);
    if (command.got_subcommand("report")) return report_runs(load_runs(options, options.files, options.runs), options);
    if (command.got_subcommand("predict")) return predict(options);
    if (command.got_subcommand("transitions")) return transitions(options);
    if (command.got_subcommand("reuse")) return reuse(options);
  } catch (const std::exception& error) {
    const bool interrupted = dynamic_cast<const Interrupted*>(&error) != nullptr && command.got_subcommand("measure");
    return report_error(interrupted ? "couple measure" : "couple", error);
  }
  return 2;
}

Runner declare_couple_command(CLI::App& command) {
  auto options = std::make_shared<CoupleOptions>();
  add_couple_options(&command, *options);
  return [options, command_app = &command] { return run_couple_command(*command_app, *options); };
}

}  // namespace augur::cli
