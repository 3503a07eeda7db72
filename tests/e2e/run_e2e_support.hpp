// What the end-to-end tests of `augur run` share (run_e2e_test.cpp, run_outer_e2e_test.cpp).
#pragma once

#include <string>

#include "support/temporary_directory.hpp"

namespace augur::run_e2e {

// A scratch file in a temporary directory of its own; both are removed at the end of the test, with
// whatever else the run wrote beside the file.
class TemporaryFile {
public:
  explicit TemporaryFile(const std::string& name) : path_(directory_.file(name)) {}
  [[nodiscard]] const std::string& path() const { return path_; }

private:
  augur::test::TemporaryDirectory directory_{"augur-run-e2e"};
  std::string path_;
};

}  // namespace augur::run_e2e
