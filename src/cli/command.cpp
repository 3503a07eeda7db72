// What every command shares (command.hpp).
#include "command.hpp"

#include <cstdio>

#include "augur/core/diagnostics.hpp"
#include "core/json_text.hpp"
#include "progress.hpp"

namespace augur::cli {

int report_error(const std::string& command, const std::exception& error) {
  clear_progress_line();  // never glued onto a progress bar
  if (const auto* interrupted = dynamic_cast<const Interrupted*>(&error)) {
    std::fprintf(stderr, "augur %s: interrupted\n", command.c_str());
    return interrupted->exit_status();
  }
  if (dynamic_cast<const core::InputError*>(&error) != nullptr) {
    std::fprintf(stderr, "%s\n", error.what());
  } else {
    std::fprintf(stderr, "augur %s: %s\n", command.c_str(), core::describe_error(error).c_str());
  }
  return 1;
}

}  // namespace augur::cli
