// What the end-to-end tests of augur hierarchy share (hierarchy_e2e_test.cpp, hierarchy_parallel_e2e_test.cpp):
// the binary, the shipped examples, and a run of `augur hierarchy ARGUMENTS...`.
#pragma once

#include <string>
#include <vector>

#include "core/process.hpp"

namespace augur::e2e::hierarchy {

using Arguments = std::vector<std::string>;

inline const std::string augur_exe = AUGUR_EXE;
inline const std::string examples = std::string(AUGUR_EXAMPLES_DIR) + "/hierarchy/";

inline core::ProcessResult run(const Arguments& arguments) {
  Arguments argv{augur_exe, "hierarchy"};
  argv.insert(argv.end(), arguments.begin(), arguments.end());
  return core::run_process(argv);
}

}  // namespace augur::e2e::hierarchy
