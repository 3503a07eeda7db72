// augur manager status [--name N] [--json] and augur manager stop [--name N] [--json]: what a running manager's segment
// holds (its applications, their allocations, speedups and PC/PNC states), and the end of the manager
// (docs/manager.md, "The manager at run time").
#include <signal.h>
#include <time.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <memory>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "command.hpp"
#include "core/json_text.hpp"
#include "core/table.hpp"
#include "manager/protocol.hpp"
#include "manager_runtime.hpp"
#include "flags.hpp"

namespace augur::cli {
namespace {

struct StatusOptions {
  std::string name;
  bool json = false;
};

std::unique_ptr<manager::Segment> open_segment(const std::string& name) {
  check_manager_name_option(name);
  manager::Segment::Opened opened = manager::Segment::open(name);
  if (opened.segment == nullptr) throw std::runtime_error(opened.error);
  return std::move(opened.segment);
}

double seconds_since(std::uint64_t then_ns, std::uint64_t now_ns) {
  return then_ns == 0 || then_ns > now_ns ? 0.0 : static_cast<double>(now_ns - then_ns) * 1e-9;
}

// Every processor count up to what the application asked for or got: PC with its values, PNC without.
nlohmann::json speedups_json(const manager::Application& application) {
  nlohmann::json out = nlohmann::json::array();
  int largest = std::max(application.requested, application.allocation);
  for (const manager::ProcessorReport& entry : application.calculated) largest = std::max(largest, entry.processors);
  std::size_t next = 0;
  for (int p = 1; p <= largest; ++p) {
    if (next < application.calculated.size() && application.calculated[next].processors == p) {
      const manager::ProcessorReport& entry = application.calculated[next++];
      out.push_back({{"processors", p}, {"state", "PC"}, {"speedup", entry.speedup},
                     {"predicted_time", entry.predicted_time < 0.0 ? nlohmann::json(nullptr) : nlohmann::json(entry.predicted_time)}});
    } else {
      out.push_back({{"processors", p}, {"state", "PNC"}});
    }
  }
  return out;
}

nlohmann::json status_json(const manager::Segment& segment, const std::vector<manager::Application>& applications,
                           std::uint64_t now) {
  const manager::Header& header = segment.header();
  const pid_t pid = header.manager_pid.load();
  nlohmann::json out = {{"manager", segment.name()},
                        {"segment", manager::segment_name(segment.name())},
                        {"pid", pid},
                        {"running", manager::process_alive(pid, header.manager_start_time.load())},
                        {"cpus", header.cpus.load()},
                        {"policy", std::string(header.policy, strnlen(header.policy, sizeof header.policy))},
                        {"quantum_ms", static_cast<double>(header.quantum_ns.load()) * 1e-6},
                        {"quanta", header.decisions.load()},
                        {"slots", segment.slot_count()},
                        {"applications", nlohmann::json::array()}};
  for (const manager::Application& application : applications) {
    out["applications"].push_back(
        {{"slot", application.slot},
         {"pid", application.pid},
         {"program", application.name},
         {"running", manager::process_alive(application.pid, application.start_time)},
         {"requested", application.requested},
         {"allocation", application.allocation},
         {"threads", application.processors},
         {"iterations", application.iterations},
         {"last_report_s", seconds_since(application.heartbeat_ns, now)},
         {"baseline", application.baseline},
         {"reference_time", application.reference_time > 0.0 ? nlohmann::json(application.reference_time) : nlohmann::json(nullptr)},
         {"speedups", speedups_json(application)}});
  }
  return out;
}

std::string status_text(const nlohmann::json& status) {
  std::string text = "Manager '" + status["manager"].get<std::string>() + "': pid " + std::to_string(status["pid"].get<int>()) +
                     (status["running"].get<bool>() ? " (running)" : " (not running: the applications keep their last allocations)") +
                     ", " + std::to_string(status["cpus"].get<int>()) + " processors, policy " + status["policy"].get<std::string>() +
                     ", quantum " + core::format_number(status["quantum_ms"].get<double>(), 0) + " ms, " +
                     std::to_string(status["quanta"].get<std::uint64_t>()) + " quanta\n";
  if (status["applications"].empty()) return text + "No application connected.\n";
  core::TextTable table({"program", "pid", "slot", "asked", "allocation", "threads", "iterations", "last report s", "B", "T(B) s",
                         "speedups (PC)"});
  for (const nlohmann::json& application : status["applications"]) {
    std::string speedups;
    for (const nlohmann::json& entry : application["speedups"]) {
      if (entry["state"] != "PC") continue;
      speedups += (speedups.empty() ? "" : " ") + std::to_string(entry["processors"].get<int>()) + ":" +
                  core::format_number(entry["speedup"].get<double>(), 2);
    }
    const nlohmann::json& reference = application["reference_time"];
    table.add_row({core::valid_utf8(application["program"].get<std::string>()) + (application["running"].get<bool>() ? "" : " (ended)"),
                   std::to_string(application["pid"].get<int>()), std::to_string(application["slot"].get<int>()),
                   std::to_string(application["requested"].get<int>()), std::to_string(application["allocation"].get<int>()),
                   std::to_string(application["threads"].get<int>()), std::to_string(application["iterations"].get<long>()),
                   core::format_number(application["last_report_s"].get<double>(), 1), std::to_string(application["baseline"].get<int>()),
                   reference.is_null() ? "-" : core::format_number(reference.get<double>(), 4), speedups.empty() ? "none yet" : speedups});
  }
  return text + table.render();
}

// What stop did: one sentence, or with --json {"name", "pid", "was_running" (false: it had ended and left its
// segment, now removed), "sigterm" (it did not stop at its next quanta and was sent SIGTERM)}.
void print_stopped(const std::string& name, pid_t pid, bool was_running, bool sigterm, bool json) {
  if (json) {
    const nlohmann::json out = {{"name", name}, {"pid", static_cast<int>(pid)}, {"was_running", was_running}, {"sigterm", sigterm}};
    std::printf("%s\n", core::json_text(out, 2).c_str());
  } else if (!was_running) {
    std::printf("The manager '%s' (pid %d) had ended without removing its segment: removed.\n", name.c_str(), static_cast<int>(pid));
  } else {
    std::printf("Stopped the manager '%s' (pid %d)%s.\n", name.c_str(), static_cast<int>(pid), sigterm ? " with SIGTERM" : "");
  }
}

int stop_manager(const std::string& name, bool json) {
  std::unique_ptr<manager::Segment> segment = open_segment(name);
  manager::Header& header = segment->header();
  const pid_t pid = header.manager_pid.load();
  const std::uint64_t start_time = header.manager_start_time.load();
  if (!manager::process_alive(pid, start_time)) {
    manager::Segment::remove(name);
    print_stopped(name, pid, false, false, json);
    return 0;
  }
  header.stop_requested.store(1);
  // It stops at its next quantum; a manager that does not within ten quanta (or 5 s) is sent SIGTERM.
  const std::uint64_t patience = std::max<std::uint64_t>(5000000000ULL, 10 * static_cast<std::uint64_t>(header.quantum_ns.load()));
  const std::uint64_t deadline = manager::monotonic_ns() + patience;
  bool terminated = false;
  while (manager::process_alive(pid, start_time)) {
    if (!terminated && manager::monotonic_ns() > deadline) {
      ::kill(pid, SIGTERM);
      terminated = true;
    }
    const timespec pause{0, 10000000};
    nanosleep(&pause, nullptr);
  }
  print_stopped(name, pid, true, terminated, json);
  return 0;
}

}  // namespace

Runner declare_manager_status_command(CLI::App& command) {
  auto options = std::make_shared<StatusOptions>();
  declare_manager_name(command, options->name);
  add_json_flag(command, options->json, "JSON instead of the table");
  command.footer("Guide: docs/manager.md (\"The manager at run time\")");
  return [options] {
    try {
      std::unique_ptr<manager::Segment> segment = open_segment(options->name);
      const nlohmann::json status = status_json(*segment, manager::read_applications(*segment), manager::monotonic_ns());
      std::fputs(options->json ? (core::json_text(status, 2) + "\n").c_str() : status_text(status).c_str(), stdout);
      return 0;
    } catch (const std::exception& error) {
      return report_error("manager status", error);
    }
  };
}

Runner declare_manager_stop_command(CLI::App& command) {
  auto options = std::make_shared<StatusOptions>();
  declare_manager_name(command, options->name);
  add_json_flag(command, options->json, "JSON: the manager's name and pid, whether it was running, whether SIGTERM ended it");
  command.footer("The applications keep their last allocations. Guide: docs/manager.md (\"The manager at run time\")");
  return [options] {
    try {
      return stop_manager(options->name, options->json);
    } catch (const std::exception& error) {
      return report_error("manager stop", error);
    }
  };
}

}  // namespace augur::cli
