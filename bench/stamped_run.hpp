// A program run with each line of its output stamped as it comes (bench_outer_region: NPB's progress lines,
// the pace of its loop by the program's own steps, with no tool in the run; outer_region_runs.hpp). The output
// and error go through one pipe that this process reads as the program writes; the program's own stdout must
// be line-buffered for the stamps to mean anything (the caller runs it under `stdbuf -oL`). Lines that arrive
// in one read share its stamp.
#pragma once

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/process.hpp"
#include "outer_region_report.hpp"

namespace augur::bench {

struct StampedRun {
  augur::core::ProcessResult result;  // its status and wall time; standard_output holds output and error
  std::vector<StampedLine> lines;     // each line, stamped in seconds since the start when its read came
};

// Runs argv (searched in PATH; a program that cannot start exits 127) with the environment of `options` (its
// `environment` and `unset`) in a process group of its own, and waits for it; after options.timeout_seconds
// (when > 0) the group is killed (SIGKILL) and the result says timed_out. The run ends when the program has
// exited and what it wrote is read, even when a process it started still holds the pipe.
inline StampedRun run_stamped(const std::vector<std::string>& argv, const augur::core::SpawnOptions& options) {
  if (argv.empty()) throw std::runtime_error("run_stamped: no program");
  // Built before the fork, so that the child calls nothing but async-signal-safe functions.
  std::vector<std::string> environment = augur::core::build_environment(options);
  std::vector<char*> arguments, variables;
  for (const std::string& word : argv) arguments.push_back(const_cast<char*>(word.c_str()));
  arguments.push_back(nullptr);
  for (std::string& entry : environment) variables.push_back(entry.data());
  variables.push_back(nullptr);
  int pipe_ends[2];
  if (pipe2(pipe_ends, O_CLOEXEC) != 0)
    throw std::runtime_error(std::string("run_stamped: pipe: ") + std::strerror(errno));
  const pid_t parent = getpid();
  const auto start = std::chrono::steady_clock::now();
  const pid_t child = fork();
  if (child < 0) {
    close(pipe_ends[0]);
    close(pipe_ends[1]);
    throw std::runtime_error(std::string("run_stamped: fork: ") + std::strerror(errno));
  }
  if (child == 0) {  // async-signal-safe calls only: the benchmark may have other threads (its placement probe)
    setpgid(0, 0);
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent) _exit(127);
    dup2(pipe_ends[1], STDOUT_FILENO);
    dup2(pipe_ends[1], STDERR_FILENO);
    const int nothing = open("/dev/null", O_RDONLY | O_CLOEXEC);
    if (nothing >= 0) dup2(nothing, STDIN_FILENO);  // dup2 clears close-on-exec on the copy only
    execvpe(arguments[0], arguments.data(), variables.data());
    _exit(127);
  }
  close(pipe_ends[1]);
  const int reading = pipe_ends[0];
  const auto seconds = [&start] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  StampedRun run;
  std::string pending;  // the line not yet ended
  const auto take = [&](const char* bytes, std::size_t count, double now) {
    run.result.standard_output.append(bytes, count);
    for (std::size_t i = 0; i < count; ++i) {
      if (bytes[i] != '\n') {
        pending.push_back(bytes[i]);
        continue;
      }
      run.lines.push_back({now, pending});
      pending.clear();
    }
  };
  char buffer[4096];
  bool open_pipe = true, reaped = false, killed = false;
  int status = 0;
  const auto abandon = [&] {  // on an error: no child left running or unreaped, no descriptor left open
    if (!reaped) {
      kill(-child, SIGKILL);
      kill(child, SIGKILL);
      while (waitpid(child, &status, 0) < 0 && errno == EINTR) {
      }
    }
    close(reading);
  };
  try {
    while (!reaped) {
      if (!killed && options.timeout_seconds > 0.0 && seconds() >= options.timeout_seconds) {
        kill(-child, SIGKILL);
        kill(child, SIGKILL);
        killed = true;
      }
      if (open_pipe) {  // wakes at once on output; at least every 50 ms to see the program's end and the time
        pollfd watched{reading, POLLIN, 0};
        if (poll(&watched, 1, 50) > 0) {
          const ssize_t count = read(reading, buffer, sizeof buffer);
          if (count > 0) take(buffer, static_cast<std::size_t>(count), seconds());
          if (count == 0 || (count < 0 && errno != EINTR && errno != EAGAIN)) open_pipe = false;
        }
      } else {
        const timespec pause{0, 50'000'000};
        nanosleep(&pause, nullptr);
      }
      const pid_t ended = waitpid(child, &status, WNOHANG);
      if (ended == child) reaped = true;
      if (ended < 0 && errno != EINTR) {
        reaped = true;  // no such child: nothing to reap
        throw std::runtime_error(std::string("run_stamped: waitpid: ") + std::strerror(errno));
      }
    }
    // What the program wrote before it ended (up to 1 MiB more); a process it left behind is not waited for.
    if (open_pipe) {
      fcntl(reading, F_SETFL, fcntl(reading, F_GETFL) | O_NONBLOCK);
      ssize_t count = 0;
      for (int reads = 0; reads < 256 && (count = read(reading, buffer, sizeof buffer)) > 0; ++reads)
        take(buffer, static_cast<std::size_t>(count), seconds());
    }
  } catch (...) {
    abandon();
    throw;
  }
  close(reading);
  if (!pending.empty()) run.lines.push_back({seconds(), pending});
  run.result.wall_seconds = seconds();
  if (WIFEXITED(status)) run.result.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) run.result.signal = WTERMSIG(status);
  run.result.timed_out = killed && run.result.signal == SIGKILL;
  return run;
}

}  // namespace augur::bench
