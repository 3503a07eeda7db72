// libaugur: CALL experiments (seed 001, section 3). One record per execution instance of an annotated
// code segment: the experiment, the values of its formula's variables at entry, the elapsed seconds,
// the thread count and the hardware counters; written as augur experiment records (JSON Lines,
// docs/formats.md) for `augur fit`.
//
// Threads: each thread keeps its stack of open instances and its records (a log of its own, guarded by
// a mutex that only a report contends for; handed to the process log at the thread's exit:
// experiment_logs.hpp). Nothing throws across the C ABI; misuse is warned once.
#include <fcntl.h>
#include <omp.h>
#include <pthread.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "augur/augur.h"
#include "augur/core/expression.hpp"
#include "core/json_text.hpp"
#include "experiment_logs.hpp"
#include "internal.hpp"
#include "run_trace.hpp"

namespace augur::runtime {
namespace {

constexpr std::size_t max_experiments = 4096;

struct ExperimentInfo {
  std::string name;
  std::string formula;
  std::string variable_list;            // as declared, "N,P"
  std::vector<std::string> variables;   // split
};

enum Warning { BadId, EndWithoutBegin, EndSkipsInner, BadValues, UnknownReportName, WarningCount };

struct Registry {
  std::mutex mutex;                                           // experiments
  std::vector<std::unique_ptr<ExperimentInfo>> experiments;  // capacity fixed: readers index without the lock
  std::atomic<int> count{0};
  std::atomic<bool> warned[WarningCount] = {};
  std::once_flag enabled_once;
  bool enabled = true;
  std::mutex file_mutex;    // the experiment file and `unwritten`
  std::string unwritten;    // records whose write failed, retried at the next write and at exit
  Registry() { experiments.reserve(max_experiments); }
};

Registry& registry();

// fork(): the child starts with no records, so that the parent's are not written twice. The locks are
// taken around the fork so that the child never inherits one held by another thread.
void before_fork() {
  Registry& state = registry();
  state.file_mutex.lock();
  state.mutex.lock();
  lock_logs();
}

void after_fork_in_parent() {
  Registry& state = registry();
  unlock_logs();
  state.mutex.unlock();
  state.file_mutex.unlock();
}

void after_fork_in_child() {
  Registry& state = registry();
  clear_logs();
  state.unwritten.clear();
  after_fork_in_parent();
}

Registry& registry() {
  static Registry* instance = [] {
    auto* created = new Registry;  // never destroyed: threads may record during exit
    pthread_atfork(before_fork, after_fork_in_parent, after_fork_in_child);
    return created;
  }();
  return *instance;
}

// True the first time for each kind of warning: the message is built only then.
bool first_warning(Warning kind) { return !registry().warned[kind].exchange(true); }

void write_unreported_at_exit();

// Experiments record unless augur is off. Decided at the first begin or report (not at declare, which
// translated programs call before main), so that augur_set_option in main still applies.
bool enabled() {
  Registry& state = registry();
  std::call_once(state.enabled_once, [&] {
    state.enabled = settings().mode != Mode::Off;
    if (state.enabled) std::atexit(write_unreported_at_exit);
  });
  return state.enabled;
}

const ExperimentInfo* find_experiment(int id) {
  if (id < 0 || id >= registry().count.load(std::memory_order_acquire)) return nullptr;
  return registry().experiments[static_cast<std::size_t>(id)].get();
}

bool is_identifier(std::string_view text) {
  if (text.empty() || std::isdigit(static_cast<unsigned char>(text.front()))) return false;
  return std::all_of(text.begin(), text.end(), [](unsigned char c) { return std::isalnum(c) || c == '_'; });
}

// Splits "a,b c" at commas and spaces, dropping empty pieces.
std::vector<std::string> split_names(std::string_view text) {
  std::vector<std::string> names;
  std::string current;
  for (char c : text) {
    if (c == ',' || std::isspace(static_cast<unsigned char>(c))) {
      if (!current.empty()) names.push_back(std::move(current));
      current.clear();
    } else {
      current += c;
    }
  }
  if (!current.empty()) names.push_back(std::move(current));
  return names;
}

int threads_here() { return omp_in_parallel() ? omp_get_num_threads() : omp_get_max_threads(); }

// ---- JSON Lines output ------------------------------------------------------------------------

void append_string(std::string& out, std::string_view text) { out += augur::core::json_quoted(text); }

// Locale-independent shortest form; JSON has no infinities or NaN: null.
void append_number(std::string& out, double value) {
  if (!std::isfinite(value)) {
    out += "null";
    return;
  }
  char buffer[64];
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
  out.append(buffer, result.ptr);
}

void append_integer(std::string& out, long long value) {
  char buffer[32];
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
  out.append(buffer, result.ptr);
}

void append_record(std::string& out, const ExperimentInfo& info, const Record& record, const std::vector<double>& values,
                   int rank, int ranks) {
  out += "{\"experiment\":";
  append_string(out, info.name);
  if (!info.formula.empty()) {
    out += ",\"formula\":";
    append_string(out, info.formula);
  }
  out += ",\"variables\":{";
  for (std::size_t index = 0; index < info.variables.size(); ++index) {
    if (index > 0) out += ',';
    append_string(out, info.variables[index]);
    out += ':';
    append_number(out, values[record.value_offset + index]);
  }
  out += "},\"time\":";
  append_number(out, record.seconds);
  if (rank >= 0) {
    out += ",\"rank\":";
    append_integer(out, rank);
    out += ",\"ranks\":";
    append_integer(out, ranks);
  }
  out += ",\"threads\":";
  append_integer(out, record.threads);
  if (record.counted) {
    out += ",\"counters\":{";
    for (int index = 0; index < CounterSet::event_count(); ++index) {
      if (index > 0) out += ',';
      append_string(out, CounterSet::event_name(index));
      out += ':';
      append_integer(out, record.counters[index]);
    }
    out += '}';
  }
  out += "}\n";
}

// Takes the records of the selected experiments out of every log and renders them. `selected` holds
// experiment ids; empty means all. Returns the number of records.
int take_records(const std::set<int>& selected, int rank, int ranks, std::string& out) {
  int taken = 0;
  const auto chosen = [&selected](const Record& record) { return selected.empty() || selected.count(record.experiment) != 0; };
  visit_logs([&](ThreadLog& log) {
    // Rendered first, removed after: a failure while rendering (out of memory) leaves the log as it was.
    for (std::size_t index = 0; index < log.records.size(); ++index) {
      const Record& record = log.records[index];
      if (!chosen(record)) continue;
      append_record(out, *find_experiment(record.experiment), record, log.values, rank, ranks);
      ++taken;
    }
    log.records.retain([&chosen](const Record& record) { return !chosen(record); });
    // Values are kept while a record or an open instance points into them (both under the log's lock).
    if (log.records.empty() && log.open.empty()) log.values.clear();
  });
  return taken;
}

// The ids named in `names` (NULL, "" or "all": every experiment, returned as the empty set).
// Unknown names are warned about; `valid` is false when every name was unknown.
std::set<int> select_experiments(const char* names, bool& valid) {
  valid = true;
  std::set<int> selected;
  if (names == nullptr) return selected;
  const std::vector<std::string> wanted = split_names(names);
  if (wanted.empty() || (wanted.size() == 1 && wanted[0] == "all")) return selected;
  Registry& state = registry();
  std::lock_guard lock(state.mutex);
  for (const std::string& name : wanted) {
    bool found = false;
    for (std::size_t id = 0; id < state.experiments.size(); ++id) {
      if (state.experiments[id]->name != name) continue;
      selected.insert(static_cast<int>(id));
      found = true;
    }
    if (!found && first_warning(UnknownReportName)) {
      warn("augur_experiment_report(): no experiment named '" + name + "' was declared (warned once)");
    }
  }
  if (selected.empty()) valid = false;
  return selected;
}

const char header_line[] = "{\"augur\":\"experiments\",\"version\":1}\n";

// Appends `text` to the experiment file in one write, under an exclusive flock (other processes
// appending through libaugur wait), with the header first when the file is new or empty. On a short
// write the file is cut back to its former size, so that no half record is left.
bool append_to_experiment_file(std::string_view text, std::string& error) {
  const std::string path = expand_path(settings().experiment_file);
  const int descriptor = ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (descriptor < 0) {
    error = path + ": cannot open for appending: " + std::strerror(errno);
    return false;
  }
  while (::flock(descriptor, LOCK_EX) != 0 && errno == EINTR) {
  }
  struct stat status {};
  const off_t former_size = ::fstat(descriptor, &status) == 0 ? status.st_size : 0;
  std::string content;
  if (former_size == 0) content = header_line;
  content.append(text);
  std::size_t written = 0;
  while (written < content.size()) {
    const ssize_t result = ::write(descriptor, content.data() + written, content.size() - written);
    if (result < 0 && errno == EINTR) continue;
    if (result <= 0) {
      error = path + ": write failed: " + std::strerror(errno);
      if (::ftruncate(descriptor, former_size) != 0) error += " (could not cut the file back: it may end in a partial line)";
      ::close(descriptor);
      return false;
    }
    written += static_cast<std::size_t>(result);
  }
  if (::close(descriptor) != 0) {
    error = path + ": close failed: " + std::strerror(errno);
    return false;
  }
  return true;
}

long count_lines(std::string_view text) { return static_cast<long>(std::count(text.begin(), text.end(), '\n')); }

// Writes `text` after whatever an earlier failed write left; on failure keeps it all for the next try
// and says so (every time: records are at stake).
bool write_records(std::string_view text, std::string& error) {
  Registry& state = registry();
  std::lock_guard lock(state.file_mutex);
  std::string content = std::move(state.unwritten);
  state.unwritten.clear();
  content.append(text);
  if (content.empty()) return true;
  if (append_to_experiment_file(content, error)) return true;
  const long kept = count_lines(content);
  state.unwritten = std::move(content);
  error += "; " + std::to_string(kept) + " record" + (kept == 1 ? " is" : "s are") +
           " kept in memory and tried again at the next report and at exit";
  return false;
}

void write_unreported_at_exit() {
  try {
    std::string text;
    const int count = take_records({}, -1, 0, text);
    std::string error;
    const std::string path = expand_path(settings().experiment_file);
    const long pending = count_lines(registry().unwritten);
    if (count == 0 && pending == 0) return;
    if (!write_records(text, error)) {
      warn("at exit: " + error.substr(0, error.find("; ")) + "; " + std::to_string(count + pending) + " experiment records lost");
      return;
    }
    if (count > 0) {
      warn(std::to_string(count) + " experiment record" + (count == 1 ? " was" : "s were") +
           " not reported (no report reached before exit); appended to " + path + " without a rank");
    }
  } catch (...) {
  }
}

}  // namespace
}  // namespace augur::runtime

using namespace augur::runtime;

extern "C" {

int augur_experiment_declare(const char* name, const char* formula, const char* variables) {
  try {
    if (name == nullptr || !is_identifier(name)) {
      warn(std::string("augur_experiment_declare(): '") + (name == nullptr ? "(null)" : name) +
           "' is not an experiment name (letters, digits, '_', not starting with a digit)");
      return AUGUR_NO_EXPERIMENT;
    }
    const std::string formula_text = formula == nullptr ? "" : formula;
    if (!formula_text.empty()) {
      try {
        (void)augur::core::parse_expression(augur::core::SourceText("formula", formula_text));
      } catch (const augur::core::InputError& error) {
        warn(std::string("augur_experiment_declare(") + name + "): the formula '" + formula_text + "' is not an expression (" +
             error.what() + "); the experiment is not declared");
        return AUGUR_NO_EXPERIMENT;
      }
    }
    const std::string variable_text = variables == nullptr ? "" : variables;
    std::vector<std::string> variable_names = split_names(variable_text);
    for (const std::string& variable : variable_names) {
      if (!is_identifier(variable)) {
        warn(std::string("augur_experiment_declare(") + name + "): '" + variable + "' is not a variable name");
        return AUGUR_NO_EXPERIMENT;
      }
    }
    Registry& state = registry();
    std::lock_guard lock(state.mutex);
    for (std::size_t id = 0; id < state.experiments.size(); ++id) {
      const ExperimentInfo& info = *state.experiments[id];
      if (info.name != name) continue;
      if (info.formula == formula_text && info.variables == variable_names) return static_cast<int>(id);
      warn(std::string("augur_experiment_declare(") + name + "): declared before with the formula '" + info.formula +
           "' and the variables '" + info.variable_list + "'; this declaration ('" + formula_text + "', '" + variable_text +
           "') is ignored");
      return AUGUR_NO_EXPERIMENT;
    }
    if (state.experiments.size() >= max_experiments) {
      warn(std::string("augur_experiment_declare(") + name + "): more than " + std::to_string(max_experiments) +
           " experiments; ignored");
      return AUGUR_NO_EXPERIMENT;
    }
    auto info = std::make_unique<ExperimentInfo>();
    info->name = name;
    info->formula = formula_text;
    info->variable_list = variable_text;
    info->variables = std::move(variable_names);
    state.experiments.push_back(std::move(info));
    const int id = static_cast<int>(state.experiments.size() - 1);
    state.count.store(id + 1, std::memory_order_release);
    return id;
  } catch (const std::exception& error) {
    warn(std::string("augur_experiment_declare(): ") + error.what());
    return AUGUR_NO_EXPERIMENT;
  }
}

void augur_experiment_begin_n(int experiment, int count, const double* values) {
  try {
    if (!enabled()) return;
    const ExperimentInfo* info = find_experiment(experiment);
    if (info == nullptr) {
      if (first_warning(BadId)) warn("augur_experiment_begin(): invalid experiment id " + std::to_string(experiment) + "; ignored (warned once)");
      return;
    }
    const std::size_t wanted = info->variables.size();
    bool usable = true;
    if (count >= 0 && static_cast<std::size_t>(count) != wanted) {
      if (first_warning(BadValues)) {
        warn("augur_experiment_begin(" + info->name + "): " + std::to_string(count) + " values for " + std::to_string(wanted) +
             " variables (" + info->variable_list + "); the instance is not recorded (warned once)");
      }
      usable = false;
    } else if (values == nullptr && wanted > 0) {
      if (first_warning(BadValues)) {
        warn("augur_experiment_begin(" + info->name + "): values is NULL but the experiment has variables; the instance is not recorded (warned once)");
      }
      usable = false;
    } else {
      for (std::size_t index = 0; index < wanted; ++index) {
        if (std::isfinite(values[index])) continue;
        if (first_warning(BadValues)) {
          warn("augur_experiment_begin(" + info->name + "): variable " + info->variables[index] +
               " is not a finite number; the instance is not recorded (warned once)");
        }
        usable = false;
        break;
      }
    }
    ThreadLog& log = thread_log();
    OpenInstance instance;
    instance.experiment = experiment;
    instance.skipped = !usable;
    instance.threads = threads_here();
    if (usable && CounterSet::start_on_this_thread()) instance.counted = CounterSet::read(instance.counters);
    std::lock_guard lock(log.mutex);
    instance.value_offset = log.values.size();
    if (usable) log.values.insert(log.values.end(), values, values + wanted);
    instance.value_count = usable ? static_cast<int>(wanted) : 0;
    instance.start = monotonic_seconds();
    log.open.push_back(instance);
  } catch (const std::exception& error) {
    warn(std::string("augur_experiment_begin(): ") + error.what());
  }
}

void augur_experiment_begin(int experiment, const double* values) { augur_experiment_begin_n(experiment, -1, values); }

void augur_experiment_end(int experiment) {
  const double now = monotonic_seconds();
  try {
    if (!enabled()) return;
    const ExperimentInfo* info = find_experiment(experiment);
    if (info == nullptr) {
      if (first_warning(BadId)) warn("augur_experiment_end(): invalid experiment id " + std::to_string(experiment) + "; ignored (warned once)");
      return;
    }
    ThreadLog& log = thread_log();
    long long counters[CounterSet::max_events] = {};
    const bool counted = CounterSet::event_count() > 0 && CounterSet::read(counters);
    std::lock_guard lock(log.mutex);
    auto match = std::find_if(log.open.rbegin(), log.open.rend(), [&](const OpenInstance& open) { return open.experiment == experiment; });
    if (match == log.open.rend()) {
      if (first_warning(EndWithoutBegin)) warn("augur_experiment_end(" + info->name + "): no open instance on this thread; ignored (warned once)");
      return;
    }
    if (match != log.open.rbegin() && first_warning(EndSkipsInner)) {
      const ExperimentInfo* inner = find_experiment(log.open.back().experiment);
      warn("augur_experiment_end(" + info->name + ") while '" + (inner ? inner->name : "?") +
           "' inside it is still open; the inner instances are dropped (warned once)");
    }
    const OpenInstance instance = *match;
    log.open.erase(std::next(match).base(), log.open.end());
    // The segment on the thread's timeline (AUGUR_TRACE), recorded or not (its name lives as long as the registry).
    if (TraceRecorder* trace = run_trace()) {
      trace->slice(info->name.c_str(), "cll experiment", instance.start, now, 0, TraceNumber::None, instance.threads);
    }
    if (instance.skipped) return;
    Record record;
    record.experiment = experiment;
    record.threads = instance.threads;
    record.seconds = now - instance.start;
    record.value_offset = instance.value_offset;
    record.value_count = instance.value_count;
    if (instance.counted && counted) {
      for (int index = 0; index < CounterSet::event_count(); ++index) record.counters[index] = counters[index] - instance.counters[index];
      record.counted = true;
    }
    log.records.push_back(record);
  } catch (const std::exception& error) {
    warn(std::string("augur_experiment_end(): ") + error.what());
  }
}

int augur_experiment_serialize(const char* names, int rank, int ranks, char** buffer, unsigned long* length) {
  try {
    if (buffer == nullptr || length == nullptr) {
      warn("augur_experiment_serialize(): buffer and length must not be NULL");
      return AUGUR_ERROR;
    }
    *buffer = nullptr;
    *length = 0;
    if (!enabled()) return AUGUR_ERROR;
    bool valid = true;
    const std::set<int> selected = select_experiments(names, valid);
    std::string text;
    const int count = valid ? take_records(selected, rank, ranks, text) : 0;
    *buffer = static_cast<char*>(std::malloc(text.size() + 1));
    if (*buffer == nullptr) {
      warn("augur_experiment_serialize(): out of memory; " + std::to_string(count) + " records lost");
      return AUGUR_ERROR;
    }
    std::memcpy(*buffer, text.data(), text.size());
    (*buffer)[text.size()] = '\0';
    *length = text.size();
    return count;
  } catch (const std::exception& error) {
    warn(std::string("augur_experiment_serialize(): ") + error.what());
    return AUGUR_ERROR;
  }
}

int augur_experiment_write(const char* buffer, unsigned long length) {
  try {
    if (!enabled()) return AUGUR_ERROR;
    if (buffer == nullptr && length > 0) {
      warn("augur_experiment_write(): buffer is NULL");
      return AUGUR_ERROR;
    }
    std::string error;
    if (write_records(std::string_view(buffer == nullptr ? "" : buffer, length), error)) return AUGUR_OK;
    warn("experiment records: " + error);
    return AUGUR_ERROR;
  } catch (const std::exception& error) {
    warn(std::string("augur_experiment_write(): ") + error.what());
    return AUGUR_ERROR;
  }
}

int augur_experiment_report(const char* names) {
  char* buffer = nullptr;
  unsigned long length = 0;
  const int count = augur_experiment_serialize(names, 0, 1, &buffer, &length);
  if (count < 0) return AUGUR_ERROR;
  const int status = augur_experiment_write(buffer, length);
  std::free(buffer);
  return status == AUGUR_OK ? count : AUGUR_ERROR;
}

void augur_free(void* buffer) { std::free(buffer); }

}  // extern "C"
