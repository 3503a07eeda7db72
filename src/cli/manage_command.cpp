// augur manage [--cpus N] [--policy P] [--quantum MS] [--json FILE] [--preload] -- PROG ARGS ::: PROG ARGS ...:
// a workload of real programs under a manager of its own (docs/manager.md, "Running a workload"). It starts the
// manager on a thread, launches every program at once with AUGUR_MANAGER naming it, waits for them, stops the
// manager and reports per job its response time, its allocations over time and its speedups.
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <cstdio>
#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <thread>

#include "command.hpp"
#include "core/files.hpp"
#include "core/process.hpp"
#include "locations.hpp"
#include "flags.hpp"
#include "manage_print.hpp"
#include "manager_runtime.hpp"

extern char** environ;

namespace augur::cli {
namespace {

struct ManageOptions {
  ManagerSettings settings;
  bool json = false;      // --json: the JSON instead of the table
  std::string json_path;  // --json=FILE: the JSON written there too
  std::string timeline_path;
  bool preload = false;
  bool quiet = false;
  std::vector<std::string> words;  // the programs, separated by :::
};

// The jobs of "PROG ARGS ::: PROG ARGS ...".
std::vector<std::vector<std::string>> split_jobs(const std::vector<std::string>& words) {
  std::vector<std::vector<std::string>> jobs(1);
  for (const std::string& word : words) {
    if (word == ":::") {
      jobs.emplace_back();
    } else {
      jobs.back().push_back(word);
    }
  }
  for (const std::vector<std::string>& job : jobs) {
    if (job.empty()) throw std::runtime_error("-- PROG ARGS ::: PROG ARGS ...: a job without a program (an empty ':::' part)");
  }
  return jobs;
}

// The environment of every job: ours, with AUGUR_MANAGER naming the manager (and OMP_WAIT_POLICY=passive unless set:
// threads that spin would take the processors the manager gives to the others).
std::vector<std::string> job_environment(const std::string& name) {
  std::vector<std::string> environment;
  bool wait_policy = false;
  for (char** entry = environ; *entry != nullptr; ++entry) {
    const std::string variable = *entry;
    if (variable.rfind("AUGUR_MANAGER=", 0) == 0) continue;
    wait_policy = wait_policy || variable.rfind("OMP_WAIT_POLICY=", 0) == 0;
    environment.push_back(variable);
  }
  environment.push_back("AUGUR_MANAGER=" + name);
  if (!wait_policy) environment.emplace_back("OMP_WAIT_POLICY=passive");
  return environment;
}

std::atomic<int> interruption{0};

void on_interruption(int signal_number) {
  interruption.store(signal_number);
}

// SIGINT and SIGTERM are passed on to the jobs, and augur manage waits for them, stops its manager and removes its
// segment (without SA_RESTART: waitpid returns to pass the signal on).
void pass_interruptions_on() {
  struct sigaction action {};
  action.sa_handler = on_interruption;
  sigemptyset(&action.sa_mask);
  sigaction(SIGINT, &action, nullptr);
  sigaction(SIGTERM, &action, nullptr);
}

pid_t launch(std::vector<std::string> argv, std::vector<std::string> environment) {
  std::vector<char*> arguments;
  for (std::string& argument : argv) arguments.push_back(argument.data());
  arguments.push_back(nullptr);
  std::vector<char*> variables;
  for (std::string& variable : environment) variables.push_back(variable.data());
  variables.push_back(nullptr);
  pid_t pid = 0;
  const int error = posix_spawnp(&pid, arguments[0], nullptr, nullptr, arguments.data(), variables.data());
  if (error != 0) throw std::runtime_error(argv[0] + ": cannot start: " + std::strerror(error));
  return pid;
}

// Waits for every job, recording its exit status and response time; an interruption is passed on to the jobs.
void wait_for_jobs(std::vector<ManagedJob>& jobs, std::mutex& mutex) {
  pass_interruptions_on();
  for (std::size_t remaining = jobs.size(); remaining > 0; --remaining) {
    int status = 0;
    const pid_t ended = ::waitpid(-1, &status, 0);
    if (ended < 0 && errno == EINTR) {
      const int signal_number = interruption.exchange(0);
      std::lock_guard lock(mutex);
      for (const ManagedJob& job : jobs) {
        if (signal_number != 0 && job.exit_status < 0) ::kill(job.pid, signal_number);
      }
      ++remaining;
      continue;
    }
    if (ended < 0) break;
    std::lock_guard lock(mutex);
    for (ManagedJob& job : jobs) {
      if (job.pid != ended) continue;
      job.response_ns = manager::monotonic_ns() - job.launched_ns;
      job.exit_status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    }
  }
}

int run(ManageOptions& options) {
  finish_manager_settings(options.settings);
  if (!options.json_path.empty()) core::refuse_output_over_inputs(options.json_path, {});
  if (!options.timeline_path.empty() && options.timeline_path == options.json_path) {
    throw std::runtime_error("--timeline: the same file as --json");
  }
  const std::vector<std::vector<std::string>> commands = split_jobs(options.words);
  ManagerSettings& settings = options.settings;
  std::vector<ManagedJob> jobs;
  std::mutex mutex;  // jobs' observations and the log, between the manager's thread and this one
  std::vector<manager::LogEntry> log;
  std::atomic<bool> running{true};
  std::atomic<bool> failed{false};
  std::string failure;
  const std::uint64_t start = manager::monotonic_ns();
  // The manager first (its segment must exist before the programs look for it), on a thread of its own.
  std::atomic<bool> ready{false};
  std::thread manager_thread([&] {
    ManagerHooks hooks;
    hooks.announce = false;
    hooks.keep_going = [&] {
      ready.store(true);
      return running.load();
    };
    hooks.log = [&](const manager::LogEntry& entry) {
      std::lock_guard lock(mutex);
      log.push_back(entry);
      if (!options.quiet) print_log_entry(entry, start, false, stderr);
    };
    hooks.after_quantum = [&](const manager::Segment& segment) {
      std::lock_guard lock(mutex);
      observe_jobs(jobs, manager::read_applications(segment), manager::monotonic_ns() - start);
    };
    try {
      run_manager(settings, hooks);
    } catch (const std::exception& error) {
      failure = error.what();
      failed.store(true);
    }
    ready.store(true);
  });
  while (!ready.load()) std::this_thread::yield();
  if (failed.load()) {
    manager_thread.join();
    throw std::runtime_error(failure);
  }
  const std::vector<std::string> environment = job_environment(settings.name);
  const std::string self = (executable_directory() / "augur").string();
  {
    std::lock_guard lock(mutex);
    for (const std::vector<std::string>& command : commands) {
      ManagedJob job;
      job.command = command;
      std::vector<std::string> argv = command;
      if (options.preload) argv.insert(argv.begin(), {self, "run", "--"});
      job.launched_ns = manager::monotonic_ns();
      job.pid = launch(argv, environment);
      jobs.push_back(std::move(job));
    }
  }
  if (!options.quiet) std::fprintf(stderr, "augur manage: %zu jobs started under manager '%s'\n", jobs.size(), settings.name.c_str());
  wait_for_jobs(jobs, mutex);
  running.store(false);
  manager_thread.join();
  const std::string report = render_manage_json(settings, jobs, log, start);
  if (!options.json_path.empty()) core::write_file_atomically(options.json_path, report);
  if (!options.timeline_path.empty()) core::write_file_atomically(options.timeline_path, render_manage_timeline(jobs, start));
  std::fputs(options.json ? report.c_str() : render_manage_table(settings, jobs).c_str(), stdout);
  for (const ManagedJob& job : jobs) {
    if (job.exit_status != 0) return 1;
  }
  return 0;
}

}  // namespace

Runner declare_manage_command(CLI::App& command) {
  auto options = std::make_shared<ManageOptions>();
  declare_manager_settings(command, options->settings);
  options->settings.name = "manage-" + std::to_string(::getpid());
  command.get_option("--name")->default_str(options->settings.name);
  add_json_flag(command, options->json, options->json_path, "The jobs, their allocations over time and the log as JSON instead of the table");
  command.add_option("--timeline", options->timeline_path,
                     "Also write the allocations over time as a Perfetto timeline (Chrome trace JSON) to FILE");
  command.add_flag("--preload", options->preload,
                   "Run each program under 'augur run' (unmodified OpenMP programs); without it the programs are linked "
                   "to libaugur");
  command.add_flag("-q,--quiet", options->quiet, "No log of the manager's decisions on standard error");
  command.add_option("programs", options->words, "PROG ARGS ::: PROG ARGS ..., after --")->required();
  command.footer("Each job's standard output and error are its own; the report follows on standard output. "
                 "Guide: docs/manager.md (\"Running a workload\")");
  return [options] {
    try {
      return run(*options);
    } catch (const std::exception& error) {
      return report_error("manage", error);
    }
  };
}

}  // namespace augur::cli
