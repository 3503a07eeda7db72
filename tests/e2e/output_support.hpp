// What the tests of augur's output paths share (output_paths_e2e_test.cpp, output_over_input_e2e_test.cpp):
// the real build/bin/augur run in a child that may have a lowered file size limit (a full disk without a
// full disk: RLIMIT_FSIZE with SIGXFSZ ignored makes writes past the limit fail with EFBIG) or run without
// root's power to ignore permissions (a read-only folder that root could otherwise write), and the files a
// folder holds.
#pragma once

#include <fcntl.h>
#include <signal.h>
#include <linux/capability.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "e2e_support.hpp"

namespace augur::e2e {

// In a child about to exec, as root: gives up the capabilities that let root ignore file permissions
// (CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH, CAP_FOWNER) in every set, the bounding set included, so that they
// do not come back at exec. The child stays uid 0, so it still reaches the build tree wherever the clone is
// (a folder of mode 0700 from mktemp -d, say), and a folder of root's with mode 0555 is read-only to it.
// Only system calls: safe between fork and exec. False when the system refuses.
inline bool drop_permission_override() {
  const int dropped[] = {CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH, CAP_FOWNER};
  __user_cap_header_struct header{_LINUX_CAPABILITY_VERSION_3, 0};
  __user_cap_data_struct data[2]{};
  if (::syscall(SYS_capget, &header, data) != 0) return false;
  for (const int capability : dropped) {
    if (::prctl(PR_CAPBSET_DROP, capability, 0, 0, 0) != 0) return false;
    const unsigned bit = 1u << (capability % 32);
    data[capability / 32].effective &= ~bit;
    data[capability / 32].permitted &= ~bit;
    data[capability / 32].inheritable &= ~bit;
  }
  ::prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0);
  return ::syscall(SYS_capset, &header, data) == 0;
}

struct Child {
  std::vector<std::string> arguments;    // after the augur executable
  std::string standard_input;            // a file; empty: /dev/null
  long long file_size_limit = -1;        // >= 0: RLIMIT_FSIZE in bytes, SIGXFSZ ignored
  bool without_override = false;                // when root: run without the capabilities that ignore permissions
  std::vector<std::string> environment;  // NAME=value, added to ours (replacing ours of that name)
};

struct Outcome {
  int exit_code = -1;  // -1 when killed
  int signal = 0;
  std::string standard_output;
  std::string standard_error;
  long peak_kilobytes = 0;  // maximum resident set size (getrusage of the child)
};

inline std::string describe(const Outcome& outcome) {
  return "exit " + std::to_string(outcome.exit_code) + ", signal " + std::to_string(outcome.signal) +
         "\n--- stdout ---\n" + outcome.standard_output + "--- stderr ---\n" + outcome.standard_error;
}

// Runs augur with `child`'s limits; its standard output and error go to files in `logs` (made by us, so
// that a limit or a lowered user applies to what augur writes, not to its logs).
inline Outcome run_augur(const std::string& executable, const Child& child, const std::filesystem::path& logs) {
  std::filesystem::create_directories(logs);
  const std::string out_path = (logs / "stdout").string();
  const std::string err_path = (logs / "stderr").string();
  const int out = ::open(out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  const int err = ::open(err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  const std::string input_path = child.standard_input.empty() ? "/dev/null" : child.standard_input;
  const int in = ::open(input_path.c_str(), O_RDONLY | O_CLOEXEC);
  if (out < 0 || err < 0 || in < 0) throw std::runtime_error("cannot open the logs of a child in " + logs.string());
  std::vector<std::string> words{executable};
  words.insert(words.end(), child.arguments.begin(), child.arguments.end());
  std::vector<char*> argv;
  for (std::string& word : words) argv.push_back(word.data());
  argv.push_back(nullptr);
  std::vector<std::string> variables = child.environment;  // ours, unless the child's replaces it
  const auto named = [](const std::string& variable) { return variable.substr(0, variable.find('=') + 1); };
  for (char** variable = environ; *variable != nullptr; ++variable) {
    const std::string name = named(*variable);
    if (std::none_of(variables.begin(), variables.end(),
                     [&](const std::string& given) { return named(given) == name; })) {
      variables.emplace_back(*variable);
    }
  }
  std::vector<char*> envp;
  for (std::string& variable : variables) envp.push_back(variable.data());
  envp.push_back(nullptr);
  const bool drop = child.without_override && ::geteuid() == 0;
  const pid_t pid = ::fork();
  if (pid == 0) {  // only async-signal-safe calls from here on
    if (::dup2(in, 0) < 0 || ::dup2(out, 1) < 0 || ::dup2(err, 2) < 0) ::_exit(126);
    if (child.file_size_limit >= 0) {
      ::signal(SIGXFSZ, SIG_IGN);  // ignored stays ignored across exec
      const rlimit limit{static_cast<rlim_t>(child.file_size_limit), static_cast<rlim_t>(child.file_size_limit)};
      if (::setrlimit(RLIMIT_FSIZE, &limit) != 0) ::_exit(126);
    }
    if (drop && !drop_permission_override()) ::_exit(126);
    ::execve(argv[0], argv.data(), envp.data());
    ::_exit(127);
  }
  ::close(in);
  ::close(out);
  ::close(err);
  if (pid < 0) throw std::runtime_error("cannot fork");
  int status = 0;
  rusage usage{};
  while (::wait4(pid, &status, 0, &usage) < 0) {
    if (errno != EINTR) throw std::runtime_error("cannot wait for the child");
  }
  Outcome outcome;
  if (WIFEXITED(status)) outcome.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) outcome.signal = WTERMSIG(status);
  outcome.standard_output = read_text(out_path);
  outcome.standard_error = read_text(err_path);
  outcome.peak_kilobytes = usage.ru_maxrss;
  return outcome;
}

// The names in `folder`, sorted (a temporary file left behind shows here).
inline std::vector<std::string> names_in(const std::filesystem::path& folder) {
  std::vector<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator(folder))
    names.push_back(entry.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

// Names in `folder` that start with `prefix` followed by ".tmp" (what an atomic write of `prefix` leaves
// if it fails to clean up).
inline std::vector<std::string> temporaries_of(const std::filesystem::path& folder, const std::string& prefix) {
  std::vector<std::string> found;
  for (const std::string& name : names_in(folder)) {
    if (name.rfind(prefix + ".tmp", 0) == 0) found.push_back(name);
  }
  return found;
}

}  // namespace augur::e2e
