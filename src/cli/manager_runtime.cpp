// The manager's settings, flags and log lines (manager_runtime.hpp).
#include "manager_runtime.hpp"

#include <unistd.h>

#include <cstdlib>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "core/json_text.hpp"
#include "flags.hpp"
#include "manager/protocol.hpp"

namespace augur::cli {

std::string default_manager_name() {
  const char* variable = std::getenv("AUGUR_MANAGER");
  return variable != nullptr && *variable != '\0' ? variable : std::string(manager::default_manager_name);
}

void declare_manager_name(CLI::App& command, std::string& name) {
  name = default_manager_name();
  command.add_option("--name", name, "the manager's name (default: $AUGUR_MANAGER, else 'default'); its segment is "
                                     "/augur-manager-UID-NAME")
      ->capture_default_str();
}

void check_manager_name_option(const std::string& name) {
  if (std::string problem = manager::check_manager_name(name); !problem.empty()) throw std::runtime_error("--name: " + problem);
}

void declare_manager_settings(CLI::App& command, ManagerSettings& settings) {
  declare_manager_name(command, settings.name);
  settings.service.policy.cpus = static_cast<int>(sysconf(_SC_NPROCESSORS_ONLN));
  command.add_option("--cpus", settings.service.policy.cpus, "the processors the manager shares out (default: this machine's)")
      ->check(CLI::Range(1, 1 << 16))
      ->capture_default_str();
  std::vector<std::string> names;
  for (const manager::PolicyKind kind : manager::all_policies()) names.emplace_back(manager::policy_name(kind));
  command.add_option("--policy", settings.policy, "how the processors are shared (docs/manager.md)")
      ->check(CLI::IsMember(names))
      ->capture_default_str();
  command.add_option("--quantum", settings.quantum_ms, "milliseconds between two decisions")
      ->check(finite_number())
      ->check(CLI::Range(1.0, 600000.0))
      ->capture_default_str();
  manager::PolicyParameters& policy = settings.service.policy;
  command.add_option("--target-efficiency", policy.target_efficiency, "pdpa: grow while S(P)/P reaches this")->capture_default_str();
  command.add_option("--low-efficiency", policy.low_efficiency, "pdpa: shrink below this")->capture_default_str();
  command.add_option("--step", policy.step, "pdpa: processors added or taken per move")->capture_default_str();
  command.add_flag("--history", settings.service.history,
                   "keep each program's measured speedups: hesrpt-plan and the rollouts start its new runs with them");
  command.add_option("--silent-after", settings.silent_after_ms,
                     "milliseconds without a report after which a running application is silent: it keeps its "
                     "processors, out of the share")
      ->check(finite_number())
      ->check(CLI::Range(1.0, 1e9))
      ->capture_default_str();
}

void finish_manager_settings(ManagerSettings& settings) {
  check_manager_name_option(settings.name);
  const std::optional<manager::PolicyKind> policy = manager::parse_policy(settings.policy);
  if (!policy) throw std::runtime_error("--policy: unknown policy '" + settings.policy + "'");
  settings.service.policy.policy = *policy;
  settings.service.silent_after_ns = static_cast<std::uint64_t>(settings.silent_after_ms * 1e6);
  settings.service.policy.quantum = settings.quantum_ms * 1e-3;  // rollout: a candidate held for one quantum
  if (std::optional<std::string> problem = manager::validate_parameters(settings.service.policy)) {
    throw std::runtime_error("--policy " + settings.policy + ": " + *problem);
  }
}

void print_log_entry(const manager::LogEntry& entry, std::uint64_t start_ns, bool json, std::FILE* out) {
  const double seconds = static_cast<double>(entry.at_ns - std::min(entry.at_ns, start_ns)) * 1e-9;
  if (json) {
    nlohmann::json line = {{"time", seconds},     {"event", std::string(manager::kind_name(entry.kind))},
                           {"slot", entry.slot},  {"pid", entry.pid},
                           {"program", entry.name}, {"from", entry.from},
                           {"to", entry.to},      {"reason", entry.reason}};
    std::fprintf(out, "%s\n", core::json_text(line).c_str());
    return;
  }
  const std::string who = core::valid_utf8(entry.name) + " (pid " + std::to_string(entry.pid) + ", slot " + std::to_string(entry.slot) + ")";
  switch (entry.kind) {
    case manager::LogEntry::Kind::decided:
      std::fprintf(out, "%9.3f s  %s: %d -> %d processors: %s\n", seconds, who.c_str(), entry.from, entry.to, entry.reason.c_str());
      return;
    default:
      std::fprintf(out, "%9.3f s  %s %s: %s\n", seconds, who.c_str(), std::string(manager::kind_name(entry.kind)).c_str(),
                   entry.reason.c_str());
  }
}

}  // namespace augur::cli
