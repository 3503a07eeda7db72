// libaugur: CALL experiments (seed 001, section 3). One record per execution instance of an annotated
// code segment: the experiment, the values of its formula's variables at entry, the elapsed seconds,
// the thread count and the hardware counters; written as augur experiment records (JSON Lines,
// docs/formats.md) for `augur fit`. This file: the registry of experiments and the C API that declares,
// begins and ends them; the records' output and the reports: experiment_records.cpp.
//
// Threads: each thread keeps its stack of open instances and its records (a log of its own, guarded by
// a mutex that only a report contends for; handed to the process log at the thread's exit:
// experiment_logs.hpp). Nothing throws across the C ABI; misuse is warned once.
#include <omp.h>
#include <pthread.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "augur/augur.h"
#include "augur/core/expression.hpp"
#include "experiment_logs.hpp"
#include "experiment_registry.hpp"
#include "internal.hpp"
#include "run_trace.hpp"

namespace augur::runtime::cll {
namespace {

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

bool is_identifier(std::string_view text) {
  if (text.empty() || std::isdigit(static_cast<unsigned char>(text.front()))) return false;
  return std::all_of(text.begin(), text.end(), [](unsigned char c) { return std::isalnum(c) || c == '_'; });
}

int threads_here() { return omp_in_parallel() ? omp_get_num_threads() : omp_get_max_threads(); }

}  // namespace

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

}  // namespace augur::runtime::cll

using namespace augur::runtime;
using namespace augur::runtime::cll;

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

}  // extern "C"
