#include "core/process.hpp"

#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <mutex>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <thread>

extern char** environ;

namespace augur::core {
namespace {

// The signals a waiting parent passes on to its child.
constexpr int forwarded_signals[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};

volatile std::sig_atomic_t received_signal = 0;
volatile std::sig_atomic_t running_child = 0;  // a pid_t; 0 while no child runs

void pass_on(int signal_number, siginfo_t* information, void* /*context*/) {
  received_signal = signal_number;
  const pid_t child = running_child;
  // The terminal (si_code SI_KERNEL) signals the whole foreground process group, the child included:
  // passing that on would deliver it twice.
  if (child > 0 && information->si_code != SI_KERNEL) ::kill(child, signal_number);
}

struct sigaction forwarding_action() {
  struct sigaction action {};
  action.sa_sigaction = pass_on;
  action.sa_flags = SA_SIGINFO;
  sigemptyset(&action.sa_mask);
  return action;
}

// A temporary file that removes itself.
class TemporaryFile {
public:
  TemporaryFile() {
    path_ = temporary_directory() + "/augur-output-XXXXXX";
    const int descriptor = ::mkstemp(path_.data());
    if (descriptor < 0) throw std::runtime_error("cannot create a temporary file in " + path_ + ": " + std::strerror(errno));
    ::close(descriptor);
  }
  ~TemporaryFile() { ::unlink(path_.c_str()); }
  TemporaryFile(const TemporaryFile&) = delete;
  TemporaryFile& operator=(const TemporaryFile&) = delete;
  [[nodiscard]] const std::string& path() const { return path_; }
  [[nodiscard]] std::string read() const {
    std::ifstream stream(path_, std::ios::binary);
    return {std::istreambuf_iterator<char>(stream), std::istreambuf_iterator<char>()};
  }

private:
  std::string path_;
};

std::string variable_name(const char* entry) {
  const char* equals = std::strchr(entry, '=');
  return equals == nullptr ? std::string(entry) : std::string(entry, static_cast<std::size_t>(equals - entry));
}
}  // namespace

std::vector<std::string> build_environment(const SpawnOptions& options) {
  std::map<std::string, std::string> added;
  for (const auto& [name, value] : options.environment) added[name] = value;
  std::vector<std::string> result;
  for (char** entry = environ; entry != nullptr && *entry != nullptr; ++entry) {
    const std::string name = variable_name(*entry);
    bool removed = added.count(name) != 0;
    for (const auto& unset : options.unset) removed = removed || unset == name;
    if (!removed) result.emplace_back(*entry);
  }
  for (const auto& [name, value] : added) result.push_back(name + "=" + value);
  return result;
}

namespace {

// The file actions that give the child its standard streams; the capture files are made here.
class StreamActions {
public:
  explicit StreamActions(const SpawnOptions& options) {
    posix_spawn_file_actions_init(&actions_);
    if (options.attach) return;
    posix_spawn_file_actions_addopen(&actions_, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
    direct(STDOUT_FILENO, options.standard_output, output_);
    direct(STDERR_FILENO, options.standard_error, error_);
  }
  ~StreamActions() { posix_spawn_file_actions_destroy(&actions_); }
  StreamActions(const StreamActions&) = delete;
  StreamActions& operator=(const StreamActions&) = delete;
  [[nodiscard]] const posix_spawn_file_actions_t* get() const { return &actions_; }
  [[nodiscard]] std::string captured_output() const { return output_ ? output_->read() : ""; }
  [[nodiscard]] std::string captured_error() const { return error_ ? error_->read() : ""; }

private:
  void direct(int descriptor, const Destination& destination, std::optional<TemporaryFile>& capture) {
    switch (destination.kind) {
      case Destination::Kind::capture:
        capture.emplace();
        posix_spawn_file_actions_addopen(&actions_, descriptor, capture->path().c_str(), O_WRONLY | O_TRUNC, 0);
        break;
      case Destination::Kind::discard:
        posix_spawn_file_actions_addopen(&actions_, descriptor, "/dev/null", O_WRONLY, 0);
        break;
      case Destination::Kind::file:
        posix_spawn_file_actions_addopen(&actions_, descriptor, destination.path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0666);
        break;
      case Destination::Kind::inherit:
        break;
    }
  }

  posix_spawn_file_actions_t actions_{};
  std::optional<TemporaryFile> output_;
  std::optional<TemporaryFile> error_;
};

// While it lives, the forwarded signals are passed on to the running child (those ignored stay
// ignored) and blocked until the child is known; restores the previous dispositions when it goes.
class SignalForwarding {
public:
  SignalForwarding() {
    const struct sigaction action = forwarding_action();
    sigset_t blocked;
    sigemptyset(&blocked);
    for (std::size_t index = 0; index < std::size(forwarded_signals); ++index) {
      ::sigaction(forwarded_signals[index], nullptr, &saved_[index]);
      if (saved_[index].sa_handler == SIG_IGN) continue;
      ::sigaction(forwarded_signals[index], &action, nullptr);
      sigaddset(&blocked, forwarded_signals[index]);
    }
    pthread_sigmask(SIG_BLOCK, &blocked, &caller_mask_);
  }
  ~SignalForwarding() {
    running_child = 0;
    // The caller's dispositions first: a signal still blocked (the child never started) is then handled as
    // the caller would have handled it, not recorded and lost.
    for (std::size_t index = 0; index < std::size(forwarded_signals); ++index) {
      ::sigaction(forwarded_signals[index], &saved_[index], nullptr);
    }
    unblock();
  }
  SignalForwarding(const SignalForwarding&) = delete;
  SignalForwarding& operator=(const SignalForwarding&) = delete;
  // The signal mask the child starts with: the caller's.
  [[nodiscard]] const sigset_t& caller_mask() const { return caller_mask_; }
  // From now on a signal is passed on to `child`.
  void forward_to(pid_t child) {
    running_child = child;
    unblock();
  }
  // No more passing on: the child has ended (before it is reaped and its id can be reused).
  void stop() { running_child = 0; }

private:
  void unblock() {
    if (unblocked_) return;
    pthread_sigmask(SIG_SETMASK, &caller_mask_, nullptr);
    unblocked_ = true;
  }
  struct sigaction saved_[std::size(forwarded_signals)] {};
  sigset_t caller_mask_{};
  bool unblocked_ = false;
};

// Kills the child when it outlives the time limit; stop() before the child is reaped, so that a
// late kill cannot reach a process that reuses its id.
class Watchdog {
public:
  Watchdog(pid_t child, double seconds) {
    if (seconds <= 0) return;
    thread_ = std::thread([this, child, seconds] {
      std::unique_lock<std::mutex> lock(mutex_);
      if (!ended_.wait_for(lock, std::chrono::duration<double>(seconds), [this] { return stopped_; })) {
        fired_ = true;
        ::kill(child, SIGKILL);
      }
    });
  }
  ~Watchdog() { stop(); }
  Watchdog(const Watchdog&) = delete;
  Watchdog& operator=(const Watchdog&) = delete;
  // Whether it killed the child.
  bool stop() {
    if (thread_.joinable()) {
      {
        const std::lock_guard<std::mutex> lock(mutex_);
        stopped_ = true;
      }
      ended_.notify_one();
      thread_.join();
    }
    return fired_;
  }

private:
  std::mutex mutex_;
  std::condition_variable ended_;
  bool stopped_ = false;
  bool fired_ = false;
  std::thread thread_;
};

std::vector<char*> pointers(std::vector<std::string>& strings) {
  std::vector<char*> result;
  for (std::string& text : strings) result.push_back(text.data());
  result.push_back(nullptr);
  return result;
}

}  // namespace

std::string temporary_directory() {
  const char* directory = std::getenv("TMPDIR");
  return directory != nullptr && *directory != '\0' ? directory : "/tmp";
}

void forward_interruptions() {
  const struct sigaction action = forwarding_action();
  for (int signal_number : {SIGINT, SIGTERM, SIGHUP}) ::sigaction(signal_number, &action, nullptr);
}

int interrupted() { return received_signal; }

std::string ProcessResult::describe_status() const {
  if (timed_out) return "was killed after its time limit";
  if (signal != 0) return "was killed by signal " + std::to_string(signal) + " (" + strsignal(signal) + ")";
  return "exited with status " + std::to_string(exit_code);
}

ProcessResult spawn(const std::vector<std::string>& argv, const SpawnOptions& options) {
  if (argv.empty() || argv.front().empty()) throw std::runtime_error("no program to run");
  const StreamActions streams(options);
  std::vector<std::string> arguments = argv;
  std::vector<std::string> environment = build_environment(options);
  const std::vector<char*> argument_pointers = pointers(arguments);
  const std::vector<char*> environment_pointers = pointers(environment);

  SignalForwarding forwarding;
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  posix_spawnattr_setsigmask(&attributes, &forwarding.caller_mask());
  posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGMASK);
  const auto start = std::chrono::steady_clock::now();
  pid_t child = 0;
  const int spawned = ::posix_spawnp(&child, argv.front().c_str(), streams.get(), &attributes, argument_pointers.data(),
                                     environment_pointers.data());
  posix_spawnattr_destroy(&attributes);
  if (spawned != 0) throw std::runtime_error("cannot run '" + argv.front() + "': " + std::strerror(spawned));
  forwarding.forward_to(child);

  // Wait for the end without reaping, so that the watchdog cannot kill another process by the same id.
  Watchdog watchdog(child, options.timeout_seconds);
  siginfo_t ended{};
  while (::waitid(P_PID, static_cast<id_t>(child), &ended, WEXITED | WNOWAIT) < 0 && errno == EINTR) {
  }
  const bool killed_by_watchdog = watchdog.stop();
  forwarding.stop();
  int status = 0;
  while (::waitpid(child, &status, 0) < 0) {
    if (errno != EINTR) throw std::runtime_error("cannot wait for '" + argv.front() + "': " + std::strerror(errno));
  }
  const auto end = std::chrono::steady_clock::now();

  ProcessResult result;
  result.wall_seconds = std::chrono::duration<double>(end - start).count();
  if (WIFEXITED(status)) {
    // posix_spawnp reports a program it could not execute as exit status 127 from the child.
    result.exit_code = WEXITSTATUS(status);
  } else if (WIFSIGNALED(status)) {
    result.signal = WTERMSIG(status);
    result.timed_out = killed_by_watchdog && result.signal == SIGKILL;
  }
  result.standard_output = streams.captured_output();
  result.standard_error = streams.captured_error();
  return result;
}

ProcessResult run_process(const std::vector<std::string>& argv, const ProcessOptions& options) {
  SpawnOptions spawn_options;
  spawn_options.environment = options.environment;
  spawn_options.unset = options.unset;
  if (options.discard_output) spawn_options.standard_output.kind = Destination::Kind::discard;
  return spawn(argv, spawn_options);
}

ProcessResult run_attached(const std::vector<std::string>& argv,
                           const std::vector<std::pair<std::string, std::string>>& environment) {
  SpawnOptions options;
  options.environment = environment;
  options.attach = true;
  return spawn(argv, options);
}

std::string find_program(const std::string& program) {
  if (program.find('/') != std::string::npos) return program;
  const char* path = std::getenv("PATH");
  std::stringstream folders(path == nullptr ? "/usr/bin:/bin" : path);
  std::string folder;
  while (std::getline(folders, folder, ':')) {
    const std::filesystem::path candidate = std::filesystem::path(folder.empty() ? "." : folder) / program;
    std::error_code error;  // a folder of that name is not the program: search on, as execvp does
    if (::access(candidate.c_str(), X_OK) == 0 && !std::filesystem::is_directory(candidate, error)) return candidate.string();
  }
  return "";
}

}  // namespace augur::core
