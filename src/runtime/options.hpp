// The options of libaugur: each declared once (key, default, help) and mapped to the environment
// variable AUGUR_<KEY> by one rule. Precedence: default < environment < augur_set_option.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "augur/selfanalysis.hpp"

namespace augur::runtime {

enum class Mode { Analyze, Time, Off };

[[nodiscard]] const char* mode_name(Mode mode);

struct Settings {
  Mode mode = Mode::Analyze;
  selfanalysis::Config engine;
  std::string report_path;  // empty: no report file; "%p" is replaced by the process id
  bool summary = true;
  bool watch_sigcont = false;
  // CALL experiments: the records file ("%n" the program's name, "%p" the process id), appended to.
  std::string experiment_file = "%n.cll.jsonl";
  // PAPI events counted during each experiment instance; empty: none.
  std::vector<std::string> counters;
  // Where augur_bsp_write puts the superstep trace when given no path; empty: nowhere.
  std::string bsp_trace;
};

struct OptionInfo {
  const char* key;
  const char* default_value;
  const char* help;
};

// Every option, in the order the documentation lists them.
[[nodiscard]] const std::vector<OptionInfo>& option_table();

// "baseline" -> "AUGUR_BASELINE".
[[nodiscard]] std::string environment_name(std::string_view key);

// Applies `value` to `settings`; returns an error message (naming what is expected) on a bad value or
// an unknown key, and leaves `settings` unchanged then.
[[nodiscard]] std::optional<std::string> apply_option(Settings& settings, std::string_view key, std::string_view value);

// Settings from the defaults and the given environment lookup; one warning per bad or unknown
// variable is appended to `warnings`. `variables` lists the names of every variable set (to spot
// misspelt AUGUR_ names).
template <typename Lookup>
Settings settings_from_environment(Lookup lookup, const std::vector<std::string>& variables, std::vector<std::string>& warnings);

// Implementation detail of the template above.
void apply_environment_value(Settings& settings, const OptionInfo& option, const char* value, std::vector<std::string>& warnings);
void check_unknown_variables(const std::vector<std::string>& variables, std::vector<std::string>& warnings);

template <typename Lookup>
Settings settings_from_environment(Lookup lookup, const std::vector<std::string>& variables, std::vector<std::string>& warnings) {
  Settings settings;
  for (const OptionInfo& option : option_table()) {
    const char* value = lookup(environment_name(option.key).c_str());
    if (value != nullptr) apply_environment_value(settings, option, value, warnings);
  }
  check_unknown_variables(variables, warnings);
  return settings;
}

}  // namespace augur::runtime
