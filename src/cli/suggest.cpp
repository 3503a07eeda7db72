// Suggestions for a mistyped command or option (suggest.hpp).
#include "suggest.hpp"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <numeric>

namespace augur::cli {

std::size_t edit_distance(std::string_view a, std::string_view b) {
  // Optimal string alignment: three rows of the dynamic programme.
  std::vector<std::size_t> before(b.size() + 1), previous(b.size() + 1), current(b.size() + 1);
  std::iota(previous.begin(), previous.end(), std::size_t{0});
  for (std::size_t i = 1; i <= a.size(); ++i) {
    current[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      current[j] = std::min({previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) current[j] = std::min(current[j], before[j - 2] + 1);
    }
    before.swap(previous);
    previous.swap(current);
  }
  return previous[b.size()];
}

std::string nearest(std::string_view word, const std::vector<std::string>& candidates) {
  std::string best;
  std::size_t best_distance = std::max<std::size_t>(2, word.size() / 3) + 1;
  for (const std::string& candidate : candidates) {
    std::size_t distance = edit_distance(word, candidate);
    if (word.size() >= 3 && candidate.starts_with(word)) distance = std::min<std::size_t>(distance, 1);
    if (distance < best_distance) {
      best_distance = distance;
      best = candidate;
    }
  }
  return best;
}

namespace {

std::string first_sentence(const std::string& text) {
  std::string sentence = text.substr(0, std::min({text.find(". "), text.find(":\n"), text.find('\n'), text.size()}));
  if (sentence.size() > 68) sentence = sentence.substr(0, sentence.rfind(' ', 64)) + " ...";
  return sentence;
}

std::vector<std::string> names_of_commands(const CLI::App& app) {
  std::vector<std::string> names;
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App* s) { return !s->get_group().empty(); })) {
    names.push_back(sub->get_name());
  }
  return names;
}

std::vector<std::string> names_of_options(const CLI::App& command) {
  std::vector<std::string> names;
  for (const CLI::Option* option : command.get_options()) {
    for (const std::string& name : option->get_lnames()) names.push_back("--" + name);
  }
  return names;
}

// The deepest command the parser entered.
const CLI::App* entered(const CLI::App& app) {
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App* s) { return s->parsed(); })) return entered(*sub);
  return &app;
}

}  // namespace

std::string command_list(const CLI::App& app) {
  std::string text = "Commands:\n";
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App* s) { return !s->get_group().empty(); })) {
    std::string name = sub->get_name();
    name.resize(std::max<std::size_t>(name.size() + 2, 12), ' ');
    text += "  " + name + first_sentence(sub->get_description()) + "\n";
  }
  return text;
}

std::string suggestion_after_error(const CLI::App& app, const std::vector<std::string>& arguments) {
  const CLI::App* command = entered(app);
  if (command == &app) {
    std::string text;
    for (const std::string& argument : arguments) {
      if (argument.starts_with("-")) continue;
      text = "augur: '" + argument + "' is not a command";
      if (const std::string near = nearest(argument, names_of_commands(app)); !near.empty()) {
        text += "; did you mean 'augur " + near + "'?";
      }
      text += "\n";
      break;
    }
    return text + command_list(app) + "Run 'augur <command> --help' for the options of a command.\n";
  }
  std::string text;
  for (const std::string& argument : command->remaining()) {
    if (!argument.starts_with("--")) continue;
    const std::string name = argument.substr(0, argument.find('='));
    if (const std::string near = nearest(name, names_of_options(*command)); !near.empty()) {
      text += "augur: unknown option " + name + "; did you mean " + near + "?\n";
    }
  }
  return text;
}

}  // namespace augur::cli
