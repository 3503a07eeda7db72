// What the two halves of libaugur's CALL experiments share (private to src/runtime): the registry of the
// declared experiments, the warnings said once, whether experiments record, and the records' output.
// experiments.cpp declares, begins and ends experiments; experiment_records.cpp renders the records (JSON
// Lines), appends them to the experiment file and implements the reports. Every function here may be
// called from any thread.
#pragma once

#include <atomic>
#include <cstddef>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

namespace augur::runtime::cll {

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

// True the first time for each kind of warning: the message is built only then.
bool first_warning(Warning kind);

// Experiments record unless augur is off. Decided at the first begin or report (not at declare, which
// translated programs call before main), so that augur_set_option in main still applies.
bool enabled();

// The experiment of an id, or nullptr for an id that was never declared.
const ExperimentInfo* find_experiment(int id);

// Splits "a,b c" at commas and spaces, dropping empty pieces.
std::vector<std::string> split_names(std::string_view text);

// At exit (registered by the first enabled()): the records no report took, appended without a rank
// (experiment_records.cpp).
void write_unreported_at_exit();

}  // namespace augur::runtime::cll
