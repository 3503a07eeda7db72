#include "augur/sim/engine.hpp"

#include <algorithm>
#include <cmath>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <nlohmann/json.hpp>
#include <thread>
#include <utility>

#include "core/json_text.hpp"

namespace augur::sim {

RandomStream::RandomStream(std::uint64_t seed, std::uint64_t stream) {
  std::seed_seq sequence{static_cast<std::uint32_t>(seed), static_cast<std::uint32_t>(seed >> 32),
                         static_cast<std::uint32_t>(stream), static_cast<std::uint32_t>(stream >> 32), 0x61756775u};
  generator_.seed(sequence);
}

double RandomStream::uniform() { return unit(generator_()); }

void RandomStream::bits(std::span<std::uint64_t> draws) {
  for (std::uint64_t& draw : draws) draw = generator_();
}

double RandomStream::exponential(double mean) { return mean <= 0.0 ? 0.0 : -mean * std::log(uniform()); }

void Engine::schedule(double delay, Action action) {
  std::size_t slot = actions_.size();
  if (free_slots_.empty()) {
    actions_.push_back(std::move(action));
  } else {
    slot = free_slots_.back();
    free_slots_.pop_back();
    actions_[slot] = std::move(action);
  }
  heap_.push_back(Key{now_ + (delay > 0.0 ? delay : 0.0), order_++, slot});
  std::push_heap(heap_.begin(), heap_.end(), Later{});
}

std::uint64_t Engine::run() {
  std::uint64_t count = 0;
  while (!heap_.empty()) {
    std::pop_heap(heap_.begin(), heap_.end(), Later{});
    const Key key = heap_.back();
    heap_.pop_back();
    now_ = key.time;
    Action action = std::move(actions_[key.slot]);  // the slot is free before the action schedules more
    free_slots_.push_back(key.slot);
    action();
    ++count;
  }
  events_ += count;
  return count;
}

// ---- statistics ----

void Accumulator::add(double value) {
  minimum_ = count_ == 0 ? value : std::min(minimum_, value);
  maximum_ = count_ == 0 ? value : std::max(maximum_, value);
  ++count_;
  const double delta = value - mean_;
  mean_ += delta / static_cast<double>(count_);
  square_ += delta * (value - mean_);
}

double Accumulator::variance() const { return count_ > 1 ? square_ / static_cast<double>(count_ - 1) : 0.0; }

Statistic Accumulator::statistic(double level) const {
  Statistic result;
  result.count = count_;
  result.mean = mean_;
  result.deviation = std::sqrt(variance());
  result.half_width = core::mean_half_width(result.deviation, count_, level);
  result.minimum = minimum_;
  result.maximum = maximum_;
  return result;
}

// ---- replications in parallel ----

int replication_threads(int requested, int replications) {
  int threads = requested > 0 ? requested : static_cast<int>(std::thread::hardware_concurrency());
  return std::max(1, std::min(threads, replications));
}

void run_in_order(int count, int threads, int window, const std::function<void(int, int)>& produce,
                  const std::function<void(int, int)>& consume) {
  window = std::max(window, 1);
  threads = std::max(threads, 1);  // at least one worker, or nothing would ever be produced
  std::mutex mutex;
  std::condition_variable changed;
  std::vector<char> ready(static_cast<std::size_t>(window), 0);
  int next = 0;      // the next index to produce
  int consumed = 0;  // indices consumed so far
  std::exception_ptr failure;

  const auto fail = [&](std::exception_ptr error) {
    const std::lock_guard<std::mutex> lock(mutex);
    if (!failure) failure = std::move(error);
    changed.notify_all();
  };
  const auto work = [&] {
    for (;;) {
      int index = 0;
      {
        std::unique_lock<std::mutex> lock(mutex);
        // An index may be produced once its slot's previous user (index - window) has been consumed.
        changed.wait(lock, [&] { return failure || next >= count || next < consumed + window; });
        if (failure || next >= count) return;
        index = next++;
      }
      try {
        produce(index, index % window);
      } catch (...) {
        fail(std::current_exception());
        return;
      }
      const std::lock_guard<std::mutex> lock(mutex);
      ready[static_cast<std::size_t>(index % window)] = 1;
      changed.notify_all();
    }
  };

  std::vector<std::thread> workers;
  workers.reserve(static_cast<std::size_t>(threads));
  try {
    for (int thread = 0; thread < threads; ++thread) workers.emplace_back(work);
  } catch (...) {  // a thread could not start: stop the others, then report
    fail(std::current_exception());
  }
  // The calling thread consumes, in index order, while the workers produce.
  while (true) {
    int index = 0;
    {
      std::unique_lock<std::mutex> lock(mutex);
      changed.wait(lock, [&] { return failure || consumed >= count || ready[static_cast<std::size_t>(consumed % window)]; });
      if (failure || consumed >= count) break;
      index = consumed;
    }
    try {
      consume(index, index % window);
    } catch (...) {
      fail(std::current_exception());
      break;
    }
    const std::lock_guard<std::mutex> lock(mutex);
    ready[static_cast<std::size_t>(index % window)] = 0;
    ++consumed;
    changed.notify_all();
  }
  for (std::thread& worker : workers) worker.join();
  if (failure) std::rethrow_exception(failure);
}

// ---- timelines ----

void Timeline::name_row(int row, const std::string& name) { events_.push_back({'M', row, "thread_name", name, 0.0, 0.0}); }

void Timeline::span(int row, const std::string& name, const std::string& category, double start, double end) {
  events_.push_back({'X', row, name, category, start, end});
}

void Timeline::instant(int row, const std::string& name, const std::string& category, double time) {
  events_.push_back({'i', row, name, category, time, time});
}

void Timeline::flow_start(int row, const std::string& name, const std::string& category, std::uint64_t id, double time) {
  events_.push_back({'s', row, name, category, time, time, id});
}

void Timeline::flow_end(int row, const std::string& name, const std::string& category, std::uint64_t id, double time) {
  events_.push_back({'f', row, name, category, time, time, id});
}

std::string Timeline::json() const {
  std::string text;
  TimelineWriter writer([&text](std::string_view piece) { text += piece; });
  for (const Event& event : events_) {
    if (event.phase == 'M') {
      writer.name_row(event.row, event.category);
    } else if (event.phase == 'X') {
      writer.span(event.row, event.name, event.category, event.start, event.end);
    } else if (event.phase == 's') {
      writer.flow_start(event.row, event.name, event.category, event.id, event.start);
    } else if (event.phase == 'f') {
      writer.flow_end(event.row, event.name, event.category, event.id, event.start);
    } else {
      writer.instant(event.row, event.name, event.category, event.start);
    }
  }
  writer.finish();
  return text;
}

// The viewer reads microseconds; a model time unit is shown as one second.
namespace {
constexpr double microseconds = 1e6;

std::string text_of(const nlohmann::ordered_json& event) { return core::json_text(event); }
}  // namespace

TimelineWriter::TimelineWriter(Sink sink) : sink_(std::move(sink)) { sink_("{\"traceEvents\":["); }

void TimelineWriter::add(const std::string& event) {
  if (finished_) return;
  sink_(count_++ == 0 ? "" : ",");
  sink_(event);
}

void TimelineWriter::name_row(int row, const std::string& name) {
  const nlohmann::ordered_json event = {{"name", "thread_name"}, {"ph", "M"}, {"pid", 1}, {"tid", row}, {"args", {{"name", name}}}};
  add(text_of(event));
}

// The events are built key by key: an initializer list of pairs costs nlohmann several copies of each
// value (a span took some 23 000 instructions that way).
namespace {
nlohmann::ordered_json named_event(const std::string& name, const std::string& category, const char* phase) {
  nlohmann::ordered_json event = nlohmann::ordered_json::object();
  event["name"] = name;
  event["cat"] = category;
  event["ph"] = phase;
  return event;
}
}  // namespace

void TimelineWriter::span(int row, const std::string& name, const std::string& category, double start, double end) {
  nlohmann::ordered_json event = named_event(name, category, "X");
  event["pid"] = 1;
  event["tid"] = row;
  event["ts"] = start * microseconds;
  event["dur"] = (end - start) * microseconds;
  add(text_of(event));
}

void TimelineWriter::instant(int row, const std::string& name, const std::string& category, double time) {
  nlohmann::ordered_json event = named_event(name, category, "i");
  event["s"] = "t";
  event["pid"] = 1;
  event["tid"] = row;
  event["ts"] = time * microseconds;
  add(text_of(event));
}

void TimelineWriter::flow_start(int row, const std::string& name, const std::string& category, std::uint64_t id, double time) {
  flow('s', row, name, category, id, time);
}

// The end binds to the next slice that begins on its row at or after `time` (no "bp": "e").
void TimelineWriter::flow_end(int row, const std::string& name, const std::string& category, std::uint64_t id, double time) {
  flow('f', row, name, category, id, time);
}

void TimelineWriter::flow(char phase, int row, const std::string& name, const std::string& category, std::uint64_t id, double time) {
  const char phases[2] = {phase, '\0'};
  nlohmann::ordered_json event = named_event(name, category, phases);
  event["id"] = id;
  event["pid"] = 1;
  event["tid"] = row;
  event["ts"] = time * microseconds;
  add(text_of(event));
}

void TimelineWriter::finish() {
  if (finished_) return;
  finished_ = true;
  sink_("],\"displayTimeUnit\":\"ms\"}\n");
}

}  // namespace augur::sim
