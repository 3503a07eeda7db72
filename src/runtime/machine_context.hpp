// The machine around a self-analysis run, for the noise verdict (docs/self-analysis.md, "The noise
// verdict"): the load average at the start and the end (/proc/loadavg), the CPU steal over the run and the
// processors other processes used beside it (/proc/stat's busy time less the process's CPU time; for short
// runs, the cgroup hierarchy's root CPU time in nanoseconds), the
// involuntary context switches of the process (getrusage) and OMP_WAIT_POLICY.
// Header-only; shared by libaugur and libaugur_preload. Never throws: what cannot be read stays unknown.
#pragma once

#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "augur/selfanalysis_noise.hpp"

namespace augur::runtime {

// Involuntary context switches so far of the whole process (RUSAGE_SELF) or of the calling thread
// (RUSAGE_THREAD); -1 when getrusage fails.
inline long involuntary_switches_of(int who) {
  rusage usage{};
  return getrusage(who, &usage) == 0 ? static_cast<long>(usage.ru_nivcsw) : -1;
}
inline long process_involuntary_switches() { return involuntary_switches_of(RUSAGE_SELF); }

// The 1-minute load average; -1 when /proc/loadavg cannot be read.
inline double read_load_average() {
  double load = -1.0;
  if (std::FILE* file = std::fopen("/proc/loadavg", "r")) {
    if (std::fscanf(file, "%lf", &load) != 1) load = -1.0;
    std::fclose(file);
  }
  return load;
}

// The first line of /proc/stat (selfanalysis::parse_cpu_times); false when unreadable.
inline bool read_cpu_times(selfanalysis::CpuTimes& times) {
  std::FILE* file = std::fopen("/proc/stat", "r");
  if (file == nullptr) return false;
  char line[512];
  const bool read = std::fgets(line, sizeof line, file) != nullptr;
  std::fclose(file);
  return read && selfanalysis::parse_cpu_times(line, times);
}

// The CPU time in nanoseconds of every task under the root of the cgroup hierarchy the process sees
// (selfanalysis::parse_cgroup_cpu_usage): v1 cpuacct.usage, or v2 cpu.stat (the hybrid layout's unified mount,
// or the v2 mount); false when none is readable.
inline bool read_cgroup_cpu_ns(unsigned long long& nanoseconds) {
  for (const char* path : {"/sys/fs/cgroup/cpuacct/cpuacct.usage", "/sys/fs/cgroup/cpu,cpuacct/cpuacct.usage",
                           "/sys/fs/cgroup/unified/cpu.stat", "/sys/fs/cgroup/cpu.stat"}) {
    std::FILE* file = std::fopen(path, "r");
    if (file == nullptr) continue;
    char text[1024];
    const std::size_t length = std::fread(text, 1, sizeof text - 1, file);
    std::fclose(file);
    if (selfanalysis::parse_cgroup_cpu_usage(std::string(text, length), nanoseconds)) return true;
  }
  return false;
}

// Seconds of `clock` (CLOCK_MONOTONIC, CLOCK_PROCESS_CPUTIME_ID); negative when it cannot be read.
inline double clock_seconds(clockid_t clock) {
  timespec now{};
  return clock_gettime(clock, &now) == 0 ? static_cast<double>(now.tv_sec) + 1e-9 * static_cast<double>(now.tv_nsec) : -1.0;
}

// Taken at the start of the measurement, completed when the report is written.
class MachineProbe {
public:
  void start() {
    load_start_ = read_load_average();
    have_times_ = read_cpu_times(times_start_);
    have_cgroup_ = read_cgroup_cpu_ns(cgroup_start_);
    wall_start_ = clock_seconds(CLOCK_MONOTONIC);
    cpu_start_ = clock_seconds(CLOCK_PROCESS_CPUTIME_ID);
  }

  [[nodiscard]] selfanalysis::MachineContext finish(int available_processors) const {
    selfanalysis::MachineContext machine;
    machine.known = true;
    machine.available_processors = available_processors;
    machine.load_average_start = load_start_;
    machine.load_average_end = read_load_average();
    // Both counters first, then the clocks once (as start() does), so that both sources divide by the same window
    // and the reading of the counters is not counted as another process's time.
    selfanalysis::CpuTimes times;
    const bool have_times = have_times_ && read_cpu_times(times);
    unsigned long long cgroup = 0;
    const bool have_cgroup = have_cgroup_ && read_cgroup_cpu_ns(cgroup);
    const double wall = clock_seconds(CLOCK_MONOTONIC);
    const double cpu = clock_seconds(CLOCK_PROCESS_CPUTIME_ID);
    const bool clocks = wall_start_ >= 0.0 && wall >= 0.0 && cpu_start_ >= 0.0 && cpu >= 0.0;
    if (have_times && times.total > times_start_.total) {
      machine.steal_fraction = static_cast<double>(times.steal - times_start_.steal) / static_cast<double>(times.total - times_start_.total);
      const long ticks = sysconf(_SC_CLK_TCK);
      if (clocks && ticks > 0) {
        machine.other_cpu_load = selfanalysis::other_cpu_load(times_start_, times, static_cast<double>(ticks), cpu - cpu_start_,
                                                              wall - wall_start_);
        if (machine.other_cpu_load >= 0.0) machine.other_cpu_source = "proc_stat";
      }
    }
    // A run too short for /proc/stat's ticks: the cgroup root's CPU time, in nanoseconds.
    if (machine.other_cpu_load < 0.0 && clocks && have_cgroup) {
      machine.other_cpu_load = selfanalysis::other_cpu_load_precise(cgroup_start_, cgroup, cpu - cpu_start_, wall - wall_start_);
      if (machine.other_cpu_load >= 0.0) machine.other_cpu_source = "cgroup";
    }
    if (machine.other_cpu_load >= 0.0 && clocks) machine.cpu_window_s = wall - wall_start_;
    machine.involuntary_switches = process_involuntary_switches();
    const char* policy = std::getenv("OMP_WAIT_POLICY");
    machine.wait_policy = policy == nullptr || *policy == '\0' ? "default" : policy;
    for (char& c : machine.wait_policy) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return machine;
  }

private:
  double load_start_ = -1.0;
  bool have_times_ = false;
  bool have_cgroup_ = false;
  unsigned long long cgroup_start_ = 0;
  selfanalysis::CpuTimes times_start_;
  double wall_start_ = -1.0;
  double cpu_start_ = -1.0;
};

}  // namespace augur::runtime
