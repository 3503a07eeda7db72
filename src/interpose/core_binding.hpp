// Baseline steps of one outer parallel region on the master's core (docs/self-analysis.md, "One outer parallel
// region, in one run"). In a one-thread run the whole step runs on one core, out of one cache; a baseline step
// whose threads take turns on two cores moves the data each one's share reads from the other core's cache (a
// step of outer_race: 27 us on two cores, 23 us on one, as alone on one thread). So, while a window lasts,
// every thread of the team is bound to the core the master is on, and after it each goes back to the core it
// was on and gets its own affinity mask back. Only under a passive wait policy: a thread that spins at a
// barrier (OMP_WAIT_POLICY=active, libomp's default block time) would keep the core from the thread whose
// turn it is. Called by the master only; system calls only at the edges of a window.
#pragma once

#include <sched.h>

#include <atomic>
#include <memory>
#include <vector>

#include "interpose/team_recorder.hpp"

namespace augur::interpose {

class CoreBinding {
public:
  // What release() does with a bound thread: Back, onto the core it was on, then its own mask; Stay, its own
  // mask only, where the scheduler then leaves or moves it.
  enum class Release { Back, Stay };

  CoreBinding() = default;
  // `allowed`: bind at all (allowed_by_environment()); `capacity`: the most threads bound at once.
  CoreBinding(bool allowed, int capacity, Release release = Release::Back);

  // OMP_WAIT_POLICY=passive, no GOMP_SPINCOUNT or KMP_BLOCKTIME other than 0, and AUGUR_CORE_BINDING not "off".
  [[nodiscard]] static bool allowed_by_environment();
  // AUGUR_CORE_BINDING=stay: Release::Stay; otherwise Back.
  [[nodiscard]] static Release release_from_environment();

  // Threads 0 .. team-1 of `recorder` (those it knows the kernel id of) onto the calling thread's core; a
  // no-op when not allowed or already bound.
  void bind(const TeamRecorder& recorder, int team);
  // Each bound thread back to its core and its own mask; a no-op when none is bound.
  void release();
  // Thread `thread` of the team (the recorder's number), called by that thread itself: back to its core and its
  // own mask now, not at the master's next step boundary (the baseline steps stopped inside a construct:
  // TeamRecorder::set_failure_hook); a no-op when it is not bound, or let itself go already. Beside the master's
  // release(), one of the two lets it go (an atomic exchange). Not beside bind(): the edge binds no thread once
  // the baseline steps stopped, which is when a thread calls this.
  void release_own(int thread) const;
  // Threads are bound now.
  [[nodiscard]] bool bound() const { return !bound_.empty(); }

private:
  struct Bound {
    int thread;      // its number in the team
    long tid;
    int cpu;         // the core it was on before the window (-1: unknown)
    cpu_set_t mask;  // its affinity before the window
  };
  // What a bound thread needs to let itself go (release_own), per thread number, published by bind().
  struct Own {
    mutable std::atomic<bool> bound{false};  // cleared by whichever lets it go, the thread or the master
    int cpu = -1;
    cpu_set_t mask{};
  };
  bool allowed_ = false;
  Release release_ = Release::Back;
  std::vector<Bound> bound_;
  std::unique_ptr<Own[]> own_;
  int own_capacity_ = 0;
};

}  // namespace augur::interpose
