// The simulated program of the self-analysis engine's exact tests (analyzer_test.cpp,
// analyzer_estimate_test.cpp): an iterative program whose iteration time is T(p) = T1 x (f + (1 - f) / p),
// on a simulated clock and simulated threads.
#pragma once

#include <gtest/gtest.h>

#include <utility>
#include <vector>

#include "augur/selfanalysis.hpp"

namespace augur::selfanalysis::simulated {

class SimulatedClock final : public Clock {
public:
  double wall_seconds() override { return now; }
  double process_cpu_seconds() override { return cpu; }
  // Advances the time by `seconds` during which `busy` processors compute.
  void advance(double seconds, int busy) {
    now += seconds;
    cpu += seconds * busy;
  }
  double now = 0.0;
  double cpu = 0.0;
};

class SimulatedThreads final : public ThreadControl {
public:
  explicit SimulatedThreads(int processors) : allocated(processors), active(processors) {}
  int allocated_processors() override { return allocated; }
  void set_active_threads(int threads) override {
    active = threads;
    calls.push_back(threads);
  }
  bool stopped_since_last_call() override {
    const bool was = stopped;
    stopped = false;
    return was;
  }
  int allocated;
  int active;
  bool stopped = false;
  std::vector<int> calls;
};

inline double amdahl_speedup(double f, int p) { return 1.0 / (f + (1.0 - f) / p); }

// An iterative program: per iteration two parallel loops and a sequential part in between.
struct SimulatedProgram {
  double serial_iteration = 0.010;  // T1, seconds
  double f = 0.1;
  SimulatedClock clock;
  SimulatedThreads threads;
  Analyzer analyzer;

  SimulatedProgram(Config config, int processors, int max_processors = 8)
      : threads(processors), analyzer(std::move(config), clock, threads, max_processors) {}

  [[nodiscard]] double iteration_time(int p) const { return serial_iteration * (f + (1.0 - f) / p); }

  void iteration() {
    ASSERT_EQ(analyzer.open_iteration(), Misuse::None);
    const int p = threads.active;
    const double parallel = serial_iteration * (1.0 - f) / p;
    const double sequential = serial_iteration * f;
    ASSERT_EQ(analyzer.init_par(), Misuse::None);
    clock.advance(parallel / 2, p);
    ASSERT_EQ(analyzer.end_par(), Misuse::None);
    clock.advance(sequential, 1);
    ASSERT_EQ(analyzer.init_par(), Misuse::None);
    clock.advance(parallel / 2, p);
    ASSERT_EQ(analyzer.end_par(), Misuse::None);
    ASSERT_EQ(analyzer.close_iteration(), Misuse::None);
  }

  void run(int iterations) {
    for (int i = 0; i < iterations; ++i) iteration();
  }

  [[nodiscard]] const Region& region() const { return *analyzer.current(); }
};

inline Config with_baseline(int processors) {
  Config config;
  config.baseline = {BaselinePolicy::Kind::Fixed, processors};
  return config;
}

}  // namespace augur::selfanalysis::simulated
