#include "options.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>

namespace augur::runtime {
namespace {

std::optional<long> parse_integer(std::string_view text) {
  long value = 0;
  const auto* end = text.data() + text.size();
  const auto result = std::from_chars(text.data(), end, value);
  if (text.empty() || result.ec != std::errc() || result.ptr != end) return std::nullopt;
  return value;
}

// Locale-independent: a host program that switched to a comma-decimal locale still reads "0.6".
std::optional<double> parse_real(std::string_view text) {
  double value = 0.0;
  const auto* end = text.data() + text.size();
  const auto result = std::from_chars(text.data(), end, value);
  if (text.empty() || result.ec != std::errc() || result.ptr != end || !std::isfinite(value)) return std::nullopt;
  return value;
}

std::optional<bool> parse_boolean(std::string_view text) {
  std::string lower(text);
  std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (lower == "1" || lower == "true" || lower == "yes" || lower == "on") return true;
  if (lower == "0" || lower == "false" || lower == "no" || lower == "off") return false;
  return std::nullopt;
}

std::string quoted(std::string_view value) { return "'" + std::string(value) + "'"; }

std::optional<std::string> integer_in(std::string_view value, long low, long high, int& target) {
  const auto parsed = parse_integer(value);
  if (!parsed || *parsed < low || *parsed > high) {
    return quoted(value) + " is not an integer between " + std::to_string(low) + " and " + std::to_string(high);
  }
  target = static_cast<int>(*parsed);
  return std::nullopt;
}

std::optional<std::string> boolean(std::string_view value, bool& target) {
  const auto parsed = parse_boolean(value);
  if (!parsed) return quoted(value) + " is not a boolean (1, 0, true, false, yes, no, on, off)";
  target = *parsed;
  return std::nullopt;
}

constexpr long max_processors = 4096;

}  // namespace

const char* mode_name(Mode mode) {
  switch (mode) {
    case Mode::Analyze: return "analyze";
    case Mode::Time: return "time";
    case Mode::Off: return "off";
  }
  return "analyze";
}

const std::vector<OptionInfo>& option_table() {
  static const std::vector<OptionInfo> table = {
      {"mode", "analyze",
       "analyze: compute the speedup (baseline, then the allocated processors); time: only time the regions; off: do nothing"},
      {"baseline", "4", "processors of the baseline iterations: a positive integer, or 'half' of the allocated ones"},
      {"warmup_iterations", "1", "iterations after the region starts that run on the allocated processors unmeasured"},
      {"baseline_iterations", "3", "iterations averaged into the reference time T(B)"},
      {"measure_iterations", "3", "iterations averaged into each T(p) before a speedup is computed"},
      {"history", "0.6", "weight of the previous speedup: S = history x S_old + (1 - history) x S_new, in [0, 1)"},
      {"sweep", "", "SA(1 exec): comma-separated processor counts visited after the baseline, e.g. 1,2,4; empty: off"},
      {"sweep_every", "10", "iterations spent on each processor count of the sweep (at least 2)"},
      {"self_tuning", "1", "measure the self-tuning' speedup from the process CPU time (1 or 0)"},
      {"report", "", "write the JSON report to this file at the end ('%p' becomes the process id); empty: none"},
      {"summary", "1", "print a short summary on stderr at the end (1 or 0)"},
      {"watch_sigcont", "0",
       "install a SIGCONT handler (when the program has none) to discard iterations during which it was stopped; "
       "the program's blocking calls may then return early (EINTR) after a stop"},
      {"experiment_file", "%n.cll.jsonl",
       "CALL experiments: the file the records are appended to ('%n' becomes the program's name, '%p' the process id)"},
      {"counters", "",
       "CALL experiments: comma-separated PAPI events counted in each instance, e.g. PAPI_TOT_CYC,PAPI_L1_DCM; empty: none"},
      {"bsp_trace", "", "superstep trace: the file augur_bsp_write (and augur_mpi_bsp_report) writes; empty: none"},
  };
  return table;
}

std::string environment_name(std::string_view key) {
  std::string name = "AUGUR_";
  for (char c : key) name += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return name;
}

std::optional<std::string> apply_option(Settings& settings, std::string_view key, std::string_view value) {
  Settings updated = settings;
  std::optional<std::string> error;
  if (key == "mode") {
    if (value == "analyze") {
      updated.mode = Mode::Analyze;
    } else if (value == "time") {
      updated.mode = Mode::Time;
    } else if (value == "off") {
      updated.mode = Mode::Off;
    } else {
      error = quoted(value) + " is not a mode (analyze, time, off)";
    }
  } else if (key == "baseline") {
    if (value == "half") {
      updated.engine.baseline.kind = selfanalysis::BaselinePolicy::Kind::Half;
    } else {
      const auto parsed = parse_integer(value);
      if (!parsed || *parsed < 1 || *parsed > max_processors) {
        error = quoted(value) + " is not a baseline (a processor count between 1 and 4096, or 'half')";
      } else {
        updated.engine.baseline.kind = selfanalysis::BaselinePolicy::Kind::Fixed;
        updated.engine.baseline.processors = static_cast<int>(*parsed);
      }
    }
  } else if (key == "warmup_iterations") {
    error = integer_in(value, 0, 1000000, updated.engine.warmup_iterations);
  } else if (key == "baseline_iterations") {
    error = integer_in(value, 1, 1000000, updated.engine.baseline_iterations);
  } else if (key == "measure_iterations") {
    error = integer_in(value, 1, 1000000, updated.engine.measure_iterations);
  } else if (key == "history") {
    const auto parsed = parse_real(value);
    if (!parsed || *parsed < 0.0 || *parsed >= 1.0) {
      error = quoted(value) + " is not a history weight (a number in [0, 1))";
    } else {
      updated.engine.history_weight = *parsed;
    }
  } else if (key == "sweep") {
    updated.engine.sweep.clear();
    std::string_view rest = value;
    while (!rest.empty() && value != "off") {
      const auto comma = rest.find(',');
      const std::string_view item = rest.substr(0, comma);
      const auto parsed = parse_integer(item);
      if (!parsed || *parsed < 1 || *parsed > max_processors) {
        error = quoted(value) + " is not a list of processor counts (e.g. 1,2,4; each between 1 and 4096)";
        break;
      }
      updated.engine.sweep.push_back(static_cast<int>(*parsed));
      if (comma == std::string_view::npos) break;
      rest = rest.substr(comma + 1);
      if (rest.empty()) error = quoted(value) + " is not a list of processor counts (it ends with a comma)";
    }
  } else if (key == "sweep_every") {
    error = integer_in(value, 2, 1000000, updated.engine.sweep_every);
  } else if (key == "self_tuning") {
    error = boolean(value, updated.engine.self_tuning);
  } else if (key == "report") {
    updated.report_path = std::string(value);
  } else if (key == "summary") {
    error = boolean(value, updated.summary);
  } else if (key == "watch_sigcont") {
    error = boolean(value, updated.watch_sigcont);
  } else if (key == "experiment_file") {
    if (value.empty()) {
      error = "the experiment file may not be empty";
    } else {
      updated.experiment_file = std::string(value);
    }
  } else if (key == "counters") {
    updated.counters.clear();
    std::string_view rest = value;
    while (!rest.empty()) {
      const auto comma = rest.find(',');
      const std::string_view item = rest.substr(0, comma);
      const bool valid = !item.empty() && std::all_of(item.begin(), item.end(), [](unsigned char c) {
        return std::isalnum(c) || c == '_' || c == ':' || c == '.' || c == '-' || c == '=';
      });
      if (!valid) {
        error = quoted(value) + " is not a list of PAPI event names (e.g. PAPI_TOT_CYC,PAPI_L1_DCM)";
        break;
      }
      updated.counters.emplace_back(item);
      if (comma == std::string_view::npos) break;
      rest = rest.substr(comma + 1);
      if (rest.empty()) error = quoted(value) + " is not a list of PAPI event names (it ends with a comma)";
    }
    if (!error && updated.counters.size() > 8) error = quoted(value) + " names more than 8 events";
  } else if (key == "bsp_trace") {
    updated.bsp_trace = std::string(value);
  } else {
    std::string known;
    for (const OptionInfo& option : option_table()) known += std::string(known.empty() ? "" : ", ") + option.key;
    return "unknown option '" + std::string(key) + "' (known: " + known + ")";
  }
  if (error) return error;
  settings = std::move(updated);
  return std::nullopt;
}

void apply_environment_value(Settings& settings, const OptionInfo& option, const char* value, std::vector<std::string>& warnings) {
  if (auto error = apply_option(settings, option.key, value)) {
    const std::string fallback = *option.default_value == '\0' ? "empty" : option.default_value;
    warnings.push_back(environment_name(option.key) + ": " + *error + "; using the default (" + fallback + ")");
  }
}

void check_unknown_variables(const std::vector<std::string>& variables, std::vector<std::string>& warnings) {
  for (const std::string& name : variables) {
    if (name.rfind("AUGUR_", 0) != 0) continue;
    const bool known = std::any_of(option_table().begin(), option_table().end(),
                                   [&](const OptionInfo& option) { return environment_name(option.key) == name; });
    if (!known) warnings.push_back(name + ": not an augur option; ignored (see docs/self-analysis.md for the list)");
  }
}

}  // namespace augur::runtime
