// libaugur and the processor manager (docs/manager.md, "The manager at run time"): a program linked to libaugur
// (managed_program.c) connects to the manager's segment, reports its iterations and speedups, and applies the
// allocation the manager writes at its next iteration; without a manager nothing changes. The test is the manager:
// it makes the segment and writes the allocation itself, between the program's two phases.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <spawn.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstring>
#include <sstream>
#include <string>
#include <vector>

#include "manager/protocol.hpp"

extern char** environ;

namespace augur::manager {
namespace {

constexpr int iterations = 20;

// The program, with its standard input and output on pipes and a clean augur environment plus `variables`.
class Program {
public:
  explicit Program(const std::vector<std::string>& variables)
      : Program({AUGUR_MANAGED_PROGRAM, std::to_string(iterations)}, variables) {}
  Program(std::vector<std::string> arguments, const std::vector<std::string>& variables) {
    int input[2];
    int output[2];
    EXPECT_EQ(::pipe(input), 0);
    EXPECT_EQ(::pipe(output), 0);
    std::vector<std::string> environment;
    for (char** entry = environ; *entry != nullptr; ++entry) {
      if (std::strncmp(*entry, "AUGUR_", 6) != 0 && std::strncmp(*entry, "OMP_", 4) != 0) environment.emplace_back(*entry);
    }
    for (const char* variable : {"AUGUR_SUMMARY=0", "AUGUR_BASELINE=2", "AUGUR_BASELINE_EVERY=0", "AUGUR_WARMUP_ITERATIONS=1",
                                        "AUGUR_SELF_TUNING=0", "OMP_NUM_THREADS=4", "OMP_WAIT_POLICY=passive"}) {
      environment.emplace_back(variable);
    }
    environment.insert(environment.end(), variables.begin(), variables.end());
    std::vector<char*> envp;
    for (std::string& entry : environment) envp.push_back(entry.data());
    envp.push_back(nullptr);
    std::vector<char*> argv;
    for (std::string& argument : arguments) argv.push_back(argument.data());
    argv.push_back(nullptr);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, input[0], 0);
    posix_spawn_file_actions_adddup2(&actions, output[1], 1);
    posix_spawn_file_actions_addclose(&actions, input[1]);
    posix_spawn_file_actions_addclose(&actions, output[0]);
    EXPECT_EQ(posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), envp.data()), 0);
    posix_spawn_file_actions_destroy(&actions);
    ::close(input[0]);
    ::close(output[1]);
    to_program = input[1];
    from_program = output[0];
  }
  ~Program() {
    if (to_program >= 0) ::close(to_program);
    ::close(from_program);
    if (pid > 0) ::waitpid(pid, nullptr, 0);
  }
  // The next line the program prints, without its newline ("" at its end).
  std::string line() {
    std::string text;
    char c = 0;
    while (::read(from_program, &c, 1) == 1 && c != '\n') text += c;
    return text;
  }
  void say(const char* text) { ASSERT_EQ(::write(to_program, text, std::strlen(text)), static_cast<ssize_t>(std::strlen(text))); }
  // Closes its input and waits: its exit status.
  int finish() {
    ::close(to_program);
    to_program = -1;
    int status = 0;
    ::waitpid(pid, &status, 0);
    pid = 0;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  }
  pid_t pid = 0;

private:
  int to_program = -1;
  int from_program = -1;
};

// "threads 4 4 2 ..." as numbers.
std::vector<int> thread_counts(const std::string& line) {
  std::istringstream in(line);
  std::string word;
  in >> word;
  std::vector<int> counts;
  for (int count = 0; in >> count;) counts.push_back(count);
  return counts;
}

// A whole run: "go" sent at once after the first phase.
std::vector<int> run_unmanaged(const std::vector<std::string>& variables) {
  Program program(variables);
  EXPECT_EQ(program.line(), "waiting");
  program.say("go\n");
  std::vector<int> counts = thread_counts(program.line());
  EXPECT_EQ(program.finish(), 0);
  return counts;
}

std::string unique_name(const char* what) {
  return std::string(what) + "-" + std::to_string(::getpid());
}

TEST(RuntimeConnection, WithoutAManagerNothingChanges) {
  const std::vector<int> off = run_unmanaged({"AUGUR_MANAGER=off"});
  const std::vector<int> absent = run_unmanaged({"AUGUR_MANAGER=" + unique_name("absent")});
  ASSERT_EQ(off.size(), 2u * iterations);
  EXPECT_EQ(absent, off);
  // The self-analysis alone: the warm-up on P = 4, the baseline on B = 2, then the allocation, 4.
  EXPECT_EQ(off[0], 4);
  EXPECT_EQ(off[1], 2);
  EXPECT_EQ(off[2 * iterations - 1], 4);
}

TEST(RuntimeConnection, TheProgramReportsAndTakesItsAllocationAtTheNextIteration) {
  const std::string name = unique_name("conn");
  Segment::Opened manager = Segment::create(name, 8, 100000000, "fixed");
  ASSERT_NE(manager.segment, nullptr) << manager.error;
  Program program({"AUGUR_MANAGER=" + name});
  ASSERT_EQ(program.line(), "waiting");
  // The first phase's reports are there when the program waits: within the iteration that made them.
  std::vector<Application> applications = read_applications(*manager.segment);
  ASSERT_EQ(applications.size(), 1u);
  const Application& first = applications[0];
  EXPECT_EQ(first.pid, program.pid);
  EXPECT_EQ(first.name, "managed_program");
  EXPECT_EQ(first.requested, 4);
  EXPECT_EQ(first.iterations, iterations);
  EXPECT_EQ(first.processors, 4);
  EXPECT_EQ(first.baseline, 2);
  EXPECT_GT(first.reference_time, 0.0);
  ASSERT_EQ(first.calculated.size(), 2u) << "S(B) and S(4) are calculated (PC), the others not (PNC)";
  EXPECT_EQ(first.calculated[0].processors, 2);
  EXPECT_EQ(first.calculated[1].processors, 4);
  EXPECT_GT(first.calculated[1].speedup, 0.0);
  EXPECT_GT(first.calculated[1].predicted_time, 0.0);
  // The manager gives it 3 processors, then dies (its segment gone): the program goes on with its allocation.
  write_allocation(*manager.segment, first.slot, 3, monotonic_ns());
  Segment::remove(name);
  program.say("go\n");
  const std::vector<int> counts = thread_counts(program.line());
  ASSERT_EQ(counts.size(), 2u * iterations);
  for (int step = iterations; step < 2 * iterations; ++step) {
    EXPECT_EQ(counts[static_cast<std::size_t>(step)], 3) << "iteration " << step << ": the allocation applies from the next iteration on";
  }
  applications = read_applications(*manager.segment);
  ASSERT_EQ(applications.size(), 1u);
  EXPECT_EQ(applications[0].iterations, 2 * iterations);
  EXPECT_EQ(applications[0].processors, 3);
  bool three = false;
  for (const ProcessorReport& entry : applications[0].calculated) three = three || entry.processors == 3;
  EXPECT_TRUE(three) << "S(3) measured after the change (its first iteration discarded)";
  EXPECT_EQ(program.finish(), 0);
  EXPECT_TRUE(read_applications(*manager.segment).empty()) << "the slot is given back at the program's end";
}

TEST(RuntimeConnection, AnUnmodifiedProgramUnderAugurRunTakesItsAllocation) {
  const std::string name = unique_name("run");
  Segment::Opened manager = Segment::create(name, 8, 100000000, "fixed");
  ASSERT_NE(manager.segment, nullptr) << manager.error;
  const int loops = 200;  // the periodicity detector finds the region within the first phase
  Program program({AUGUR_BINARY, "run", "-p", "4", "--baseline", "2", "--baseline-every", "0", "--warmup-iterations", "1", "--",
                   AUGUR_PLAIN_PROGRAM, std::to_string(loops)},
                  {"AUGUR_MANAGER=" + name});
  ASSERT_EQ(program.line(), "waiting");
  std::vector<Application> applications = read_applications(*manager.segment);
  ASSERT_EQ(applications.size(), 1u);
  EXPECT_EQ(applications[0].name, "plain_program");
  EXPECT_EQ(applications[0].requested, 4);
  EXPECT_GT(applications[0].iterations, 0) << "the region the detector found reports its iterations";
  EXPECT_FALSE(applications[0].calculated.empty());
  write_allocation(*manager.segment, applications[0].slot, 3, monotonic_ns());
  program.say("go\n");
  const std::vector<int> counts = thread_counts(program.line());
  ASSERT_EQ(counts.size(), 2u * loops);
  for (int step = loops; step < 2 * loops; ++step) EXPECT_EQ(counts[static_cast<std::size_t>(step)], 3) << "iteration " << step;
  EXPECT_EQ(program.finish(), 0);
  Segment::remove(name);
}

TEST(RuntimeConnection, AForeignSegmentIsWarnedAboutAndIgnored) {
  const std::string name = unique_name("foreign");
  const int descriptor = ::shm_open(segment_name(name).c_str(), O_RDWR | O_CREAT | O_TRUNC, 0600);
  ASSERT_GE(descriptor, 0);
  const char garbage[] = "0123456789abcdef0123456789abcdef";
  ASSERT_EQ(::write(descriptor, garbage, sizeof garbage), static_cast<ssize_t>(sizeof garbage));
  ::close(descriptor);
  const std::vector<int> off = run_unmanaged({"AUGUR_MANAGER=off"});
  const std::vector<int> foreign = run_unmanaged({"AUGUR_MANAGER=" + name});
  Segment::remove(name);
  EXPECT_EQ(foreign, off);
}

}  // namespace
}  // namespace augur::manager
