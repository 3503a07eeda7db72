// augur run: runs an unmodified program with LD_PRELOAD=libaugur_preload.so (libgomp) or
// OMP_TOOL_LIBRARIES=libaugur_ompt.so (LLVM's libomp) and prints what the self-analyzer measured of the
// iterative parallel region the periodicity detector found.
// Guide: docs/run.md.
#include "run_command.hpp"

#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "command.hpp"
#include "flags.hpp"
#include "augur/selfanalysis_report.hpp"
#include "core/files.hpp"
#include "core/json_text.hpp"
#include "core/process.hpp"
#include "interpose/run_result.hpp"
#include "run_launch.hpp"
#include "run_print.hpp"
#include "verdict_print.hpp"
#include "options_command.hpp"
#include "runtime/options.hpp"

namespace augur::cli {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// The end of every measured run: with --json, the report with what the interposition saw (on standard output
// instead of the table, or with --json=FILE into FILE), and the program's exit status passed on.
int finish(const RunOptions& options, const std::string& program, const std::string& report_text, const json& info,
           const core::ProcessResult& child, core::OutputFile* json_output) {
  if (options.json || !options.json_file.empty()) {
    json out = json::parse(report_text);
    out["interpose"] = info;
    out["program_wall_time_s"] = child.wall_seconds;
    out["exit_code"] = child.exit_code;
    out["verdict"] = run_verdict_json(report_text);
    if (json_output == nullptr) {
      std::fputs((core::json_text(out, 2) + "\n").c_str(), stdout);
    } else {
      json_output->write(core::json_text(out, 2) + "\n");
      json_output->commit();
    }
  }
  if (child.exit_code == 0) return 0;
  std::fprintf(stderr, "augur run: %s exited with status %d\n", program.c_str(), child.exit_code);
  return child.exit_code;
}

}  // namespace

void add_run_options(CLI::App* command, RunOptions& options) {
  // libaugur's options and the preload session's, declared once in their registries (runtime/options.hpp):
  // flag, help, default and check come from there; the values go to the program in the tool channel.
  for (const char* key : {"mode", "baseline", "warmup_iterations", "baseline_iterations", "baseline_every", "measure_iterations",
                          "history", "sweep", "sweep_every", "self_tuning", "trace"}) {
    add_registry_option(*command, runtime::runtime_option_set(), key, options.augur_options);
  }
  add_threads_option(*command, options.threads, "OMP_NUM_THREADS for the program (default: as set, or all processors)");
  add_registry_option(*command, runtime::run_option_set(), "iterations", options.augur_options);
  add_registry_option(*command, runtime::run_option_set(), "dpd.window", options.augur_options);
  add_json_flag(*command, options.json, options.json_file,
                "The report as JSON (the static report's fields and 'interpose') after the program's own output, instead of "
                "the table");
  command->add_option("--preload", options.preload, "The interposition library (default: the installation's libaugur_preload.so, or libaugur_ompt.so for libomp)");
  command->add_flag("--check-run", options.check_run,
                   "One outer parallel region: run the program a second time on the baseline's thread count and compare "
                   "its T(B)/T(P) with the one-run prediction");
  command->add_flag("--one-run", options.one_run, "One outer parallel region: no second run (the default; kept for scripts)");
  command->add_option("program", options.command, "The program and its arguments, after --")->required();
  command->footer(
      "OMP_WAIT_POLICY is set to passive unless already set. The program's output is its own; augur's report\n"
      "follows it on standard output. Guide: docs/run.md. Example:\n"
      "  augur run -p 2 -- build/bin/swim-plain 512 400");
}

int run_run_command(const RunOptions& options) {
  try {
    const std::string program = core::find_program(options.command[0]);
    std::error_code folder_error;
    if (program.empty() || ::access(program.c_str(), X_OK) != 0 || fs::is_directory(program, folder_error)) {
      std::fprintf(stderr, "augur run: %s: no such program (or not executable)\n", options.command[0].c_str());
      return 2;
    }
    std::string detail;
    const OpenMpRuntime runtime = detect_runtime(program, detail);
    Interposition tool;
    if (const int refused = choose_interposition("augur run", program, runtime, detail, options.preload, true, tool);
        refused != 0)
      return refused;
    std::unique_ptr<core::OutputFile> json_output;
    if (!options.json_file.empty()) {
      core::refuse_output_over_inputs(options.json_file, {program, tool.library});
      // Before the run, not after it: a report that cannot be written would cost the whole run.
      const fs::path folder = fs::path(options.json_file).parent_path();
      std::error_code error;
      const fs::path where = folder.empty() ? fs::path(".") : folder;
      if (!fs::exists(where, error))
        throw std::runtime_error(options.json_file + ": cannot write: no folder " + where.string() + "; nothing run");
      if (!fs::is_directory(where, error))
        throw std::runtime_error(options.json_file + ": cannot write: " + where.string() + " is not a folder; nothing run");
      if (::access(where.c_str(), W_OK | X_OK) != 0)
        throw std::runtime_error(options.json_file + ": cannot write in " + where.string() + ": " + std::strerror(errno) + "; nothing run");
      if (fs::is_directory(options.json_file, error))
        throw std::runtime_error(options.json_file + ": cannot write: it is a folder; nothing run");
      // Opened now, written at the end: whatever else keeps it from being written (a link into a missing folder)
      // is found before the run, and a run that gives no report leaves nothing behind.
      try {
        json_output = std::make_unique<core::OutputFile>(options.json_file);
      } catch (const std::runtime_error& refused) {
        throw std::runtime_error(std::string(refused.what()) + "; nothing run");
      }
    }
    if (const std::string note = baseline_clamp_note(options); !note.empty()) std::fprintf(stderr, "augur run: note: %s\n", note.c_str());
    core::TemporaryFolder scratch("augur-run");
    const std::string report_path = (scratch.path() / "report.json").string();
    const std::string info_path = (scratch.path() / "interpose.json").string();
    const Environment environment = program_environment(options, tool, report_path, info_path);
    std::vector<std::string> argv = options.command;
    argv[0] = program;
    const core::ProcessResult child = core::run_attached(argv, environment);
    std::fflush(stdout);
    if (child.signal != 0) {
      std::fprintf(stderr, "augur run: %s was killed by signal %d (%s); no report\n", program.c_str(), child.signal,
                   strsignal(child.signal));
      return child.shell_status();  // 128 + the signal, as a shell gives it
    }
    if (!fs::exists(info_path)) {
      std::fprintf(stderr, "augur run: %s exited with status %d without going through %s's exit (it "
                           "may have called _exit, or exec'd another program); no report\n",
                   program.c_str(), child.exit_code, tool.name().c_str());
      return child.exit_code != 0 ? child.exit_code : 1;
    }
    const std::string info_text = core::read_file(info_path);
    const interpose::RunInfo run = interpose::parse_run_info(info_text, info_path);
    json info = json::parse(info_text);
    resolve_names(info);
    if (interpose::outer_region_only(run) && fs::exists(report_path)) {
      // One outer parallel region: its period in its worksharing constructs, the speedup from a second run.
      const std::string report_text = core::read_file(report_path);
      const selfanalysis::Report report = selfanalysis::parse_report(report_text, report_path);
      const std::optional<interpose::SecondRunResult> second =
          measure_second_run(options, *run.worksharing, child.exit_code, argv, environment, scratch.path());
      if (second) record_second_run(info["worksharing"], *second);
      if (!options.json) print_worksharing(run, info["worksharing"], child, report, second, options);
      return finish(options, program, report_text, info, child, json_output.get());
    }
    if (!interpose::run_problem(run).empty() || !fs::exists(report_path)) {
      // The program's failure first (its arguments, its input), then what that left unmeasured.
      if (child.exit_code != 0) std::fprintf(stderr, "augur run: %s exited with status %d\n", program.c_str(), child.exit_code);
      std::fprintf(stderr, "augur run: no iterative parallel region found in %s: %s; nothing measured\n", program.c_str(),
                   interpose::nothing_measured_reason(run).c_str());
      return child.exit_code != 0 ? child.exit_code : 1;  // the program's failure, passed on (docs/cli.md, "Exit status")
    }
    const std::string report_text = core::read_file(report_path);
    const selfanalysis::Report report = selfanalysis::parse_report(report_text, report_path);
    if (!options.json) print_report(report, info, child, options);
    return finish(options, program, report_text, info, child, json_output.get());
  } catch (const std::exception& error) {
    std::fprintf(stderr, "augur run: %s\n", core::describe_error(error).c_str());
    return 1;
  }
}

Runner declare_run_command(CLI::App& command) {
  auto options = std::make_shared<RunOptions>();
  add_run_options(&command, *options);
  return [options] { return run_run_command(*options); };
}

}  // namespace augur::cli
