#include "augur/core/process.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <sstream>
#include <stdexcept>

extern char** environ;

namespace augur::core {
namespace {

volatile std::sig_atomic_t received_signal = 0;
volatile pid_t running_child = 0;

void pass_on(int signal_number) {
  received_signal = signal_number;
  const pid_t child = running_child;
  if (child > 0) ::kill(child, signal_number);
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

bool name_matches(const char* entry, const std::string& name) {
  return std::strncmp(entry, name.c_str(), name.size()) == 0 && entry[name.size()] == '=';
}

std::vector<std::string> build_environment(const ProcessOptions& options) {
  std::vector<std::string> result;
  for (char** entry = environ; *entry != nullptr; ++entry) {
    bool replaced = false;
    for (const auto& [name, value] : options.environment) replaced = replaced || name_matches(*entry, name);
    for (const auto& name : options.unset) replaced = replaced || name_matches(*entry, name);
    if (!replaced) result.emplace_back(*entry);
  }
  for (const auto& [name, value] : options.environment) result.push_back(name + "=" + value);
  return result;
}

}  // namespace

std::string temporary_directory() {
  const char* directory = std::getenv("TMPDIR");
  return directory != nullptr && *directory != '\0' ? directory : "/tmp";
}

void forward_interruptions() {
  struct sigaction action {};
  action.sa_handler = pass_on;
  sigemptyset(&action.sa_mask);
  for (int signal_number : {SIGINT, SIGTERM, SIGHUP}) ::sigaction(signal_number, &action, nullptr);
}

int interrupted() { return received_signal; }

std::string ProcessResult::describe_status() const {
  if (signal != 0) return "was killed by signal " + std::to_string(signal) + " (" + strsignal(signal) + ")";
  return "exited with status " + std::to_string(exit_code);
}

ProcessResult run_process(const std::vector<std::string>& argv, const ProcessOptions& options) {
  if (argv.empty() || argv.front().empty()) throw std::runtime_error("no program to run");
  TemporaryFile output;
  TemporaryFile error;
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, options.discard_output ? "/dev/null" : output.path().c_str(),
                                   O_WRONLY | O_TRUNC, 0);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, error.path().c_str(), O_WRONLY | O_TRUNC, 0);

  std::vector<char*> arguments;
  for (const auto& argument : argv) arguments.push_back(const_cast<char*>(argument.c_str()));
  arguments.push_back(nullptr);
  std::vector<std::string> environment = build_environment(options);
  std::vector<char*> variables;
  for (auto& variable : environment) variables.push_back(variable.data());
  variables.push_back(nullptr);

  const auto start = std::chrono::steady_clock::now();
  pid_t child = 0;
  const int spawned = ::posix_spawnp(&child, argv.front().c_str(), &actions, nullptr, arguments.data(), variables.data());
  posix_spawn_file_actions_destroy(&actions);
  if (spawned != 0) throw std::runtime_error("cannot run '" + argv.front() + "': " + std::strerror(spawned));
  running_child = child;

  int status = 0;
  while (::waitpid(child, &status, 0) < 0) {
    if (errno != EINTR) {
      running_child = 0;
      throw std::runtime_error("cannot wait for '" + argv.front() + "': " + std::strerror(errno));
    }
  }
  running_child = 0;
  const auto end = std::chrono::steady_clock::now();

  ProcessResult result;
  result.wall_seconds = std::chrono::duration<double>(end - start).count();
  if (WIFEXITED(status)) {
    result.exit_code = WEXITSTATUS(status);
    // posix_spawnp reports a program it could not execute as exit status 127 from the child.
  } else if (WIFSIGNALED(status)) {
    result.signal = WTERMSIG(status);
  }
  if (!options.discard_output) result.standard_output = output.read();
  result.standard_error = error.read();
  return result;
}

}  // namespace augur::core
