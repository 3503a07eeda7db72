// A program run with each line of its output stamped as it comes (bench_outer_region: NPB's progress lines,
// the pace of its loop by the program's own steps, with no tool in the run; outer_region_runs.hpp). The output
// and error go through one pipe that this process reads as the program writes; the program's own stdout must
// be line-buffered for the stamps to mean anything (the caller runs it under `stdbuf -oL`).
#pragma once

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/process.hpp"
#include "outer_region_report.hpp"

namespace augur::bench {

struct StampedRun {
  augur::core::ProcessResult result;  // its status and wall time; standard_output holds output and error
  std::vector<StampedLine> lines;     // each line, stamped in seconds since the start when its newline came
};

// Runs argv (searched in PATH) with the environment of `options` (its `environment` and `unset`) and waits for
// it, killing it after options.timeout_seconds when that is > 0. Throws when it cannot start.
inline StampedRun run_stamped(const std::vector<std::string>& argv, const augur::core::SpawnOptions& options) {
  int pipe_ends[2];
  if (argv.empty() || pipe2(pipe_ends, O_CLOEXEC) != 0) throw std::runtime_error("run_stamped: no pipe");
  std::vector<char*> arguments;
  for (const std::string& word : argv) arguments.push_back(const_cast<char*>(word.c_str()));
  arguments.push_back(nullptr);
  const auto start = std::chrono::steady_clock::now();
  const pid_t child = fork();
  if (child < 0) {
    close(pipe_ends[0]);
    close(pipe_ends[1]);
    throw std::runtime_error("run_stamped: fork failed");
  }
  if (child == 0) {  // the benchmark is one thread: setenv after fork is safe here
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    dup2(pipe_ends[1], STDOUT_FILENO);
    dup2(pipe_ends[1], STDERR_FILENO);
    const int nothing = open("/dev/null", O_RDONLY);
    if (nothing >= 0) dup2(nothing, STDIN_FILENO);
    for (const std::string& name : options.unset) unsetenv(name.c_str());
    for (const auto& [name, value] : options.environment) setenv(name.c_str(), value.c_str(), 1);
    execvp(arguments[0], arguments.data());
    _exit(127);
  }
  close(pipe_ends[1]);
  const auto seconds = [&start] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); };
  StampedRun run;
  std::string pending;  // the line not yet ended
  char buffer[4096];
  for (;;) {
    int wait_ms = -1;
    if (options.timeout_seconds > 0.0) {
      wait_ms = static_cast<int>(1e3 * (options.timeout_seconds - seconds()));
      if (wait_ms <= 0) {
        kill(child, SIGKILL);
        run.result.timed_out = true;
        break;
      }
    }
    pollfd watched{pipe_ends[0], POLLIN, 0};
    if (poll(&watched, 1, wait_ms) < 0) continue;  // EINTR
    if (watched.revents == 0) continue;
    const ssize_t count = read(pipe_ends[0], buffer, sizeof buffer);
    if (count < 0) continue;
    if (count == 0) break;  // every writer closed it: the program ended (or closed its output)
    const double now = seconds();
    run.result.standard_output.append(buffer, static_cast<std::size_t>(count));
    for (ssize_t i = 0; i < count; ++i) {
      if (buffer[i] != '\n') {
        pending.push_back(buffer[i]);
        continue;
      }
      run.lines.push_back({now, pending});
      pending.clear();
    }
  }
  close(pipe_ends[0]);
  if (!pending.empty()) run.lines.push_back({seconds(), pending});
  int status = 0;
  while (waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
  run.result.wall_seconds = seconds();
  if (WIFEXITED(status)) run.result.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) run.result.signal = WTERMSIG(status);
  return run;
}

}  // namespace augur::bench
