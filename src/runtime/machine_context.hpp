// The machine around a self-analysis run, for the noise verdict (docs/self-analysis.md, "The noise
// verdict"): the load average at the start and the end (/proc/loadavg), the CPU steal over the run
// (/proc/stat), the involuntary context switches of the process (getrusage) and OMP_WAIT_POLICY.
// Header-only; shared by libaugur and libaugur_preload. Never throws: what cannot be read stays unknown.
#pragma once

#include <sys/resource.h>

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

// The first line of /proc/stat: total and steal jiffies of all processors; false when unreadable.
inline bool read_cpu_jiffies(unsigned long long& total, unsigned long long& steal) {
  std::FILE* file = std::fopen("/proc/stat", "r");
  if (file == nullptr) return false;
  unsigned long long field[8] = {};  // user nice system idle iowait irq softirq steal
  const int read = std::fscanf(file, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &field[0], &field[1], &field[2],
                               &field[3], &field[4], &field[5], &field[6], &field[7]);
  std::fclose(file);
  if (read != 8) return false;
  total = 0;
  for (unsigned long long value : field) total += value;
  steal = field[7];
  return true;
}

// Taken at the start of the measurement, completed when the report is written.
class MachineProbe {
public:
  void start() {
    load_start_ = read_load_average();
    have_jiffies_ = read_cpu_jiffies(total_start_, steal_start_);
  }

  [[nodiscard]] selfanalysis::MachineContext finish(int available_processors) const {
    selfanalysis::MachineContext machine;
    machine.known = true;
    machine.available_processors = available_processors;
    machine.load_average_start = load_start_;
    machine.load_average_end = read_load_average();
    unsigned long long total = 0;
    unsigned long long steal = 0;
    if (have_jiffies_ && read_cpu_jiffies(total, steal) && total > total_start_) {
      machine.steal_fraction = static_cast<double>(steal - steal_start_) / static_cast<double>(total - total_start_);
    }
    machine.involuntary_switches = process_involuntary_switches();
    const char* policy = std::getenv("OMP_WAIT_POLICY");
    machine.wait_policy = policy == nullptr || *policy == '\0' ? "default" : policy;
    for (char& c : machine.wait_policy) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return machine;
  }

private:
  double load_start_ = -1.0;
  bool have_jiffies_ = false;
  unsigned long long total_start_ = 0;
  unsigned long long steal_start_ = 0;
};

}  // namespace augur::runtime
