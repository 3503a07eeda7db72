// The per-thread logs of CALL experiment records (experiment_logs.hpp).
#include "experiment_logs.hpp"

#include <algorithm>
#include <memory>

namespace augur::runtime {

constinit thread_local ThreadLog* this_thread_log __attribute__((tls_model("initial-exec"))) = nullptr;

namespace {

constexpr std::size_t initial_values = 4096;

struct Logs {
  std::mutex mutex;   // `threads`; taken before any log's own lock
  ThreadLog process;  // the records of the threads that have exited
  std::vector<std::unique_ptr<ThreadLog>> threads;
};

Logs& logs() {
  static Logs* instance = new Logs;  // never destroyed: threads may record while the program exits
  return *instance;
}

// Moves a finished thread's records (and their values) to the process log; its open instances can never
// end and are dropped. Under the logs' lock.
void hand_over_locked(Logs& all, ThreadLog& log) {
  std::scoped_lock both(all.process.mutex, log.mutex);
  for (std::size_t index = 0; index < log.records.size(); ++index) {
    Record record = log.records[index];
    const auto first = log.values.begin() + static_cast<std::ptrdiff_t>(record.value_offset);
    const std::size_t offset = all.process.values.size();
    all.process.values.insert(all.process.values.end(), first, first + record.value_count);
    record.value_offset = offset;
    all.process.records.push_back(record);
  }
}

// At a thread's exit: its records go to the process log and its log is freed.
struct HandOverAtThreadExit {
  HandOverAtThreadExit() = default;
  HandOverAtThreadExit(const HandOverAtThreadExit&) = delete;
  HandOverAtThreadExit& operator=(const HandOverAtThreadExit&) = delete;
  ~HandOverAtThreadExit() {
    ThreadLog* log = this_thread_log;
    if (log == nullptr) return;
    try {
      Logs& all = logs();
      std::lock_guard lock(all.mutex);
      hand_over_locked(all, *log);
      this_thread_log = nullptr;
      const auto found =
          std::find_if(all.threads.begin(), all.threads.end(), [&](const auto& entry) { return entry.get() == log; });
      if (found != all.threads.end()) all.threads.erase(found);  // frees the log
    } catch (...) {  // out of memory: the log stays in the list, its records reported with the others
    }
  }
};

}  // namespace

ThreadLog& new_thread_log() {
  thread_local HandOverAtThreadExit
      hand_over_at_exit;  // made once per thread: its destructor runs at the thread's exit
  (void)hand_over_at_exit;
  auto log = std::make_unique<ThreadLog>();
  log->values.reserve(initial_values);
  log->open.reserve(64);
  ThreadLog* made = log.get();
  Logs& all = logs();
  std::lock_guard lock(all.mutex);
  all.threads.push_back(std::move(log));
  this_thread_log = made;
  return *made;
}

void visit_logs(const std::function<void(ThreadLog&)>& visit) {
  Logs& all = logs();
  std::lock_guard lock(all.mutex);
  {
    std::lock_guard process_lock(all.process.mutex);
    visit(all.process);
  }
  for (const auto& log : all.threads) {
    std::lock_guard log_lock(log->mutex);
    visit(*log);
  }
}

void lock_logs() {
  Logs& all = logs();
  all.mutex.lock();
  all.process.mutex.lock();
  for (const auto& log : all.threads) log->mutex.lock();
}

void unlock_logs() {
  Logs& all = logs();
  for (auto log = all.threads.rbegin(); log != all.threads.rend(); ++log) (*log)->mutex.unlock();
  all.process.mutex.unlock();
  all.mutex.unlock();
}

void clear_logs() {
  Logs& all = logs();
  all.process.records.clear();
  all.process.values.clear();
  for (const auto& log : all.threads) {
    log->records.clear();
    log->open.clear();
    log->values.clear();
  }
}

}  // namespace augur::runtime
