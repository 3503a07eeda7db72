// Where the augur binary finds what it needs at run time: the include folder and libaugur for
// `augur cc`, libaugur_preload.so and libaugur_ompt.so for `augur run`. Every path is found relative to
// the running executable, so the build tree (build/bin, build/lib, build/include) and an installed
// prefix (bin, lib, include) both work, and an installed prefix can be moved. Nothing of the build
// tree is compiled into the binary (the install test checks it).
#pragma once

#include <filesystem>
#include <string_view>

namespace augur::cli {

// The folder of the running executable (/proc/self/exe, symbolic links resolved).
[[nodiscard]] std::filesystem::path executable_directory();

// The installation's library folder (<bin>/../lib, or the CMAKE_INSTALL_LIBDIR of the build).
[[nodiscard]] std::filesystem::path library_directory();

// The installation's include folder (the one that holds augur/augur.h).
[[nodiscard]] std::filesystem::path include_directory();

// A library of the installation by its file name (e.g. "libaugur_preload.so"); empty when it is not
// there (the OMPT tool is built only where clang's omp-tools.h was found).
[[nodiscard]] std::filesystem::path installed_library(std::string_view file_name);

}  // namespace augur::cli
