// The manager's quantum (service.hpp).
#include "manager/service.hpp"

#include <algorithm>
#include <set>

#include "measured_curve.hpp"

namespace augur::manager {

std::string_view kind_name(LogEntry::Kind kind) {
  switch (kind) {
    case LogEntry::Kind::joined:
      return "joined";
    case LogEntry::Kind::decided:
      return "decided";
    case LogEntry::Kind::silent:
      return "silent";
    case LogEntry::Kind::resumed:
      return "resumed";
    case LogEntry::Kind::left:
      return "left";
    case LogEntry::Kind::reclaimed:
      return "reclaimed";
  }
  return "decided";
}

std::uint64_t application_id(const Application& application) {
  return (static_cast<std::uint64_t>(application.slot) << 32) | (application.word >> 32);
}

ApplicationReport report_of(const Application& application, const PolicyMemory& memory) {
  ApplicationReport report;
  report.id = application_id(application);
  report.name = application.name;
  report.program = application.name;
  report.max_processors = std::max(application.requested, 0);
  report.allocation = application.allocation;
  for (const ProcessorReport& entry : application.calculated) {
    report.speedups.push_back({entry.processors, entry.speedup, SpeedupState::calculated});
    if (entry.processors == application.allocation && entry.predicted_time > 0.0) report.predicted_time = entry.predicted_time;
  }
  report.reference_time = application.reference_time;
  report.memory = memory;
  return report;
}

Service::Service(Segment& segment, ServiceOptions options) : segment_(segment), options_(std::move(options)) {}

std::vector<LogEntry> Service::quantum(std::uint64_t now_ns) {
  std::vector<LogEntry> log;
  auto entry = [&](LogEntry::Kind kind, const Known& known, int from, int to, std::string reason) {
    log.push_back({kind, now_ns, known.slot, known.pid, known.name, from, to, std::move(reason)});
  };
  std::vector<Application> running;
  for (Application& application : read_applications(segment_)) {
    if (reclaim_if_dead(segment_, application)) {
      Known gone{{}, application.allocation, false, application.pid, application.name, application.slot, 0, 0.0, 0};
      entry(LogEntry::Kind::reclaimed, gone, application.allocation, 0, "the process has ended without giving its slot back");
      continue;
    }
    running.push_back(std::move(application));
  }
  // Applications gone since the last quantum (they gave their slot back, or were reclaimed above).
  std::set<std::uint64_t> present;
  for (const Application& application : running) present.insert(application_id(application));
  for (auto it = known_.begin(); it != known_.end();) {
    if (present.count(it->first) == 0) {
      const bool reclaimed = std::any_of(log.begin(), log.end(), [&](const LogEntry& line) {
        return line.kind == LogEntry::Kind::reclaimed && line.slot == it->second.slot && line.pid == it->second.pid;
      });
      if (!reclaimed) {
        entry(LogEntry::Kind::left, it->second, it->second.allocation, 0, "it gave its slot back");
        if (options_.history) histories_.record_finished(it->second.name, it->second.work_done);
      }
      it = known_.erase(it);
    } else {
      ++it;
    }
  }
  // The silent keep their processors; the others share the rest.
  std::vector<ApplicationReport> reports;
  std::vector<const Application*> reported;
  int held = 0;
  for (const Application& application : running) {
    const std::uint64_t id = application_id(application);
    auto [it, added] = known_.try_emplace(id);
    Known& known = it->second;
    if (added) {
      known = {{}, 0, false, application.pid, application.name, application.slot, now_ns, 0.0, 0};
      if (arrivals_++ == 0) first_arrival_ns_ = now_ns;
      entry(LogEntry::Kind::joined, known, 0, 0, "asks for " + std::to_string(application.requested) + " processors");
    }
    const bool silent = now_ns > application.heartbeat_ns && now_ns - application.heartbeat_ns > options_.silent_after_ns;
    if (silent != known.silent) {
      known.silent = silent;
      entry(silent ? LogEntry::Kind::silent : LogEntry::Kind::resumed, known, known.allocation, known.allocation,
            silent ? "no report for " + std::to_string((now_ns - application.heartbeat_ns) / 1000000) + " ms: keeps its processors"
                   : "reports again");
    }
    if (silent) {
      held += std::max(known.allocation, 1);
      continue;
    }
    reports.push_back(report_of(application, known.memory));
    reports.back().arrival = static_cast<double>(known.arrival_ns) * 1e-9;
    reported.push_back(&application);
  }
  if (reports.empty()) return log;
  PolicyParameters parameters = options_.policy;
  parameters.cpus = std::max(1, parameters.cpus - held);
  parameters.clock = {static_cast<double>(now_ns) * 1e-9, static_cast<double>(first_arrival_ns_) * 1e-9, arrivals_};
  if (options_.history) {
    for (std::size_t index = 0; index < reports.size(); ++index) {
      const ApplicationReport& report = reports[index];
      Known& known = known_[report.id];
      // Its work since the last quantum: its measured speedup at its allocation, over the time it held it.
      if (known.last_ns > 0 && now_ns > known.last_ns && report.allocation > 0) {
        known.work_done += MeasuredCurve(report).at(report.allocation) * static_cast<double>(now_ns - known.last_ns) * 1e-9;
      }
      known.last_ns = now_ns;
      histories_.record_speedups(report.program, report.speedups);
    }
    parameters.history = histories_.programs();
  }
  const std::vector<Allocation> allocations = decide(parameters, reports);
  for (std::size_t index = 0; index < allocations.size(); ++index) {
    const Application& application = *reported[index];
    Known& known = known_[application_id(application)];
    known.memory = allocations[index].memory;
    const int processors = std::max(allocations[index].processors, 1);
    if (processors != known.allocation || application.allocation != processors) {
      entry(LogEntry::Kind::decided, known, known.allocation, processors, allocations[index].reason);
      known.allocation = processors;
      write_allocation(segment_, application.slot, processors, now_ns);
    }
  }
  std::stable_sort(log.begin(), log.end(), [](const LogEntry& a, const LogEntry& b) { return a.slot < b.slot; });
  return log;
}

}  // namespace augur::manager
