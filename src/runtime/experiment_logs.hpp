// The records of CALL experiments, kept per thread until a report takes them (experiments.cpp writes
// them). Private to src/runtime.
//
// Threads: each thread records into a log of its own, guarded by a mutex that only a report contends
// for. At a thread's exit its records are handed to the process log and its log is freed, so that
// short-lived threads leave nothing but their unreported records (issue 15, item 14).
#pragma once

#include <cstddef>
#include <functional>
#include <mutex>
#include <vector>

#include "chunked_log.hpp"
#include "internal.hpp"

namespace augur::runtime {

struct OpenInstance {
  int experiment = 0;
  int threads = 1;
  double start = 0.0;
  std::size_t value_offset = 0;
  long long counters[CounterSet::max_events] = {};
  bool counted = false;
  bool skipped = false;  // begun with bad values: its end records nothing
  int value_count = 0;   // last: the struct keeps its size (96 bytes)
};

struct Record {
  int experiment = 0;
  int threads = 1;
  double seconds = 0.0;
  std::size_t value_offset = 0;
  long long counters[CounterSet::max_events] = {};
  bool counted = false;
  int value_count = 0;  // the values are values[value_offset, value_offset + value_count); last: 96 bytes
};

// One thread's instances (or the process log: the records of the threads that have exited). Only the
// owning thread begins and ends instances; a report (from any thread) takes the records.
struct ThreadLog {
  std::mutex mutex;
  // In chunks of 1024 (96 KiB): appending never moves the records (a growing vector did: memmove and page
  // faults made an instance cost 1.2 µs instead of 0.12 under load, issue 23).
  ChunkedLog<Record, 1024> records;
  std::vector<double> values;      // variable values of the records and of the open instances
  std::vector<OpenInstance> open;  // the stack of open instances
};

// The calling thread's log (initial-exec TLS, read with one instruction on the path of every instance),
// nullptr until its first instance and after its exit.
extern constinit thread_local ThreadLog* this_thread_log __attribute__((tls_model("initial-exec")));
// Makes the calling thread's log; it is handed over and freed when the thread exits.
ThreadLog& new_thread_log();
// The calling thread's log, made at its first use.
inline ThreadLog& thread_log() {
  return this_thread_log != nullptr ? *this_thread_log : new_thread_log();
}

// Runs `visit` on the process log and on every live thread's log, each under its lock, with the list of
// logs locked (no thread hands its log over meanwhile).
void visit_logs(const std::function<void(ThreadLog&)>& visit);

// fork(): every log is locked before and unlocked after; the child starts with empty logs.
void lock_logs();
void unlock_logs();
void clear_logs();

}  // namespace augur::runtime
