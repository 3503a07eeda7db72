#include "options.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>

namespace augur::runtime {
namespace {

constexpr double max_processors = 4096;
constexpr double max_iterations = 1000000;

// libaugur (docs/self-analysis.md, "Options"; experiments.md for the last three).
constexpr OptionSpec runtime_options[] = {
    {.key = "mode", .type = OptionType::Choice, .default_value = "analyze", .words = "analyze|time|off",
     .help = "`analyze`: the self-analysis (baseline, then the allocated processors); `time`: only time the regions "
             "(no baseline, no thread changes; `augur speedup` uses it for the runs without the self-analyzer); `off`: do "
             "nothing"},
    {.key = "baseline", .type = OptionType::Integer, .default_value = "auto", .minimum = 1, .maximum = max_processors,
     .words = "auto|half",
     .help = "processors B of the baseline iterations: `auto`, half of the allocated ones but at most 4 (B = min(4, P/2), "
             "at least 1: a measured speedup from P = 2 on, the seeds' 4 from P = 8 on); `half` of the allocated ones; or a "
             "count (never above the allocated ones)"},
    {.key = "warmup_iterations", .type = OptionType::Integer, .default_value = "1", .minimum = 0, .maximum = max_iterations,
     .help = "iterations after the region starts that run on the allocated processors, unmeasured, before the baseline"},
    {.key = "baseline_iterations", .type = OptionType::Integer, .default_value = "3", .minimum = 1, .maximum = max_iterations,
     .help = "iterations averaged into the reference time T(B)"},
    {.key = "baseline_every", .type = OptionType::Integer, .default_value = "20", .minimum = 0, .maximum = max_iterations,
     .help = "re-measure T(B) (a window of `baseline_iterations` on B) after every this many measured iterations on the "
             "allocated processors; T(B) is the median of the windows; 0: measure it once"},
    {.key = "measure_iterations", .type = OptionType::Integer, .default_value = "3", .minimum = 1, .maximum = max_iterations,
     .help = "iterations averaged into each T(p) before a speedup is computed"},
    {.key = "history", .type = OptionType::Real, .default_value = "0.6", .minimum = 0, .maximum = 1, .maximum_excluded = true,
     .help = "weight of the previous speedup: S = history x S_old + (1 - history) x S_new"},
    {.key = "sweep", .type = OptionType::IntegerList, .default_value = "", .minimum = 1, .maximum = max_processors,
     .words = "off", .may_be_empty = true,
     .help = "SA(1 exec): the processor counts visited after the baseline, e.g. 1,2,4; empty or `off`: no sweep"},
    {.key = "sweep_every", .type = OptionType::Integer, .default_value = "10", .minimum = 2, .maximum = max_iterations,
     .help = "iterations spent on each processor count of the sweep"},
    {.key = "self_tuning", .type = OptionType::Boolean, .default_value = "1",
     .help = "measure the self-tuning' speedup ST' from the process CPU time"},
    {.key = "report", .type = OptionType::Text, .default_value = "", .may_be_empty = true,
     .help = "write the JSON report to this file at the end (`%p` becomes the process id), whole or not at all; "
             "empty: none"},
    {.key = "summary", .type = OptionType::Boolean, .default_value = "1", .help = "print a short summary on stderr at the end"},
    {.key = "watch_sigcont", .type = OptionType::Boolean, .default_value = "0",
     .help = "install a SIGCONT handler (when the program has none) to discard the iterations during which it was "
             "stopped; the program's blocking calls may then return early (EINTR) after a stop"},
    {.key = "manager", .type = OptionType::Text, .default_value = "default",
     .help = "the processor manager to report to and take the allocation from, when it runs (`augur manager start "
             "--name`, docs/manager.md); `off`: never connect"},
    {.key = "experiment_file", .type = OptionType::Text, .default_value = "%n.cll.jsonl",
     .help = "CALL experiments: the file the records are appended to (`%n` becomes the program's name, `%p` the "
             "process id)"},
    {.key = "counters", .type = OptionType::NameList, .default_value = "", .may_be_empty = true, .max_items = 8,
     .help = "CALL experiments: the PAPI events counted in each instance, e.g. PAPI_TOT_CYC,PAPI_L1_DCM; empty: none"},
    {.key = "bsp_trace", .type = OptionType::Text, .default_value = "", .may_be_empty = true,
     .help = "superstep trace: the file augur_bsp_write (and augur_mpi_bsp_report) writes; empty: none"},
    {.key = "trace", .type = OptionType::Text, .default_value = "", .may_be_empty = true,
     .help = "write a timeline of the run (Chrome trace JSON: open it in ui.perfetto.dev) to this file at the end "
             "(`%p` becomes the process id, `%n` the program's name), whole or not at all; empty: none"},
};

// The kernel coupling harness (include/augur/coupling.h, docs/couple.md).
constexpr OptionSpec coupling_options[] = {
    {.key = "coupling.output", .type = OptionType::Text, .default_value = "%a.coupling.jsonl",
     .help = "the measurement file (`%a` becomes the application's name, `%p` the process id)"},
    {.key = "coupling.min_time", .type = OptionType::Real, .default_value = "0.03", .minimum = 0, .maximum = 3600,
     .minimum_excluded = true,
     .help = "seconds per sample of a kernel or chain: the repetitions are calibrated to last this long"},
    {.key = "coupling.samples", .type = OptionType::Integer, .default_value = "9", .minimum = 1, .maximum = 10000,
     .help = "samples per kernel or chain (median and confidence interval)"},
    {.key = "coupling.warmup", .type = OptionType::Integer, .default_value = "1", .minimum = 0, .maximum = 10000,
     .help = "untimed executions before each sample"},
    {.key = "coupling.chains", .type = OptionType::LengthSpan, .default_value = "all", .minimum = 0, .maximum = 99999,
     .words = "all|none",
     .help = "chain lengths to measure: `all` (2 .. n - 1), `none` (the kernels alone and the loop), K or K1-K2"},
    {.key = "coupling.application_samples", .type = OptionType::Integer, .default_value = "3", .minimum = 1,
     .maximum = 10000, .help = "timed runs of the whole loop"},
    {.key = "coupling.progress", .type = OptionType::Boolean, .default_value = "0",
     .help = "one line on stderr per round of samples, and one for the loop"},
    {.key = "coupling.announce", .type = OptionType::Boolean, .default_value = "1",
     .help = "with `coupling.progress`, one line on stderr naming the measurement file once written (augur couple measure turns it off: the file is its own, read back and removed)"},
    {.key = "coupling.progress_file", .type = OptionType::Text, .default_value = "", .may_be_empty = true,
     .help = "a file to which the harness appends `round K of N` before the first round of samples and after each "
             "(augur couple measure makes one and draws its progress bar from it); only a file that exists is "
             "written, none is created; empty: none"},
};

// libaugur_preload and libaugur_ompt (docs/run.md), besides the runtime set. dpd.window's range is
// dpd::Detector's (checked in session.cpp).
constexpr OptionSpec run_options[] = {
    {.key = "dpd.window", .type = OptionType::Integer, .default_value = "128", .minimum = 4, .maximum = 1 << 20,
     .help = "samples in the periodicity detector's window"},
    {.key = "run.iterations", .type = OptionType::Integer, .default_value = "", .minimum = 1,
     .maximum = static_cast<double>(1L << 40), .may_be_empty = true,
     .help = "iterations of the program's main loop, when known: gives the estimate of the execution time; empty: unknown"},
    {.key = "run.info", .type = OptionType::Text, .default_value = "", .may_be_empty = true,
     .help = "the interposition file written at exit (`%p` becomes the process id); empty: none"},
};

constexpr OptionSet runtime_set{"runtime", "", "augur_set_option", runtime_options};
constexpr OptionSet coupling_set{"coupling", "coupling.", "augur_coupling_set_option", coupling_options};
constexpr OptionSet run_set{"run", "run.", "", run_options};
constexpr std::array<const OptionSet*, 3> all_sets = {&runtime_set, &coupling_set, &run_set};

constexpr std::string_view others[] = {
    "AUGUR_DB",               // the augur command's performance database (docs/db.md)
    "AUGUR_BENCH_VERBOSE",    // bench/model_accuracy
};

std::string quoted(std::string_view value) { return "'" + std::string(value) + "'"; }

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

bool is_word(const OptionSpec& option, std::string_view value) {
  std::string_view rest = option.words;
  while (!rest.empty()) {
    const auto bar = rest.find('|');
    if (rest.substr(0, bar) == value) return true;
    if (bar == std::string_view::npos) break;
    rest = rest.substr(bar + 1);
  }
  return false;
}

// "analyze|time|off" -> "'analyze', 'time' or 'off'".
std::string word_list(std::string_view words) {
  std::vector<std::string> items;
  while (!words.empty()) {
    const auto bar = words.find('|');
    items.push_back(quoted(words.substr(0, bar)));
    if (bar == std::string_view::npos) break;
    words = words.substr(bar + 1);
  }
  std::string out;
  for (std::size_t index = 0; index < items.size(); ++index) {
    out += (index == 0 ? "" : index + 1 == items.size() ? " or " : ", ") + items[index];
  }
  return out;
}

std::string number(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.15g", value);
  return text;
}

bool in_range(const OptionSpec& option, double value) {
  const bool above = option.minimum_excluded ? value > option.minimum : value >= option.minimum;
  const bool below = option.maximum_excluded ? value < option.maximum : value <= option.maximum;
  return above && below;
}

bool integer_in_range(const OptionSpec& option, std::string_view text) {
  const auto parsed = parse_integer(text);
  return parsed && in_range(option, static_cast<double>(*parsed));
}

// Comma-separated items, each accepted by `accept`; no empty item.
template <typename Accept>
bool every_item(std::string_view value, Accept accept, std::size_t& count) {
  count = 0;
  while (true) {
    const auto comma = value.find(',');
    if (!accept(value.substr(0, comma))) return false;
    ++count;
    if (comma == std::string_view::npos) return true;
    value = value.substr(comma + 1);
  }
}

bool valid_name(std::string_view item) {
  return !item.empty() && std::all_of(item.begin(), item.end(), [](unsigned char c) {
    return std::isalnum(c) || c == '_' || c == ':' || c == '.' || c == '-' || c == '=';
  });
}

bool accepts(const OptionSpec& option, std::string_view value) {
  if (value.empty() && option.may_be_empty) return true;
  if (!option.words.empty() && is_word(option, value)) return true;
  std::size_t count = 0;
  switch (option.type) {
    case OptionType::Integer: return integer_in_range(option, value);
    case OptionType::Real: {
      const auto parsed = parse_real(value);
      return parsed && in_range(option, *parsed);
    }
    case OptionType::Boolean: return parse_boolean(value).has_value();
    case OptionType::Choice: return false;  // the words were tested above
    case OptionType::Text: return !value.empty();
    case OptionType::IntegerList:
      return every_item(value, [&](std::string_view item) { return integer_in_range(option, item); }, count);
    case OptionType::NameList:
      return every_item(value, valid_name, count) && (option.max_items == 0 || count <= static_cast<std::size_t>(option.max_items));
    case OptionType::LengthSpan: {
      // No more digits than the maximum has (so that 000003 is refused here as the harness refuses it,
      // coupling::chain_lengths, rather than read as `all` there).
      const std::size_t most_digits = std::to_string(static_cast<long long>(option.maximum)).size();
      const auto part = [&](std::string_view text) { return text.size() <= most_digits && integer_in_range(option, text); };
      const auto dash = value.find('-');
      return part(value.substr(0, dash)) && (dash == std::string_view::npos || part(value.substr(dash + 1)));
    }
  }
  return false;
}

// Levenshtein distance (short names only: the variables' names).
std::size_t edit_distance(std::string_view first, std::string_view second) {
  std::vector<std::size_t> previous(second.size() + 1);
  std::vector<std::size_t> current(second.size() + 1);
  for (std::size_t column = 0; column <= second.size(); ++column) previous[column] = column;
  for (std::size_t row = 1; row <= first.size(); ++row) {
    current[0] = row;
    for (std::size_t column = 1; column <= second.size(); ++column) {
      const std::size_t substitution = previous[column - 1] + (first[row - 1] == second[column - 1] ? 0 : 1);
      current[column] = std::min({previous[column] + 1, current[column - 1] + 1, substitution});
    }
    std::swap(previous, current);
  }
  return previous[second.size()];
}

// Every AUGUR_* name augur knows.
std::vector<std::string> known_variables() {
  std::vector<std::string> names;
  for (const OptionSet* set : all_sets) {
    for (const OptionSpec& option : set->options) names.push_back(environment_name(option.key));
  }
  names.emplace_back(tool_channel_variable);
  for (const std::string_view other : others) names.emplace_back(other);
  return names;
}

}  // namespace

const OptionSet& runtime_option_set() { return runtime_set; }
const OptionSet& coupling_option_set() { return coupling_set; }
const OptionSet& run_option_set() { return run_set; }
std::span<const OptionSet* const> option_sets() { return all_sets; }

const OptionSet* find_option_set(std::string_view name) {
  for (const OptionSet* set : all_sets) {
    if (set->name == name) return set;
  }
  return nullptr;
}

std::string environment_name(std::string_view key) {
  std::string name = "AUGUR_";
  for (const char c : key) name += c == '.' || c == '-' ? '_' : static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return name;
}

std::string_view api_key(const OptionSet& set, const OptionSpec& option) {
  return option.key.starts_with(set.prefix) ? option.key.substr(set.prefix.size()) : option.key;
}

std::string flag_name(const OptionSet& set, const OptionSpec& option) {
  std::string flag = "--";
  for (const char c : api_key(set, option)) flag += c == '_' || c == '.' ? '-' : c;
  return flag;
}

const OptionSpec* find_option(const OptionSet& set, std::string_view key) {
  for (const OptionSpec& option : set.options) {
    if (api_key(set, option) == key) return &option;
  }
  return nullptr;
}

std::pair<const OptionSet*, const OptionSpec*> find_full_key(std::string_view key) {
  for (const OptionSet* set : all_sets) {
    for (const OptionSpec& option : set->options) {
      if (option.key == key) return {set, &option};
    }
  }
  return {nullptr, nullptr};
}

std::string describe_values(const OptionSpec& option) {
  std::string text;
  switch (option.type) {
    case OptionType::Integer: text = "an integer from " + number(option.minimum) + " to " + number(option.maximum); break;
    case OptionType::Real:
      text = std::string("a number in ") + (option.minimum_excluded ? "(" : "[") + number(option.minimum) + ", " +
             number(option.maximum) + (option.maximum_excluded ? ")" : "]");
      break;
    case OptionType::Boolean: text = "a boolean (1, 0, true, false, yes, no, on, off)"; break;
    case OptionType::Choice: return word_list(option.words);
    case OptionType::Text: text = option.may_be_empty ? "a path" : "a non-empty path"; break;
    case OptionType::IntegerList:
      text = "comma-separated integers from " + number(option.minimum) + " to " + number(option.maximum);
      break;
    case OptionType::NameList:
      text = "comma-separated event names";
      if (option.max_items > 0) text += " (at most " + std::to_string(option.max_items) + ")";
      break;
    case OptionType::LengthSpan:
      text = "K or K1-K2 (integers from " + number(option.minimum) + " to " + number(option.maximum) + ")";
      break;
  }
  if (!option.words.empty()) text += ", or " + word_list(option.words);
  if (option.may_be_empty) text += ", or empty";
  return text;
}

std::optional<std::string> check_value(const OptionSpec& option, std::string_view value) {
  if (accepts(option, value)) return std::nullopt;
  return quoted(value) + " is not " + describe_values(option);
}

OptionValues::OptionValues(const OptionSet& set) : set_(&set) {
  for (const OptionSpec& option : set.options) values_.emplace_back(option.default_value);
}

std::size_t OptionValues::index(std::string_view key) const {
  for (std::size_t position = 0; position < set_->options.size(); ++position) {
    if (api_key(*set_, set_->options[position]) == key) return position;
  }
  return values_.size();
}

std::optional<std::string> OptionValues::set_value(std::string_view key, std::string_view value) {
  const std::size_t position = index(key);
  if (position == values_.size()) {
    std::string known;
    for (const OptionSpec& option : set_->options) known += (known.empty() ? "" : ", ") + std::string(api_key(*set_, option));
    return "unknown option " + quoted(key) + " (known: " + known + ")";
  }
  if (auto error = check_value(set_->options[position], value)) return error;
  values_[position] = std::string(value);
  return std::nullopt;
}

const std::string& OptionValues::text(std::string_view key) const {
  const std::size_t position = index(key);
  return values_.at(position);  // a key the program itself names: out_of_range is a programming error
}

long OptionValues::integer(std::string_view key) const { return parse_integer(text(key)).value_or(0); }

double OptionValues::real(std::string_view key) const { return parse_real(text(key)).value_or(0.0); }

bool OptionValues::boolean(std::string_view key) const { return parse_boolean(text(key)).value_or(false); }

std::vector<int> OptionValues::integers(std::string_view key) const {
  std::vector<int> list;
  const std::string& value = text(key);
  const OptionSpec& option = set_->options[index(key)];
  if (value.empty() || is_word(option, value)) return list;
  std::size_t count = 0;
  (void)every_item(value, [&](std::string_view item) {
    list.push_back(static_cast<int>(parse_integer(item).value_or(0)));
    return true;
  }, count);
  return list;
}

std::vector<std::string> OptionValues::names(std::string_view key) const {
  std::vector<std::string> list;
  const std::string& value = text(key);
  if (value.empty()) return list;
  std::size_t count = 0;
  (void)every_item(value, [&](std::string_view item) {
    list.emplace_back(item);
    return true;
  }, count);
  return list;
}

std::vector<std::pair<std::string, std::string>> OptionValues::entries() const {
  std::vector<std::pair<std::string, std::string>> list;
  for (std::size_t position = 0; position < values_.size(); ++position) {
    list.emplace_back(api_key(*set_, set_->options[position]), values_[position]);
  }
  return list;
}

std::string tool_options(std::span<const std::pair<std::string, std::string>> choices) {
  std::string text;
  const auto append_escaped = [&text](std::string_view part) {  // keys too: parse_tool_options unescapes both
    for (const char c : part) text += (c == ';' || c == '\\') ? std::string{'\\', c} : std::string{c};
  };
  for (const auto& [key, value] : choices) {
    if (!text.empty()) text += ';';
    append_escaped(key);
    text += '=';
    append_escaped(value);
  }
  return text;
}

std::optional<std::vector<std::pair<std::string, std::string>>> parse_tool_options(std::string_view text) {
  std::vector<std::pair<std::string, std::string>> entries;
  std::string entry;
  // An empty entry (an empty value of the variable, or a trailing ';') is skipped.
  const auto finish = [&]() {
    if (entry.empty()) return true;
    const auto equals = entry.find('=');
    if (equals == std::string::npos || equals == 0) return false;
    entries.emplace_back(entry.substr(0, equals), entry.substr(equals + 1));
    entry.clear();
    return true;
  };
  bool escaped = false;
  for (const char c : text) {
    if (escaped) {
      entry += c;
      escaped = false;
    } else if (c == '\\') {
      escaped = true;
    } else if (c == ';') {
      if (!finish()) return std::nullopt;
    } else {
      entry += c;
    }
  }
  if (escaped || !finish()) return std::nullopt;
  return entries;
}

OptionValues resolve_options(const OptionSet& set, const OptionSources& sources, std::vector<std::string>& warnings) {
  OptionValues values(set);
  const auto current = [&](const OptionSpec& option) {
    const std::string& value = values.text(api_key(set, option));
    return value.empty() ? std::string("empty") : value;
  };
  if (sources.environment) {
    for (const OptionSpec& option : set.options) {
      const std::string variable = environment_name(option.key);
      const char* value = sources.environment(variable.c_str());
      if (value == nullptr) continue;
      if (auto error = values.set_value(api_key(set, option), value)) {
        warnings.push_back(variable + ": " + *error + "; using the default (" + current(option) + ")");
      }
    }
  }
  for (const auto& [key, value] : sources.api) {
    if (auto error = values.set_value(key, value)) warnings.push_back(std::string(sources.api_name) + "(" + key + "): " + *error);
  }
  if (sources.tool_channel != nullptr) {
    // Malformed text and unknown keys are check_variables' to report; here the entries of this set.
    const auto entries = parse_tool_options(sources.tool_channel);
    for (const auto& [key, value] : entries.value_or(std::vector<std::pair<std::string, std::string>>{})) {
      const auto [owner, option] = find_full_key(key);
      if (owner != &set) continue;
      const std::string kept = current(*option);
      if (auto error = values.set_value(api_key(set, *option), value)) {
        warnings.push_back(std::string(tool_channel_variable) + ": " + key + ": " + *error + "; using " + kept);
      }
    }
  }
  return values;
}

std::span<const std::string_view> other_known_variables() { return others; }

std::string closest_known_variable(std::string_view name) {
  std::string best;
  std::size_t best_distance = 0;
  for (const std::string& known : known_variables()) {
    const std::size_t distance = edit_distance(name, known);
    if (best.empty() || distance < best_distance) {
      best = known;
      best_distance = distance;
    }
  }
  const std::size_t allowed = name.size() > 20 ? 3 : 2;
  return best_distance <= allowed ? best : std::string();
}

std::vector<std::string> variable_names(const char* const* environment) {
  std::vector<std::string> names;
  for (const char* const* entry = environment; entry != nullptr && *entry != nullptr; ++entry) {
    const std::string_view text(*entry);
    names.emplace_back(text.substr(0, text.find('=')));
  }
  return names;
}

void check_variables(std::span<const std::string> variables, const char* tool_channel, std::vector<std::string>& warnings) {
  const std::vector<std::string> known = known_variables();
  for (const std::string& name : variables) {
    if (!name.starts_with("AUGUR_") || std::find(known.begin(), known.end(), name) != known.end()) continue;
    const std::string suggestion = closest_known_variable(name);
    warnings.push_back("unknown variable " + name +
                       (suggestion.empty() ? std::string(" (`augur options` lists them); ignored")
                                           : " (did you mean " + suggestion + "?)"));
  }
  if (tool_channel == nullptr) return;
  const auto entries = parse_tool_options(tool_channel);
  if (!entries) {
    warnings.push_back(std::string(tool_channel_variable) + ": " + quoted(tool_channel) +
                       " is not a list of key=value separated by ';'; ignored");
    return;
  }
  for (const auto& [key, value] : *entries) {
    if (find_full_key(key).second == nullptr) {
      warnings.push_back(std::string(tool_channel_variable) + ": unknown option " + quoted(key) + "; ignored");
    }
  }
}

namespace {
std::string markdown_cell(std::string_view text) {
  std::string cell;
  for (const char c : text) {
    if (c == '|') cell += '\\';
    cell += c;
  }
  return cell;
}
}  // namespace

std::string markdown_table(const OptionSet& set) {
  std::string table = "| key | variable | default | values | meaning |\n| --- | --- | --- | --- | --- |\n";
  for (const OptionSpec& option : set.options) {
    const std::string fallback = option.default_value.empty() ? "(empty)" : "`" + std::string(option.default_value) + "`";
    table += "| `" + std::string(option.key) + "` | `" + environment_name(option.key) + "` | " + fallback + " | " +
             markdown_cell(describe_values(option)) + " | " + markdown_cell(option.help) + " |\n";
  }
  return table;
}

// ---- libaugur's settings ------------------------------------------------------------------------

const char* mode_name(Mode mode) {
  switch (mode) {
    case Mode::Analyze: return "analyze";
    case Mode::Time: return "time";
    case Mode::Off: return "off";
  }
  return "analyze";
}

Settings settings_from(const OptionValues& values) {
  Settings settings;
  const std::string& mode = values.text("mode");
  settings.mode = mode == "time" ? Mode::Time : mode == "off" ? Mode::Off : Mode::Analyze;
  if (values.text("baseline") == "auto") {
    settings.engine.baseline.kind = selfanalysis::BaselinePolicy::Kind::Automatic;
  } else if (values.text("baseline") == "half") {
    settings.engine.baseline.kind = selfanalysis::BaselinePolicy::Kind::Half;
  } else {
    settings.engine.baseline.kind = selfanalysis::BaselinePolicy::Kind::Fixed;
    settings.engine.baseline.processors = static_cast<int>(values.integer("baseline"));
  }
  settings.engine.warmup_iterations = static_cast<int>(values.integer("warmup_iterations"));
  settings.engine.baseline_iterations = static_cast<int>(values.integer("baseline_iterations"));
  settings.engine.measure_iterations = static_cast<int>(values.integer("measure_iterations"));
  settings.engine.baseline_every = static_cast<int>(values.integer("baseline_every"));
  settings.engine.history_weight = values.real("history");
  settings.engine.sweep = values.integers("sweep");
  settings.engine.sweep_every = static_cast<int>(values.integer("sweep_every"));
  settings.engine.self_tuning = values.boolean("self_tuning");
  settings.report_path = values.text("report");
  settings.summary = values.boolean("summary");
  settings.watch_sigcont = values.boolean("watch_sigcont");
  settings.manager = values.text("manager");
  settings.experiment_file = values.text("experiment_file");
  settings.counters = values.names("counters");
  settings.bsp_trace = values.text("bsp_trace");
  settings.trace = values.text("trace");
  settings.options = values;
  return settings;
}

std::optional<std::string> apply_option(Settings& settings, std::string_view key, std::string_view value) {
  OptionValues values = settings.options;
  if (auto error = values.set_value(key, value)) return error;
  settings = settings_from(values);
  return std::nullopt;
}

}  // namespace augur::runtime
