// The self-analysis engine's clock on this system: CLOCK_MONOTONIC for wall time and the process CPU
// clock for the self-tuning' speedup, getrusage for the noise verdict's involuntary context switches.
// Header-only; shared by libaugur and libaugur_preload.
#pragma once

#include <time.h>

#include "augur/selfanalysis.hpp"
#include "machine_context.hpp"

namespace augur::runtime {

inline double read_clock(clockid_t clock) {
  timespec now{};
  clock_gettime(clock, &now);
  return static_cast<double>(now.tv_sec) + static_cast<double>(now.tv_nsec) * 1e-9;
}

class SystemClock final : public selfanalysis::Clock {
public:
  double wall_seconds() override { return read_clock(CLOCK_MONOTONIC); }
  double process_cpu_seconds() override { return read_clock(CLOCK_PROCESS_CPUTIME_ID); }
  // Of the calling thread, the owner of the measurement, which works in every window: the process's
  // count would add the idle threads that spin (and are preempted) while the baseline runs on fewer.
  long involuntary_switches() override { return involuntary_switches_of(RUSAGE_THREAD); }
};

}  // namespace augur::runtime
