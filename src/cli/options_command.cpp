#include "options_command.hpp"

#include "command.hpp"
#include "core/json_text.hpp"
#include "flags.hpp"

#include <CLI/CLI.hpp>
#include <cctype>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <stdexcept>

namespace augur::cli {
namespace {

using Json = nlohmann::ordered_json;

const char* type_name(runtime::OptionType type) {
  switch (type) {
    case runtime::OptionType::Integer: return "integer";
    case runtime::OptionType::Real: return "real";
    case runtime::OptionType::Boolean: return "boolean";
    case runtime::OptionType::Choice: return "choice";
    case runtime::OptionType::Text: return "text";
    case runtime::OptionType::IntegerList: return "integer list";
    case runtime::OptionType::NameList: return "name list";
    case runtime::OptionType::LengthSpan: return "length span";
  }
  return "text";
}

// The placeholder of a flag's value in --help.
const char* value_name(runtime::OptionType type) {
  switch (type) {
    case runtime::OptionType::Integer: return "N";
    case runtime::OptionType::Real: return "NUMBER";
    case runtime::OptionType::Boolean: return "BOOL";
    case runtime::OptionType::Choice: return "WORD";
    case runtime::OptionType::Text: return "TEXT";
    case runtime::OptionType::IntegerList: return "N,N,...";
    case runtime::OptionType::NameList: return "NAME,...";
    case runtime::OptionType::LengthSpan: return "SPAN";
  }
  return "TEXT";
}

const runtime::OptionSpec& registry_entry(const runtime::OptionSet& set, std::string_view key) {
  const runtime::OptionSpec* option = runtime::find_option(set, key);
  if (option == nullptr) throw std::logic_error("option set " + std::string(set.name) + " has no option " + std::string(key));
  return *option;
}

Json set_json(const runtime::OptionSet& set) {
  Json options = Json::array();
  for (const runtime::OptionSpec& option : set.options) {
    options.push_back({{"key", option.key},
                       {"api_key", runtime::api_key(set, option)},
                       {"variable", runtime::environment_name(option.key)},
                       {"flag", runtime::flag_name(set, option)},
                       {"type", type_name(option.type)},
                       {"default", option.default_value},
                       {"values", runtime::describe_values(option)},
                       {"help", option.help}});
  }
  return {{"set", set.name}, {"api", set.api.empty() ? Json(nullptr) : Json(set.api)}, {"options", options}};
}

std::string set_text(const runtime::OptionSet& set) {
  std::string text = std::string(set.name) + " options";
  text += set.api.empty() ? std::string(" (environment or tool channel)") : " (" + std::string(set.api) + ", environment or tool channel)";
  text += ":\n";
  for (const runtime::OptionSpec& option : set.options) {
    text += "  " + std::string(option.key) + "  [" + runtime::environment_name(option.key) + "]  default " +
            (option.default_value.empty() ? std::string("(empty)") : std::string(option.default_value)) + "\n";
    text += "      " + runtime::describe_values(option) + ": " + std::string(option.help) + "\n";
  }
  return text;
}

// The variables outside the sets (runtime::other_variables), after the sets' tables.
std::string others_text() {
  std::string text = "other variables (not options of a set: no key, no API, no tool channel):\n";
  for (const runtime::OtherVariable& other : runtime::other_variables())
    text += "  " + std::string(other.name) + "  read by " + std::string(other.reader) + "\n      " + std::string(other.help) + "\n";
  return text;
}

}  // namespace

void add_options_options(CLI::App* command, OptionsCommandOptions& options) {
  command->add_option("--set", options.set, "Only this set: runtime, coupling or run")
      ->check(CLI::IsMember({"runtime", "coupling", "run"}));
  CLI::Option* markdown = command->add_flag("--markdown", options.markdown, "The tables of the docs (Markdown)");
  CLI::Option* json = add_json_flag(*command, options.json, "Write JSON instead of tables");
  markdown->excludes(json);
}

int run_options_command(const OptionsCommandOptions& options) {
  std::vector<const runtime::OptionSet*> sets;
  for (const runtime::OptionSet* set : runtime::option_sets()) {
    if (options.set.empty() || set->name == options.set) sets.push_back(set);
  }
  std::string out;
  if (options.json) {
    Json document = Json::array();
    for (const runtime::OptionSet* set : sets) document.push_back(set_json(*set));
    out = core::json_text(sets.size() == 1 ? document[0] : document, 2) + "\n";
  } else {
    for (const runtime::OptionSet* set : sets) {
      if (!out.empty()) out += "\n";
      out += options.markdown ? runtime::markdown_table(*set) : set_text(*set);
    }
    if (!options.markdown && options.set.empty()) out += "\n" + others_text();
  }
  std::fputs(out.c_str(), stdout);
  return 0;
}

std::string registry_help(const runtime::OptionSet& set, std::string_view key) {
  const runtime::OptionSpec& option = registry_entry(set, key);
  std::string help(option.help);
  help[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(help[0])));
  if (!option.default_value.empty()) help += " (default " + std::string(option.default_value) + ")";
  return help + " [" + runtime::environment_name(option.key) + "]";
}

CLI::Option* add_registry_option(CLI::App& command, const runtime::OptionSet& set, std::string_view key, ToolChoices& choices) {
  const runtime::OptionSpec& option = registry_entry(set, key);
  return command
      .add_option_function<std::string>(
          runtime::flag_name(set, option),
          [&choices, full_key = std::string(option.key)](const std::string& value) { choices.emplace_back(full_key, value); },
          registry_help(set, key))
      ->type_name(option.words.empty()                          ? std::string(value_name(option.type))
                  : option.type == runtime::OptionType::Choice ? std::string(option.words)  // analyze|time|off
                                                               : std::string(value_name(option.type)) + "|" + std::string(option.words))  // N|auto|half
      ->check([&option](const std::string& value) { return runtime::check_value(option, value).value_or(""); });
}

std::pair<std::string, std::string> tool_channel_entry(const ToolChoices& choices) {
  for (const auto& [key, value] : choices) {
    if (runtime::find_full_key(key).second == nullptr) throw std::logic_error("no option set has the key " + key);
  }
  return {std::string(runtime::tool_channel_variable), runtime::tool_options(choices)};
}

Runner declare_options_command(CLI::App& command) {
  auto options = std::make_shared<OptionsCommandOptions>();
  add_options_options(&command, *options);
  return [options] { return run_options_command(*options); };
}

}  // namespace augur::cli
