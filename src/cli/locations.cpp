#include "locations.hpp"

#include <system_error>

#ifndef AUGUR_BINDIR_TO_LIBDIR
#error "AUGUR_BINDIR_TO_LIBDIR: the library folder relative to the binary folder (src/cli/CMakeLists.txt)"
#endif
#ifndef AUGUR_BINDIR_TO_INCLUDEDIR
#error "AUGUR_BINDIR_TO_INCLUDEDIR: the include folder relative to the binary folder (src/cli/CMakeLists.txt)"
#endif

namespace fs = std::filesystem;

namespace augur::cli {

fs::path executable_directory() {
  std::error_code error;
  const fs::path executable = fs::canonical("/proc/self/exe", error);
  if (error) return fs::current_path(error);  // no /proc: the best guess left
  return executable.parent_path();
}

fs::path library_directory() {
  const fs::path bin = executable_directory();
  const fs::path configured = (bin / AUGUR_BINDIR_TO_LIBDIR).lexically_normal();
  std::error_code error;
  if (fs::is_directory(configured, error)) return configured;
  // A build or install whose library folder is not CMAKE_INSTALL_LIBDIR (e.g. lib/x86_64-linux-gnu
  // for prefix /usr) is still found at the conventional place.
  return (bin / ".." / "lib").lexically_normal();
}

fs::path include_directory() {
  return (executable_directory() / AUGUR_BINDIR_TO_INCLUDEDIR).lexically_normal();
}

fs::path installed_library(std::string_view file_name) {
  const fs::path library = library_directory() / fs::path(file_name);
  std::error_code error;
  return fs::exists(library, error) ? library : fs::path();
}

}  // namespace augur::cli
