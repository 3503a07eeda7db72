#include "core/process.hpp"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
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


std::string find_program(const std::string& program) {
  if (program.find('/') != std::string::npos) return program;
  const char* path = std::getenv("PATH");
  std::stringstream folders(path == nullptr ? "/usr/bin:/bin" : path);
  std::string folder;
  while (std::getline(folders, folder, ':')) {
    const std::filesystem::path candidate = std::filesystem::path(folder.empty() ? "." : folder) / program;
    if (::access(candidate.c_str(), X_OK) == 0) return candidate.string();
  }
  return "";
}

ProcessResult run_attached(const std::vector<std::string>& argv,
                           const std::vector<std::pair<std::string, std::string>>& environment) {
  if (argv.empty()) throw std::runtime_error("no program to run");
  std::map<std::string, std::string> variables;
  for (char** entry = environ; entry != nullptr && *entry != nullptr; ++entry) {
    const char* equals = std::strchr(*entry, '=');
    if (equals == nullptr) continue;
    variables[std::string(*entry, static_cast<std::size_t>(equals - *entry))] = equals + 1;
  }
  for (const auto& [name, value] : environment) variables[name] = value;
  std::vector<std::string> entries;
  for (const auto& [name, value] : variables) entries.push_back(name + "=" + value);
  std::vector<char*> envp;
  for (std::string& entry : entries) envp.push_back(entry.data());
  envp.push_back(nullptr);
  std::vector<std::string> arguments = argv;
  std::vector<char*> args;
  for (std::string& argument : arguments) args.push_back(argument.data());
  args.push_back(nullptr);

  struct sigaction ignore {}, old_interrupt {}, old_quit {};
  ignore.sa_handler = SIG_IGN;
  sigemptyset(&ignore.sa_mask);
  sigaction(SIGINT, &ignore, &old_interrupt);
  sigaction(SIGQUIT, &ignore, &old_quit);
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  sigset_t defaults;
  sigemptyset(&defaults);
  sigaddset(&defaults, SIGINT);
  sigaddset(&defaults, SIGQUIT);
  posix_spawnattr_setsigdefault(&attributes, &defaults);
  posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGDEF);
  ProcessResult child;
  pid_t pid = 0;
  const auto start = std::chrono::steady_clock::now();
  const int error = posix_spawn(&pid, args[0], nullptr, &attributes, args.data(), envp.data());
  posix_spawnattr_destroy(&attributes);
  if (error != 0) {
    sigaction(SIGINT, &old_interrupt, nullptr);
    sigaction(SIGQUIT, &old_quit, nullptr);
    throw std::runtime_error("cannot run " + argv[0] + ": " + std::strerror(error));
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  child.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  sigaction(SIGINT, &old_interrupt, nullptr);
  sigaction(SIGQUIT, &old_quit, nullptr);
  if (WIFEXITED(status)) child.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) child.signal = WTERMSIG(status);
  return child;
}

}  // namespace augur::core
