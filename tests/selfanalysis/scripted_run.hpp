// A scripted run of the self-analyzer for the noise verdict's tests: a clock whose iterations are slowed in chosen
// baseline windows (or late on 2 processors), T(1) = 10 ms and T(2) = 6 ms.
#pragma once

#include <set>
#include <vector>

#include <gtest/gtest.h>

#include "augur/selfanalysis.hpp"
#include "augur/selfanalysis_noise.hpp"

namespace augur::selfanalysis::test {

class ScriptedClock final : public Clock {
public:
  double wall_seconds() override { return now; }
  double process_cpu_seconds() override { return now; }
  long involuntary_switches() override { return switches; }
  double now = 0.0;
  long switches = 0;
};

class ScriptedThreads final : public ThreadControl {
public:
  int allocated_processors() override { return 2; }
  void set_active_threads(int threads) override {
    active = threads;
    calls.push_back(threads);
  }
  bool stopped_since_last_call() override { return false; }
  int active = 2;
  std::vector<int> calls;
};

// T(1) = 10 ms, T(2) = 6 ms (f = 0.2, S(2) = 10 / 6), with two parallel loops per iteration.
struct ScriptedRun {
  ScriptedClock clock;
  ScriptedThreads threads;
  Analyzer analyzer;
  std::set<long> slowed_baseline_windows;     // indices (0 = the first) of the baseline windows slowed by 30%
  std::set<long> preempted_baseline_windows;  // indices of the baseline windows whose iterations are preempted
  double window_noise = 0.0;                  // relative noise added to every other iteration on 2 processors
  long late_from = -1;                        // from this iteration on 2 processors (1 = the first) on, ...
  double late_scale = 1.0;                    // ... each is this much slower (the last windows differ)
  long p_iterations = 0;

  explicit ScriptedRun(Config config) : analyzer(config, clock, threads, 2) {}

  static Config config(int baseline_every) {
    Config c;
    c.baseline = {BaselinePolicy::Kind::Fixed, 1};
    c.baseline_every = baseline_every;
    c.self_tuning = false;
    return c;
  }

  void iteration() {
    analyzer.open_iteration();
    const Region& region = *analyzer.current();
    const bool on_baseline = threads.active == 1;
    const long window = region.baseline_windows.total;  // the baseline window in progress
    double scale = 1.0;
    if (on_baseline && slowed_baseline_windows.count(window) != 0) scale = 1.3;
    if (on_baseline && preempted_baseline_windows.count(window) != 0) clock.switches += 5;
    if (!on_baseline && ++p_iterations % 2 == 0) scale += window_noise;
    if (!on_baseline && late_from > 0 && p_iterations >= late_from) scale *= late_scale;
    const double parallel = (threads.active == 1 ? 0.008 : 0.004) * scale;
    analyzer.init_par();
    clock.now += parallel / 2;
    analyzer.end_par();
    clock.now += 0.002 * scale;
    analyzer.init_par();
    clock.now += parallel / 2;
    analyzer.end_par();
    analyzer.close_iteration();
  }

  // Runs until `windows` baseline windows are complete.
  void run_until_baseline_windows(long windows) {
    for (int guard = 0; analyzer.current() == nullptr || analyzer.current()->baseline_windows.total < windows; ++guard) {
      ASSERT_LT(guard, 10000);
      iteration();
    }
  }
};

inline MachineContext quiet_machine() {
  MachineContext machine;
  machine.known = true;
  machine.available_processors = 2;
  machine.load_average_start = 0.1;
  machine.load_average_end = 1.9;
  machine.steal_fraction = 0.0;
  machine.wait_policy = "passive";
  return machine;
}

}  // namespace augur::selfanalysis::test
