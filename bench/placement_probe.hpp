// The placement of a program's team while it runs alone (bench_outer_region; docs/self-analysis.md, "The
// team's placement"): a thread that polls, every 20 ms, the process this one spawned (or, under `augur run`,
// the first of its descendants with two threads or more) in /proc: the core each thread last ran on
// (/proc/PID/task/TID/stat, field 39) and its time on a core (schedstat). A poll counts when the two
// threads with the most time on a core are known; it is "on one core" when both last ran on the same one.
// The one-run analysis counts the same for its own team (the report's `placement`); this gives the runs
// alone the same figure, so that a round compares one placement with the same one. Every 20 ms, not more
// often: a poller that wakes a halted vCPU often changes what a wake-up there costs, which is what the two
// placements differ by; a team keeps the placement it starts with (0-8 migrations a run), so a few polls do.
#pragma once

#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace augur::bench {

class PlacementProbe {
public:
  // Starts polling the children of the calling thread (the one that will spawn the program).
  PlacementProbe() : parent_(static_cast<long>(::gettid())), poller_([this] { poll_until_stopped(); }) {}
  ~PlacementProbe() { stop(); }
  PlacementProbe(const PlacementProbe&) = delete;
  PlacementProbe& operator=(const PlacementProbe&) = delete;

  // Stops; the fraction of the counted polls with the two busiest threads on one core (negative: none).
  double stop() {
    if (poller_.joinable()) {
      stopping_.store(true);
      poller_.join();
    }
    return polls_ > 0 ? static_cast<double>(one_core_) / static_cast<double>(polls_) : -1.0;
  }

private:
  struct Thread {
    long tid = 0;
    int cpu = -1;
    long long time = 0;  // nanoseconds on a core
  };

  static std::string read(const std::string& path) {
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
  }

  static std::vector<long> numbers(const std::string& text) {
    std::vector<long> values;
    std::istringstream in(text);
    for (long value = 0; in >> value;) values.push_back(value);
    return values;
  }

  static std::size_t tasks(long pid) {
    std::error_code error;
    std::size_t count = 0;
    for (std::filesystem::directory_iterator it("/proc/" + std::to_string(pid) + "/task", error), end; !error && it != end; it.increment(error)) ++count;
    return count;
  }

  // The first process with two threads or more among `pid` and its descendants (0: none yet).
  static long team_process(long pid, int depth) {
    if (tasks(pid) >= 2) return pid;
    if (depth > 3) return 0;
    for (const long child : numbers(read("/proc/" + std::to_string(pid) + "/task/" + std::to_string(pid) + "/children"))) {
      if (const long found = team_process(child, depth + 1); found > 0) return found;
    }
    return 0;
  }

  // A thread's core (field 39 of stat, counted after the command's closing parenthesis) and time on a core.
  static bool sample(long pid, long tid, Thread& thread) {
    const std::string base = "/proc/" + std::to_string(pid) + "/task/" + std::to_string(tid);
    const std::string stat = read(base + "/stat");
    const std::size_t close = stat.rfind(')');
    if (close == std::string::npos) return false;
    std::istringstream fields(stat.substr(close + 1));
    std::string field;
    for (int index = 3; fields >> field; ++index) {
      if (index == 39) {
        thread.tid = tid;
        thread.cpu = std::atoi(field.c_str());
        thread.time = std::atoll(read(base + "/schedstat").c_str());
        return true;
      }
    }
    return false;
  }

  void poll(long pid) {
    std::vector<Thread> threads;
    std::error_code error;
    for (std::filesystem::directory_iterator it("/proc/" + std::to_string(pid) + "/task", error), end; !error && it != end; it.increment(error)) {
      Thread thread;
      if (sample(pid, std::atol(it->path().filename().c_str()), thread)) threads.push_back(thread);
    }
    const Thread* first = nullptr;
    const Thread* second = nullptr;
    for (const Thread& thread : threads) {
      if (first == nullptr || thread.time > first->time) {
        second = first;
        first = &thread;
      } else if (second == nullptr || thread.time > second->time) {
        second = &thread;
      }
    }
    if (second == nullptr || second->time <= 0) return;
    ++polls_;
    if (first->cpu == second->cpu) ++one_core_;
  }

  void poll_until_stopped() {
    long pid = 0;
    while (!stopping_.load()) {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
      if (pid <= 0 || tasks(pid) == 0) pid = 0;
      if (pid <= 0) {
        for (const long child : numbers(read("/proc/self/task/" + std::to_string(parent_) + "/children"))) {
          if ((pid = team_process(child, 0)) > 0) break;
        }
      }
      if (pid > 0) poll(pid);
    }
  }

  long parent_;
  long polls_ = 0;
  long one_core_ = 0;
  std::atomic<bool> stopping_{false};
  std::thread poller_;  // last: started once the members above are
};

}  // namespace augur::bench
