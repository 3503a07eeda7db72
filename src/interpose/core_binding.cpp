// The team on the master's core during baseline windows (core_binding.hpp).
#include "interpose/core_binding.hpp"

#include <strings.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>

namespace augur::interpose {

CoreBinding::CoreBinding(bool allowed, int capacity, Release release) : allowed_(allowed), release_(release) {
  bound_.reserve(static_cast<std::size_t>(std::max(capacity, 1)));
}

bool CoreBinding::allowed_by_environment() {
  const char* binding = std::getenv("AUGUR_CORE_BINDING");
  if (binding != nullptr && strcasecmp(binding, "off") == 0) return false;
  const char* policy = std::getenv("OMP_WAIT_POLICY");
  if (policy == nullptr || strcasecmp(policy, "passive") != 0) return false;
  for (const char* spinning : {"GOMP_SPINCOUNT", "KMP_BLOCKTIME"}) {
    const char* value = std::getenv(spinning);
    if (value != nullptr && *value != '\0' && std::strcmp(value, "0") != 0) return false;
  }
  return true;
}

CoreBinding::Release CoreBinding::release_from_environment() {
  const char* binding = std::getenv("AUGUR_CORE_BINDING");
  return binding != nullptr && strcasecmp(binding, "stay") == 0 ? Release::Stay : Release::Back;
}

void CoreBinding::bind(const TeamRecorder& recorder, int team) {
  if (!allowed_ || !bound_.empty()) return;
  const int cpu = ::sched_getcpu();
  if (cpu < 0 || cpu >= CPU_SETSIZE) return;
  cpu_set_t one;
  CPU_ZERO(&one);
  CPU_SET(cpu, &one);
  for (int thread = 0; thread < std::min(team, recorder.capacity()); ++thread) {
    const long tid = recorder.tid(thread);
    cpu_set_t saved;
    if (tid <= 0 || ::sched_getaffinity(static_cast<pid_t>(tid), sizeof saved, &saved) != 0) continue;
    if (::sched_setaffinity(static_cast<pid_t>(tid), sizeof one, &one) == 0) bound_.push_back({tid, recorder.cpu(thread), saved});
  }
}

// Restoring the mask alone would leave the team on one core until the scheduler's balancing moves a thread,
// many steps later: first each thread onto the core it was on.
void CoreBinding::release() {
  for (const Bound& thread : bound_) {
    if (release_ == Release::Back && thread.cpu >= 0 && thread.cpu < CPU_SETSIZE && CPU_ISSET(thread.cpu, &thread.mask)) {
      cpu_set_t back;
      CPU_ZERO(&back);
      CPU_SET(thread.cpu, &back);
      (void)::sched_setaffinity(static_cast<pid_t>(thread.tid), sizeof back, &back);
    }
    (void)::sched_setaffinity(static_cast<pid_t>(thread.tid), sizeof thread.mask, &thread.mask);
  }
  bound_.clear();
}

}  // namespace augur::interpose
