// What the end-to-end tests share: a process result described for a failure message, text files, a fresh
// temporary directory removed afterwards (tests/support/temporary_directory.hpp), a run of `augur COMMAND
// ARGUMENTS...` and a command's shipped examples, and mpirun's command line.
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/process.hpp"
#include "support/temporary_directory.hpp"

namespace augur::e2e {

// "exited with status 1" and both outputs, for a failed expectation.
inline std::string describe(const core::ProcessResult& result) {
  return result.describe_status() + "\n--- stdout ---\n" + result.standard_output + "--- stderr ---\n" + result.standard_error;
}

inline bool contains(const std::string& text, const std::string& needle) { return text.find(needle) != std::string::npos; }
inline bool starts_with(const std::string& text, const std::string& prefix) { return text.rfind(prefix, 0) == 0; }

inline std::string read_text(const std::filesystem::path& path) {
  std::ifstream stream(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(stream), std::istreambuf_iterator<char>()};
}

// Writes `text` to `path`, creating its parent directories; throws when it cannot.
inline void write_text(const std::filesystem::path& path, const std::string& text) {
  if (path.has_parent_path()) std::filesystem::create_directories(path.parent_path());
  std::ofstream stream(path, std::ios::binary);
  stream << text;
  if (!stream) throw std::runtime_error("cannot write " + path.string());
}

// A fresh directory under $TMPDIR (or /tmp), removed with everything in it (tests/support/).
using TemporaryDirectory = test::TemporaryDirectory;

using Arguments = std::vector<std::string>;

#ifdef AUGUR_EXE
// augur COMMAND ARGUMENTS... with the built binary (AUGUR_EXE), e.g. run_command("hierarchy", {"simulate", ...}).
inline core::ProcessResult run_command(const std::string& command, const Arguments& arguments) {
  Arguments argv{AUGUR_EXE, command};
  argv.insert(argv.end(), arguments.begin(), arguments.end());
  return core::run_process(argv);
}
#endif

#ifdef AUGUR_EXAMPLES_DIR
// The shipped examples of a command, with the final slash: examples_of("actors") is ".../examples/actors/".
inline std::string examples_of(const std::string& command) { return std::string(AUGUR_EXAMPLES_DIR) + "/" + command + "/"; }
#endif

// The actors tests' ping-pong (actors_e2e_test.cpp, actors_parallel_e2e_test.cpp; docs/actors.md): four trips
// on two sites, send 1, 20 / 10 on the link, latency 2, receive 0.5, compute 3.
inline const char* const ping_pong = R"(type P {
  on serve { send ball(hits = 1) size 20 to b }
  on ball {
    compute 3
    if hits < 4 { send ball(hits = hits + 1) size 20 to sender }
  }
}
player a : P
player b : P
start serve to a
)";

#ifdef AUGUR_MPIEXEC
// The launcher before a command: mpirun -np RANKS, allowed as root and with more ranks than cores.
inline std::vector<std::string> mpirun(int ranks) {
  return {AUGUR_MPIEXEC, "--allow-run-as-root", "--oversubscribe", "-np", std::to_string(ranks)};
}

// With and without --json, 2 and 3 ranks print what one process prints: run(arguments) runs the command
// alone, run_mpi(ranks, arguments) under mpirun.
template <typename Run, typename RunMpi>
void expect_ranks_print_what_one_process_prints(const std::vector<std::string>& base, Run&& run, RunMpi&& run_mpi) {
  for (const bool json : {false, true}) {
    std::vector<std::string> arguments = base;
    if (json) arguments.push_back("--json");
    const core::ProcessResult alone = run(arguments);
    ASSERT_EQ(alone.exit_code, 0) << describe(alone);
    for (const int ranks : {2, 3}) {
      const core::ProcessResult shared = run_mpi(ranks, arguments);
      ASSERT_EQ(shared.exit_code, 0) << describe(shared);
      EXPECT_EQ(shared.standard_output, alone.standard_output) << ranks << " ranks";
    }
  }
}
#endif

}  // namespace augur::e2e
