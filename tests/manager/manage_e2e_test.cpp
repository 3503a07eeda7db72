// The manager's commands end to end: augur manager start|status|stop, and augur manage running two real programs
// linked to libaugur (managed_program.c) that adapt their thread counts to the manager's allocations.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/process.hpp"
#include "support/temporary_directory.hpp"

extern char** environ;

namespace {

using augur::core::ProcessResult;
using augur::core::run_process;

std::string describe(const ProcessResult& result) {
  return result.describe_status() + "\nstdout:\n" + result.standard_output + "\nstderr:\n" + result.standard_error;
}

bool contains(const std::string& text, const std::string& needle) {
  return text.find(needle) != std::string::npos;
}

const std::vector<std::pair<std::string, std::string>> program_environment = {
    {"OMP_NUM_THREADS", "4"}, {"AUGUR_BASELINE", "1"}, {"AUGUR_BASELINE_EVERY", "0"}, {"AUGUR_SUMMARY", "0"},
    {"AUGUR_SELF_TUNING", "0"}, {"AUGUR_REPORT", ""}, {"AUGUR_SWEEP", ""}};

TEST(ManageE2e, TwoProgramsAdaptTheirThreadCountsToTheManager) {
  augur::test::TemporaryDirectory directory;
  const std::string json = directory.file("manage.json");
  const std::string trace = directory.file("manage.trace.json");
  const std::string program = AUGUR_MANAGED_PROGRAM;
  augur::core::ProcessOptions options;
  options.environment = program_environment;
  const ProcessResult result = run_process({AUGUR_BINARY, "manage", "--cpus", "4", "--policy", "equipartition", "--quantum", "5",
                                            "--json=" + json, "--timeline", trace, "--", program, "3000", "run", ":::", program,
                                            "3000", "run"},
                                           options);
  ASSERT_EQ(result.exit_code, 0) << describe(result);
  const nlohmann::json report = nlohmann::json::parse(std::ifstream(json));
  EXPECT_EQ(report["policy"], "equipartition");
  EXPECT_EQ(report["cpus"], 4);
  ASSERT_EQ(report["jobs"].size(), 2u);
  double total = 0.0;
  for (const nlohmann::json& job : report["jobs"]) {
    EXPECT_EQ(job["exit_status"], 0);
    EXPECT_EQ(job["requested"], 4);
    EXPECT_GT(job["iterations"].get<long>(), 0);  // as last seen by the manager, at most every quantum
    EXPECT_LE(job["iterations"].get<long>(), 6000);
    EXPECT_GT(job["response_time"].get<double>(), 0.0);
    total += job["response_time"].get<double>();
    bool shared = false;  // 4 processors between the two: 2 each while both run
    for (const nlohmann::json& allocation : job["allocations"]) shared = shared || allocation["processors"] == 2;
    EXPECT_TRUE(shared) << job.dump();
    EXPECT_FALSE(job["speedups"].empty()) << job.dump();
  }
  EXPECT_DOUBLE_EQ(report["mean_response_time"].get<double>(), total / 2.0);
  // The timeline: a row per job named by its command, and on it a span per allocation of the JSON, from its
  // change to the next one (the last one to the job's end), named by its processors.
  const nlohmann::json events = nlohmann::json::parse(std::ifstream(trace)).at("traceEvents");
  for (int row = 1; row <= 2; ++row) {
    const nlohmann::json& allocations = report["jobs"][static_cast<std::size_t>(row - 1)]["allocations"];
    std::vector<nlohmann::json> spans;
    bool named = false;
    for (const nlohmann::json& event : events) {
      if (event.at("tid") != row) continue;
      if (event.at("ph") == "M") named = event.at("args").at("name") == "job " + std::to_string(row) + ": " + program + " 3000 run";
      if (event.at("ph") == "X" && event.at("cat") == "run") spans.push_back(event);
    }
    EXPECT_TRUE(named) << events.dump();
    ASSERT_EQ(spans.size(), allocations.size()) << events.dump() << allocations.dump();
    for (std::size_t index = 0; index < spans.size(); ++index) {
      const int processors = allocations[index]["processors"].get<int>();
      EXPECT_EQ(spans[index].at("name"), std::to_string(processors) + (processors == 1 ? " processor" : " processors"));
      EXPECT_NEAR(spans[index].at("ts").get<double>(), allocations[index]["time"].get<double>() * 1e6, 1.0);
      if (index + 1 < spans.size()) {
        EXPECT_NEAR(spans[index].at("ts").get<double>() + spans[index].at("dur").get<double>(),
                    allocations[index + 1]["time"].get<double>() * 1e6, 1.0);
      }
    }
  }
  // The programs' own output: with B = 1 and 4 threads asked for, iterations on 2 threads are the manager's.
  int adapted = 0;
  std::size_t at = 0;
  while ((at = result.standard_output.find("threads", at)) != std::string::npos) {
    const std::string line = result.standard_output.substr(at, result.standard_output.find('\n', at) - at);
    adapted += contains(line, " 2") ? 1 : 0;
    at += line.size();
  }
  EXPECT_EQ(adapted, 2) << result.standard_output;
  EXPECT_TRUE(contains(result.standard_output, "2 jobs under policy equipartition on 4 processors")) << result.standard_output;
  EXPECT_TRUE(contains(result.standard_error, "-> 2 processors: equal share of 4 processors among 2 applications")) << result.standard_error;
}

TEST(ManageE2e, AJobThatFailsMakesTheExitStatusOne) {
  augur::core::ProcessOptions options;
  options.environment = program_environment;
  const ProcessResult result =
      run_process({AUGUR_BINARY, "manage", "-q", "--cpus", "2", "--", AUGUR_MANAGED_PROGRAM, "0", "run"}, options);
  EXPECT_EQ(result.exit_code, 1) << describe(result);
  EXPECT_TRUE(contains(result.standard_output, "never reported")) << result.standard_output;
}

TEST(ManageE2e, AnEmptyJobIsRefused) {
  const ProcessResult result = run_process({AUGUR_BINARY, "manage", "--", AUGUR_MANAGED_PROGRAM, ":::"});
  EXPECT_EQ(result.exit_code, 1) << describe(result);
  EXPECT_TRUE(contains(result.standard_error, "a job without a program")) << result.standard_error;
}

// The manager in the background, its standard error on a pipe: the first line says it runs.
struct BackgroundManager {
  explicit BackgroundManager(const std::string& name) {
    int pipe_ends[2];
    EXPECT_EQ(::pipe(pipe_ends), 0);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, pipe_ends[1], 2);
    posix_spawn_file_actions_addclose(&actions, pipe_ends[0]);
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
    std::vector<std::string> words = {AUGUR_BINARY, "manager", "start", "--name", name, "--cpus", "3", "--quantum", "10"};
    std::vector<char*> argv;
    for (std::string& word : words) argv.push_back(word.data());
    argv.push_back(nullptr);
    EXPECT_EQ(posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), environ), 0);
    posix_spawn_file_actions_destroy(&actions);
    ::close(pipe_ends[1]);
    errors = pipe_ends[0];
  }
  std::string line() {
    std::string text;
    char c = 0;
    while (::read(errors, &c, 1) == 1 && c != '\n') text += c;
    return text;
  }
  int wait() {
    int status = 0;
    ::waitpid(pid, &status, 0);
    pid = 0;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }
  ~BackgroundManager() {
    if (pid > 0) {
      ::kill(pid, SIGKILL);
      ::waitpid(pid, nullptr, 0);
    }
    ::close(errors);
  }
  pid_t pid = 0;
  int errors = -1;
};

TEST(ManagerE2e, StartStatusStop) {
  const std::string name = "e2e-" + std::to_string(::getpid());
  BackgroundManager manager(name);
  const std::string started = manager.line();
  ASSERT_TRUE(contains(started, "augur manager '" + name + "': pid " + std::to_string(manager.pid) + ", 3 processors, policy equipartition"))
      << started;
  ProcessResult status = run_process({AUGUR_BINARY, "manager", "status", "--name", name, "--json"});
  ASSERT_EQ(status.exit_code, 0) << describe(status);
  const nlohmann::json json = nlohmann::json::parse(status.standard_output);
  EXPECT_EQ(json["pid"], manager.pid);
  EXPECT_EQ(json["running"], true);
  EXPECT_EQ(json["cpus"], 3);
  EXPECT_EQ(json["policy"], "equipartition");
  EXPECT_TRUE(json["applications"].empty());
  status = run_process({AUGUR_BINARY, "manager", "status", "--name", name});
  EXPECT_TRUE(contains(status.standard_output, "No application connected.")) << status.standard_output;
  const ProcessResult second = run_process({AUGUR_BINARY, "manager", "start", "--name", name});
  EXPECT_EQ(second.exit_code, 1);
  EXPECT_TRUE(contains(second.standard_error, "a manager '" + name + "' runs already (pid " + std::to_string(manager.pid) + ")"))
      << second.standard_error;
  const ProcessResult stop = run_process({AUGUR_BINARY, "manager", "stop", "--name", name});
  EXPECT_EQ(stop.exit_code, 0) << describe(stop);
  EXPECT_TRUE(contains(stop.standard_output, "Stopped the manager '" + name + "'")) << stop.standard_output;
  EXPECT_EQ(manager.wait(), 0);
  const ProcessResult absent = run_process({AUGUR_BINARY, "manager", "status", "--name", name});
  EXPECT_EQ(absent.exit_code, 1);
  EXPECT_TRUE(contains(absent.standard_error, "no manager '" + name + "'")) << absent.standard_error;
  const ProcessResult bad = run_process({AUGUR_BINARY, "manager", "status", "--name", "a/b"});
  EXPECT_EQ(bad.exit_code, 1);
  EXPECT_TRUE(contains(bad.standard_error, "--name: a manager's name is made of")) << bad.standard_error;
}

// stop --json says what it stopped: the pid the manager announced, running until asked, no SIGTERM needed.
TEST(ManagerE2e, StopJsonSaysWhatWasStopped) {
  const std::string name = "e2e-json-" + std::to_string(::getpid());
  BackgroundManager manager(name);
  ASSERT_TRUE(contains(manager.line(), "augur manager '" + name + "': pid " + std::to_string(manager.pid)));
  const ProcessResult stop = run_process({AUGUR_BINARY, "manager", "stop", "--name", name, "--json"});
  ASSERT_EQ(stop.exit_code, 0) << describe(stop);
  const nlohmann::json json = nlohmann::json::parse(stop.standard_output);
  EXPECT_EQ(json, nlohmann::json({{"name", name}, {"pid", manager.pid}, {"was_running", true}, {"sigterm", false}})) << json.dump();
  EXPECT_EQ(manager.wait(), 0);
}

}  // namespace
