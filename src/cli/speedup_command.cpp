#include "speedup_command.hpp"

#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <thread>

#include "command.hpp"
#include "core/files.hpp"
#include "core/process.hpp"
#include "selfanalysis/speedup_experiment.hpp"
#include "options_command.hpp"
#include "runtime/options.hpp"
#include "speedup_print.hpp"

namespace augur::cli {
namespace {

namespace fs = std::filesystem;
using selfanalysis::ExperimentRun;
using selfanalysis::PlannedRun;

int machine_processors() {
  const unsigned count = std::thread::hardware_concurrency();
  return count == 0 ? 1 : static_cast<int>(count);
}

// Runs the planned runs of the experiment one after the other, each with its own report file.
class Experiment {
public:
  Experiment(const SpeedupOptions& options, int max_threads) : options_(options) {
    const char* policy = std::getenv("OMP_WAIT_POLICY");
    settings_.max_threads = max_threads;
    settings_.wait_policy = policy != nullptr && *policy != '\0' ? policy : "passive";
    settings_.baseline = options.baseline;
    settings_.sweep_every = options.sweep_every;
  }

  ExperimentRun run(const PlannedRun& plan, int number, int total) {
    const char* kind = selfanalysis::run_kind_name(plan.kind);
    const fs::path report = scratch_.path() / ("run-" + std::to_string(number) + ".json");
    core::ProcessOptions process;
    process.discard_output = true;
    process.environment = selfanalysis::run_environment(plan, settings_);
    process.environment.push_back(tool_channel_entry(selfanalysis::run_options(plan, settings_, report.string())));
    if (!options_.quiet) {
      std::fprintf(stderr, "augur speedup: run %d/%d: %s on %d thread%s ...", number, total, kind, plan.processors,
                   plan.processors == 1 ? "" : "s");
      std::fflush(stderr);
    }
    const core::ProcessResult result = core::run_process(options_.command, process);
    if (!options_.quiet) std::fprintf(stderr, " %.3f s\n", result.wall_seconds);
    if (const int signal_number = core::interrupted()) {
      throw std::runtime_error(std::string("interrupted by signal ") + std::to_string(signal_number) + " (" +
                               strsignal(signal_number) + "); no result");
    }
    if (!result.succeeded()) {
      throw std::runtime_error("'" + options_.command.front() + "' " + result.describe_status() + " (" + kind + " run on " +
                               std::to_string(plan.processors) + (plan.processors == 1 ? " thread" : " threads") +
                               "); the end of its stderr:\n" +
                               (result.standard_error.empty() ? std::string("(empty)")
                                                              : selfanalysis::last_lines(result.standard_error, 10)));
    }
    if (!fs::exists(report)) {
      throw std::runtime_error("'" + options_.command.front() +
                               "' wrote no augur report: is it linked with libaugur and its loop marked with "
                               "augur_init_parallel_region (docs/self-analysis.md)?");
    }
    ExperimentRun run;
    run.processors = plan.processors;
    run.repetition = plan.repetition;
    run.wall_seconds = result.wall_seconds;
    run.report = selfanalysis::parse_report(core::read_file(report.string()), report.string());
    return run;
  }

  [[nodiscard]] const std::string& wait_policy() const { return settings_.wait_policy; }

private:
  const SpeedupOptions& options_;
  selfanalysis::RunSettings settings_;
  core::TemporaryFolder scratch_{"augur-speedup"};  // the runs' reports
};

}  // namespace

void add_speedup_options(CLI::App* command, SpeedupOptions& options) {

  command->add_option("--max-threads", options.max_threads, "Largest thread count P (default: the machine's processors)")
      ->check(CLI::Range(1, 4096));
  command->add_option("--baseline", options.baseline, "Baseline processors B of the self-analyzer: a count or 'half'")
      ->default_val("1")
      ->check([](const std::string& value) -> std::string {
        // The library's own rule for AUGUR_BASELINE.
        runtime::Settings settings;
        return runtime::apply_option(settings, "baseline", value).value_or("");
      });
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
  command->add_flag("--json", options.json, "Print JSON instead of the table");
  command->add_flag("-q,--quiet", options.quiet, "No progress lines on stderr");
  command->add_option("program", options.command, "The instrumented program and its arguments, after --")->required();
  command->footer(
      "In each repetition, every p runs the program with OMP_NUM_THREADS=p twice: with libaugur's mode=time (the\n"
      "region timed, nothing else) and mode=analyze; then one run on N threads sweeps p = 1..N (sweep). These options\n"
      "reach libaugur in the tool channel AUGUR_TOOL_OPTIONS, ahead of the program's own and the environment.\n"
      "OMP_WAIT_POLICY is set to passive unless already set. Guide: docs/speedup.md. Example:\n"
      "  augur speedup --max-threads 2 -- build/bin/swim 512 400");
}

int run_speedup_command(const SpeedupOptions& options) {
  try {
    core::forward_interruptions();
    const int max_threads = options.max_threads > 0 ? options.max_threads : machine_processors();
    Experiment experiment(options, max_threads);
    const std::vector<PlannedRun> plans = selfanalysis::plan_experiment(max_threads, options.repeat, !options.no_sweep);
    selfanalysis::ExperimentInput input;
    input.choose_region = options.region.has_value();
    input.region_id = options.region.value_or(0);
    int number = 0;
    for (const PlannedRun& plan : plans) {
      selfanalysis::add_run(input, plan.kind, experiment.run(plan, ++number, static_cast<int>(plans.size())));
    }
    selfanalysis::ExperimentResult result = selfanalysis::summarize_experiment(input);
    if (options.json) {
      print_speedup_json(options, result, max_threads, experiment.wait_policy());
    } else {
      print_speedup_table(options, result, experiment.wait_policy());
    }
    return 0;
  } catch (const std::exception& error) {
    std::fprintf(stderr, "augur speedup: %s\n", error.what());
    return 1;
  }
}

Runner declare_speedup_command(CLI::App& command) {
  auto options = std::make_shared<SpeedupOptions>();
  add_speedup_options(&command, *options);
  return [options] { return run_speedup_command(*options); };
}

}  // namespace augur::cli
