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
  void begin_region() {
    master_heading_.store(0, std::memory_order_relaxed);
    master_in_tool_.store(-1.0, std::memory_order_relaxed);
    generation_.fetch_add(1, std::memory_order_acq_rel);
  }

  // Thread `thread` of the measured team arrived at a barrier at `now` (seconds), having spent `overhead`
  // seconds since it left the previous one in runtime code that a one-thread run does not execute (libomp's
  // chunk dispatcher in a baseline step) and `spin` seconds spinning on a flag (FlushSpin): its work is the
  // time in between, less both (the spin at most that time; episode() gives it beside the work).
  void arrive(int thread, double now, double overhead = 0.0, double spin = 0.0) {
    Slot* slot = own(thread);
    if (slot == nullptr) return;
    const long index = slot->arrivals.load(std::memory_order_relaxed);
    double since = slot->departed.load(std::memory_order_relaxed) ? now - slot->departed_at.load(std::memory_order_relaxed) : -1.0;
    const double spun = since > 0.0 ? std::clamp(spin, 0.0, since) : 0.0;
    since -= spun;
    if (since > 0.0 && overhead > 0.0) since = overhead < since ? since - overhead : 0.0;
    slot->spin[index & 1].store(spun, std::memory_order_relaxed);
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
  // Called by a thread (`thread`: its number) that finds the baseline steps stopped for good when it waits for its
  // turn or leaves a barrier, before it goes back to the program (again at each barrier after: the hook must be
  // cheap when there is nothing left to do); set by the edge before the team runs. The team's core binding lets
  // that thread go at once: bound to the master's core while the master spins inside the construct, it would
  // take turns with it for the rest of the step (docs/self-analysis.md, "The thread that gives up lets itself go").
  using FailureHook = void (*)(void* context, int thread);
  void set_failure_hook(FailureHook hook, void* context) {
    failure_hook_ = hook;
    failure_context_ = context;
  }
  // Stored only when it changes: the line is read by every thread at its barriers.
  void set_wait_limit(double seconds) {
    if (wait_limit_.load(std::memory_order_relaxed) != seconds) wait_limit_.store(seconds, std::memory_order_relaxed);
  }

  // Thread `thread`, having left a barrier, waits its turn in a baseline step (no-op otherwise).
  void wait_turn(int thread) {
    if (thread <= 0 || thread >= capacity_) return;
    if (!serialize_.load(std::memory_order_acquire)) {
      if (failed_.load(std::memory_order_relaxed)) on_failure(thread);  // still bound from a window that stopped?
      return;
    }
    Slot& before = slots_[thread - 1];
    const long generation = generation_.load(std::memory_order_acquire);
    const long target = own(thread)->arrivals.load(std::memory_order_relaxed) + 1;
    const double limit = wait_limit_.load(std::memory_order_relaxed);
    const auto arrived = [&] {
      // A thread that has not arrived anywhere in this region yet has arrived 0 times.
      return before.generation.load(std::memory_order_acquire) == generation && before.arrivals.load(std::memory_order_acquire) >= target;
    };
    for (int spin = 0; spin < 64; ++spin) {
      if (arrived() || !serialize_.load(std::memory_order_relaxed)) {
        if (failed_.load(std::memory_order_relaxed)) on_failure(thread);
        return;
      }
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
      if (ready || arrived() || !serialize_.load(std::memory_order_acquire)) {
        if (failed_.load(std::memory_order_relaxed)) on_failure(thread);  // another thread gave up: woken by it
        return;
      }
      left = limit - (runtime::read_clock(CLOCK_MONOTONIC) - started);
      if (left <= 0.0) {
        failed_.store(true, std::memory_order_relaxed);
        serialize_.store(false, std::memory_order_release);
        wake_sleepers();
        on_failure(thread);
        return;
      }
    }
  }


  // The courtesy wait (docs/self-analysis.md, "The tool's delay of a step"). The master's stints in the tool
  // (its bookkeeping after a barrier, its samples, its arrival stamp) delay its arrival at the next barrier;
  // under a passive wait policy a thread that goes into the runtime's barrier before the master sleeps and
  // must be woken, several microseconds here. A thread other than the master that arrives first waits for the
  // master as long as the master's tool time in this episode can explain its lateness, and no longer: alone,
  // it would sleep when the master would still be working, so it sleeps then too.
  //
  // The master, having left a barrier at `now`: its bookkeeping (a stint in the tool) begins the episode that
  // leads to its next barrier.
  void master_left_barrier(double now) {
    master_tool_.store(0.0, std::memory_order_relaxed);
    master_in_tool_.store(now, std::memory_order_relaxed);
    master_heading_.store(own(0)->arrivals.load(std::memory_order_relaxed) + 1, std::memory_order_release);
  }
  // The master enters the tool at `now` (an earlier entry not yet left stands) and leaves it at `now`.
  void master_tool_begin(double now) {
    if (master_in_tool_.load(std::memory_order_relaxed) < 0.0) master_in_tool_.store(now, std::memory_order_release);
  }
  void master_tool_end(double now) {
    const double since = master_in_tool_.load(std::memory_order_relaxed);
    if (since < 0.0) return;
    // The sum first, then the flag: a reader that sees the flag cleared sees the sum with the stint in it.
    master_tool_.store(master_tool_.load(std::memory_order_relaxed) + std::max(0.0, now - since), std::memory_order_release);
    master_in_tool_.store(-1.0, std::memory_order_release);
  }
  // The longest any courtesy wait lasts (the master preempted inside the tool, the detector naming the
  // constructs once: a thread then sleeps as it would otherwise); another limit for tests.
  static constexpr double courtesy_limit = 50e-6;
  void set_courtesy_limit(double seconds) { courtesy_limit_.store(seconds, std::memory_order_relaxed); }

  // The rule: a thread that arrived at `arrived` still waits at `now` while now - arrived is less than the
  // master's time in the tool in this episode so far, `spent` seconds in stints it left plus now - `since` in
  // the one it is in (`since` negative: none), and less than `limit`. Exact when the master's stints are at
  // the ends of its episode: it would have arrived by `now` without the tool when now minus its tool time is
  // past its arrival without it, so a wait that ends on this rule ends when, alone, the master would not have
  // been there yet either.
  [[nodiscard]] static bool courtesy_continues(double arrived, double now, double spent, double since, double limit = courtesy_limit) {
    const double waited = now - arrived;
    const double tool = spent + (since >= 0.0 ? std::max(0.0, now - since) : 0.0);
    return waited < tool && waited < limit;
  }

  // How a courtesy wait ended: none began (the master not in this episode, or in a baseline step), the master
  // was there and out of the tool, or the rule or the limit ended it with the master not there (the thread then
  // goes into the runtime's barrier first, where a passive policy puts it to sleep).
  enum class Courtesy : std::uint8_t { None, MasterThere, RanOut };

  // Thread `thread` (not the master), having arrived at a barrier at `now` outside a baseline step, waits for
  // the master to arrive there and leave the tool, as long as courtesy_continues (no wait when the master has
  // not begun this episode or spent no time in the tool in it). Counts its waits in its slot (courtesy()).
  Courtesy wait_for_master(int thread, double now) {
    if (thread <= 0 || thread >= capacity_ || serialize_.load(std::memory_order_relaxed)) return Courtesy::None;
    const Courtesy outcome = courtesy_wait(thread, now);
    if (outcome == Courtesy::None) return outcome;
    Slot& own = slots_[thread];
    own.courtesy_waits.store(own.courtesy_waits.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
    if (outcome == Courtesy::RanOut) own.courtesy_ran_out.store(own.courtesy_ran_out.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
    const double waited = std::max(0.0, runtime::read_clock(CLOCK_MONOTONIC) - now);
    own.courtesy_seconds.store(own.courtesy_seconds.load(std::memory_order_relaxed) + waited, std::memory_order_relaxed);
    return outcome;
  }

  // The courtesy waits of threads 1 .. capacity-1 since the recorder was made (each thread counts its own; read
  // them when the team has stopped, at the report): waits, of them ran out, seconds spent waiting.
  struct CourtesyTotals {
    long waits = 0;
    long ran_out = 0;
    double seconds = 0.0;
  };
  [[nodiscard]] CourtesyTotals courtesy() const {
    CourtesyTotals totals;
    for (int thread = 1; thread < capacity_; ++thread) {
      totals.waits += slots_[thread].courtesy_waits.load(std::memory_order_relaxed);
      totals.ran_out += slots_[thread].courtesy_ran_out.load(std::memory_order_relaxed);
      totals.seconds += slots_[thread].courtesy_seconds.load(std::memory_order_relaxed);
    }
    return totals;
  }

private:
  Courtesy courtesy_wait(int thread, double now) const {
    const Slot& master = slots_[0];
    const Slot& own = slots_[thread];
    const long generation = generation_.load(std::memory_order_acquire);
    const long target = own.arrivals.load(std::memory_order_relaxed);
    const double limit = courtesy_limit_.load(std::memory_order_relaxed);
    for (long spin = 0;; ++spin) {
      if (master.generation.load(std::memory_order_acquire) != generation) return Courtesy::None;
      // not yet in this episode: not the tool's doing
      if (master_heading_.load(std::memory_order_acquire) != target) return Courtesy::None;
      // The arrival first: the master enters the tool before it stamps its arrival (outer_arrive), so a flag
      // read after a new arrival is the flag of that arrival or later; read the other way round, both stores
      // could fall between the loads and a stale cleared flag end the wait. Then the flag before the sum: a
      // cleared flag comes with the sum it was added to (master_tool_end).
      const bool there = master.arrivals.load(std::memory_order_acquire) >= target;
      const double since = master_in_tool_.load(std::memory_order_acquire);
      const double spent = master_tool_.load(std::memory_order_acquire);
      if (since < 0.0 && there) return spin == 0 ? Courtesy::None : Courtesy::MasterThere;  // there, out of the tool
      if ((spin & 15) == 0 && !courtesy_continues(now, runtime::read_clock(CLOCK_MONOTONIC), spent, since, limit)) {
        return spin == 0 ? Courtesy::None : Courtesy::RanOut;
      }
#if defined(__x86_64__) || defined(__i386__)
      __builtin_ia32_pause();
#endif
    }
  }

public:

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
  // `work` (-1 where unknown), and their spins on flags into `spin` when not null (0 where unknown). False when
  // the master has no arrival in this region.
  bool episode(int team, double* work, double* spin = nullptr) const {
    const Slot& master = slots_[0];
    const long index = master.arrivals.load(std::memory_order_relaxed) - 1;
    if (index < 0 || master.generation.load(std::memory_order_relaxed) != generation_.load(std::memory_order_relaxed)) return false;
    for (int thread = 0; thread < team; ++thread) {
      if (spin != nullptr) spin[thread] = 0.0;
      if (thread >= capacity_) {
        work[thread] = -1.0;
        continue;
      }
      const Slot& slot = slots_[thread];
      const bool current = slot.generation.load(std::memory_order_relaxed) == generation_.load(std::memory_order_relaxed) &&
                           slot.index[index & 1].load(std::memory_order_acquire) == index;
      work[thread] = current ? slot.work[index & 1].load(std::memory_order_relaxed) : -1.0;
      if (current && spin != nullptr) spin[thread] = slot.spin[index & 1].load(std::memory_order_relaxed);
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
    std::atomic<double> spin[2] = {0.0, 0.0};  // of the same arrivals: the spin on flags taken out of `work`
    std::atomic<double> arrived_at[2] = {0.0, 0.0};
    std::atomic<long> index[2] = {-1, -1};
    std::atomic<long> tid{0};
    std::atomic<int> cpu{-1};
    std::atomic<std::uint32_t> turn{0};  // bumped at each arrival in a baseline step: the futex its successor sleeps on
    std::atomic<int> sleepers{0};        // threads asleep on `turn`
    std::atomic<long> courtesy_waits{0};     // its courtesy waits (wait_for_master), written by its thread only
    std::atomic<long> courtesy_ran_out{0};   // of them, ended by the rule or the limit with the master not there
    std::atomic<double> courtesy_seconds{0.0};
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
  FailureHook failure_hook_ = nullptr;
  void* failure_context_ = nullptr;
  void on_failure(int thread) const {
    if (failure_hook_ != nullptr) failure_hook_(failure_context_, thread);
  }
  // The master's time in the tool in the episode that leads to barrier master_heading_ (its arrivals + 1 when
  // the episode began; 0: none in this region yet): stints it left, and the start of the one it is in (-1: none).
  std::atomic<double> master_tool_{0.0};
  std::atomic<double> master_in_tool_{-1.0};
  std::atomic<long> master_heading_{0};
  std::atomic<double> courtesy_limit_{courtesy_limit};
};

}  // namespace augur::interpose
