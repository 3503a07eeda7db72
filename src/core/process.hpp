// Running a program and timing it: what the experiment commands and benchmarks need.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace augur::core {

struct ProcessResult {
  int exit_code = -1;      // exit status, or -1 when killed by a signal
  int signal = 0;          // the signal that killed it, 0 if it exited
  double wall_seconds = 0.0;
  std::string standard_output;
  std::string standard_error;

  [[nodiscard]] bool succeeded() const { return signal == 0 && exit_code == 0; }
  // "exited with status 3" or "was killed by signal 11 (Segmentation fault)".
  [[nodiscard]] std::string describe_status() const;
};

struct ProcessOptions {
  // Variables added to (or replacing those of) this process' environment.
  std::vector<std::pair<std::string, std::string>> environment;
  // Variables removed from the environment.
  std::vector<std::string> unset;
  // Send the program's standard output to /dev/null instead of capturing it.
  bool discard_output = false;
};

// Runs argv[0] (searched in PATH when it has no '/') with argv, waits for it, and returns its status,
// wall time and captured output. Throws std::runtime_error when the program cannot be started.
ProcessResult run_process(const std::vector<std::string>& argv, const ProcessOptions& options = {});

// PROGRAM as the shell would find it: itself when it has a '/', else the first match in PATH ("" if none).
[[nodiscard]] std::string find_program(const std::string& program);

// Runs argv[0] (a path) with the environment plus `environment`, its output on ours, and waits for it.
// SIGINT and SIGQUIT are ignored while it runs, so that Ctrl-C stops the program and the caller still
// cleans up and reports. The result has no captured output. Throws std::runtime_error when it cannot start.
ProcessResult run_attached(const std::vector<std::string>& argv,
                           const std::vector<std::pair<std::string, std::string>>& environment);

// From now on SIGINT, SIGTERM and SIGHUP are passed on to the program run_process is waiting for and
// remembered, instead of ending this process at once: the caller checks interrupted() after each run
// and leaves cleanly (its temporary files removed).
void forward_interruptions();
// The signal received since forward_interruptions(), or 0.
[[nodiscard]] int interrupted();

// $TMPDIR, or /tmp.
[[nodiscard]] std::string temporary_directory();

}  // namespace augur::core
