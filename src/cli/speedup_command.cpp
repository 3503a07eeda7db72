#include "speedup_command.hpp"

#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <thread>

#include "command.hpp"
#include "core/files.hpp"
#include "core/process.hpp"
#include "interpose/run_result.hpp"
#include "interposition.hpp"
#include "speedup_dynamic.hpp"
#include "selfanalysis/speedup_experiment.hpp"
#include "options_command.hpp"
#include "progress.hpp"
#include "runtime/options.hpp"
#include "speedup_print.hpp"
#include "verdict_print.hpp"
#include "flags.hpp"

namespace augur::cli {
namespace {

namespace fs = std::filesystem;
using selfanalysis::ExperimentRun;
using selfanalysis::PlannedRun;

int machine_processors() {
  const unsigned count = std::thread::hardware_concurrency();
  return count == 0 ? 1 : static_cast<int>(count);
}

// Runs the planned runs of the experiment one after the other, each with its own report file; an
// unmodified OpenMP program under the interposition library `tool` (dynamic instrumentation).
class Experiment {
public:
  Experiment(const SpeedupOptions& options, int max_threads, std::optional<Interposition> tool)
      : options_(options), tool_(std::move(tool)) {
    const char* policy = std::getenv("OMP_WAIT_POLICY");
    settings_.max_threads = max_threads;
    settings_.wait_policy = policy != nullptr && *policy != '\0' ? policy : "passive";
    settings_.baseline = options.baseline;
    settings_.sweep_every = options.sweep_every;
  }

  ExperimentRun run(const PlannedRun& plan, int number, int total, Progress& progress) {
    const char* kind = selfanalysis::run_kind_name(plan.kind);
    const fs::path report = scratch_.path() / ("run-" + std::to_string(number) + ".json");
    const fs::path info = scratch_.path() / ("interpose-" + std::to_string(number) + ".json");
    core::ProcessOptions process;
    process.discard_output = true;
    if (tool_) process.environment = interposition_environment(*tool_);
    for (auto& entry : selfanalysis::run_environment(plan, settings_)) process.environment.push_back(std::move(entry));
    ToolChoices choices = selfanalysis::run_options(plan, settings_, report.string());
    if (tool_) choices.emplace_back("run.info", info.string());
    process.environment.push_back(tool_channel_entry(choices));
    progress.update(number - 1, "run " + std::to_string(number) + "/" + std::to_string(total) + ": " + kind + " on " +
                                    std::to_string(plan.processors) + (plan.processors == 1 ? " thread" : " threads"));
    const core::ProcessResult result = core::run_process(options_.command, process);
    check_interrupted();  // Ctrl-C: the child got it too; no result, the scratch folder removed
    if (!result.succeeded()) {
      throw std::runtime_error("'" + options_.command.front() + "' " + result.describe_status() + " (" + kind + " run on " +
                               std::to_string(plan.processors) + (plan.processors == 1 ? " thread" : " threads") +
                               "); the end of its stderr:\n" +
                               (result.standard_error.empty() ? std::string("(empty)")
                                                              : selfanalysis::last_lines(result.standard_error, 10)));
    }
    if (!fs::exists(report)) throw std::runtime_error(no_report(info));
    ExperimentRun run;
    run.processors = plan.processors;
    run.repetition = plan.repetition;
    run.wall_seconds = result.wall_seconds;
    const std::string text = core::read_file(report.string());
    run.report = selfanalysis::parse_report(text, report.string());
    if (tool_ && fs::exists(info)) {
      stable_region_ids(run.report, info);
      if (plan.kind == selfanalysis::RunKind::time && add_timed_outer_region(run.report, info)) timed_outer_ = true;
    }
    if (plan.kind == selfanalysis::RunKind::analyze && !first_kind_) {
      first_kind_ = region_kind(text, run.report, options_);
      if (first_kind_->empty() && tool_) throw std::runtime_error(no_region(info));
    }
    return run;
  }

  [[nodiscard]] const std::string& wait_policy() const { return settings_.wait_policy; }
  // The first analyze run's region is an outer parallel region ("kind": "outer").
  [[nodiscard]] bool outer() const { return first_kind_ && *first_kind_ == "outer"; }
  // Some time run's outer region was timed from its median step (add_timed_outer_region).
  [[nodiscard]] bool timed_outer() const { return timed_outer_; }

private:
  // The message for a run that wrote no report.
  [[nodiscard]] std::string no_report(const fs::path& info) const {
    if (tool_) return no_region(info);
    return "'" + options_.command.front() +
           "' wrote no augur report: is it linked with libaugur and its loop marked with augur_init_parallel_region "
           "(docs/self-analysis.md)? An unmodified OpenMP program must load libgomp or libomp (docs/speedup.md)";
  }
  // The message for a program under the interposition library in which no iterative region was found.
  [[nodiscard]] std::string no_region(const fs::path& info) const {
    std::string why;
    if (fs::exists(info)) {
      const interpose::RunInfo run = interpose::parse_run_info(core::read_file(info.string()), info.string());
      why = interpose::outer_region_only(run)
                ? "its worksharing constructs repeat inside one outer parallel region, but the report has no region "
                  "of kind outer"
                : interpose::nothing_measured_reason(run);
    }
    return "no iterative parallel region found in '" + options_.command.front() + "' (dynamic instrumentation, " +
           tool_->name() + ")" + (why.empty() ? "" : ": " + why) + "; nothing measured. `augur run -- " +
           options_.command.front() + "` shows what the periodicity detector found (docs/run.md)";
  }

  const SpeedupOptions& options_;
  std::optional<Interposition> tool_;
  std::optional<std::string> first_kind_;  // the first analyze run's region kind
  bool timed_outer_ = false;
  selfanalysis::RunSettings settings_;
  core::TemporaryFolder scratch_{"augur-speedup"};  // the runs' reports
};

}  // namespace

void add_speedup_options(CLI::App* command, SpeedupOptions& options) {

  command->add_option("-p,--threads,--max-threads", options.max_threads, "Largest thread count P (default: the machine's processors; --max-threads: its old name)")
      ->check(CLI::Range(1, thread_limit))
      ->default_str("");
  // libaugur's option, its default and its check from the registry (one default everywhere, docs/self-analysis.md).
  const runtime::OptionSpec& baseline = *runtime::find_option(runtime::runtime_option_set(), "baseline");
  command->add_option("--baseline", options.baseline, registry_help(runtime::runtime_option_set(), "baseline"))
      ->type_name("N|auto|half")
      ->default_val(std::string(baseline.default_value))
      ->check([&baseline](const std::string& value) { return runtime::check_value(baseline, value).value_or(""); });
  command->add_option("--repeat", options.repeat, "Runs per configuration; the table shows medians")
      ->default_val(5)
      ->check(CLI::Range(1, 1000));
  command->add_option("--sweep-every", options.sweep_every, "Iterations per thread count in the SA(1 exec) run")
      ->default_val(10)
      ->check(CLI::Range(2, 1000000));
  command->add_flag("--no-sweep", options.no_sweep, "Skip the SA(1 exec) run");
  command->add_option("--region", options.region, "Region id to report (default: the longest-running)")
      ->check([](const std::string& value) -> std::string {
        const bool digits = !value.empty() && value.find_first_not_of("0123456789") == std::string::npos;
        return digits ? "" : "'" + value + "' is not a region id (a non-negative integer)";
      });
  add_json_flag(*command, options.json, "Print JSON instead of the table");
  add_csv_flag(*command, options.csv, "CSV instead of the table: one line per thread count, the columns of --json's points");
  add_progress_flags(*command, options.progress, options.quiet);
  command->add_option("program", options.command,
                      "The program (linked with libaugur, or an unmodified OpenMP program) and its arguments, after --")
      ->required();
  command->footer(
      "In each repetition, every p runs the program with OMP_NUM_THREADS=p twice: with libaugur's mode=time (the\n"
      "region timed, nothing else) and mode=analyze; then one run on N threads sweeps p = 1..N (sweep). These options\n"
      "reach libaugur in the tool channel AUGUR_TOOL_OPTIONS, ahead of the program's own and the environment.\n"
      "An unmodified OpenMP program (libgomp or libomp, not linked with libaugur) runs under libaugur_preload.so\n"
      "or libaugur_ompt.so, as with augur run. OMP_WAIT_POLICY is set to passive unless already set.\n"
      "Guide: docs/speedup.md. Example:\n"
      "  augur speedup --max-threads 2 -- build/bin/swim 512 400");
}

int run_speedup_command(const SpeedupOptions& options) {
  try {
    catch_interruptions();
    const int max_threads = options.max_threads > 0 ? options.max_threads : machine_processors();
    std::optional<Interposition> tool;
    std::string instrumentation;
    if (const int refused = choose_instrumentation(core::find_program(options.command[0]), tool, instrumentation);
        refused != 0)
      return refused;
    Experiment experiment(options, max_threads, tool);
    const ExperimentMachine machine;  // the load and steal around the runs, for the verdict
    const std::vector<PlannedRun> plans = selfanalysis::plan_experiment(max_threads, options.repeat, !options.no_sweep);
    selfanalysis::ExperimentInput input;
    input.choose_region = options.region.has_value();
    input.region_id = options.region.value_or(0);
    Progress progress("augur speedup", static_cast<long long>(plans.size()), "runs", Progress::mode_for(options.quiet, options.progress));
    int number = 0;
    bool skipped_sweep = false;
    for (const PlannedRun& plan : plans) {
      ++number;
      if (plan.kind == selfanalysis::RunKind::sweep && experiment.outer()) {
        skipped_sweep = true;  // a team's size is fixed while it runs: nothing to sweep
        continue;
      }
      selfanalysis::add_run(input, plan.kind, experiment.run(plan, number, static_cast<int>(plans.size()), progress));
    }
    progress.clear();
    selfanalysis::ExperimentResult result = selfanalysis::summarize_experiment(input);
    if (!instrumentation.empty()) result.notes.insert(result.notes.begin(), instrumentation);
    if (experiment.timed_outer()) {
      result.notes.push_back("region_s of the outer region: its iterations x the median step time of the run "
                             "(the interposition file), as the mode=time report has no region of kind outer");
    }
    if (skipped_sweep) {
      result.notes.push_back("SA(1 exec) not measured: the region is one outer parallel region (\"kind\": \"outer\"), "
                             "whose team keeps its size while it runs, so a sweep of thread counts does not apply");
    }
    const selfanalysis::Verdict verdict =
        selfanalysis::judge_verdict(selfanalysis::verdict_input(result, options.repeat, machine.finish(experiment.wait_policy())));
    if (options.json) {
      print_speedup_json(options, result, max_threads, experiment.wait_policy(), experiment.outer(), verdict);
    } else if (options.csv) {
      std::printf("%s", render_speedup_csv(result).c_str());
    } else {
      print_speedup_table(options, result, experiment.wait_policy(), experiment.outer(), verdict);
    }
    return 0;
  } catch (const std::exception& error) {
    return report_error("speedup", error);
  }
}

Runner declare_speedup_command(CLI::App& command) {
  auto options = std::make_shared<SpeedupOptions>();
  add_speedup_options(&command, *options);
  return [options] { return run_speedup_command(*options); };
}

}  // namespace augur::cli
