// The manager's quantum (docs/manager.md, "The manager at run time"; thesis Figure 4.12, steps 3 and 4):
// read every application's slot, free the slots of dead ones, leave out the silent ones, ask the policy
// (policy.hpp) and write the allocations. An edge over the shared memory (protocol.hpp); the clock is passed
// in, so that a test drives it exactly. `augur manager start` calls quantum() every quantum.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "manager/policy.hpp"
#include "manager/history.hpp"
#include "manager/protocol.hpp"

namespace augur::manager {

struct ServiceOptions {
  PolicyParameters policy;
  // An application that has not reported for this long (and still runs) is silent: it keeps its allocation,
  // which is taken out of the processors the policy shares, until it reports again.
  std::uint64_t silent_after_ns = 10'000'000'000ULL;
  // Keep the programs' history (history.hpp; a program is the name in its slot): the speedups its
  // applications calculated and, when one gives its slot back, its work, estimated as the integral over the
  // quanta it ran of its measured speedup at its allocation (MeasuredCurve); passed to every decision.
  bool history = false;
};

// One line of the manager's log.
struct LogEntry {
  enum class Kind { joined, decided, silent, resumed, left, reclaimed };
  Kind kind = Kind::decided;
  std::uint64_t at_ns = 0;
  int slot = 0;
  pid_t pid = 0;
  std::string name;
  int from = 0;  // allocation before (0: none)
  int to = 0;    // allocation after
  std::string reason;
};

[[nodiscard]] std::string_view kind_name(LogEntry::Kind kind);

class Service {
public:
  Service(Segment& segment, ServiceOptions options);

  // One quantum at `now_ns` (CLOCK_MONOTONIC): what happened, in slot order. Every application gets an
  // allocation of at least one processor: a policy's 0 (more applications than processors) is written as 1,
  // since the manager never stops a program.
  std::vector<LogEntry> quantum(std::uint64_t now_ns);

private:
  struct Known {
    PolicyMemory memory;
    int allocation = 0;
    bool silent = false;
    pid_t pid = 0;
    std::string name;
    int slot = 0;
    std::uint64_t arrival_ns = 0;  // when the manager first saw it
    double work_done = 0.0;        // one-processor seconds, estimated (ServiceOptions::history)
    std::uint64_t last_ns = 0;     // the quantum it was last decided
  };
  Segment& segment_;
  ServiceOptions options_;
  std::map<std::uint64_t, Known> known_;  // by id: the slot index and its generation
  std::uint64_t first_arrival_ns_ = 0;     // when the manager first saw an application
  long arrivals_ = 0;                      // the applications it has seen join
  ProgramHistories histories_;             // ServiceOptions::history
};

// The report the policy sees of an application read from its slot.
[[nodiscard]] ApplicationReport report_of(const Application& application, const PolicyMemory& memory);
// The id of an application: its slot and the slot's generation (a new application in a slot is a new id).
[[nodiscard]] std::uint64_t application_id(const Application& application);

}  // namespace augur::manager
