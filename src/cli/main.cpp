// augur: one binary, one subcommand per tool (the table of commands.cpp). Each command parses, calls an
// engine, prints.
#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "command.hpp"

int main(int argc, char** argv) {
  CLI::App app{
      "augur predicts and explains the performance of parallel programs.\n"
      "Run 'augur <command> --help' for the options of a command; the guide is in docs/."};
  app.name("augur");
  app.set_version_flag("--version", std::string("augur ") + AUGUR_VERSION);
  app.require_subcommand(1);

  std::vector<std::pair<CLI::App*, augur::cli::Runner>> commands;
  for (const augur::cli::Command& command : augur::cli::commands()) {
    CLI::App* subcommand = app.add_subcommand(command.name, command.summary);
    commands.emplace_back(subcommand, command.declare(*subcommand));
  }

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    const int code = app.exit(error);
    return code == 0 ? 0 : 2;
  }
  for (const auto& [subcommand, run] : commands) {
    if (subcommand->parsed()) return run();
  }
  return 2;
}
