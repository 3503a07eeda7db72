// augur run's launching of the program (run_launch.hpp). Guide: docs/run.md.
#include "run_launch.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include "core/files.hpp"
#include "core/process.hpp"
#include "options_command.hpp"
#include "runtime/options.hpp"

namespace augur::cli {
namespace {

namespace fs = std::filesystem;

// The baseline policy of the program's libaugur options: --baseline, else AUGUR_BASELINE, else libaugur's
// default (an invalid AUGUR_BASELINE leaves the default, as libaugur warns).
selfanalysis::BaselinePolicy baseline_policy(const RunOptions& options) {
  runtime::Settings settings;
  if (const char* variable = std::getenv(runtime::environment_name("baseline").c_str());
      variable != nullptr && *variable != '\0') {
    (void)runtime::apply_option(settings, "baseline", variable);
  }
  for (const auto& [key, value] : options.augur_options) {
    if (key == "baseline") (void)runtime::apply_option(settings, key, value);
  }
  return settings.engine.baseline;
}

// What augur run tells the program's libaugur and preload session, in the tool channel (it outranks the
// program's own settings and the environment): where to write the report and the interposition file, no
// summary on stderr, and the options given as flags.
ToolChoices tool_choices(const RunOptions& options, const std::string& report_path, const std::string& info_path) {
  ToolChoices choices = options.augur_options;
  choices.insert(choices.end(), {{"report", report_path}, {"run.info", info_path}, {"summary", "0"}});
  return choices;
}

}  // namespace

std::string baseline_clamp_note(const RunOptions& options) {
  const selfanalysis::BaselinePolicy policy = baseline_policy(options);
  // The threads of the run: -p, else OMP_NUM_THREADS (its first level), else the processors (libgomp's default).
  int threads = options.threads;
  if (threads <= 0) {
    const char* variable = std::getenv("OMP_NUM_THREADS");
    char* end = nullptr;
    const long value = variable != nullptr ? std::strtol(variable, &end, 10) : 0;
    if (variable != nullptr && end != variable && (*end == '\0' || *end == ',') && value > 0 && value <= 4096) threads = static_cast<int>(value);
  }
  if (threads <= 0) threads = static_cast<int>(std::max(1L, ::sysconf(_SC_NPROCESSORS_ONLN)));
  if (policy.kind != selfanalysis::BaselinePolicy::Kind::Fixed || policy.processors <= threads) return "";
  bool flag = false;
  for (const auto& entry : options.augur_options) flag = flag || entry.first == "baseline";
  const std::string given = (flag ? "--baseline " : runtime::environment_name("baseline") + "=") + std::to_string(policy.processors);
  const std::string p = std::to_string(threads);
  return given + " is more than the " + p + " thread" + (threads == 1 ? "" : "s") + " of the run: the baseline is " + p +
         (threads == 1 ? " (never more than the threads; one thread has no speedup to measure)"
                       : " (never more than the threads; below " + p + " to measure a speedup on " + p + ")");
}

long RunOptions::iterations() const {
  long iterations = 0;
  for (const auto& [key, value] : augur_options) {
    // Checked by the registry when parsed: an integer in range, or empty (unknown).
    if (key == "run.iterations") iterations = value.empty() ? 0 : std::stol(value);
  }
  return iterations;
}

Environment program_environment(const RunOptions& options, const Interposition& tool, const std::string& report_path,
                                const std::string& info_path) {
  Environment environment = interposition_environment(tool);
  environment.reserve(32);  // (also keeps gcc 12's -Warray-bounds from a false positive on the emplace_backs below)
  if (std::getenv("OMP_WAIT_POLICY") == nullptr) environment.emplace_back("OMP_WAIT_POLICY", "passive");
  if (options.threads > 0) environment.emplace_back("OMP_NUM_THREADS", std::to_string(options.threads));
  environment.push_back(tool_channel_entry(tool_choices(options, report_path, info_path)));
  return environment;
}

std::optional<interpose::SecondRunResult> measure_second_run(const RunOptions& options,
                                                             const interpose::WorksharingPeriod& first,
                                                             int first_exit_code, const std::vector<std::string>& argv,
                                                             const Environment& environment, const fs::path& scratch) {
  const int threads = interpose::second_run_threads(baseline_policy(options), first.team_size);
  if (!options.check_run || options.one_run) return std::nullopt;
  if (!interpose::second_run_wanted(first, threads)) {
    std::fprintf(stderr, "augur run: no check run (--check-run): %s\n",
                 threads <= 0 ? "the team is one thread, and a check needs a run on fewer threads than the team"
                              : "the first run measured no time per iteration to compare with");
    return std::nullopt;
  }
  if (first_exit_code != 0) return interpose::not_run_again(first, threads, first_exit_code);
  // Same program, arguments and environment, OMP_NUM_THREADS=B, its own files (later entries win).
  const std::string info_path = (scratch / "interpose-baseline.json").string();
  Environment second_environment = environment;
  second_environment.emplace_back("OMP_NUM_THREADS", std::to_string(threads));
  second_environment.push_back(
      tool_channel_entry(tool_choices(options, (scratch / "report-baseline.json").string(), info_path)));
  std::fprintf(stderr, "augur run: check run on %d thread%s (--check-run) to compare with the one-run analysis\n", threads,
               threads == 1 ? "" : "s");
  std::fflush(stderr);
  const core::ProcessResult second = core::run_attached(argv, second_environment);
  std::fflush(stdout);
  interpose::SecondRunEnd end;
  end.signal = second.signal;
  end.exit_code = second.exit_code;
  // The file is read only from a run that ended well (a crashed run's file is not looked at).
  if (second.signal == 0 && second.exit_code == 0 && fs::exists(info_path)) {
    end.info = interpose::parse_run_info(core::read_file(info_path), info_path);
  }
  return interpose::combine_runs(first, threads, end);
}

}  // namespace augur::cli
