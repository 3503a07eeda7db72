// A thread's spin on a flag between two barriers (docs/self-analysis.md, "Spins on flushes"). A pipelined
// sweep (NPB LU's blts and buts) makes a thread wait for a row of another thread with
//   while (flag[j - 1] == 0) { #pragma omp flush }
// clang compiles the flush to a call of libomp's __kmpc_flush, which reports OMPT's flush callback with the
// call site in the program; gcc compiles it to an inline fence, which no runtime sees. A run of flushes from
// one call site, each within `gap_limit` of the one before, is such a spin: the time between them is waiting,
// not work, and the one-run analysis takes it out of the thread's work (TeamRecorder::arrive).
//
// One per thread (thread_local in the OMPT tool); no allocation, no lock.
#pragma once

namespace augur::interpose {

class FlushSpin {
public:
  // Consecutive flushes of a spin loop come every 0.05-0.2 us (a fence, the callback and its clock read); a
  // loop that does real work between its flushes rarely comes back within a microsecond.
  static constexpr double gap_limit = 1e-6;

  // A flush from call site `site` at `now` (seconds).
  void flush(const void* site, double now) {
    const double gap = now - last_;
    if (site == site_ && last_ >= 0.0 && gap >= 0.0 && gap <= gap_limit) seconds_ += gap;
    site_ = site;
    last_ = now;
  }
  // The spin since the last take(), and a new count (at the thread's arrival at a barrier).
  double take() {
    const double seconds = seconds_;
    seconds_ = 0.0;
    site_ = nullptr;
    last_ = -1.0;
    return seconds;
  }

private:
  const void* site_ = nullptr;
  double last_ = -1.0;
  double seconds_ = 0.0;
};

}  // namespace augur::interpose
