// The timeline of a real run (AUGUR_TRACE, augur run --trace): a Chrome trace (JSON, opens in
// ui.perfetto.dev) of the program's threads, recorded inside the user's process by libaugur and by the
// interposition libraries (docs/run.md, docs/self-analysis.md "Timelines"; the format in docs/formats.md).
//
// Bounded memory: each thread records into its own buffer of chunks of `chunk_events` events, allocated as
// it fills (one allocation per 4096 events, none per event), up to `capacity` events per thread; at most
// `max_threads` threads have a track. What does not fit (the later events of a full thread, the threads
// beyond the cap, slices nested deeper than `max_depth`) is dropped and counted in the file's metadata.
// Only complete slices are kept, so a dropped event never leaves a slice open. Slices still open when
// the file is written are closed there on the writing thread, and dropped (counted) on the others.
//
// Threads: a thread appends to its own buffer without a lock (its count is published with a release
// store); a thread's first event registers its buffer under a mutex. `json` may run while other threads
// record: it reads each buffer up to its published count. Nothing here throws to the recording calls.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace augur::runtime {

// How an event's number is appended to its name: not at all, "name 12", "name 0x4005f0".
enum class TraceNumber : std::uint8_t { None, Decimal, Hex };

// Trivial (no default member initializers): a chunk of them is allocated without being cleared.
struct TraceEvent {
  double start;          // seconds of the recorder's clock
  double end;
  const char* name;      // static or interned text
  const char* category;  // static text
  std::uint64_t number;
  std::int32_t value;    // counters: the value; slices: the threads they ran on (0: not said)
  TraceNumber style;
  char kind;             // 'X' a slice on its thread, 'C' a counter of the process, 'P' a phase slice
};

class TraceRecorder {
public:
  static constexpr std::size_t chunk_events = 4096;
  static constexpr std::size_t default_capacity = 1u << 20;  // events per thread: 48 MiB at most
  static constexpr std::size_t max_threads = 1024;
  static constexpr std::size_t max_depth = 32;

  explicit TraceRecorder(std::size_t capacity = default_capacity);
  ~TraceRecorder();
  TraceRecorder(const TraceRecorder&) = delete;
  TraceRecorder& operator=(const TraceRecorder&) = delete;

  // On the calling thread's track: a slice begins / the innermost open one ends (at `time`, seconds).
  void begin(const char* name, const char* category, double time, std::uint64_t number = 0,
             TraceNumber style = TraceNumber::None, int threads = 0);
  void end(double time);
  // A complete slice on the calling thread's track.
  void slice(const char* name, const char* category, double start, double end, std::uint64_t number = 0,
             TraceNumber style = TraceNumber::None, int threads = 0);
  // The process's phase track: the phase named `name` begins at `time` (the previous one ends there);
  // nullptr ends the current phase. Called by one thread at a time (the owner of the measurement).
  void phase(const char* name, double time);
  // A counter of the process (its own track in Perfetto), e.g. the threads an iteration runs on.
  void counter(const char* name, double time, int value);
  // A copy of `text` that lives as long as the recorder (experiment names).
  const char* intern(const std::string& text);

  // The whole file: {"traceEvents": [...], "displayTimeUnit": "ms", "metadata": {...}} and a newline.
  // Times are microseconds since `origin` (seconds of the same clock); `pid` and `program` name the process.
  // Closes the calling thread's open slices and the open phase at `now`.
  [[nodiscard]] std::string json(double origin, double now, long pid, const std::string& program);

  [[nodiscard]] std::uint64_t recorded() const;
  [[nodiscard]] std::uint64_t dropped() const;

private:
  struct Thread;
  Thread* this_thread();
  void append(Thread& thread, const TraceEvent& event);

  const std::size_t capacity_;
  const std::uint64_t generation_;  // tells this recorder from an earlier one at the same address
  std::mutex mutex_;                // threads_, interned_
  std::vector<std::unique_ptr<Thread>> threads_;
  std::deque<std::string> interned_;
  const char* open_phase_ = nullptr;  // phases are recorded in the buffer of the thread that sets them
  double phase_start_ = 0.0;
  std::atomic<std::uint64_t> dropped_{0};
};

// Writes recorder.json(...) to `path` whole or not at all (core::write_file_atomically: a temporary file
// beside it, renamed). Throws on failure; the callers in the user's process warn once and go on.
void write_trace_file(TraceRecorder& recorder, const std::string& path, double origin, double now, long pid,
                      const std::string& program);

}  // namespace augur::runtime
