// The team on the master's core during baseline windows (core_binding.hpp).
#include "interpose/core_binding.hpp"

#include <strings.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>

namespace augur::interpose {

CoreBinding::CoreBinding(bool allowed, int capacity, Release release)
    : allowed_(allowed), release_(release), own_(new Own[static_cast<std::size_t>(std::max(capacity, 1))]), own_capacity_(std::max(capacity, 1)) {
  bound_.reserve(static_cast<std::size_t>(own_capacity_));
}

namespace {

// `tid` (0: the calling thread) onto `cpu` first when Back (restoring the mask alone would leave it where it is
// until the scheduler's balancing moves it), then its own `mask`.
void let_go(long tid, int cpu, const cpu_set_t& mask, CoreBinding::Release release) {
  if (release == CoreBinding::Release::Back && cpu >= 0 && cpu < CPU_SETSIZE && CPU_ISSET(cpu, &mask)) {
    cpu_set_t back;
    CPU_ZERO(&back);
    CPU_SET(cpu, &back);
    (void)::sched_setaffinity(static_cast<pid_t>(tid), sizeof back, &back);
  }
  (void)::sched_setaffinity(static_cast<pid_t>(tid), sizeof mask, &mask);
}

}  // namespace

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
    if (::sched_setaffinity(static_cast<pid_t>(tid), sizeof one, &one) != 0) continue;
    bound_.push_back({thread, tid, recorder.cpu(thread), saved});
    if (thread < own_capacity_) {
      Own& own = own_[static_cast<std::size_t>(thread)];
      own.cpu = recorder.cpu(thread);
      own.mask = saved;
      own.bound.store(true, std::memory_order_release);
    }
  }
}

// A thread that let itself go already (release_own) is not moved again.
void CoreBinding::release() {
  for (const Bound& thread : bound_) {
    const bool own = thread.thread < own_capacity_;
    if (own && !own_[static_cast<std::size_t>(thread.thread)].bound.exchange(false, std::memory_order_acq_rel)) continue;
    let_go(thread.tid, thread.cpu, thread.mask, release_);
  }
  bound_.clear();
}

// The master writes a thread's Own only while that thread is not bound (before `bound` is set, after it is
// cleared), so what the thread reads after taking `bound` is the mask of this window. The load first: called at
// every barrier once the baseline steps stopped, it writes the line only the once.
void CoreBinding::release_own(int thread) const {
  if (thread < 0 || thread >= own_capacity_ || own_ == nullptr) return;
  const Own& own = own_[static_cast<std::size_t>(thread)];
  if (!own.bound.load(std::memory_order_relaxed) || !own.bound.exchange(false, std::memory_order_acq_rel)) return;
  let_go(0, own.cpu, own.mask, release_);
}

}  // namespace augur::interpose
