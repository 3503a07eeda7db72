// How bench_outer_region runs each side of its comparisons (outer_region_accuracy.cpp): `augur run -p 2 --json`
// on a program, the program alone on 1 or 2 threads (OMP_WAIT_POLICY=passive on both sides; LD_PRELOAD,
// OMP_NUM_THREADS and the AUGUR_* variables that would change a run unset), and the CPU-bound competitor of
// the disturbance runs.
#pragma once

#include <signal.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "core/files.hpp"
#include "core/process.hpp"
#include "outer_region_report.hpp"
#include "stamped_run.hpp"

namespace augur::bench {

namespace fs = std::filesystem;

struct Program {
  std::string label;              // "gcc outer_region"
  std::vector<std::string> argv;  // the program and its arguments
  long iterations = 0;            // its time steps (augur run --iterations, for the time estimate); 0: unknown
  std::vector<std::pair<std::string, std::string>> environment;  // Settings::environment
  bool progress_lines = false;  // NPB: its pace alone from its progress lines, stamped as they come (npb_pace)
};

inline augur::core::SpawnOptions options_for(const char* threads, const std::vector<std::pair<std::string, std::string>>& environment) {
  augur::core::SpawnOptions options;
  options.unset = {"AUGUR_MODE", "AUGUR_REPORT",    "AUGUR_SWEEP",      "AUGUR_BASELINE",      "AUGUR_TOOL_OPTIONS",
                   "LD_PRELOAD", "OMP_NUM_THREADS", "AUGUR_DPD_WINDOW", "AUGUR_RUN_ITERATIONS", "EXAMPLE_PACE"};
  options.environment = {{"OMP_WAIT_POLICY", "passive"}};
  options.environment.insert(options.environment.end(), environment.begin(), environment.end());
  if (threads != nullptr) options.environment.emplace_back("OMP_NUM_THREADS", threads);
  options.standard_output.kind = augur::core::Destination::Kind::capture;
  options.standard_error.kind = augur::core::Destination::Kind::capture;
  options.timeout_seconds = 600.0;
  return options;
}

// `augur run -p 2 [extra] --json=FILE -- program`; its wall time in `wall`. A run that found nothing
// writes no report (augur run exits 1): that is a result, not a failure.
inline RunReport augur_run(const Program& program, const std::vector<std::string>& extra, const fs::path& scratch,
                    double* wall = nullptr) {
  const fs::path report = scratch / "report.json";
  fs::remove(report);
  std::vector<std::string> argv{AUGUR_EXE, "run", "-p", "2"};
  argv.insert(argv.end(), extra.begin(), extra.end());
  argv.insert(argv.end(), {"--json=" + report.string(), "--"});
  argv.insert(argv.end(), program.argv.begin(), program.argv.end());
  const augur::core::ProcessResult result = augur::core::spawn(argv, options_for(nullptr, program.environment));
  if (result.signal != 0 || result.timed_out)
    throw std::runtime_error("augur run " + program.label + " " + result.describe_status());
  if (wall != nullptr) *wall = result.wall_seconds;
  if (!fs::exists(report)) return {};
  return augur::bench::read_report(nlohmann::json::parse(augur::core::read_file(report)));
}

// The program alone on `threads` threads: the time it prints, else its wall time. With EXAMPLE_PACE=1 (the
// examples then print their loop's pace: examples/interpose/pace_marks.h; other programs ignore it); a program
// with progress lines runs under `stdbuf -oL` (when there is one), its lines stamped as they come. When `paces`
// is given, the pace is appended to it when there is one.
inline double alone(const Program& program, const char* threads, std::vector<LoopPaceMarks>* paces = nullptr) {
  augur::core::SpawnOptions options = options_for(threads, program.environment);
  options.environment.emplace_back("EXAMPLE_PACE", "1");
  static const std::string stdbuf = augur::core::find_program("stdbuf");
  std::optional<LoopPaceMarks> pace;
  augur::core::ProcessResult result;
  if (program.progress_lines && !stdbuf.empty()) {
    std::vector<std::string> argv{stdbuf, "-oL"};
    argv.insert(argv.end(), program.argv.begin(), program.argv.end());
    StampedRun run = run_stamped(argv, options);
    result = std::move(run.result);
    if (const auto time = augur::bench::printed_time(result.standard_output))
      pace = augur::bench::npb_pace(run.lines, program.iterations, *time);
  } else {
    result = augur::core::spawn(program.argv, options);
    pace = augur::bench::read_pace(result.standard_output);
  }
  if (!result.succeeded())
    throw std::runtime_error(program.label + " " + result.describe_status() + "\n" + result.standard_error + result.standard_output);
  if (paces != nullptr && pace) paces->push_back(std::move(*pace));
  return augur::bench::printed_time(result.standard_output).value_or(result.wall_seconds);
}

// A CPU-bound child that sleeps `delay` seconds, then spins until killed (and dies with this process).
inline pid_t start_competitor(double delay) {
  std::fflush(nullptr);
  const pid_t child = fork();
  if (child < 0) throw std::runtime_error("fork failed");
  if (child > 0) return child;
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  timespec pause{static_cast<time_t>(delay),
                 static_cast<long>((delay - static_cast<double>(static_cast<time_t>(delay))) * 1e9)};
  nanosleep(&pause, nullptr);
  volatile unsigned long spin = 0;
  for (;;) spin = spin + 1;
}

}  // namespace augur::bench
