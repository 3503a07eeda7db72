// Each thread's work between two barriers of the measured outer parallel region (docs/run.md, "One outer
// parallel region, in one run"): every thread of the team records, in its own slot, when it arrives at a
// barrier and when it leaves it; the master, after leaving a barrier, reads how long each thread worked since
// it left the previous one. The edges (libgomp's barrier wrappers, OMPT's sync_region_wait callbacks) call it;
// the numbers go to the pure engine selfanalysis::TeamAnalysis.
//
// Lock-free and allocation-free after construction. A slot is written only by its thread (arrive, depart) and
// read by the master after a barrier that the writer has reached: the barrier orders the two. Each thread
// numbers its arrivals; the work of arrival k sits in the half k % 2 of a double buffer, so a thread already at
// barrier k + 1 cannot overwrite what the master reads for barrier k (it cannot pass barrier k + 1 before the
// master arrives there). A thread whose arrival number does not match the master's gives "unknown" (-1).
//
// Baseline steps: while `serialize` is on, a thread leaving a barrier first waits until the thread before it
// (t - 1) has arrived at the next barrier, so the team's threads run their shares of each construct one after
// the other, each alone on the machine, as one thread would (the thesis' baseline on B = 1 processor, inside a
// team whose size cannot change). A program whose threads wait on each other inside a construct (a pipeline
// synchronised with flushes) would deadlock: a wait longer than `wait_limit` seconds stops the baseline steps
// for good (failed()).
#pragma once

#include <linux/futex.h>
#include <sched.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <climits>
#include <cstdint>
#include <ctime>

#include <algorithm>
#include <atomic>
#include <memory>

#include "runtime/system_clock.hpp"

namespace augur::interpose {

class TeamRecorder {
public:
  explicit TeamRecorder(int capacity) : capacity_(capacity > 0 ? capacity : 1), slots_(new Slot[static_cast<std::size_t>(capacity_)]) {}

  [[nodiscard]] int capacity() const { return capacity_; }

  // The master, before a measured region's team forms: a new generation (the threads start their count again).
  void begin_region() { generation_.fetch_add(1, std::memory_order_acq_rel); }

  // Thread `thread` of the measured team arrived at a barrier at `now` (seconds), having spent `overhead`
  // seconds since it left the previous one in runtime code that a one-thread run does not execute (libomp's
  // chunk dispatcher in a baseline step): its work is the time in between, less that.
  void arrive(int thread, double now, double overhead = 0.0) {
    Slot* slot = own(thread);
    if (slot == nullptr) return;
    const long index = slot->arrivals.load(std::memory_order_relaxed);
    double since = slot->departed.load(std::memory_order_relaxed) ? now - slot->departed_at.load(std::memory_order_relaxed) : -1.0;
    if (since > 0.0 && overhead > 0.0) since = overhead < since ? since - overhead : 0.0;
    slot->work[index & 1].store(since, std::memory_order_relaxed);
    slot->arrived_at[index & 1].store(now, std::memory_order_relaxed);
    slot->index[index & 1].store(index, std::memory_order_release);
    slot->arrivals.store(index + 1, std::memory_order_release);
    if (serialize_.load(std::memory_order_relaxed)) wake(*slot);
  }

  // Baseline steps on or off (the master, before a barrier: the threads leaving it see the new value).
  void set_serialize(bool on) {
    const bool was = serialize_.exchange(on && !failed_.load(std::memory_order_relaxed), std::memory_order_acq_rel);
    if (was && !on) wake_sleepers();  // no thread waits for a turn now
  }
  [[nodiscard]] bool serializing() const { return serialize_.load(std::memory_order_relaxed); }
  [[nodiscard]] bool failed() const { return failed_.load(std::memory_order_relaxed); }
  void set_wait_limit(double seconds) { wait_limit_.store(seconds, std::memory_order_relaxed); }

  // Thread `thread`, having left a barrier, waits its turn in a baseline step (no-op otherwise).
  void wait_turn(int thread) {
    if (thread <= 0 || thread >= capacity_ || !serialize_.load(std::memory_order_acquire)) return;
    Slot& before = slots_[thread - 1];
    const long generation = generation_.load(std::memory_order_acquire);
    const long target = own(thread)->arrivals.load(std::memory_order_relaxed) + 1;
    const double limit = wait_limit_.load(std::memory_order_relaxed);
    const auto arrived = [&] {
      // A thread that has not arrived anywhere in this region yet has arrived 0 times.
      return before.generation.load(std::memory_order_acquire) == generation && before.arrivals.load(std::memory_order_acquire) >= target;
    };
    for (int spin = 0; spin < 64; ++spin) {
      if (arrived() || !serialize_.load(std::memory_order_relaxed)) return;
#if defined(__x86_64__) || defined(__i386__)
      __builtin_ia32_pause();
#endif
    }
    // Then asleep until the thread before it arrives (its arrive() wakes the sleepers): a blocked thread
    // leaves the core to the one whose turn it is, and its switches are voluntary (the noise verdict counts
    // the involuntary ones).
    const double started = runtime::read_clock(CLOCK_MONOTONIC);
    while (true) {
      const std::uint32_t turn = before.turn.load(std::memory_order_acquire);
      before.sleepers.fetch_add(1, std::memory_order_acq_rel);
      std::atomic_thread_fence(std::memory_order_seq_cst);  // pairs with wake(): it sees the sleeper, or we see the arrival
      const bool ready = arrived() || !serialize_.load(std::memory_order_acquire);
      double left = limit - (runtime::read_clock(CLOCK_MONOTONIC) - started);
      if (!ready && left > 0.0) {
        timespec timeout{};
        timeout.tv_sec = static_cast<time_t>(left);
        timeout.tv_nsec = static_cast<long>((left - static_cast<double>(timeout.tv_sec)) * 1e9);
        (void)::syscall(SYS_futex, reinterpret_cast<std::uint32_t*>(&before.turn), FUTEX_WAIT_PRIVATE, turn, &timeout, nullptr, 0);
      }
      before.sleepers.fetch_sub(1, std::memory_order_acq_rel);
      if (ready || arrived() || !serialize_.load(std::memory_order_acquire)) return;
      left = limit - (runtime::read_clock(CLOCK_MONOTONIC) - started);
      if (left <= 0.0) {
        failed_.store(true, std::memory_order_relaxed);
        serialize_.store(false, std::memory_order_release);
        wake_sleepers();
        return;
      }
    }
  }


  // The tool's own delay of the master at a barrier (its bookkeeping of the episode and of the samples,
  // which the other threads do not do): how long another thread that arrives first waits for the master
  // before it goes into the runtime's barrier. Under a passive wait policy a thread that goes in first
  // sleeps and must be woken, several microseconds on this kind of machine: a delay of the tool's making
  // would otherwise cost the team that at every barrier of a program whose threads arrive together.
  void set_courtesy(double seconds) { courtesy_.store(seconds, std::memory_order_relaxed); }
  [[nodiscard]] double courtesy() const { return courtesy_.load(std::memory_order_relaxed); }

  // Thread `thread` (not the master), having arrived at a barrier at `now` outside a baseline step, waits up
  // to courtesy() seconds for the master to arrive there too.
  void wait_for_master(int thread, double now) const {
    const double budget = courtesy();
    if (thread <= 0 || thread >= capacity_ || budget <= 0.0 || serialize_.load(std::memory_order_relaxed)) return;
    const Slot& master = slots_[0];
    const Slot& own = slots_[thread];
    const long generation = generation_.load(std::memory_order_acquire);
    const long target = own.arrivals.load(std::memory_order_relaxed);
    for (long spin = 0;; ++spin) {
      if (master.generation.load(std::memory_order_acquire) != generation || master.arrivals.load(std::memory_order_acquire) >= target) return;
      if ((spin & 15) == 15 && runtime::read_clock(CLOCK_MONOTONIC) - now > budget) return;
#if defined(__x86_64__) || defined(__i386__)
      __builtin_ia32_pause();
#endif
    }
  }

  // Thread `thread` left a barrier (or started its work in the region) at `now`.
  void depart(int thread, double now) {
    Slot* slot = own(thread);
    if (slot == nullptr) return;
    slot->departed_at.store(now, std::memory_order_relaxed);
    slot->departed.store(true, std::memory_order_relaxed);
    if (!serialize_.load(std::memory_order_relaxed)) slot->cpu.store(::sched_getcpu(), std::memory_order_relaxed);
  }

  // The master, just after leaving a barrier: the latest arrival there of threads 1 .. team-1 (-1: none known).
  [[nodiscard]] double latest_other_arrival(int team) const {
    const long index = slots_[0].arrivals.load(std::memory_order_relaxed) - 1;
    const long generation = generation_.load(std::memory_order_relaxed);
    double latest = -1.0;
    if (index < 0) return latest;
    for (int thread = 1; thread < team && thread < capacity_; ++thread) {
      const Slot& slot = slots_[thread];
      if (slot.generation.load(std::memory_order_relaxed) != generation || slot.index[index & 1].load(std::memory_order_acquire) != index) continue;
      latest = std::max(latest, slot.arrived_at[index & 1].load(std::memory_order_relaxed));
    }
    return latest;
  }

  // The core thread `thread` was on when it last left a barrier outside a baseline step (-1: unknown).
  [[nodiscard]] int cpu(int thread) const { return thread >= 0 && thread < capacity_ ? slots_[thread].cpu.load(std::memory_order_relaxed) : -1; }

  // The kernel's id of thread `thread` of the team (0: not seen in this region yet), for its affinity.
  [[nodiscard]] long tid(int thread) const {
    if (thread < 0 || thread >= capacity_) return 0;
    const Slot& slot = slots_[thread];
    return slot.generation.load(std::memory_order_acquire) == generation_.load(std::memory_order_acquire) ? slot.tid.load(std::memory_order_relaxed) : 0;
  }

  // The master (thread 0), just after leaving a barrier: the work of threads 0 .. team-1 before it, into
  // `work` (-1 where unknown). False when the master has no arrival in this region.
  bool episode(int team, double* work) const {
    const Slot& master = slots_[0];
    const long index = master.arrivals.load(std::memory_order_relaxed) - 1;
    if (index < 0 || master.generation.load(std::memory_order_relaxed) != generation_.load(std::memory_order_relaxed)) return false;
    for (int thread = 0; thread < team; ++thread) {
      if (thread >= capacity_) {
        work[thread] = -1.0;
        continue;
      }
      const Slot& slot = slots_[thread];
      const bool current = slot.generation.load(std::memory_order_relaxed) == generation_.load(std::memory_order_relaxed) &&
                           slot.index[index & 1].load(std::memory_order_acquire) == index;
      work[thread] = current ? slot.work[index & 1].load(std::memory_order_relaxed) : -1.0;
    }
    return true;
  }

private:
  struct alignas(64) Slot {
    std::atomic<long> generation{0};
    std::atomic<long> arrivals{0};
    std::atomic<bool> departed{false};
    std::atomic<double> departed_at{0.0};
    std::atomic<double> work[2] = {0.0, 0.0};
    std::atomic<double> arrived_at[2] = {0.0, 0.0};
    std::atomic<long> index[2] = {-1, -1};
    std::atomic<long> tid{0};
    std::atomic<int> cpu{-1};
    std::atomic<std::uint32_t> turn{0};  // bumped at each arrival in a baseline step: the futex its successor sleeps on
    std::atomic<int> sleepers{0};        // threads asleep on `turn`
  };
  static_assert(sizeof(std::atomic<std::uint32_t>) == sizeof(std::uint32_t), "a futex is a 32-bit word");

  // After baseline steps end: wakes every thread still asleep on a turn (it then sees serialize_ off).
  void wake_sleepers() {
    std::atomic_thread_fence(std::memory_order_seq_cst);  // pairs with the sleeper's fence after it counts itself
    for (int thread = 0; thread < capacity_; ++thread) {
      if (slots_[thread].sleepers.load(std::memory_order_acquire) > 0) wake(slots_[thread]);
    }
  }

  // Wakes the threads asleep on `slot`'s turn (none: no system call).
  static void wake(Slot& slot) {
    slot.turn.fetch_add(1, std::memory_order_acq_rel);
    std::atomic_thread_fence(std::memory_order_seq_cst);
    if (slot.sleepers.load(std::memory_order_acquire) > 0) {
      (void)::syscall(SYS_futex, reinterpret_cast<std::uint32_t*>(&slot.turn), FUTEX_WAKE_PRIVATE, INT_MAX, nullptr, nullptr, 0);
    }
  }

  // The slot of `thread`, restarted when it belongs to an earlier region; null beyond the capacity.
  Slot* own(int thread) {
    if (thread < 0 || thread >= capacity_) return nullptr;
    Slot* slot = &slots_[thread];
    const long generation = generation_.load(std::memory_order_acquire);
    if (slot->generation.load(std::memory_order_relaxed) != generation) {
      slot->arrivals.store(0, std::memory_order_relaxed);
      slot->departed.store(false, std::memory_order_relaxed);
      slot->index[0].store(-1, std::memory_order_relaxed);
      slot->index[1].store(-1, std::memory_order_relaxed);
      slot->tid.store(static_cast<long>(::syscall(SYS_gettid)), std::memory_order_relaxed);
      slot->generation.store(generation, std::memory_order_release);
    }
    return slot;
  }

  int capacity_;
  std::unique_ptr<Slot[]> slots_;
  std::atomic<long> generation_{0};
  std::atomic<bool> serialize_{false};
  std::atomic<bool> failed_{false};
  std::atomic<double> wait_limit_{0.05};
  std::atomic<double> courtesy_{0.0};
};

}  // namespace augur::interpose
