// The discrete-event engine shared by augur's simulators (docs/sim.md, "The engine"): a clock and an event
// queue ordered by time (ties in scheduling order, so runs are reproducible), independent seeded random
// streams, statistics over replications (Welford, Student-t intervals), replications run in parallel over
// threads with results independent of the thread count, and a Chrome trace-event timeline writer.
// It depends on core only; a simulator is a library in src/sim/<model>/ built on it.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <queue>
#include <random>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "augur/core/stats.hpp"

namespace augur::sim {

// One random stream: the same (seed, stream) gives the same numbers on every run and machine. A
// replication's streams derive from (seed, replication) only, which is what makes its results independent
// of the thread that runs it.
class RandomStream {
public:
  RandomStream(std::uint64_t seed, std::uint64_t stream);
  double uniform();                  // in (0, 1): unit(the generator's next 64 bits)
  // The generator's next draws.size() outputs, in order (one call for many: for a caller that converts them
  // itself, e.g. to a range of integers, the same values as from unit() of each).
  void bits(std::span<std::uint64_t> draws);
  // The value in (0, 1) that uniform() makes of 64 random bits: their top 53, shifted off zero.
  [[nodiscard]] static double unit(std::uint64_t bits) {
    return (static_cast<double>(bits >> 11) + 0.5) * (1.0 / 9007199254740992.0);
  }
  double exponential(double mean);   // mean 0 gives 0

private:
  std::mt19937_64 generator_;
};

class Engine {
public:
  using Action = std::function<void()>;

  [[nodiscard]] double now() const { return now_; }
  // Runs `action` at time now() + delay (a negative delay counts as 0).
  void schedule(double delay, Action action);
  // Runs events until none is left; returns the number run.
  std::uint64_t run();
  [[nodiscard]] std::uint64_t events_run() const { return events_; }

private:
  // The queue holds small keys, ordered by (time, order) in a binary heap; the actions wait in slots of
  // their own (reused), so that reordering the heap never moves an action.
  struct Key {
    double time;
    std::uint64_t order;
    std::size_t slot;
  };
  struct Later {
    bool operator()(const Key& a, const Key& b) const {
      return a.time > b.time || (a.time == b.time && a.order > b.order);
    }
  };
  std::vector<Key> heap_;
  std::vector<Action> actions_;
  std::vector<std::size_t> free_slots_;
  double now_ = 0.0;
  std::uint64_t order_ = 0;
  std::uint64_t events_ = 0;
};

// ---- statistics over replications ----

// A quantity over the replications: its mean, its sample standard deviation, the half-width of the 95%
// confidence interval of the mean (Student's t; 0 with fewer than 2 values), and its extremes.
struct Statistic {
  long count = 0;
  double mean = 0.0;
  double deviation = 0.0;
  double half_width = 0.0;
  double minimum = 0.0;
  double maximum = 0.0;

  // The mean with its spread and interval, as the tools print it (core::estimate_json).
  [[nodiscard]] core::Estimate estimate() const { return {mean, deviation, half_width}; }
};

// Running mean and variance by Welford's method (one pass, no cancellation), with the minimum and maximum.
// Values added in the same order give the same bits, so combine replications in replication order.
class Accumulator {
public:
  void add(double value);
  [[nodiscard]] long count() const { return count_; }
  [[nodiscard]] double mean() const { return mean_; }
  // The sample variance (divided by count − 1); 0 with fewer than 2 values.
  [[nodiscard]] double variance() const;
  [[nodiscard]] double minimum() const { return minimum_; }
  [[nodiscard]] double maximum() const { return maximum_; }
  // The summary, with the confidence interval of the mean at `level`.
  [[nodiscard]] Statistic statistic(double level = 0.95) const;

private:
  long count_ = 0;
  double mean_ = 0.0;
  double square_ = 0.0;  // sum of squared deviations from the running mean
  double minimum_ = 0.0;
  double maximum_ = 0.0;
};

// ---- replications in parallel ----

// The threads to run `replications` on: `requested`, or the hardware concurrency when it is 0 or less,
// capped by the replications; at least 1.
[[nodiscard]] int replication_threads(int requested, int replications);

// Runs produce(index, slot) for every index in [0, count) on `threads` threads (replication_threads) and
// consume(index, slot) on the calling thread in index order, each after its produce; slot = index % window
// names the buffer the two share, and at most `window` indices are produced ahead of the last consumed.
// The first exception thrown by either stops the run and is rethrown here, after every thread has ended.
// Type-erased core of run_replications; simulators call that.
void run_in_order(int count, int threads, int window, const std::function<void(int index, int slot)>& produce,
                  const std::function<void(int index, int slot)>& consume);

// Runs `count` replications over `threads` threads and hands each result to `combine` on the calling
// thread in replication order: replicate(index) -> Result (run on any thread; it must depend on `index`
// only, e.g. its random streams on (seed, index)), combine(index, Result&&). Combining in replication
// order keeps every sum in the same order, so the results are the same bits for any thread count.
template <typename Replicate, typename Combine>
void run_replications(int count, int threads, Replicate&& replicate, Combine&& combine) {
  using Result = std::decay_t<std::invoke_result_t<Replicate&, int>>;
  const int used = replication_threads(threads, count);
  if (used <= 1) {  // no threads, no buffer: the serial loop
    for (int index = 0; index < count; ++index) combine(index, replicate(index));
    return;
  }
  const int window = 4 * used;  // results waiting for their turn: bounded, so memory does not grow with count
  std::vector<std::optional<Result>> slots(static_cast<std::size_t>(window));
  run_in_order(
      count, used, window,
      [&](int index, int slot) { slots[static_cast<std::size_t>(slot)].emplace(replicate(index)); },
      [&](int index, int slot) {
        auto& held = slots[static_cast<std::size_t>(slot)];
        combine(index, std::move(*held));
        held.reset();
      });
}

// ---- timelines ----

// A Chrome trace-event timeline (JSON Object Format; opens in Perfetto UI and chrome://tracing): named
// rows (threads of process 1), spans ("X" events) and instants ("i" events) on them, and flows (an arrow
// from an "s" event to the "f" event of the same id: a message from its sender to its receiver), written in
// the order they were added. Times are in the model's unit and shown as seconds (1 unit = 10^6 µs).
class Timeline {
public:
  // Names row `row` (a "thread_name" metadata event).
  void name_row(int row, const std::string& name);
  // A slice from `start` to `end` on `row`, named `name`, in category `category`.
  void span(int row, const std::string& name, const std::string& category, double start, double end);
  // A point event at `time` on `row` (thread-scoped).
  void instant(int row, const std::string& name, const std::string& category, double time);
  // The start ("s") and the end ("f") of flow `id` at `time` on `row`; the viewer draws an arrow from the
  // slice that encloses the start to the slice that begins at or after the end on its row.
  void flow_start(int row, const std::string& name, const std::string& category, std::uint64_t id, double time);
  void flow_end(int row, const std::string& name, const std::string& category, std::uint64_t id, double time);
  [[nodiscard]] std::size_t size() const { return events_.size(); }
  // The whole file: {"traceEvents": [...], "displayTimeUnit": "ms"} on one line, then a newline (the text
  // a TimelineWriter given the same events writes).
  [[nodiscard]] std::string json() const;

private:
  struct Event {
    char phase;  // 'M', 'X', 'i', 's' or 'f'
    int row;
    std::string name;
    std::string category;  // M: the row's name
    double start;
    double end;
    std::uint64_t id = 0;  // s, f: the flow
  };
  std::vector<Event> events_;
};

// The same file as Timeline::json(), written as it goes: each event is handed to `sink` as text when it is
// added (the head at construction, the tail by finish()), so that memory does not grow with the number of
// events (augur sim --trace streams the first replication into a file this way). Until finish() the text
// is not a whole JSON document.
class TimelineWriter {
public:
  using Sink = std::function<void(std::string_view)>;
  explicit TimelineWriter(Sink sink);
  void name_row(int row, const std::string& name);
  void span(int row, const std::string& name, const std::string& category, double start, double end);
  void instant(int row, const std::string& name, const std::string& category, double time);
  void flow_start(int row, const std::string& name, const std::string& category, std::uint64_t id, double time);
  void flow_end(int row, const std::string& name, const std::string& category, std::uint64_t id, double time);
  // Writes the end of the file; later calls do nothing.
  void finish();
  [[nodiscard]] std::size_t size() const { return count_; }

private:
  void add(const std::string& event);
  void flow(char phase, int row, const std::string& name, const std::string& category, std::uint64_t id, double time);
  Sink sink_;
  std::size_t count_ = 0;
  bool finished_ = false;
};

}  // namespace augur::sim
