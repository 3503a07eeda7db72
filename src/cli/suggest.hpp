// Suggestions for a mistyped command or option: the nearest name by edit distance (docs/cli.md#suggestions).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace CLI {
class App;
}

namespace augur::cli {

// The edit distance between a and b: insertions, deletions, substitutions and swaps of neighbours.
[[nodiscard]] std::size_t edit_distance(std::string_view a, std::string_view b);

// The candidate nearest to `word` when it is near enough to be what was meant (at most a third of its
// letters differ, at least 2 allowed, or `word` begins it), else "".
[[nodiscard]] std::string nearest(std::string_view word, const std::vector<std::string>& candidates);

// The commands of `app` as an indented list, one per line with the first sentence of its summary.
[[nodiscard]] std::string command_list(const CLI::App& app);

// After a parse error of `app` (augur's root): what to say besides CLI11's message, "" when nothing: for an
// unknown command the list of commands and the nearest one, for an unknown option of a command the nearest
// option of that command.
[[nodiscard]] std::string suggestion_after_error(const CLI::App& app, const std::vector<std::string>& arguments);

}  // namespace augur::cli
