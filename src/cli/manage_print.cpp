// augur manage's observations and outputs (manage_print.hpp).
#include "manage_print.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <nlohmann/json.hpp>

#include "augur/sim/engine.hpp"
#include "core/json_text.hpp"
#include "core/table.hpp"

namespace augur::cli {
namespace {

// The parent of process `pid` (field 4 of /proc/PID/stat), 0 when unknown.
pid_t parent_of(pid_t pid) {
  char path[64];
  std::snprintf(path, sizeof path, "/proc/%d/stat", static_cast<int>(pid));
  const int descriptor = ::open(path, O_RDONLY | O_CLOEXEC);
  if (descriptor < 0) return 0;
  char buffer[512];
  const ssize_t length = ::read(descriptor, buffer, sizeof buffer - 1);
  ::close(descriptor);
  if (length <= 0) return 0;
  buffer[length] = '\0';
  const char* end = std::strrchr(buffer, ')');
  int parent = 0;
  return end != nullptr && std::sscanf(end + 1, " %*c %d", &parent) == 1 ? parent : 0;
}

std::string command_text(const std::vector<std::string>& command) {
  std::string text;
  for (const std::string& word : command) text += (text.empty() ? "" : " ") + word;
  return text;
}

double seconds(std::uint64_t nanoseconds) {
  return static_cast<double>(nanoseconds) * 1e-9;
}

}  // namespace

void observe_jobs(std::vector<ManagedJob>& jobs, const std::vector<manager::Application>& applications, std::uint64_t since_start_ns) {
  for (const manager::Application& application : applications) {
    for (ManagedJob& job : jobs) {
      if (job.exit_status >= 0) continue;
      if (job.reporter == 0 && (application.pid == job.pid || parent_of(application.pid) == job.pid)) job.reporter = application.pid;
      if (job.reporter != application.pid) continue;
      job.requested = application.requested;
      job.iterations = application.iterations;
      job.speedups = application.calculated;
      if (application.allocation > 0 && (job.allocations.empty() || job.allocations.back().second != application.allocation)) {
        job.allocations.emplace_back(seconds(since_start_ns), application.allocation);
      }
    }
  }
}

std::string render_manage_table(const ManagerSettings& settings, const std::vector<ManagedJob>& jobs) {
  core::TextTable table({"job", "command", "exit", "response s", "asked", "iterations", "allocations (s: processors)", "speedups (PC)"});
  double total = 0.0;
  double makespan = 0.0;
  for (std::size_t index = 0; index < jobs.size(); ++index) {
    const ManagedJob& job = jobs[index];
    std::string allocations;
    for (const auto& [at, processors] : job.allocations) {
      allocations += (allocations.empty() ? "" : " ") + core::format_number(at, 2) + ":" + std::to_string(processors);
    }
    std::string speedups;
    for (const manager::ProcessorReport& entry : job.speedups) {
      speedups += (speedups.empty() ? "" : " ") + std::to_string(entry.processors) + ":" + core::format_number(entry.speedup, 2);
    }
    total += seconds(job.response_ns);
    makespan = std::max(makespan, seconds(job.launched_ns - jobs.front().launched_ns + job.response_ns));
    table.add_row({std::to_string(index + 1), core::valid_utf8(command_text(job.command)), std::to_string(job.exit_status),
                   core::format_number(seconds(job.response_ns), 3), std::to_string(job.requested), std::to_string(job.iterations),
                   allocations.empty() ? "never reported" : allocations, speedups.empty() ? "none" : speedups});
  }
  char summary[160];
  std::snprintf(summary, sizeof summary, "Mean response time %.3f s, makespan %.3f s\n", jobs.empty() ? 0.0 : total / static_cast<double>(jobs.size()),
                makespan);
  return std::to_string(jobs.size()) + " jobs under policy " + settings.policy + " on " + std::to_string(settings.service.policy.cpus) +
         " processors (quantum " + core::format_number(settings.quantum_ms, 0) + " ms)\n" + table.render() + summary;
}

std::string render_manage_json(const ManagerSettings& settings, const std::vector<ManagedJob>& jobs,
                               const std::vector<manager::LogEntry>& log, std::uint64_t start_ns) {
  nlohmann::json out = {{"manager", settings.name}, {"policy", settings.policy}, {"cpus", settings.service.policy.cpus},
                        {"quantum_ms", settings.quantum_ms}, {"jobs", nlohmann::json::array()}, {"log", nlohmann::json::array()}};
  double total = 0.0;
  double makespan = 0.0;
  for (const ManagedJob& job : jobs) {
    nlohmann::json allocations = nlohmann::json::array();
    for (const auto& [at, processors] : job.allocations) allocations.push_back({{"time", at}, {"processors", processors}});
    nlohmann::json speedups = nlohmann::json::array();
    for (const manager::ProcessorReport& entry : job.speedups) {
      speedups.push_back({{"processors", entry.processors}, {"speedup", entry.speedup},
                          {"predicted_time", entry.predicted_time < 0.0 ? nlohmann::json(nullptr) : nlohmann::json(entry.predicted_time)}});
    }
    total += seconds(job.response_ns);
    makespan = std::max(makespan, seconds(job.launched_ns - start_ns + job.response_ns));
    out["jobs"].push_back({{"command", job.command}, {"pid", job.pid}, {"exit_status", job.exit_status},
                           {"response_time", seconds(job.response_ns)}, {"requested", job.requested},
                           {"iterations", job.iterations}, {"allocations", allocations}, {"speedups", speedups}});
  }
  out["mean_response_time"] = jobs.empty() ? 0.0 : total / static_cast<double>(jobs.size());
  out["makespan"] = makespan;
  for (const manager::LogEntry& entry : log) {
    out["log"].push_back({{"time", seconds(entry.at_ns - std::min(entry.at_ns, start_ns))}, {"event", std::string(manager::kind_name(entry.kind))},
                          {"pid", entry.pid}, {"program", entry.name}, {"from", entry.from}, {"to", entry.to}, {"reason", entry.reason}});
  }
  return core::json_text(out, 2) + "\n";
}

}  // namespace augur::cli

namespace augur::cli {

std::string render_manage_timeline(const std::vector<ManagedJob>& jobs, std::uint64_t start_ns) {
  sim::Timeline timeline;
  for (std::size_t index = 0; index < jobs.size(); ++index) {
    const ManagedJob& job = jobs[index];
    const int row = static_cast<int>(index) + 1;
    std::string name = "job " + std::to_string(index + 1) + ":";
    for (const std::string& word : job.command) name += " " + word;
    timeline.name_row(row, name);
    const double launched = seconds(job.launched_ns - std::min(job.launched_ns, start_ns));
    const double ended = launched + seconds(job.response_ns);
    const double first = job.allocations.empty() ? ended : job.allocations.front().first;
    if (first > launched) timeline.span(row, "not connected yet", "wait", launched, first);
    for (std::size_t change = 0; change < job.allocations.size(); ++change) {
      const auto& [at, processors] = job.allocations[change];
      const double until = change + 1 < job.allocations.size() ? job.allocations[change + 1].first : ended;
      const std::string label = std::to_string(processors) + (processors == 1 ? " processor" : " processors");
      if (until > at) timeline.span(row, label, "run", at, until);
    }
  }
  return timeline.json();
}

}  // namespace augur::cli
