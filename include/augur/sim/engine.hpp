// The discrete-event engine shared by augur's simulators: a clock, an event queue ordered by time
// (ties in scheduling order, so runs are reproducible) and independent seeded random streams.
#pragma once

#include <cstdint>
#include <functional>
#include <queue>
#include <random>
#include <vector>

namespace augur::sim {

// One random stream: the same (seed, stream) gives the same numbers on every run and machine.
class RandomStream {
public:
  RandomStream(std::uint64_t seed, std::uint64_t stream);
  double uniform();                  // in (0, 1)
  double exponential(double mean);   // mean 0 gives 0

private:
  std::mt19937_64 generator_;
};

class Engine {
public:
  using Action = std::function<void()>;

  [[nodiscard]] double now() const { return now_; }
  // Runs `action` at time now() + delay (delay >= 0).
  void schedule(double delay, Action action);
  // Runs events until none is left; returns the number run.
  std::uint64_t run();
  [[nodiscard]] std::uint64_t events_run() const { return events_; }

private:
  struct Event {
    double time;
    std::uint64_t order;
    Action action;
  };
  struct Later {
    bool operator()(const Event& a, const Event& b) const {
      return a.time > b.time || (a.time == b.time && a.order > b.order);
    }
  };
  std::priority_queue<Event, std::vector<Event>, Later> queue_;
  double now_ = 0.0;
  std::uint64_t order_ = 0;
  std::uint64_t events_ = 0;
};

}  // namespace augur::sim
