// augur options: the option sets of augur's code in the user's process (runtime/options.hpp), as a
// table, Markdown (the docs' tables are this output, checked by tests/runtime/runtime_test.cpp) or JSON;
// and the helpers through which a command exposes options of a set as flags and passes them to the
// program it drives in the tool channel (AUGUR_TOOL_OPTIONS).
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "runtime/options.hpp"

namespace CLI {
class App;
class Option;
}  // namespace CLI

namespace augur::cli {

struct OptionsCommandOptions {
  std::string set;  // empty: every set
  bool markdown = false;
  bool json = false;
};

// Declares the options of `augur options` on its subcommand (the table of commands.cpp makes it).
void add_options_options(CLI::App* command, OptionsCommandOptions& options);
int run_options_command(const OptionsCommandOptions& options);

// The choices a command passes to the program it drives: (full key, value), later entries winning.
using ToolChoices = std::vector<std::pair<std::string, std::string>>;

// Adds the flag of option `key` (the set's API key) to `command`: its name (flag_name), help (the
// registry's, with the default and the variable) and check (check_value) come from the registry; a value
// given is appended to `choices` under the option's full key. Throws std::logic_error for a key the set
// does not have (a programming error).
CLI::Option* add_registry_option(CLI::App& command, const runtime::OptionSet& set, std::string_view key, ToolChoices& choices);

// The help text of an option as a flag shows it: "help (default D) [AUGUR_KEY]".
std::string registry_help(const runtime::OptionSet& set, std::string_view key);

// The environment entry that passes `choices` to a program: {"AUGUR_TOOL_OPTIONS", "key=value;..."}.
// Throws std::logic_error for a key no set has (a programming error).
std::pair<std::string, std::string> tool_channel_entry(const ToolChoices& choices);

}  // namespace augur::cli
