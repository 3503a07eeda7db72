// Option values: checked by type (check_value, describe_values) and read (OptionValues).
#include "options.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>

#include "options_internal.hpp"

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

}  // namespace

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

}  // namespace augur::runtime
