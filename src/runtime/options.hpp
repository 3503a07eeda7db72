// The options of augur's code in the user's process, declared once per option set (docs/self-analysis.md,
// "Options"; docs/run.md; docs/couple.md):
//   runtime   libaugur's self-analysis, experiments and traces (augur_set_option);
//   coupling  the kernel coupling harness (augur_coupling_set_option);
//   run       the dynamic instrumentation of `augur run` (libaugur_preload, libaugur_ompt).
//
// Each entry has a key, a type, a default, a range or allowed words and a help text. From the key, by one
// rule: the environment variable AUGUR_<KEY> (upper case, '.' and '-' become '_'), the key of the set's
// API (the key without the set's prefix: "coupling.min_time" -> "min_time") and the command-line flag
// of a command that exposes it ("--" + that key, '_' and '.' become '-'). Values are checked by type,
// in one place (check_value).
//
// Precedence, for every set: default < environment < API < tool channel. The tool channel is the one
// variable AUGUR_TOOL_OPTIONS="key=value;key=value" (full keys; '\' escapes ';' and '\' in values)
// through which a tool that drives a program (`augur run`, `augur couple measure`) passes its choices:
// they outrank whatever the program or its environment chose (tool_options builds the value).
//
// Pure: no I/O, no exceptions of its own (allocation may throw; callers in the user's process catch),
// used at start-up only, never on a probe's path.
#pragma once

#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "augur/selfanalysis.hpp"

namespace augur::runtime {

enum class OptionType {
  Integer,      // a whole number in [minimum, maximum], or one of `words`
  Real,         // a finite number in the range (bounds excluded as marked)
  Boolean,      // 1, 0, true, false, yes, no, on, off (any case)
  Choice,       // one of `words`
  Text,         // any text (a path); empty only when may_be_empty
  IntegerList,  // comma-separated whole numbers in [minimum, maximum]; empty or one of `words`: none
  NameList,     // comma-separated names of letters, digits and _:.-= (at most max_items)
  LengthSpan,   // one of `words`, K or K1-K2 (whole numbers in [minimum, maximum])
};

// One option, declared once.
struct OptionSpec {
  std::string_view key{};  // full key: "baseline", "coupling.min_time", "dpd.window"
  OptionType type = OptionType::Text;
  std::string_view default_value{};
  double minimum = 0;
  double maximum = 0;
  bool minimum_excluded = false;  // Real: (minimum, ...
  bool maximum_excluded = false;  // Real: ..., maximum)
  std::string_view words{};       // allowed words, '|'-separated: "analyze|time|off", "half", "all|none"
  bool may_be_empty = false;      // Text, Integer: "" is a value (for Integer: "not given")
  int max_items = 0;              // NameList: the most names (0: no limit)
  std::string_view help{};
};

// One option set: its name ("runtime"), the prefix its keys share and that its API and flags drop
// ("coupling."), the API function that sets its options, and its entries in documentation order.
struct OptionSet {
  std::string_view name;
  std::string_view prefix;
  std::string_view api;
  std::span<const OptionSpec> options;
};

[[nodiscard]] const OptionSet& runtime_option_set();
[[nodiscard]] const OptionSet& coupling_option_set();
[[nodiscard]] const OptionSet& run_option_set();
// The three sets, in the order above.
[[nodiscard]] std::span<const OptionSet* const> option_sets();
// The set named `name`, or null.
[[nodiscard]] const OptionSet* find_option_set(std::string_view name);

// "baseline" -> "AUGUR_BASELINE", "coupling.min_time" -> "AUGUR_COUPLING_MIN_TIME".
[[nodiscard]] std::string environment_name(std::string_view key);
// The key of the set's API: the full key without the set's prefix.
[[nodiscard]] std::string_view api_key(const OptionSet& set, const OptionSpec& option);
// The command-line flag of a command that exposes the option: "--warmup-iterations", "--dpd-window".
[[nodiscard]] std::string flag_name(const OptionSet& set, const OptionSpec& option);
// The entry whose API key is `key` in `set`, or null.
[[nodiscard]] const OptionSpec* find_option(const OptionSet& set, std::string_view key);
// The entry and its set for a full key (as in the tool channel), or nulls.
[[nodiscard]] std::pair<const OptionSet*, const OptionSpec*> find_full_key(std::string_view key);

// Nullopt when `value` is valid for `option`, else why not, naming the value and what is expected.
[[nodiscard]] std::optional<std::string> check_value(const OptionSpec& option, std::string_view value);

// A human description of what the option accepts ("an integer from 1 to 4096, or half"), for tables.
[[nodiscard]] std::string describe_values(const OptionSpec& option);

// The checked values of one set, as text, one per entry (defaults until set).
class OptionValues {
public:
  explicit OptionValues(const OptionSet& set);
  [[nodiscard]] const OptionSet& set() const { return *set_; }
  // Sets the option with API key `key`; nullopt when done, else why not (unknown key or bad value;
  // the values are unchanged then).
  [[nodiscard]] std::optional<std::string> set_value(std::string_view key, std::string_view value);
  // The text of an option by API key (the key must exist: these are the program's own reads).
  [[nodiscard]] const std::string& text(std::string_view key) const;
  [[nodiscard]] long integer(std::string_view key) const;  // 0 for a word or "" (test text() first)
  [[nodiscard]] double real(std::string_view key) const;
  [[nodiscard]] bool boolean(std::string_view key) const;
  [[nodiscard]] std::vector<int> integers(std::string_view key) const;        // IntegerList; empty for a word
  [[nodiscard]] std::vector<std::string> names(std::string_view key) const;  // NameList
  // Every (API key, value) in the set's order.
  [[nodiscard]] std::vector<std::pair<std::string, std::string>> entries() const;

private:
  [[nodiscard]] std::size_t index(std::string_view key) const;
  const OptionSet* set_;
  std::vector<std::string> values_;
};

// The name of the tool channel's variable.
inline constexpr std::string_view tool_channel_variable = "AUGUR_TOOL_OPTIONS";

// The tool channel's value for `choices` (full keys and values): "key=value;key=value", with ';' and '\'
// in keys and values escaped by '\' (what parse_tool_options parsed, written back, parses the same). The
// keys are not checked here (a tool checks them with find_full_key).
[[nodiscard]] std::string tool_options(std::span<const std::pair<std::string, std::string>> choices);
// The (full key, value) pairs of a tool channel's value; nullopt when it is malformed (an entry
// without '=').
[[nodiscard]] std::optional<std::vector<std::pair<std::string, std::string>>> parse_tool_options(std::string_view text);

// The sources of one set's values, lowest precedence first after the defaults.
struct OptionSources {
  std::function<const char*(const char* name)> environment;  // getenv, or a test's lookup; empty: none
  std::span<const std::pair<std::string, std::string>> api;  // (API key, value), in call order
  const char* tool_channel = nullptr;                         // the value of AUGUR_TOOL_OPTIONS, or null
  std::string_view api_name = "augur_set_option";             // in warnings about API values
};

// The values of `set`: defaults, then the environment, then the API, then the tool channel. A bad value
// is warned about (appended to `warnings`, naming its variable, call or channel) and the lower source's
// value kept.
[[nodiscard]] OptionValues resolve_options(const OptionSet& set, const OptionSources& sources, std::vector<std::string>& warnings);

// A variable of augur's that belongs to no option set: read by the augur command itself (AUGUR_DB), by an
// interposition library outside its options (AUGUR_CORE_BINDING, AUGUR_SPIN_SAMPLING) or by the benchmarks.
struct OtherVariable {
  std::string_view name;
  std::string_view reader;  // what reads it
  std::string_view help;
};
// Known, so that they are not reported as misspelt, and listed by `augur options`.
[[nodiscard]] std::span<const OtherVariable> other_variables();

// The closest known AUGUR_* name to `name` when it is close (edit distance at most 2, or 3 for long
// names), else "".
[[nodiscard]] std::string closest_known_variable(std::string_view name);

// The names of the variables of an environment block (environ: "NAME=value" strings, null-terminated).
[[nodiscard]] std::vector<std::string> variable_names(const char* const* environment);

// One warning per AUGUR_* name in `variables` that no set knows ("unknown variable AUGUR_BASELNE (did
// you mean AUGUR_BASELINE?)"), and one per tool-channel entry with an unknown key or malformed text.
void check_variables(std::span<const std::string> variables, const char* tool_channel, std::vector<std::string>& warnings);

// The set's table in Markdown (key, variable, default, values, meaning), as the docs quote it between
// <!-- options:NAME --> and <!-- /options --> (augur options --markdown prints it).
[[nodiscard]] std::string markdown_table(const OptionSet& set);

// ---- libaugur's settings (the runtime set, typed) ----------------------------------------------

enum class Mode { Analyze, Time, Off };

[[nodiscard]] const char* mode_name(Mode mode);

struct Settings {
  Mode mode = Mode::Analyze;
  selfanalysis::Config engine;
  std::string report_path;  // empty: no report file; "%p" is replaced by the process id
  bool summary = true;
  bool watch_sigcont = false;
  // The processor manager's name (docs/manager.md); "off": never connect.
  std::string manager = "default";
  // CALL experiments: the records file ("%n" the program's name, "%p" the process id), appended to.
  std::string experiment_file = "%n.cll.jsonl";
  // PAPI events counted during each experiment instance; empty: none.
  std::vector<std::string> counters;
  // Where augur_bsp_write puts the superstep trace when given no path; empty: nowhere.
  std::string bsp_trace;
  // The timeline of the run (trace_recorder.hpp) written at exit ("%p", "%n" expanded); empty: none.
  std::string trace;
  // The checked text of every option, from which the fields above are made.
  OptionValues options{runtime_option_set()};
};

// The typed settings of checked values of the runtime set.
[[nodiscard]] Settings settings_from(const OptionValues& values);

// Applies one option (API key) to `settings`; returns an error message (naming what is expected) on a
// bad value or an unknown key, and leaves `settings` unchanged then.
[[nodiscard]] std::optional<std::string> apply_option(Settings& settings, std::string_view key, std::string_view value);

}  // namespace augur::runtime
