// Running a program and timing it: what the experiment commands, `augur cc`, `augur run` and the
// benchmarks need. One function, spawn(), starts every child process; the rest are its common uses.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace augur::core {

struct ProcessResult {
  int exit_code = -1;      // exit status, or -1 when killed by a signal
  int signal = 0;          // the signal that killed it, 0 if it exited
  bool timed_out = false;  // killed (SIGKILL) because it outlived SpawnOptions::timeout_seconds
  double wall_seconds = 0.0;
  std::string standard_output;  // captured output (Destination::Kind::capture only)
  std::string standard_error;

  [[nodiscard]] bool succeeded() const { return signal == 0 && exit_code == 0; }
  // "exited with status 3", "was killed by signal 11 (Segmentation fault)" or
  // "was killed after its time limit".
  [[nodiscard]] std::string describe_status() const;
  // The status as a shell reports it in $?: the exit status, or 128 + the signal that killed it.
  [[nodiscard]] int shell_status() const { return signal != 0 ? 128 + signal : exit_code; }
};

// Where a child's standard output or standard error goes.
struct Destination {
  enum class Kind {
    capture,  // into ProcessResult::standard_output / standard_error
    inherit,  // our own stream (the terminal, or wherever ours goes)
    discard,  // /dev/null
    file,     // `path`, created or truncated
  };
  Kind kind = Kind::capture;
  std::string path;

  static Destination to_file(std::string file) { return {Kind::file, std::move(file)}; }
};

struct SpawnOptions {
  // Variables added to (or replacing those of) this process' environment; a later entry wins.
  std::vector<std::pair<std::string, std::string>> environment;
  // Variables removed from the environment.
  std::vector<std::string> unset;
  // The child takes our standard input, output and error (it is on our terminal); otherwise its input
  // is /dev/null and its output and error go where the two destinations say.
  bool attach = false;
  Destination standard_output;
  Destination standard_error;
  // > 0: the child is killed (SIGKILL) when it runs longer than this; the result says timed_out.
  double timeout_seconds = 0.0;
};

// Runs argv[0] (searched in PATH when it has no '/') with argv and waits for it. While it runs,
// SIGINT, SIGTERM, SIGHUP and SIGQUIT sent to this process are passed on to it instead of ending this
// process (those from the terminal reach it directly, so they are not sent twice), so that the caller
// cleans up and reports after it; a signal this process ignored when it started (nohup) stays ignored,
// for the child too. Signal dispositions are process-wide and the forwarding knows one child, so
// spawn() is called by one thread at a time. Throws std::runtime_error when the program cannot be started.
ProcessResult spawn(const std::vector<std::string>& argv, const SpawnOptions& options);

// The environment spawn() gives a child, as NAME=VALUE entries: ours, minus options.unset, with
// options.environment added (the last of a name wins). Also for a caller that forks by itself and must
// build it before the fork.
[[nodiscard]] std::vector<std::string> build_environment(const SpawnOptions& options);

struct ProcessOptions {
  // Variables added to (or replacing those of) this process' environment.
  std::vector<std::pair<std::string, std::string>> environment;
  // Variables removed from the environment.
  std::vector<std::string> unset;
  // Send the program's standard output to /dev/null instead of capturing it.
  bool discard_output = false;
};

// spawn() with the output and error captured (or the output discarded) and no standard input.
ProcessResult run_process(const std::vector<std::string>& argv, const ProcessOptions& options = {});

// PROGRAM as the shell would find it: itself when it has a '/', else the first match in PATH ("" if none).
[[nodiscard]] std::string find_program(const std::string& program);

// spawn() attached to our terminal, with the environment plus `environment`. The result has no
// captured output.
ProcessResult run_attached(const std::vector<std::string>& argv,
                           const std::vector<std::pair<std::string, std::string>>& environment);

// From now on SIGINT, SIGTERM and SIGHUP are passed on to the child spawn() is waiting for and
// remembered, also between children, instead of ending this process at once: the caller checks
// interrupted() after each run and leaves cleanly (its temporary files removed).
void forward_interruptions();
// The signal received since forward_interruptions() or during a spawn(), or 0.
[[nodiscard]] int interrupted();

// $TMPDIR, or /tmp.
[[nodiscard]] std::string temporary_directory();

}  // namespace augur::core
