// What the manager's run-time commands share (augur manager start|status|stop, augur manage): the manager's
// settings and their flags, the manager loop, and the lines of its log (docs/manager.md, "The manager at run time").
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <string>

#include "manager/service.hpp"

namespace augur::cli {

struct ManagerSettings {
  std::string name;           // the manager's name (--name; AUGUR_MANAGER; "default")
  std::string policy = "equipartition";
  double quantum_ms = 100.0;
  double silent_after_ms = 10000.0;
  bool json = false;          // the log as JSON Lines
  manager::ServiceOptions service;  // filled by finish_manager_settings
};

// The manager's name when --name is not given: AUGUR_MANAGER, else "default".
[[nodiscard]] std::string default_manager_name();

// --name, --cpus, --policy, --quantum, --target-efficiency, --low-efficiency, --step, --silent-after.
void declare_manager_settings(CLI::App& command, ManagerSettings& settings);
// After parsing: the name checked, the policy and the processors into `service`. Throws std::runtime_error
// naming the option at fault.
void finish_manager_settings(ManagerSettings& settings);
// --name alone (status and stop).
void declare_manager_name(CLI::App& command, std::string& name);
// The name checked (throws std::runtime_error "--name: ...").
void check_manager_name_option(const std::string& name);

// What the manager loop tells its caller.
struct ManagerHooks {
  std::function<bool()> keep_going;                             // false: stop at the next quantum
  std::function<void(const manager::LogEntry&)> log;            // each line of the log
  std::function<void(const manager::Segment&)> after_quantum;   // the segment after each quantum (may be empty)
  bool announce = true;                                         // the start and stop lines on standard error
};

// The manager until `augur manager stop` or keep_going() turns false; the segment is removed at the end (the
// programs keep their last allocations). Throws std::runtime_error when the segment cannot be made (a manager of
// that name runs, a foreign segment is in the way).
int run_manager(const ManagerSettings& settings, const ManagerHooks& hooks);

// One line of the log: "  0.300 s  slot 0  swim (pid 4242): 4 -> 6 processors: <reason>", or its JSON object.
void print_log_entry(const manager::LogEntry& entry, std::uint64_t start_ns, bool json, std::FILE* out);

}  // namespace augur::cli
