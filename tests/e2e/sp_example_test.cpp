// End-to-end tests of the SP-like example (examples/sp/sp.cpp) in plain mode and in chain mode: the built
// binary run as a user runs it, through augur::core::run_process, with OMP_NUM_THREADS set by the test.
// Nothing here depends on timing; the coupling measurement (--measure) is tested with `augur couple`.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "core/process.hpp"
#include "e2e_support.hpp"

namespace {

using namespace augur::e2e;  // describe, contains, starts_with

using augur::core::ProcessOptions;
using augur::core::ProcessResult;
using Arguments = std::vector<std::string>;

const std::string sp_exe = AUGUR_SP_EXE;

ProcessResult run_sp(const Arguments& arguments, int threads = 1) {
  Arguments argv{sp_exe};
  argv.insert(argv.end(), arguments.begin(), arguments.end());
  ProcessOptions options;
  options.environment = {{"OMP_NUM_THREADS", std::to_string(threads)}};
  options.unset = {"OMP_DYNAMIC", "OMP_THREAD_LIMIT", "OMP_WAIT_POLICY", "GOMP_SPINCOUNT"};
  return augur::core::run_process(argv, options);
}

// The key=value fields of the lines "sp: ..." of the output.
std::map<std::string, std::string> fields(const std::string& output) {
  std::map<std::string, std::string> result;
  std::size_t position = 0;
  while (position < output.size()) {
    std::size_t end = output.find('\n', position);
    if (end == std::string::npos) end = output.size();
    const std::string line = output.substr(position, end - position);
    position = end + 1;
    if (!starts_with(line, "sp: ")) continue;
    std::size_t word = 4;
    while (word < line.size()) {
      std::size_t stop = line.find(' ', word);
      if (stop == std::string::npos) stop = line.size();
      const std::string token = line.substr(word, stop - word);
      if (const std::size_t eq = token.find('='); eq != std::string::npos) {
        result[token.substr(0, eq)] = token.substr(eq + 1);
      }
      word = stop + 1;
    }
  }
  return result;
}

double number(const std::map<std::string, std::string>& values, const std::string& key) {
  const auto found = values.find(key);
  if (found == values.end()) {
    ADD_FAILURE() << "no " << key << " in the output";
    return std::nan("");
  }
  return std::strtod(found->second.c_str(), nullptr);
}

// A plain run that must pass its verification; its fields.
std::map<std::string, std::string> run_verified(const Arguments& arguments, int threads) {
  const ProcessResult result = run_sp(arguments, threads);
  EXPECT_TRUE(result.succeeded()) << describe(result);
  const auto values = fields(result.standard_output);
  EXPECT_EQ(values.count("verification") ? values.at("verification") : "", "passed") << describe(result);
  return values;
}

// The program refuses its arguments: status 2, nothing on stdout, one line on stderr that names `name`.
::testing::AssertionResult refuses(const Arguments& arguments, const std::string& name) {
  const ProcessResult result = run_sp(arguments);
  if (result.signal != 0 || result.exit_code != 2)
    return ::testing::AssertionFailure() << "expected status 2\n" << describe(result);
  if (!result.standard_output.empty())
    return ::testing::AssertionFailure() << "expected nothing on stdout\n" << describe(result);
  if (!starts_with(result.standard_error, "sp: ") || !contains(result.standard_error, name)) {
    return ::testing::AssertionFailure() << "expected a message naming '" << name << "'\n" << describe(result);
  }
  return ::testing::AssertionSuccess();
}

// ---- Tests ---------------------------------------------------------------------------------------

TEST(SpExample, OneAndTwoThreadsGiveTheSameNorms) {
  for (const int size : {6, 11, 16}) {
    SCOPED_TRACE("size " + std::to_string(size));
    const Arguments arguments{"--size", std::to_string(size), "--iterations", "8"};
    const auto one = run_verified(arguments, 1);
    const auto two = run_verified(arguments, 2);
    EXPECT_EQ(one.at("threads"), "1");
    EXPECT_EQ(two.at("threads"), "2");
    for (const char* key : {"error_rms", "residual_rms", "initial_error_rms"}) {
      const double a = number(one, key), b = number(two, key);
      EXPECT_NEAR(a, b, 1e-13 * std::abs(a)) << key;
    }
  }
}

TEST(SpExample, SeveralSizesConvergeTowardsTheSteadyState) {
  double previous_footprint = 0;
  for (const int size : {4, 8, 13, 24}) {
    SCOPED_TRACE("size " + std::to_string(size));
    const auto values = run_verified({"--size", std::to_string(size), "--iterations", size > 16 ? "3" : "20"}, 2);
    EXPECT_EQ(values.at("size"), std::to_string(size));
    EXPECT_EQ(number(values, "points"), std::pow(size, 3));
    const double error = number(values, "error_rms"), initial = number(values, "initial_error_rms");
    EXPECT_TRUE(std::isfinite(error) && std::isfinite(number(values, "residual_rms")));
    EXPECT_LT(error, initial);
    EXPECT_GT(error, 0.0);
    const double footprint = number(values, "footprint_bytes");
    EXPECT_GT(footprint, previous_footprint);
    previous_footprint = footprint;
    EXPECT_GT(number(values, "time_s"), 0.0);  // the solver's time is measured: 0 would be a broken timer
  }
}

TEST(SpExample, MoreIterationsReduceTheError) {
  const double few = number(run_verified({"--size", "8", "--iterations", "5"}, 1), "error_rms");
  const double many = number(run_verified({"--size", "8", "--iterations", "60"}, 1), "error_rms");
  EXPECT_LT(many, 0.1 * few);
}

TEST(SpExample, FootprintSpansTheCaches) {
  // Well inside a 48 KiB L1 at the smallest size, far beyond a 1 MiB L2 at 32.
  const ProcessResult small = run_sp({"--size", "4", "--iterations", "1"});
  const ProcessResult large = run_sp({"--size", "32", "--iterations", "1"});
  ASSERT_TRUE(small.succeeded()) << describe(small);
  ASSERT_TRUE(large.succeeded()) << describe(large);
  EXPECT_LT(number(fields(small.standard_output), "footprint_bytes"), 24.0 * 1024);
  EXPECT_GT(number(fields(large.standard_output), "footprint_bytes"), 4.0 * 1024 * 1024);
}

TEST(SpExample, KernelTimesListEveryKernelInLoopOrder) {
  const ProcessResult result = run_sp({"--size", "8", "--iterations", "3", "--kernel-times"}, 2);
  ASSERT_TRUE(result.succeeded()) << describe(result);
  std::size_t position = 0;
  for (const char* kernel : {"copy_faces", "txinvr", "x_solve", "y_solve", "z_solve", "add"}) {
    const std::size_t found = result.standard_output.find(std::string("kernel=") + kernel + " ", position);
    ASSERT_NE(found, std::string::npos) << kernel << "\n" << describe(result);
    position = found;
  }
  EXPECT_TRUE(contains(result.standard_output, "verification=passed")) << describe(result);
}

TEST(SpExample, KernelTimesDoNotChangeTheResult) {
  const auto plain = run_verified({"--size", "9", "--iterations", "4"}, 2);
  const auto timed = run_verified({"--size", "9", "--iterations", "4", "--kernel-times"}, 2);
  EXPECT_EQ(plain.at("error_rms"), timed.at("error_rms"));
}

// What the coupling harness does between two resets: a kernel or chain repeated on its own stays finite.
TEST(SpExample, RepeatedKernelsAndChainsStayFinite) {
  for (const char* chain : {"add", "txinvr", "x_solve,y_solve", "add,copy_faces",
                            "z_solve,add,copy_faces,txinvr,x_solve", "add,copy_faces,txinvr,x_solve,y_solve"}) {
    SCOPED_TRACE(chain);
    const ProcessResult result = run_sp({"--size", "6", "--chain", chain, "--count", "3000"}, 2);
    ASSERT_TRUE(result.succeeded()) << describe(result);
    const auto values = fields(result.standard_output);
    EXPECT_EQ(values.at("chain"), chain);
    EXPECT_EQ(values.at("finite"), "yes");
  }
}

TEST(SpExample, HelpDescribesTheOptions) {
  const ProcessResult result = run_sp({"--help"});
  ASSERT_TRUE(result.succeeded()) << describe(result);
  for (const char* option : {"--size", "--iterations", "--kernel-times", "--measure", "--chain", "--count"}) {
    EXPECT_TRUE(contains(result.standard_output, option)) << option;
  }
  EXPECT_TRUE(result.standard_error.empty());
}

TEST(SpExample, BadArgumentsAreRefusedByName) {
  EXPECT_TRUE(refuses({"--size", "abc"}, "--size"));
  EXPECT_TRUE(refuses({"--size", "3"}, "--size"));
  EXPECT_TRUE(refuses({"--size=1000"}, "--size"));
  EXPECT_TRUE(refuses({"--size", "-8"}, "--size"));
  EXPECT_TRUE(refuses({"--size"}, "--size"));
  EXPECT_TRUE(refuses({"--iterations", "0"}, "--iterations"));
  EXPECT_TRUE(refuses({"--iterations", "12x"}, "--iterations"));
  EXPECT_TRUE(refuses({"--bogus"}, "--bogus"));
  EXPECT_TRUE(refuses({"24"}, "'24'"));
  EXPECT_TRUE(refuses({"--kernel-times=yes"}, "--kernel-times"));
  EXPECT_TRUE(refuses({"--chain", "x_solve,foo"}, "foo"));
  EXPECT_TRUE(refuses({"--count", "10"}, "--count"));
  EXPECT_TRUE(refuses({"--measure", "--kernel-times"}, "--kernel-times"));
}

}  // namespace
