// augur: one binary, one subcommand per tool (the table of commands.cpp). Each command parses, calls an
// engine, prints. What all commands share is here and in flags.hpp: the help layout, the suggestions after a
// mistake, --json=FILE and --csv=FILE (docs/cli.md).
#include <CLI/CLI.hpp>
#include <cstdio>
#include <string>
#include <vector>

#include "command.hpp"
#include "flags.hpp"
#include "help_export.hpp"
#include "output_redirect.hpp"
#include "suggest.hpp"

namespace {

// The deepest command the parser entered.
const CLI::App& entered(const CLI::App& app) {
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App* s) { return s->parsed(); })) return entered(*sub);
  return app;
}

// Runs the command; with --json=FILE or --csv=FILE, what it prints goes into FILE.
int run_command(const CLI::App& command, const augur::cli::Runner& run) {
  const std::string file = augur::cli::redirected_output(command);
  if (file.empty()) return run();
  try {
    augur::cli::StandardOutputToFile capture(file, augur::cli::given_values(command));
    return capture.finish(run());
  } catch (const std::exception& error) {
    return augur::cli::report_error(command.get_name(), error);
  }
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{
      "augur predicts and explains the performance of parallel programs.\n"
      "Run 'augur <command> --help' for the options of a command; the guide is in docs/ (docs/cli.md: the "
      "grammar every command shares)."};
  app.name("augur");
  app.set_version_flag("--version", std::string("augur ") + AUGUR_VERSION);
  app.require_subcommand(1);
  app.formatter(augur::cli::help_formatter());
  app.option_defaults()->always_capture_default();

  std::vector<std::pair<CLI::App*, augur::cli::Runner>> commands;
  for (const augur::cli::Command& command : augur::cli::commands()) {
    CLI::App* subcommand = app.add_subcommand(command.name, command.summary);
    commands.emplace_back(subcommand, command.declare(*subcommand));
  }
  CLI::App* exporter = app.add_subcommand("help-export", "Man pages and completion scripts (for the build)");
  commands.emplace_back(exporter, augur::cli::declare_help_export(*exporter, app));
  augur::cli::refuse_out_of_range_integers(app);

  const std::vector<std::string> arguments(argv + 1, argv + argc);
  if (arguments.empty()) {
    std::fprintf(stderr, "%s%s", augur::cli::command_list(app).c_str(),
                 "Run 'augur <command> --help' for the options of a command.\n");
    return 2;
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    if (error.get_exit_code() == 0 || &entered(app) != &app) {
      if (app.exit(error) == 0) return 0;
    }
    std::fputs(augur::cli::suggestion_after_error(app, arguments).c_str(), stderr);
    return 2;
  }
  for (const auto& [subcommand, run] : commands) {
    if (subcommand->parsed()) return run_command(entered(*subcommand), run);
  }
  return 2;
}
