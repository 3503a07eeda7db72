// A command's man page, from the same text as its --help (help_export.hpp).
#include <CLI/CLI.hpp>

#include "help_export.hpp"

namespace augur::cli {

namespace {

// Text as roff reads it: backslashes and hyphens escaped, no line taken for a request.
std::string roff(const std::string& text) {
  std::string out;
  bool line_start = true;
  for (const char c : text) {
    if (line_start && (c == '.' || c == '\'')) out += "\\&";
    if (c == '\\') {
      out += "\\e";
    } else if (c == '-') {
      out += "\\-";
    } else {
      out += c;
    }
    line_start = c == '\n';
  }
  return out;
}

std::string upper(std::string text) {
  for (char& c : text) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return text;
}

std::string first_sentence(const std::string& text) {
  const std::size_t end = std::min(text.find(". "), text.find('\n'));
  std::string sentence = text.substr(0, end);
  if (!sentence.empty() && sentence.back() == '.') sentence.pop_back();
  return sentence;
}

std::string page_name(const std::string& path) {
  std::string name = path.empty() ? "augur" : "augur-";
  for (const char c : path) name += c == ' ' ? '-' : c;
  return name;
}

std::vector<const CLI::App*> visible_subcommands(const CLI::App& command) {
  return command.get_subcommands([](const CLI::App* sub) { return !sub->get_group().empty(); });
}

std::string option_entry(const CLI::Option& option) {
  std::string names = option.get_name(false, true);
  std::string entry = ".TP\n.B " + roff(names);
  if (!option.get_type_name().empty() && option.get_type_size_max() != 0) entry += " " + roff(option.get_type_name());
  entry += "\n" + roff(option.get_description());
  const std::string fallback = option.get_default_str();
  if (!fallback.empty() && fallback != "[]") entry += " (default: " + roff(fallback) + ")";
  return entry + "\n";
}

}  // namespace

std::string man_page(const CLI::App& command, const std::string& path) {
  const std::string name = page_name(path);
  const std::string invocation = path.empty() ? "augur" : "augur " + path;
  std::string page = ".TH " + roff(upper(name)) + " 1 \"\" \"augur " AUGUR_VERSION "\" \"augur manual\"\n";
  page += ".SH NAME\n" + roff(name) + " \\- " + roff(first_sentence(command.get_description())) + "\n";
  page += ".SH SYNOPSIS\n.B " + roff(invocation) + "\n";
  if (!visible_subcommands(command).empty()) page += "COMMAND ";
  page += "[OPTIONS]";
  for (const CLI::Option* option : command.get_options([](const CLI::Option* o) { return o->get_positional(); })) {
    page += " " + roff(option->get_name()) + (option->get_expected_max() > 1 ? "..." : "");
  }
  page += "\n.SH DESCRIPTION\n" + roff(command.get_description()) + "\n";
  if (const auto subcommands = visible_subcommands(command); !subcommands.empty()) {
    page += ".SH COMMANDS\n";
    for (const CLI::App* sub : subcommands) {
      page += ".TP\n.B " + roff(sub->get_name()) + "\n" + roff(first_sentence(sub->get_description())) + "\n";
    }
  }
  if (const auto positionals = command.get_options([](const CLI::Option* o) { return o->get_positional(); }); !positionals.empty()) {
    page += ".SH ARGUMENTS\n";
    for (const CLI::Option* option : positionals) page += option_entry(*option);
  }
  page += ".SH OPTIONS\n";
  for (const CLI::Option* option : command.get_options([](const CLI::Option* o) { return o->nonpositional(); })) {
    page += option_entry(*option);
  }
  if (!command.get_footer().empty()) page += ".SH NOTES\n.nf\n" + roff(command.get_footer()) + "\n.fi\n";
  page += ".SH EXIT STATUS\n0 on success, 1 for bad input or a failed measurement, 2 for a usage error.\n";
  page += ".SH SEE ALSO\n";
  std::string see_also = path.empty() ? "" : "augur(1)";
  for (const CLI::App* sub : visible_subcommands(command)) {
    see_also += (see_also.empty() ? "" : ", ") + page_name(path.empty() ? sub->get_name() : path + " " + sub->get_name()) + "(1)";
  }
  page += roff(see_also) + (see_also.empty() ? "" : "; ") + "the guide: docs/cli.md and the command's page in docs/\n";
  return page;
}

}  // namespace augur::cli
