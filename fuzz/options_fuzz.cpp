// Option values (src/runtime/options.cpp): the registries' checks of every type, the tool channel
// AUGUR_TOOL_OPTIONS and the resolution of a set from an environment. The input is a tool channel's value
// on its first line, then environment entries NAME=value, one a line. The options code throws nothing
// of its own (docs: "no exceptions of its own"), so nothing is caught here.
//   - every option checks every value (check_value) and an accepted value is then read by its type;
//   - a tool channel that parses is written back (tool_options) and must parse to the same pairs;
//   - each set is resolved from the environment and the channel, the runtime set turned into settings,
//     and every entry applied as an API call (apply_option).
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "fuzz_common.hpp"
#include "runtime/options.hpp"

namespace {

using namespace augur::runtime;

void read_typed(const OptionValues& values, const OptionSpec& option) {
  const std::string key(api_key(values.set(), option));
  switch (option.type) {
    case OptionType::Integer:
      (void)values.integer(key);
      break;
    case OptionType::Real:
      (void)values.real(key);
      break;
    case OptionType::Boolean:
      (void)values.boolean(key);
      break;
    case OptionType::IntegerList:
      (void)values.integers(key);
      break;
    case OptionType::NameList:
      (void)values.names(key);
      break;
    default:
      (void)values.text(key);
      break;
  }
}

// Every option of every set given `value` through set_value; accepted values are read back by type.
void check_everywhere(std::string_view value) {
  for (const OptionSet* set : option_sets()) {
    OptionValues values(*set);
    for (const OptionSpec& option : set->options) {
      const bool valid = !check_value(option, value).has_value();
      const std::string key(api_key(*set, option));
      const bool accepted = !values.set_value(key, value).has_value();
      augur::fuzz::expect(valid == accepted, "check_value and set_value disagree", key + "=" + std::string(value));
      if (accepted) {
        augur::fuzz::expect(values.text(key) == value, "a value set reads back differently", std::string(value));
        read_typed(values, option);
      }
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace augur;
  if (size > 4096) return 0;
  const std::string text = fuzz::text_of(data, size);
  const std::string::size_type end = text.find('\n');
  const std::string channel = text.substr(0, end);
  std::map<std::string, std::string> environment;
  std::vector<std::pair<std::string, std::string>> calls;
  std::vector<std::string> names;
  if (end != std::string::npos) {
    std::string_view rest = std::string_view(text).substr(end + 1);
    while (!rest.empty()) {
      const std::string_view line = rest.substr(0, rest.find('\n'));
      rest.remove_prefix(std::min(rest.size(), line.size() + 1));
      const std::string_view::size_type equals = line.find('=');
      const std::string name(line.substr(0, equals));
      const std::string value(equals == std::string_view::npos ? "" : line.substr(equals + 1));
      environment[name] = value;
      names.push_back(name);
      calls.emplace_back(name, value);
      check_everywhere(value);
      (void)closest_known_variable(name);
    }
  }
  check_everywhere(channel);

  if (const auto pairs = parse_tool_options(channel)) {
    const std::string written = tool_options(*pairs);
    const auto again = parse_tool_options(written);
    fuzz::expect(again.has_value() && *again == *pairs, "a written tool channel reads back differently",
                 channel + "\n--- written\n" + written);
  }
  std::vector<std::string> warnings;
  check_variables(names, channel.c_str(), warnings);
  const auto lookup = [&environment](const char* name) -> const char* {
    const auto found = environment.find(name);
    return found == environment.end() ? nullptr : found->second.c_str();
  };
  for (const OptionSet* set : option_sets()) {
    const OptionValues values = resolve_options(*set, {lookup, calls, channel.c_str()}, warnings);
    for (const OptionSpec& option : set->options) {
      fuzz::expect(!check_value(option, values.text(api_key(*set, option))).has_value(),
                   "a resolved value does not pass its check", std::string(option.key));
      read_typed(values, option);
    }
  }
  Settings settings = settings_from(resolve_options(runtime_option_set(), {lookup, calls, channel.c_str()}, warnings));
  for (const auto& [key, value] : calls) (void)apply_option(settings, key, value);
  return 0;
}
