// The flags every command shares (flags.hpp).
#include "flags.hpp"

#include <CLI/CLI.hpp>
#include <cerrno>
#include <cmath>
#include <cstdlib>

namespace augur::cli {

namespace {

// A flag whose value, when there is one, comes only after '=': `--json` alone is "true" (CLI11's value of a
// bare flag), `--json=FILE` is FILE.
CLI::Option* add_file_flag(CLI::App& command, const std::string& name, bool& given, const std::string& description) {
  auto value = std::make_shared<std::string>();
  return command.add_flag(name, *value, description)
      ->each([&given, value](const std::string&) { given = true; })
      ->type_name("[=FILE]");
}

}  // namespace

CLI::Option* add_json_flag(CLI::App& command, bool& json, const std::string& description) {
  return add_file_flag(command, "--json", json, description + "; --json=FILE writes it to FILE");
}

CLI::Option* add_json_flag(CLI::App& command, bool& json, std::string& file, const std::string& description) {
  auto value = std::make_shared<std::string>();
  return command.add_flag("--json", *value, description + "; --json=FILE writes it to FILE, the table staying on standard output")
      ->each([&json, &file, value](const std::string& given) {  // `value` lives as long as the option
        if (given == "true") {
          json = true;
        } else {
          file = given;
        }
      })
      ->type_name("[=FILE]")
      ->configurable(false);  // the mark of an option the command writes itself (redirected_output skips it)
}

CLI::Option* add_csv_flag(CLI::App& command, bool& csv, const std::string& description) {
  CLI::Option* option = add_file_flag(command, "--csv", csv, description + "; --csv=FILE writes it to FILE");
  if (CLI::Option* json = command.get_option_no_throw("--json"); json != nullptr) option->excludes(json);
  return option;
}

CLI::Option* add_output_option(CLI::App& command, std::string& output, const std::string& description) {
  return command.add_option("-o,--output", output, description + " (written whole or not at all)")->type_name("FILE");
}

CLI::Option* add_threads_option(CLI::App& command, int& threads, const std::string& description, int minimum) {
  CLI::Option* option = command.add_option("-p,--threads", threads, description)->check(CLI::Range(minimum, thread_limit));
  // A 0 below the range is "not given" (the description says what then), not a default to show.
  if (threads < minimum) option->default_str("");
  return option;
}

void add_progress_flags(CLI::App& command, bool& progress, bool& quiet, const std::string& detail) {
  command.add_flag("--progress", progress, "Progress lines on stderr even when it is not a terminal" + detail);
  command.add_flag("-q,--quiet", quiet, "No progress on standard error");
}

CLI::Validator finite_number() {
  return CLI::Validator(
      [](const std::string& text) -> std::string {
        char* end = nullptr;
        const double value = std::strtod(text.c_str(), &end);
        if (end == text.c_str() || *end != '\0' || !std::isfinite(value)) return "expected a finite number, found '" + text + "'";
        return {};
      },
      "");
}

CLI::Validator integer_within_64_bits(bool is_unsigned) {
  return CLI::Validator(
      [is_unsigned](const std::string& text) -> std::string {
        const char* start = text.c_str();
        while (*start == ' ' || *start == '\t') ++start;
        char* end = nullptr;
        errno = 0;
        if (is_unsigned) {
          (void)std::strtoull(start, &end, 0);
          if (*start == '-' || errno == ERANGE) return "expected an integer from 0 to 18446744073709551615, found '" + text + "'";
        } else {
          (void)std::strtoll(start, &end, 0);
          if (errno == ERANGE) {
            return "expected an integer from -9223372036854775808 to 9223372036854775807, found '" + text + "'";
          }
        }
        return {};  // not a number at all: CLI11's conversion says so
      },
      "");
}

void refuse_out_of_range_integers(CLI::App& app) {
  for (CLI::Option* option : app.get_options()) {
    const std::string type = option->get_type_name();
    const std::string base = type.substr(0, type.find(':'));
    if (base == "UINT" || base == "INT") option->check(integer_within_64_bits(base == "UINT"));
  }
  for (CLI::App* command : app.get_subcommands([](const CLI::App*) { return true; })) refuse_out_of_range_integers(*command);
}

std::string redirected_output(const CLI::App& command) {
  for (const char* name : {"--json", "--csv"}) {
    const CLI::Option* option = command.get_option_no_throw(name);
    if (option == nullptr || option->count() == 0 || option->results().empty() || !option->get_configurable()) continue;
    const std::string& value = option->results().back();
    if (value != "true") return value;
  }
  return {};
}

}  // namespace augur::cli

namespace augur::cli {

namespace {

class HelpFormatter : public CLI::Formatter {
 public:
  std::string make_option_opts(const CLI::Option* option) const override {
    std::string text = CLI::Formatter::make_option_opts(option);
    for (const std::string empty : {"=[]", "=\"\""}) {
      if (const std::size_t at = text.find(empty); at != std::string::npos) text.erase(at, empty.size());
    }
    return text;
  }
};

}  // namespace

std::shared_ptr<CLI::Formatter> help_formatter() { return std::make_shared<HelpFormatter>(); }

std::vector<std::string> given_values(const CLI::App& command) {
  std::vector<std::string> values;
  for (const CLI::App* level = &command; level != nullptr; level = level->get_parent()) {
    for (const CLI::Option* option : level->get_options()) {
      if (option->check_name("--json") || option->check_name("--csv")) continue;
      for (const std::string& value : option->results()) values.push_back(value);
    }
  }
  return values;
}

}  // namespace augur::cli
