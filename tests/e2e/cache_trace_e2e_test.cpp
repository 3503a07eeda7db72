// End-to-end tests of augur cache trace: the built binary run on the example models and on models written
// here into a fresh temporary directory removed afterwards.
#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "core/process.hpp"
#include "e2e_support.hpp"

namespace {

using namespace augur::e2e;  // describe, contains, read_text, write_text, TemporaryDirectory

namespace fs = std::filesystem;
using augur::core::ProcessResult;
using Json = nlohmann::json;
using Arguments = std::vector<std::string>;

const std::string augur_exe = AUGUR_EXE;
const std::string models = std::string(AUGUR_EXAMPLES_DIR) + "/cache/models";

ProcessResult run(const Arguments& arguments) {
  Arguments argv{augur_exe, "cache", "trace"};
  argv.insert(argv.end(), arguments.begin(), arguments.end());
  return augur::core::run_process(argv);
}

// The command fails as a bad input must: status 1, nothing on stdout, exactly `message` on stderr.
::testing::AssertionResult fails_with(const ProcessResult& result, const std::string& message) {
  if (result.signal != 0 || result.exit_code != 1) {
    return ::testing::AssertionFailure() << "expected status 1\n" << describe(result);
  }
  if (!result.standard_output.empty())
    return ::testing::AssertionFailure() << "expected no stdout\n" << describe(result);
  if (result.standard_error != message + "\n") {
    return ::testing::AssertionFailure() << "expected stderr '" << message << "'\n" << describe(result);
  }
  return ::testing::AssertionSuccess();
}

// The (address, kind) pairs of a binary trace.
std::vector<std::pair<std::uint64_t, int>> decode_binary(const std::string& bytes) {
  EXPECT_EQ(bytes.substr(0, 8), "AUGURTR1");
  std::vector<std::pair<std::uint64_t, int>> accesses;
  for (std::size_t at = 8; at + 8 <= bytes.size(); at += 8) {
    std::uint64_t word = 0;
    for (int b = 7; b >= 0; --b)
      word = (word << 8) | static_cast<unsigned char>(bytes[at + static_cast<std::size_t>(b)]);
    accesses.emplace_back(word & ((std::uint64_t{1} << 48) - 1), static_cast<int>(word >> 62));
  }
  return accesses;
}

std::vector<std::pair<std::uint64_t, int>> decode_din(const std::string& text) {
  std::vector<std::pair<std::uint64_t, int>> accesses;
  std::istringstream lines(text);
  int label = 0;
  std::string address;
  unsigned size = 0;
  while (lines >> label >> address >> size) {
    EXPECT_EQ(size, 8u);
    accesses.emplace_back(std::stoull(address, nullptr, 16), label);
  }
  return accesses;
}

TEST(CacheTraceCommand, BinaryAndDinHoldTheSameAccessesOfTheAbLoop) {
  TemporaryDirectory directory;
  const std::string binary = (directory.path() / "ab.trace").string();
  const std::string din = (directory.path() / "ab.din").string();
  const ProcessResult first = run({models + "/ab_loop.model", "--define", "N=50", "-o", binary, "--seed", "3"});
  ASSERT_EQ(first.exit_code, 0) << describe(first);
  EXPECT_EQ(first.standard_output,
            models + "/ab_loop.model: 150 accesses, 2 distinct 64-byte lines, 1208 bytes written to " + binary +
                " (augur)\n");
  const ProcessResult second =
      run({models + "/ab_loop.model", "--define", "N=50", "-o", din, "--seed", "3", "--format", "din"});
  ASSERT_EQ(second.exit_code, 0) << describe(second);
  const auto accesses = decode_binary(read_text(binary));
  ASSERT_EQ(accesses.size(), 150u);
  EXPECT_EQ(decode_din(read_text(din)), accesses);
  int writes_of_a = 0;
  for (std::size_t i = 0; i < 50; ++i) {
    EXPECT_EQ(accesses[3 * i], std::make_pair(std::uint64_t{0}, 0));       // read a
    EXPECT_EQ(accesses[3 * i + 1], std::make_pair(std::uint64_t{64}, 0));  // read b
    EXPECT_EQ(accesses[3 * i + 2].second, 1);                              // write a or b
    writes_of_a += accesses[3 * i + 2].first == 0 ? 1 : 0;
  }
  EXPECT_GT(writes_of_a, 10);
  EXPECT_LT(writes_of_a, 40);
}

TEST(CacheTraceCommand, TheSeedDecidesTheTraceAndJsonSummarisesIt) {
  TemporaryDirectory directory;
  const auto trace = [&](const std::string& name, const std::string& seed) {
    const std::string path = (directory.path() / name).string();
    const ProcessResult result =
        run({models + "/linked_walk.model", "--define", "WALKS=20", "-o", path, "--seed", seed, "--json"});
    EXPECT_EQ(result.exit_code, 0) << describe(result);
    const Json json = Json::parse(result.standard_output);
    EXPECT_EQ(json.at("bytes"), fs::file_size(path));
    EXPECT_EQ(json.at("bytes"), 8 + 8 * json.at("accesses").get<std::uint64_t>());
    EXPECT_EQ(json.at("seed"), std::stoull(seed));
    EXPECT_EQ(json.at("line"), 64);
    EXPECT_EQ(json.at("format"), "augur");
    return read_text(path);
  };
  const std::string one = trace("a.trace", "5");
  EXPECT_EQ(trace("b.trace", "5"), one);
  EXPECT_NE(trace("c.trace", "6"), one);
}

TEST(CacheTraceCommand, BadModelsAreErrorsAtTheirPlaceAndNothingIsWritten) {
  TemporaryDirectory directory;
  const std::string model = (directory.path() / "bad.model").string();
  const std::string output = (directory.path() / "out.trace").string();
  write_text(output, "old");
  write_text(
      model,
      "param N = 4\nparam W = 4\narray m[N][W]\nproc main\n  for i = 0 to N - 1\n    write m[i][i + 1]\n  end\nend\n");
  EXPECT_TRUE(
      fails_with(run({model, "-o", output}),
                 model + ":6:16: index 'i + 1' of array 'm' reaches 4 on some iteration, outside 0..3 (dimension 2)"));
  EXPECT_EQ(read_text(output), "old");
  // A wider W makes the model right.
  const ProcessResult fixed = run({model, "-o", output, "--define", "W=2^2+1"});
  EXPECT_EQ(fixed.exit_code, 0) << describe(fixed);
  EXPECT_EQ(fs::file_size(output), 8u + 8u * 4u);
  EXPECT_TRUE(fails_with(run({model, "-o", output, "--define", "W=5", "--define", "K=2"}),
                         "--define: unknown parameter 'K' (the model declares N, W)"));
  EXPECT_TRUE(fails_with(run({model, "-o", output, "--define", "N"}), "--define: expected NAME=VALUE, found 'N'"));
  EXPECT_TRUE(
      fails_with(run({model, "-o", output, "--line", "48"}), "--line: the line size must be a power of two, not 48"));
  EXPECT_TRUE(fails_with(
      run({(directory.path() / "none.model").string(), "-o", output}),
      "augur cache trace: " + (directory.path() / "none.model").string() + ": cannot read: No such file or directory"));
}

TEST(CacheTraceCommand, TheOutputNeverReplacesTheModelAndIsRequired) {
  TemporaryDirectory directory;
  const std::string model = (directory.path() / "m.model").string();
  const std::string text = "array a[1]\nproc main\nread a[0]\nend\n";
  write_text(model, text);
  const ProcessResult over = run({model, "-o", model});
  EXPECT_EQ(over.exit_code, 1) << describe(over);
  EXPECT_TRUE(contains(over.standard_error, "is the input")) << describe(over);
  EXPECT_EQ(read_text(model), text);
  const ProcessResult missing = run({model});
  EXPECT_EQ(missing.exit_code, 2) << describe(missing);
}

}  // namespace
