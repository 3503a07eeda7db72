// End-to-end tests of augur cache sim: the built binary on the examples (examples/cache) and on traces
// written here into a fresh temporary directory: the JSON's keys, the three formats giving the same counts,
// standard input, errors at file:line, exit statuses, --machine on this machine's sysfs.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/process.hpp"
#include "e2e_support.hpp"

namespace {

using namespace augur::e2e;
using augur::core::ProcessResult;
using Json = nlohmann::json;
using Arguments = std::vector<std::string>;

const std::string augur_exe = AUGUR_EXE;
const std::string examples = std::string(AUGUR_EXAMPLES_DIR) + "/cache/";
const Arguments two_levels = {"--cache", "l1:size=128,assoc=2,line=16", "--cache", "l2:size=512,assoc=4,line=32"};

ProcessResult run(const Arguments& arguments) {
  Arguments argv{augur_exe, "cache", "sim"};
  argv.insert(argv.end(), arguments.begin(), arguments.end());
  return augur::core::run_process(argv);
}

Arguments with(Arguments first, const Arguments& more) {
  first.insert(first.end(), more.begin(), more.end());
  return first;
}

TEST(CacheSimE2e, JsonHasExactlyTheDocumentedKeys) {
  const ProcessResult result = run(with({examples + "small.din", "--json"}, two_levels));
  ASSERT_EQ(result.exit_code, 0) << describe(result);
  const nlohmann::ordered_json json = nlohmann::ordered_json::parse(result.standard_output);  // keys in the order written
  EXPECT_EQ(json["accesses"], 19);
  ASSERT_EQ(json["levels"].size(), 2U);
  std::vector<std::string> keys;
  for (const auto& item : json["levels"][0].items()) keys.push_back(item.key());
  EXPECT_EQ(keys, (std::vector<std::string>{"name", "size", "assoc", "line", "policy", "accesses", "misses", "miss_rate",
                                            "compulsory", "capacity", "conflict", "writebacks", "read_misses", "write_misses"}));
  // Worked out by hand in docs/cache.md: 20 line accesses, one hit; 16 compulsory, 1 capacity, 2 conflict.
  const auto& l1 = json["levels"][0];
  EXPECT_EQ(l1["accesses"], 20);
  EXPECT_EQ(l1["misses"], 19);
  EXPECT_EQ(l1["compulsory"], 16);
  EXPECT_EQ(l1["capacity"], 1);
  EXPECT_EQ(l1["conflict"], 2);
  EXPECT_EQ(l1["writebacks"], 1);
  EXPECT_EQ(json["levels"][1]["accesses"], 20);
  EXPECT_EQ(json["levels"][1]["misses"], 10);
}

TEST(CacheSimE2e, TheThreeFormatsAndStandardInputAgree) {
  TemporaryDirectory directory;
  // The example's din trace rewritten as lackey lines (label 0 -> L, 1 -> S, 2 -> I; label 4 dropped).
  const std::string lackey =
      "==1== a header\nI  400,4\n L 1000,4\n L 1004,4\n S 1040,8\n L 1080,4\n L 1000,4\n L 101c,8\n L 1040,4\n"
      " L 2000,4\n L 2010,4\n L 2020,4\n L 2030,4\n L 2040,4\n L 2050,4\n L 2060,4\n L 2070,4\n L 2080,4\n L 2090,4\n L 2000,4\n";
  write_text(directory.path() / "small.lackey", lackey);
  const ProcessResult din = run(with({examples + "small.din", "--json"}, two_levels));
  const ProcessResult binary = run(with({examples + "small.augur", "--json"}, two_levels));
  const ProcessResult text = run(with({(directory.path() / "small.lackey").string(), "--json"}, two_levels));
  const ProcessResult piped = augur::core::run_process(
      {"/bin/sh", "-c", "\"$0\" cache sim - --json --cache l1:size=128,assoc=2,line=16 --cache l2:size=512,assoc=4,line=32 < \"$1\"",
       augur_exe, examples + "small.augur"});
  ASSERT_EQ(din.exit_code, 0) << describe(din);
  EXPECT_EQ(binary.standard_output, din.standard_output) << describe(binary);
  EXPECT_EQ(text.standard_output, din.standard_output) << describe(text);
  EXPECT_EQ(piped.standard_output, din.standard_output) << describe(piped);
}

TEST(CacheSimE2e, MalformedTraceIsAnErrorAtItsLine) {
  TemporaryDirectory directory;
  const std::string trace = (directory.path() / "bad.din").string();
  write_text(trace, "0 1000 4\n1 2000\n0 12g4 4\n");
  const ProcessResult result = run(with({trace}, two_levels));
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_EQ(result.standard_output, "");
  EXPECT_EQ(result.standard_error, trace + ":3:3: expected a hexadecimal address, found '12g4'\n");
  const ProcessResult forced = run(with({examples + "small.din", "--format", "lackey"}, two_levels));
  EXPECT_EQ(forced.exit_code, 1);
  EXPECT_TRUE(contains(forced.standard_error, "small.din:1:1: expected 'I', ' L', ' S' or ' M'")) << describe(forced);
  const ProcessResult folder = run(with({directory.path().string()}, two_levels));
  EXPECT_EQ(folder.exit_code, 1);
  EXPECT_TRUE(contains(folder.standard_error, "cannot read the trace")) << describe(folder);
  const ProcessResult missing = run(with({(directory.path() / "none.din").string()}, two_levels));
  EXPECT_EQ(missing.exit_code, 1);
  EXPECT_TRUE(contains(missing.standard_error, "none.din: cannot read")) << describe(missing);
}

TEST(CacheSimE2e, ExitStatuses) {
  const ProcessResult no_level = run({examples + "small.din"});
  EXPECT_EQ(no_level.exit_code, 1);
  EXPECT_EQ(no_level.standard_error, "--cache: no cache level (give --cache NAME:size=... or --machine)\n");
  const ProcessResult bad_spec = run({examples + "small.din", "--cache", "l1:size=4K,ways=2"});
  EXPECT_EQ(bad_spec.exit_code, 1);
  EXPECT_EQ(bad_spec.standard_error, "--cache: unknown key 'ways' (expected size, assoc, line, policy, write, alloc or seed)\n");
  EXPECT_EQ(run({examples + "small.din", "--bogus"}).exit_code, 2);
  EXPECT_EQ(run({}).exit_code, 2);  // no trace
  EXPECT_EQ(augur::core::run_process({augur_exe, "cache"}).exit_code, 2);  // no subcommand
  const ProcessResult help = run({"--help"});
  EXPECT_EQ(help.exit_code, 0);
  EXPECT_TRUE(contains(help.standard_output, "--machine")) << help.standard_output;
}

TEST(CacheSimE2e, TheTraceMayFollowTheLevels) {
  // Each --cache takes one SPEC: the trace after them is still the trace.
  const ProcessResult after = run(with(two_levels, {examples + "small.din", "--json"}));
  const ProcessResult before = run(with({examples + "small.din", "--json"}, two_levels));
  ASSERT_EQ(after.exit_code, 0) << describe(after);
  EXPECT_EQ(after.standard_output, before.standard_output);
}

TEST(CacheSimE2e, WithoutClassificationTheThreeCsAreNull) {
  const ProcessResult result = run(with({examples + "small.din", "--json", "--no-3c"}, two_levels));
  ASSERT_EQ(result.exit_code, 0) << describe(result);
  const Json json = Json::parse(result.standard_output);
  EXPECT_TRUE(json["levels"][0]["compulsory"].is_null());
  EXPECT_EQ(json["levels"][0]["misses"], 19);
}

TEST(CacheSimE2e, MachineLevelsFromSysfs) {
  if (!std::filesystem::exists("/sys/devices/system/cpu/cpu0/cache/index0")) GTEST_SKIP() << "no cache description in sysfs";
  const ProcessResult result = run({examples + "transpose.lackey", "--machine", "--json"});
  ASSERT_EQ(result.exit_code, 0) << describe(result);
  const Json json = Json::parse(result.standard_output);
  ASSERT_GE(json["levels"].size(), 1U);
  for (const Json& level : json["levels"]) {
    EXPECT_EQ(level["size"].get<std::uint64_t>() % (level["line"].get<std::uint64_t>() * level["assoc"].get<std::uint64_t>()), 0U);
  }
  if (json["levels"].size() >= 2 && json["levels"][0]["name"] == "l1i") {
    EXPECT_EQ(json["levels"][1]["name"], "l1d");
  }
}

}  // namespace
