// Where a thread's program counter is, sampled by the kernel (docs/self-analysis.md, "Spins in the code,
// sampled"): a software event on the thread's own CPU time (perf_event_open, PERF_COUNT_SW_TASK_CLOCK, user
// space only) writes the interrupted address every `period_ns` of it into a ring buffer this class maps and
// drains. No signal reaches the program (its system calls are never interrupted) and no hardware counter is
// needed. Each sample costs the thread about 18 us on this project's virtual machine (a timer interrupt), so
// 1 ms of CPU time between samples costs it about 1.8%: libaugur_preload samples only when the program's
// code has spin loops (spin_loops.hpp) and only the threads of a measured outer region.
//
// One per thread, opened by that thread; no allocation after open(), no lock.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "interpose/spin_loops.hpp"

namespace augur::interpose {

class PcSampler {
public:
  static constexpr std::uint64_t period_ns = 1000000;  // the thread's CPU time between samples
  static constexpr double period_seconds = 1e-3;

  PcSampler() = default;
  PcSampler(const PcSampler&) = delete;
  PcSampler& operator=(const PcSampler&) = delete;
  ~PcSampler();

  // Starts sampling the calling thread; false with the kernel's reason (perf_event_open refused: a
  // perf_event_paranoid above 2, a container's seccomp filter) when it cannot.
  bool open(std::string& reason);
  [[nodiscard]] bool is_open() const { return fd_ >= 0; }
  // The samples since the last drain that fell in `loops`, and forgets them all.
  long drain(const SpinLoops& loops);

private:
  int fd_ = -1;
  void* map_ = nullptr;
  std::size_t map_size_ = 0;
  std::size_t data_size_ = 0;  // the ring buffer, a power of two pages after the header page
};

// A thread's spin in sampled loops between its departure from a barrier and its arrival at the next: each
// sample in a loop stands for period_seconds of spinning; what a window is too short to hold carries to the
// thread's next window (a 0.7 ms episode of NPB LU holds less than one sample's 1 ms).
// The caller drains its sampler at both ends of the window (the samples at a departure, inside the barrier,
// are dropped).
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
