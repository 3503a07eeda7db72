// The running program, as libaugur and libaugur_preload report it. Header-only; private to the
// libraries that go into the user's process.
#pragma once

#include <unistd.h>

#include <string>

namespace augur::runtime {

// The program's path from /proc/self/exe, or "" when it cannot be read.
inline std::string program_path() {
  char buffer[4096];
  const ssize_t length = ::readlink("/proc/self/exe", buffer, sizeof buffer - 1);
  if (length <= 0) return "";
  buffer[length] = '\0';
  return buffer;
}

}  // namespace augur::runtime
