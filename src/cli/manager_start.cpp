// augur manager start [--cpus N] [--policy P] [--quantum MS] [--name N] [--silent-after MS] [--json]: the
// processor manager as a foreground process (docs/manager.md, "The manager at run time"). It creates the
// shared-memory segment (src/manager/protocol.hpp), and every quantum reads the applications' slots, asks the
// policy and writes the allocations (src/manager/service.hpp), logging every change on standard output, until
// `augur manager stop`, SIGINT or SIGTERM.
#include <signal.h>
#include <time.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <atomic>
#include <cstdio>
#include <memory>
#include <stdexcept>

#include "command.hpp"
#include "manager_runtime.hpp"
#include "manager/protocol.hpp"
#include "manager/service.hpp"
#include "flags.hpp"

namespace augur::cli {
namespace {

std::atomic<int> received_signal{0};

void on_signal(int signal_number) {
  received_signal.store(signal_number);
}

// SIGINT and SIGTERM end the loop at the next quantum (no SA_RESTART: the sleep returns at once).
void catch_termination() {
  struct sigaction action {};
  action.sa_handler = on_signal;
  sigemptyset(&action.sa_mask);
  sigaction(SIGINT, &action, nullptr);
  sigaction(SIGTERM, &action, nullptr);
}

void sleep_until(std::uint64_t deadline_ns) {
  timespec until{};
  until.tv_sec = static_cast<time_t>(deadline_ns / 1000000000ULL);
  until.tv_nsec = static_cast<long>(deadline_ns % 1000000000ULL);
  clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &until, nullptr);
}

}  // namespace

int run_manager(const ManagerSettings& settings, const ManagerHooks& hooks) {
  manager::Segment::Opened created = manager::Segment::create(settings.name, settings.service.policy.cpus,
                                                              static_cast<std::int64_t>(settings.quantum_ms * 1e6),
                                                              manager::policy_name(settings.service.policy.policy));
  if (created.segment == nullptr) throw std::runtime_error(created.error);
  manager::Segment& segment = *created.segment;
  manager::Header& header = segment.header();
  const std::uint64_t start = manager::monotonic_ns();
  const auto quantum_ns = static_cast<std::uint64_t>(settings.quantum_ms * 1e6);
  if (hooks.announce) {
    std::fprintf(stderr, "augur manager '%s': pid %d, %d processors, policy %s, quantum %g ms (segment %s); 'augur manager stop%s' ends it\n",
               settings.name.c_str(), static_cast<int>(::getpid()), settings.service.policy.cpus,
               std::string(manager::policy_name(settings.service.policy.policy)).c_str(), settings.quantum_ms,
               manager::segment_name(settings.name).c_str(),
               settings.name == manager::default_manager_name ? "" : (" --name " + settings.name).c_str());
    std::fflush(stderr);
  }
  manager::Service service(segment, settings.service);
  std::uint64_t next = start;
  long quanta = 0;
  while (header.stop_requested.load() == 0 && hooks.keep_going()) {
    const std::uint64_t now = manager::monotonic_ns();
    for (const manager::LogEntry& entry : service.quantum(now)) hooks.log(entry);
    if (hooks.after_quantum) hooks.after_quantum(segment);
    header.manager_heartbeat_ns.store(now);
    header.decisions.fetch_add(1);
    ++quanta;
    next += quantum_ns;
    if (next < now) next = now + quantum_ns;  // a late quantum is not caught up in a burst
    sleep_until(next);
  }
  // The applications keep their last allocations; new ones no longer find the segment.
  header.manager_pid.store(0);
  manager::Segment::remove(settings.name);
  if (hooks.announce) std::fprintf(stderr, "augur manager '%s': stopped after %ld quanta\n", settings.name.c_str(), quanta);
  return 0;
}

Runner declare_manager_start_command(CLI::App& command) {
  auto options = std::make_shared<ManagerSettings>();
  declare_manager_settings(command, *options);
  add_json_flag(command, options->json, "the log as JSON Lines, one object per line");
  command.footer(
      "The manager runs in the foreground until 'augur manager stop' (or Ctrl-C); programs linked to libaugur or run "
      "under 'augur run' connect to it when they start (AUGUR_MANAGER=NAME picks a manager other than 'default'). "
      "Guide: docs/manager.md; the segment: docs/formats.md (\"The manager's shared memory\")");
  return [options] {
    try {
      finish_manager_settings(*options);
      catch_termination();
      ManagerHooks hooks;
      hooks.keep_going = [] { return received_signal.load() == 0; };
      const std::uint64_t start = manager::monotonic_ns();
      hooks.log = [options, start](const manager::LogEntry& entry) {
        print_log_entry(entry, start, options->json, stdout);
        std::fflush(stdout);
      };
      return run_manager(*options, hooks);
    } catch (const std::exception& error) {
      return report_error("manager start", error);
    }
  };
}

}  // namespace augur::cli
