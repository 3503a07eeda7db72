// Where a thread's program counter is, sampled by the kernel (docs/self-analysis.md, "Spins in the code,
// sampled"): a software event on the thread's own CPU time (perf_event_open, PERF_COUNT_SW_TASK_CLOCK, user
// space only) writes the interrupted address every `period_ns` of it into a ring buffer this class maps and
// drains. No signal reaches the program (its system calls are never interrupted), no hardware counter is
// needed, and no file descriptor stays open (the mapping keeps the event alive; unmapping ends it). Each
// sample costs the thread a timer interrupt, about 18 us on this project's virtual machine: +1.8% of its CPU
// time at 1 ms between samples. libaugur_preload samples only when the program's code has spin loops
// (spin_loops.hpp), a thread from its first arrival at a barrier of a top-level parallel region on, for as long
// as it lives: it costs only while it runs (a pool thread asleep between regions is not sampled), but the
// master's serial code between and after the regions is sampled too.
//
// One per thread, opened by that thread; no allocation, no lock.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "interpose/spin_loops.hpp"

namespace augur::interpose {

// The records of a ring buffer of `size` bytes (a power of two) from `tail` to `head` (the kernel's running
// byte counts): the samples whose address falls in `loops`, and the samples recorded and lost
// (PERF_RECORD_LOST: the buffer was full). Stops at a record shorter than its header.
struct RingCount {
  long in_loops = 0;
  long recorded = 0;
  long lost = 0;
};
[[nodiscard]] RingCount count_ring(const unsigned char* data, std::size_t size, std::uint64_t tail, std::uint64_t head,
                                   const SpinLoops& loops);

class PcSampler {
public:
  static constexpr std::uint64_t period_ns = 1000000;  // the thread's CPU time between samples
  static constexpr double period_seconds = 1e-3;

  PcSampler() = default;
  PcSampler(const PcSampler&) = delete;
  PcSampler& operator=(const PcSampler&) = delete;
  ~PcSampler() { close(); }

  // Starts sampling the calling thread; false with the kernel's reason (perf_event_open refused: a
  // perf_event_paranoid above 2, a container's seccomp filter) when it cannot. Never throws.
  bool open(std::string* reason = nullptr) noexcept;
  void close() noexcept;
  [[nodiscard]] bool is_open() const { return map_ != nullptr; }
  // The samples since the last drain that fell in `loops`, the lost ones counted in the same proportion as
  // the recorded ones, and forgets them all. In a child process after fork() (the mapping is the parent
  // thread's), the sampler closes and returns 0.
  long drain(const SpinLoops& loops) noexcept;

private:
  void* map_ = nullptr;
  std::size_t map_size_ = 0;
  std::size_t data_size_ = 0;  // the ring after the header page, a power of two pages
  unsigned long fork_generation_ = 0;  // fork_generation() when opened
};

// Incremented in every child at fork() (pthread_atfork, registered by the first open()).
unsigned long fork_generation() noexcept;

// A thread's spin in sampled loops between its departure from a barrier and its arrival at the next: each
// sample in a loop stands for period_seconds of spinning; what a window is too short to hold carries to the
// thread's next window (a 0.7 ms episode of NPB LU holds less than one sample's 1 ms). The caller drains its
// sampler at both ends of the window (the samples at a departure, inside the barrier, are dropped).
class SampledSpin {
public:
  // At an arrival `window` seconds after the departure, `samples` of the window in spin loops: the spin to
  // take out of the window's work.
  double arrive(long samples, double window) {
    credit_ += static_cast<double>(samples) * PcSampler::period_seconds;
    const double spin = window > 0.0 ? (credit_ < window ? credit_ : window) : 0.0;
    credit_ -= spin;
    return spin;
  }
  [[nodiscard]] double credit() const { return credit_; }

private:
  double credit_ = 0.0;
};

}  // namespace augur::interpose
