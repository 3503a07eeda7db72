#include "trace_recorder.hpp"

#include <array>
#include <cinttypes>
#include <cmath>
#include <cstdio>

#include "core/files.hpp"
#include "core/json_text.hpp"

namespace augur::runtime {

struct TraceRecorder::Thread {
  using Chunk = std::array<TraceEvent, chunk_events>;
  std::vector<std::unique_ptr<Chunk>> chunks;  // capacity reserved up front: never moved while read
  std::atomic<std::size_t> count{0};          // events published
  std::array<TraceEvent, max_depth> open{};   // the open slices, outermost first
  std::atomic<std::size_t> depth{0};          // may exceed max_depth: the deeper slices are dropped (atomic: json reads it)
  std::size_t index = 0;                      // the track: tid index + 2 (1 is the phase track)
};

namespace {
std::atomic<std::uint64_t> next_generation{1};

struct ThreadCache {
  std::uint64_t generation = 0;
  void* thread = nullptr;  // TraceRecorder::Thread of that generation; nullptr with a generation: no track
};
// Initial-exec: one instruction to reach it, no call (as libaugur's owned_analyzer, self_analysis.hpp).
constinit thread_local ThreadCache cache __attribute__((tls_model("initial-exec")));
}  // namespace

TraceRecorder::TraceRecorder(std::size_t capacity)
    : capacity_(capacity), generation_(next_generation.fetch_add(1, std::memory_order_relaxed)) {}

TraceRecorder::~TraceRecorder() = default;

// The calling thread's buffer, registered at its first event; nullptr beyond max_threads (or when out of memory).
TraceRecorder::Thread* TraceRecorder::this_thread() {
  if (cache.generation == generation_) return static_cast<Thread*>(cache.thread);
  Thread* made = nullptr;
  try {
    std::lock_guard lock(mutex_);
    if (threads_.size() < max_threads) {
      auto thread = std::make_unique<Thread>();
      thread->chunks.reserve((capacity_ + chunk_events - 1) / chunk_events);
      thread->index = threads_.size();
      made = thread.get();
      threads_.push_back(std::move(thread));
    }
  } catch (...) {
    made = nullptr;
  }
  cache = {generation_, made};
  return made;
}

void TraceRecorder::append(Thread& thread, const TraceEvent& event) {
  const std::size_t count = thread.count.load(std::memory_order_relaxed);
  const std::size_t chunk = count / chunk_events;
  if (count >= capacity_) {
    dropped_.fetch_add(1, std::memory_order_relaxed);
    return;
  }
  if (chunk == thread.chunks.size()) {  // a new chunk: the one allocation, every chunk_events events
    try {
      thread.chunks.push_back(std::make_unique_for_overwrite<Thread::Chunk>());
    } catch (...) {
      dropped_.fetch_add(1, std::memory_order_relaxed);
      return;
    }
  }
  (*thread.chunks[chunk])[count % chunk_events] = event;
  thread.count.store(count + 1, std::memory_order_release);
}

void TraceRecorder::begin(const char* name, const char* category, double time, std::uint64_t number, TraceNumber style,
                          int threads) {
  Thread* thread = this_thread();
  if (thread == nullptr) {
    dropped_.fetch_add(1, std::memory_order_relaxed);
    return;
  }
  const std::size_t depth = thread->depth.load(std::memory_order_relaxed);
  if (depth < max_depth) thread->open[depth] = {time, time, name, category, number, threads, style, 'X'};
  thread->depth.store(depth + 1, std::memory_order_relaxed);
}

void TraceRecorder::end(double time) {
  Thread* thread = this_thread();
  if (thread == nullptr) return;  // counted at its begin
  const std::size_t depth = thread->depth.load(std::memory_order_relaxed);
  if (depth == 0) return;  // an end without a begin
  thread->depth.store(depth - 1, std::memory_order_relaxed);
  if (depth - 1 >= max_depth) {
    dropped_.fetch_add(1, std::memory_order_relaxed);
    return;
  }
  TraceEvent event = thread->open[depth - 1];
  event.end = time;
  append(*thread, event);
}

void TraceRecorder::slice(const char* name, const char* category, double start, double end, std::uint64_t number,
                          TraceNumber style, int threads) {
  Thread* thread = this_thread();
  if (thread == nullptr) {
    dropped_.fetch_add(1, std::memory_order_relaxed);
    return;
  }
  append(*thread, {start, end, name, category, number, threads, style, 'X'});
}

void TraceRecorder::phase(const char* name, double time) {
  if (name == open_phase_) return;
  Thread* thread = this_thread();
  if (thread == nullptr) {
    dropped_.fetch_add(1, std::memory_order_relaxed);
    return;
  }
  if (open_phase_ != nullptr) append(*thread, {phase_start_, time, open_phase_, "phase", 0, 0, TraceNumber::None, 'P'});
  open_phase_ = name;
  phase_start_ = time;
}

void TraceRecorder::counter(const char* name, double time, int value) {
  Thread* thread = this_thread();
  if (thread == nullptr) {
    dropped_.fetch_add(1, std::memory_order_relaxed);
    return;
  }
  append(*thread, {time, time, name, "counter", 0, value, TraceNumber::None, 'C'});
}

const char* TraceRecorder::intern(const std::string& text) {
  try {
    std::lock_guard lock(mutex_);
    return interned_.emplace_back(text).c_str();
  } catch (...) {
    return "?";
  }
}

std::uint64_t TraceRecorder::recorded() const {
  std::uint64_t total = 0;
  for (const auto& thread : threads_) total += thread->count.load(std::memory_order_acquire);
  return total;
}

std::uint64_t TraceRecorder::dropped() const { return dropped_.load(std::memory_order_relaxed); }

namespace {

std::string name_of(const TraceEvent& event) {
  if (event.style == TraceNumber::None) return event.name;
  char number[24];
  std::snprintf(number, sizeof number, event.style == TraceNumber::Hex ? "0x%" PRIx64 : "%" PRIu64, event.number);
  return std::string(event.name) + " " + number;
}

// A number of microseconds, to the nanosecond (what Perfetto keeps).
std::string microseconds(double seconds) {
  char text[40];
  std::snprintf(text, sizeof text, "%.3f", std::round(seconds * 1e9) / 1e3);
  return text;
}

// One event as JSON text (names through core::json_quoted: invalid UTF-8 replaced).
void append_event(std::string& out, const TraceEvent& event, double origin, long pid, std::size_t tid) {
  out += out.back() == '[' ? "\n" : ",\n";
  const std::string ids = ",\"pid\":" + std::to_string(pid) + ",\"tid\":" + std::to_string(tid);
  if (event.kind == 'C') {
    out += "{\"name\":" + core::json_quoted(event.name) + ",\"ph\":\"C\"" + ids + ",\"ts\":" + microseconds(event.start - origin) +
           ",\"args\":{" + core::json_quoted(event.name) + ":" + std::to_string(event.value) + "}}";
    return;
  }
  out += "{\"name\":" + core::json_quoted(name_of(event)) + ",\"cat\":" + core::json_quoted(event.category) + ",\"ph\":\"X\"" + ids +
         ",\"ts\":" + microseconds(event.start - origin) +
         ",\"dur\":" + microseconds(std::max(0.0, event.end - event.start)) +
         (event.value > 0 ? ",\"args\":{\"threads\":" + std::to_string(event.value) + "}" : std::string()) + "}";
}

void append_name(std::string& out, const char* what, long pid, std::size_t tid, const std::string& name) {
  out += out.back() == '[' ? "\n" : ",\n";
  out += std::string("{\"name\":\"") + what + "\",\"ph\":\"M\",\"pid\":" + std::to_string(pid) + ",\"tid\":" + std::to_string(tid) +
         ",\"args\":{\"name\":" + core::json_quoted(name) + "}}";
}

}  // namespace

std::string TraceRecorder::json(double origin, double now, long pid, const std::string& program) {
  Thread* writer = this_thread();
  if (writer != nullptr) {
    phase(nullptr, now);
    while (writer->depth.load(std::memory_order_relaxed) > 0) end(now);
  }
  std::lock_guard lock(mutex_);
  std::uint64_t unclosed = 0;
  std::string out = "{\"traceEvents\":[";
  append_name(out, "process_name", pid, 0, program);
  append_name(out, "thread_name", pid, 1, "phase (baseline / allocated)");
  std::uint64_t written = 0;
  for (const auto& thread : threads_) {
    const std::size_t tid = thread->index + 2;
    append_name(out, "thread_name", pid, tid, thread->index == 0 ? program + " (thread 0)" : "thread " + std::to_string(thread->index));
    const std::size_t count = thread->count.load(std::memory_order_acquire);
    for (std::size_t at = 0; at < count; ++at) {
      const TraceEvent& event = (*thread->chunks[at / chunk_events])[at % chunk_events];
      append_event(out, event, origin, pid, event.kind == 'P' ? 1 : tid);
    }
    written += count;
    if (thread.get() != writer) unclosed += std::min(thread->depth.load(std::memory_order_relaxed), max_depth);
  }
  const std::uint64_t dropped = dropped_.load(std::memory_order_relaxed) + unclosed;
  out += "\n],\"displayTimeUnit\":\"ms\",\"metadata\":{\"augur_trace\":{\"events\":" + std::to_string(written) +
         ",\"dropped\":" + std::to_string(dropped) + ",\"capacity_per_thread\":" + std::to_string(capacity_) +
         ",\"max_threads\":" + std::to_string(max_threads) + ",\"threads\":" + std::to_string(threads_.size()) + "}}}\n";
  return out;
}

void write_trace_file(TraceRecorder& recorder, const std::string& path, double origin, double now, long pid,
                      const std::string& program) {
  core::write_file_atomically(path, recorder.json(origin, now, pid, program));
}

}  // namespace augur::runtime
