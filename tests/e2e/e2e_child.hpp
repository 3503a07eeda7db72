// A child process for the end-to-end tests that signal or stop what they run (Ctrl-C, SIGSTOP): started with
// posix_spawn, its standard output and error sent to files, polled until an event, then signalled.
#pragma once

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

extern char** environ;

namespace augur::e2e {

// The variables that steer libaugur and OpenMP (AUGUR_*, OMP_*, GOMP_*): a child gets only those it is given.
inline bool is_controlled_variable(std::string_view name) {
  return name.rfind("AUGUR_", 0) == 0 || name.rfind("OMP_", 0) == 0 || name.rfind("GOMP_", 0) == 0;
}

// A child started with posix_spawn; killed and reaped if the test ends before it does.
class Child {
public:
  Child(const std::vector<std::string>& argv, const std::vector<std::pair<std::string, std::string>>& variables,
        const std::filesystem::path& output, const std::filesystem::path& error) {
    std::vector<std::string> environment;
    for (char** entry = environ; entry != nullptr && *entry != nullptr; ++entry) {
      const std::string_view text(*entry);
      const std::string_view name = text.substr(0, text.find('='));
      bool given = false;  // a variable of `variables` replaces ours
      for (const auto& variable : variables) given = given || variable.first == name;
      if (!is_controlled_variable(name) && !given) environment.emplace_back(text);
    }
    for (const auto& [name, value] : variables) environment.push_back(name + "=" + value);
    std::vector<char*> arguments;
    for (const auto& argument : argv) arguments.push_back(const_cast<char*>(argument.c_str()));
    arguments.push_back(nullptr);
    std::vector<char*> pointers;
    for (auto& variable : environment) pointers.push_back(variable.data());
    pointers.push_back(nullptr);

    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, output.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, error.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    const int spawned = ::posix_spawn(&pid_, argv.front().c_str(), &actions, nullptr, arguments.data(), pointers.data());
    posix_spawn_file_actions_destroy(&actions);
    if (spawned != 0) {
      pid_ = -1;
      throw std::runtime_error("cannot start " + argv.front() + ": " + std::strerror(spawned));
    }
  }
  ~Child() {
    if (pid_ > 0) {
      ::kill(pid_, SIGKILL);
      int status = 0;
      while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
      }
    }
  }
  Child(const Child&) = delete;
  Child& operator=(const Child&) = delete;

  [[nodiscard]] pid_t pid() const { return pid_; }
  // waitpid with `flags`; the status, or nullopt when nothing changed (WNOHANG).
  std::optional<int> wait(int flags) {
    int status = 0;
    pid_t waited = 0;
    do {
      waited = ::waitpid(pid_, &status, flags);
    } while (waited < 0 && errno == EINTR);
    if (waited < 0) throw std::runtime_error(std::string("waitpid: ") + std::strerror(errno));
    if (waited == 0) return std::nullopt;
    if (WIFEXITED(status) || WIFSIGNALED(status)) pid_ = -1;  // reaped
    return status;
  }

private:
  pid_t pid_ = -1;
};

// Polls `condition` until it holds or `limit` has passed; whether it held. The limit only stops a hung
// test: what the tests wait for is an event (text written, CPU time used), never an amount of wall time.
template <class Condition>
bool wait_until(Condition condition, std::chrono::seconds limit = std::chrono::seconds(120)) {
  const auto deadline = std::chrono::steady_clock::now() + limit;
  while (!condition()) {
    if (std::chrono::steady_clock::now() > deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));  // the polling period, not a synchronisation
  }
  return true;
}

// Sends SIGINT to `child` and waits for it: its exit status, or -1 when it did not exit by itself.
inline int exit_status_after_sigint(Child& child) {
  if (::kill(child.pid(), SIGINT) != 0) {
    ADD_FAILURE() << "kill: " << std::strerror(errno);
    return -1;
  }
  const std::optional<int> status = child.wait(0);
  return status && WIFEXITED(*status) ? WEXITSTATUS(*status) : -1;
}

}  // namespace augur::e2e
