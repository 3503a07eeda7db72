// One example, run as a user runs it and compared with its expected-output file (examples/<folder>/*.out).
// `example_test --example NAME` finds NAME in the manifest that augur_example() calls write
// (tests/examples/CMakeLists.txt), runs its command from the top folder of the repository through
// augur::core::run_process, with `augur` and `build/bin/...` standing for this build's binaries, and
// compares the chosen output stream under the example's filter; a failure prints a unified-style diff.
// `--update` writes the output to the expected-output file instead (then re-quote it in the docs: docs_test).
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "core/process.hpp"
#include "example_compare.hpp"

extern char** environ;

namespace {

namespace fs = std::filesystem;
using augur::examples::Example;

std::string example_name;
bool update = false;

const std::string bin_prefix = "build/bin/";

// The command with `augur` and `build/bin/NAME` replaced by this build's binaries.
std::vector<std::string> resolve(const std::vector<std::string>& command) {
  std::vector<std::string> argv;
  for (const auto& word : command) {
    if (argv.empty() && word == "augur") {
      argv.push_back(AUGUR_EXE);
    } else if (word.rfind(bin_prefix, 0) == 0) {
      argv.push_back(std::string(AUGUR_BIN_DIR) + "/" + word.substr(bin_prefix.size()));
    } else {
      argv.push_back(word);
    }
  }
  return argv;
}

// The caller's AUGUR_* variables must not change an example's output.
std::vector<std::string> augur_variables() {
  std::vector<std::string> names;
  for (char** entry = environ; *entry != nullptr; ++entry) {
    const std::string variable = *entry;
    if (variable.rfind("AUGUR_", 0) == 0) names.push_back(variable.substr(0, variable.find('=')));
  }
  return names;
}

const Example& find_example(const std::vector<Example>& examples) {
  for (const auto& example : examples) {
    if (example.name == example_name) return example;
  }
  throw std::runtime_error("no example '" + example_name + "' in " + std::string(AUGUR_EXAMPLES_MANIFEST));
}

TEST(Example, OutputMatchesExpectedFile) {
  const auto examples = augur::examples::read_manifest(AUGUR_EXAMPLES_MANIFEST);
  const Example& example = find_example(examples);
  fs::current_path(AUGUR_SOURCE_DIR);  // the command's paths are relative to the top folder
  const std::string expected_file = fs::absolute(example.expected).string();
  if (!example.scratch.empty()) {
    const fs::path scratch = fs::path(AUGUR_EXAMPLES_SCRATCH_DIR) / example.scratch;
    if (example.fresh) fs::remove_all(scratch);
    fs::create_directories(scratch);
    if (!fs::exists(fs::symlink_status(scratch / "examples"))) fs::create_directory_symlink(fs::path(AUGUR_SOURCE_DIR) / "examples", scratch / "examples");
    fs::current_path(scratch);
  }

  augur::core::ProcessOptions options;
  options.unset = augur_variables();
  for (const auto& assignment : example.environment) {
    const auto equals = assignment.find('=');
    options.environment.emplace_back(assignment.substr(0, equals), assignment.substr(equals + 1));
  }
  for (int attempt = 1; attempt <= example.attempts; ++attempt) {
    const auto result = augur::core::run_process(resolve(example.command), options);
    ASSERT_EQ(result.signal, 0) << result.describe_status() << "\n--- stderr ---\n" << result.standard_error;
    std::string output;
    if (example.stream == "stdout" || example.stream == "both") output += result.standard_output;
    if (example.stream == "stderr" || example.stream == "both") output += result.standard_error;
    if (update) {
      EXPECT_EQ(result.exit_code, example.exit_code) << "--- stderr ---\n" << result.standard_error;
      std::ofstream(expected_file, std::ios::binary) << output;
      std::cout << "wrote " << example.expected << "\n";
      return;
    }
    const auto expected = augur::examples::read_text(expected_file);
    const auto difference = augur::examples::compare(expected, output, example.filter);
    const bool matched = result.exit_code == example.exit_code && !difference.has_value();
    if (matched) return;
    std::ostringstream report;
    report << example.expected << " differs from the output of example " << example.name << " (exit status "
           << result.exit_code << ", expected " << example.exit_code << "; masked: {masked}; to accept the new output, run "
           << "this test with --update)\n"
           << difference.value_or("") << (example.stream == "stdout" ? "--- stderr ---\n" + result.standard_error : "");
    if (attempt == example.attempts) {
      ADD_FAILURE() << report.str() << (example.attempts > 1 ? "(every one of " + std::to_string(example.attempts) + " attempts)" : "");
    } else {
      std::cout << "attempt " << attempt << " of " << example.attempts << ": " << report.str() << "\n";
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  for (int i = 1; i < argc; ++i) {
    const std::string argument = argv[i];
    if (argument == "--example" && i + 1 < argc) {
      example_name = argv[++i];
    } else if (argument == "--update") {
      update = true;
    } else {
      std::cerr << "usage: example_test --example NAME [--update] [gtest options]\n";
      return 2;
    }
  }
  if (example_name.empty()) {
    std::cerr << "example_test: --example NAME is required (the names: " << AUGUR_EXAMPLES_MANIFEST << ")\n";
    return 2;
  }
  return RUN_ALL_TESTS();
}
