// The tool channel (AUGUR_TOOL_OPTIONS), the resolution of a set from its sources and the check of the
// AUGUR_* variables of the environment.
#include "options.hpp"

#include <algorithm>

#include "options_internal.hpp"

namespace augur::runtime {
namespace {

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
  for (const OptionSet* set : option_sets()) {
    for (const OptionSpec& option : set->options) names.push_back(environment_name(option.key));
  }
  names.emplace_back(tool_channel_variable);
  for (const OtherVariable& other : other_variables()) names.emplace_back(other.name);
  return names;
}

}  // namespace

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

}  // namespace augur::runtime
