// libaugur: the output of CALL experiments (experiments.cpp records them). A report takes the records of the
// selected experiments out of every thread's log, renders them as augur experiment records (JSON Lines,
// docs/formats.md) and appends them to the experiment file in one locked write; what cannot be written is
// kept and tried again at the next report and at exit. Nothing throws across the C ABI.
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "augur/augur.h"
#include "core/json_text.hpp"
#include "experiment_logs.hpp"
#include "experiment_registry.hpp"
#include "internal.hpp"

namespace augur::runtime::cll {
namespace {

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

}  // namespace

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

}  // namespace augur::runtime::cll

using namespace augur::runtime;
using namespace augur::runtime::cll;

extern "C" {

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
