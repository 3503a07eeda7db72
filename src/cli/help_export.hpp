// What the build makes from the command table (docs/cli.md#man-pages-and-completion), through the hidden
// command `augur help-export`:
//   augur help-export man DIR   a man page per command and subcommand (augur.1, augur-fit.1,
//                               augur-couple-measure.1, ...) from the same text as --help
//   augur help-export bash [F]  the bash completion script (commands, subcommands, options), into F
//   augur help-export zsh [F]   the zsh completion function, into F
//   augur help-export tree      every command path, one per line ("fit", "couple measure")
#pragma once

#include <functional>
#include <string>

#include "command.hpp"

namespace CLI {
class App;
}

namespace augur::cli {

// Declares `augur help-export` (hidden) on `command`; `root` is augur's whole command line.
Runner declare_help_export(CLI::App& command, const CLI::App& root);

// The man page of `command`, whose path below augur is `path` ("couple measure"; "" for augur itself).
[[nodiscard]] std::string man_page(const CLI::App& command, const std::string& path);
[[nodiscard]] std::string bash_completion(const CLI::App& root);
[[nodiscard]] std::string zsh_completion(const CLI::App& root);

// Calls `visit(path, command)` for augur and every visible command below it, depth first.
void for_each_command(const CLI::App& root, const std::function<void(const std::string&, const CLI::App&)>& visit);

}  // namespace augur::cli
