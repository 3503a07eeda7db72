// augur cc: CALL's front end (seed 001, section 3): translates '#pragma cll' experiments into calls to
// libaugur, checks them, or wraps a compiler command (docs/cc.md).
#pragma once

#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace augur::cli {

struct CcOptions {
  std::vector<std::string> arguments;  // FILE (or FILE... with --check), or the compiler command after '--'
  bool wrapper = false;                // '--' was given
  std::string output;                  // -o: the translation goes there instead of stdout
  bool check = false;
  bool keep = false;
  std::string include_directory;       // empty: the installation's (locations.hpp)
  std::string library_directory;       // empty: the installation's (locations.hpp)
};

// Declares the options of `augur cc` on its subcommand (the table of commands.cpp makes it).
void add_cc_options(CLI::App* command, CcOptions& options);
int run_cc_command(const CcOptions& options);

}  // namespace augur::cli
