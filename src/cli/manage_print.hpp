// What augur manage saw of its jobs, and its outputs: the table and the JSON (docs/manager.md, "Running a workload").
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "manager/protocol.hpp"
#include "manager/service.hpp"
#include "manager_runtime.hpp"

namespace augur::cli {

struct ManagedJob {
  std::vector<std::string> command;
  pid_t pid = 0;                 // the process launched (augur run's, with --preload)
  pid_t reporter = 0;            // the process that reports to the manager (the program), 0 before its first report
  std::uint64_t launched_ns = 0;
  std::uint64_t response_ns = 0;  // launch to exit
  int exit_status = -1;
  int requested = 0;
  long iterations = 0;
  std::vector<std::pair<double, int>> allocations;  // (seconds since the start, processors), at each change
  std::vector<manager::ProcessorReport> speedups;   // the last seen
};

// One quantum's look at the applications: each job's allocation (a change is recorded), iterations and speedups.
void observe_jobs(std::vector<ManagedJob>& jobs, const std::vector<manager::Application>& applications, std::uint64_t since_start_ns);

[[nodiscard]] std::string render_manage_table(const ManagerSettings& settings, const std::vector<ManagedJob>& jobs);
[[nodiscard]] std::string render_manage_json(const ManagerSettings& settings, const std::vector<ManagedJob>& jobs,
                                             const std::vector<manager::LogEntry>& log, std::uint64_t start_ns);
// The allocations over time as a Perfetto timeline (Chrome trace JSON): a row per job, a span per allocation
// from its change to the next one or the job's end, and the time before its first report.
[[nodiscard]] std::string render_manage_timeline(const std::vector<ManagedJob>& jobs, std::uint64_t start_ns);

}  // namespace augur::cli
