// The table of augur's commands (commands.cpp): a new command is one file that defines its declare
// function, plus one row of the table. main() makes a subcommand of each row, lets the row declare its
// options on it, and after parsing runs the one the user chose.
#pragma once

#include <exception>
#include <functional>
#include <memory>  // the declare functions keep their options in a shared_ptr
#include <span>
#include <string>

namespace CLI {
class App;
}

namespace augur::cli {

// What runs a command once its options are parsed: returns the exit status (0 success, 1 bad input or
// failure, 2 usage error).
using Runner = std::function<int()>;

struct Command {
  const char* name;     // augur <name>
  const char* summary;  // one or two sentences for augur --help and augur <name> --help
  // Declares the command's options (and subcommands) on `command` and returns what runs it. The
  // runner may keep `command` (it outlives the runner).
  Runner (*declare)(CLI::App& command);
};

// Every command of the augur binary, in the order of augur --help.
[[nodiscard]] std::span<const Command> commands();

// Reports an error of a runner and returns its exit status, 1: a core::InputError as it is (it names the file,
// line and column, the option or the variable), any other as "augur <command>: message" (core::describe_error);
// Ctrl-C (Interrupted, progress.hpp) as "augur <command>: interrupted", returning 128 + the signal. A progress
// bar on the screen is cleared first.
int report_error(const std::string& command, const std::exception& error);

}  // namespace augur::cli
