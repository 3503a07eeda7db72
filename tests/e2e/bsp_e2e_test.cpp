// End-to-end tests of augur bsp: the built binary run as a user runs it, through augur::core::run_process,
// on the seed's Figure 1 (examples/bsp/figure1.jsonl), the engine's test data (tests/bsp/data) and files
// written here into a fresh temporary directory removed afterwards. Nothing here depends on timing.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/process.hpp"
#include "e2e_support.hpp"

namespace {

using namespace augur::e2e;  // describe, contains, read_text, TemporaryDirectory, ...

namespace fs = std::filesystem;
using augur::core::ProcessResult;
using Json = nlohmann::json;
using Arguments = std::vector<std::string>;

const std::string augur_exe = AUGUR_EXE;
const std::string figure1 = std::string(AUGUR_EXAMPLES_DIR) + "/bsp/figure1.jsonl";
const std::string bsp_data = AUGUR_BSP_DATA_DIR;

ProcessResult run(const Arguments& arguments) {
  Arguments argv{augur_exe, "bsp"};
  argv.insert(argv.end(), arguments.begin(), arguments.end());
  return augur::core::run_process(argv);
}




Json run_json(const Arguments& arguments) {
  const ProcessResult result = run(arguments);
  EXPECT_EQ(result.exit_code, 0) << describe(result);
  try {
    return Json::parse(result.standard_output);
  } catch (const Json::exception& error) {
    ADD_FAILURE() << "stdout is not JSON: " << error.what() << "\n" << describe(result);
    return {};
  }
}

// The command fails as a bad input must: status 1, nothing on stdout, exactly `message` on stderr.
::testing::AssertionResult fails_with(const ProcessResult& result, const std::string& message) {
  if (result.signal != 0 || result.exit_code != 1)
    return ::testing::AssertionFailure() << "expected status 1\n" << describe(result);
  if (!result.standard_output.empty())
    return ::testing::AssertionFailure() << "expected nothing on stdout\n" << describe(result);
  if (result.standard_error != message + "\n") {
    return ::testing::AssertionFailure() << "expected stderr '" << message << "'\n" << describe(result);
  }
  return ::testing::AssertionSuccess();
}

// ---- The seed's Figure 1 -----------------------------------------------------------------------

TEST(BspCommand, Figure1MeasuresTenOspStarTenBspTwelve) {
  const ProcessResult result = run({figure1, "--g", "0", "--L", "2"});
  ASSERT_EQ(result.exit_code, 0) << describe(result);
  const std::string& out = result.standard_output;
  EXPECT_TRUE(contains(out, "examples/bsp/figure1.jsonl: seed 001 Figure 1: oblivious supersteps\n")) << out;
  EXPECT_TRUE(contains(out, "  2 ranks, 1 machine, 2 supersteps of the top machine\n")) << out;
  EXPECT_TRUE(contains(out, "g = 0 s/byte, L = 2 s (given by --g and --L); @ = sum\n")) << out;
  EXPECT_TRUE(contains(out,
                       "rank     measured  OBSP*  error  BSP  error\n"
                       "0              10     10     0%   12   -20%\n"
                       "1              10     10     0%   12   -20%\n"
                       "program        10     10     0%   12   -20%\n"))
      << out;
  EXPECT_TRUE(contains(out, "BSP: 2 supersteps under global barriers")) << out;
  EXPECT_TRUE(result.standard_error.empty()) << describe(result);
}

TEST(BspCommand, Figure1Json) {
  const Json json = run_json({figure1, "--g", "0", "--L", "2", "--json"});
  EXPECT_EQ(json.at("trace"), figure1);
  EXPECT_EQ(json.at("ranks"), 2);
  EXPECT_EQ(json.at("parameters").at("source"), "options");
  EXPECT_EQ(json.at("parameters").at("L"), 2.0);
  EXPECT_EQ(json.at("parameters").at("combine"), "sum");
  const Json& program = json.at("program");
  EXPECT_EQ(program.at("measured"), 10.0);
  EXPECT_EQ(program.at("obsp"), 10.0);
  EXPECT_EQ(program.at("bsp"), 12.0);
  EXPECT_EQ(program.at("obsp_error_percent"), 0.0);
  EXPECT_EQ(program.at("bsp_error_percent"), -20.0);
  ASSERT_EQ(json.at("per_rank").size(), 2u);
  EXPECT_EQ(json["per_rank"][1].at("obsp"), 10.0);
  EXPECT_EQ(json.at("bsp").at("applicable"), true);
  EXPECT_EQ(json.at("bsp").at("supersteps").size(), 2u);
  EXPECT_FALSE(json.contains("machines"));
}

TEST(BspCommand, SuperstepsShowEveryMachineAndMember) {
  const ProcessResult result = run({figure1, "--g", "0", "--L", "2", "--supersteps"});
  ASSERT_EQ(result.exit_code, 0) << describe(result);
  EXPECT_TRUE(
      contains(result.standard_output, "machine /: 2 processes (ranks 0,1), 2 supersteps; OBSP* start x = 0,0\n"))
      << result.standard_output;
  EXPECT_TRUE(contains(result.standard_output,
                       "1            1     1  oblivious     4  1048576        0         0      -  1048576        6     "
                       "        6     0%\n"))
      << result.standard_output;

  const Json json = run_json({bsp_data + "/fft4.jsonl", "--g", "0.0009765625", "--L", "0.5", "--supersteps", "--json"});
  ASSERT_EQ(json.at("machines").size(), 7u);
  const Json& half = json["machines"][1];
  EXPECT_EQ(half.at("id"), "/1:0/");
  EXPECT_EQ(half.at("parent"), "/");
  EXPECT_EQ(half.at("start"), Json::array({1.0, 2.0}));
  EXPECT_EQ(half["supersteps"][0]["members"][1].at("predicted"), 6.5);
  EXPECT_EQ(half["supersteps"][0]["members"][1].at("child"), "/1:0/1:1/");
  EXPECT_EQ(half["supersteps"][1]["members"][0].at("sync"), "barrier");
  EXPECT_EQ(json.at("program").at("obsp"), 14.0);
  EXPECT_EQ(json.at("program").at("bsp"), 14.5);
  EXPECT_EQ(json.at("program").at("measured"), 14.2);
}

TEST(BspCommand, ReadsStandardInput) {
  const ProcessResult result =
      augur::core::run_process({"sh", "-c", "\"$0\" bsp - --g 0 --L 2 --json < \"$1\"", augur_exe, figure1});
  ASSERT_EQ(result.exit_code, 0) << describe(result);
  const Json json = Json::parse(result.standard_output);
  EXPECT_EQ(json.at("trace"), "<stdin>");
  EXPECT_EQ(json.at("program").at("obsp"), 10.0);
}

TEST(BspCommand, SaysWhenBspIsNotApplicable) {
  TemporaryDirectory directory;
  const std::string trace = directory.write("uneven.jsonl",
                                            "{\"augur\":\"bsp\",\"version\":1,\"ranks\":2}\n"
                                            "{\"rank\":0,\"machine\":\"/"
                                            "\",\"pid\":0,\"nprocs\":2,\"superstep\":1,\"work\":1,\"in\":0,\"out\":0,"
                                            "\"partners\":[],\"sync\":\"barrier\",\"end\":3,\"child\":\"/1:0/\"}\n"
                                            "{\"rank\":1,\"machine\":\"/"
                                            "\",\"pid\":1,\"nprocs\":2,\"superstep\":1,\"work\":1,\"in\":0,\"out\":0,"
                                            "\"partners\":[],\"sync\":\"barrier\",\"end\":3,\"child\":\"/1:1/\"}\n"
                                            "{\"rank\":0,\"machine\":\"/1:0/"
                                            "\",\"pid\":0,\"nprocs\":1,\"superstep\":1,\"work\":1,\"in\":0,\"out\":0,"
                                            "\"partners\":[],\"sync\":\"none\",\"end\":2}\n"
                                            "{\"rank\":1,\"machine\":\"/1:1/"
                                            "\",\"pid\":0,\"nprocs\":1,\"superstep\":1,\"work\":1,\"in\":0,\"out\":0,"
                                            "\"partners\":[],\"sync\":\"oblivious\",\"end\":1.5}\n"
                                            "{\"rank\":1,\"machine\":\"/1:1/"
                                            "\",\"pid\":0,\"nprocs\":1,\"superstep\":2,\"work\":0.5,\"in\":0,\"out\":0,"
                                            "\"partners\":[],\"sync\":\"none\",\"end\":2}\n");
  const ProcessResult result = run({trace, "--g", "0", "--L", "0.25"});
  ASSERT_EQ(result.exit_code, 0) << describe(result);
  EXPECT_TRUE(contains(result.standard_output, "program         3      3     0%    -      -\n"))
      << result.standard_output;
  EXPECT_TRUE(contains(result.standard_output, "BSP: not applicable: the ranks have different numbers of supersteps"))
      << result.standard_output;
  const Json json = run_json({trace, "--g", "0", "--L", "0.25", "--json"});
  EXPECT_EQ(json.at("bsp").at("applicable"), false);
  EXPECT_TRUE(json.at("program").at("bsp").is_null());
  EXPECT_EQ(json.at("program").at("obsp"), 3.0);
}

// ---- g and L from an h-relation benchmark ------------------------------------------------------

TEST(BspCommand, FitsGAndLToHRelationRecords) {
  const ProcessResult result = run({figure1, "--hrelation", bsp_data + "/hrelation.jsonl"});
  ASSERT_EQ(result.exit_code, 0) << describe(result);
  EXPECT_TRUE(
      contains(result.standard_output, "g = 1.00008e-09 ± 2.02e-13 s/byte, L = 5.00117e-05 ± 1.78e-07 s; @ = sum\n"))
      << result.standard_output;
  EXPECT_TRUE(contains(result.standard_output, "fitted to experiment 'hrelation' of " + bsp_data +
                                                   "/hrelation.jsonl: hrelation[0] + hrelation[1] * h over 6 points"))
      << result.standard_output;

  const Json sum = run_json({figure1, "--hrelation", bsp_data + "/hrelation.jsonl", "--json"});
  const Json& parameters = sum.at("parameters");
  EXPECT_EQ(parameters.at("source"), "hrelation");
  EXPECT_EQ(parameters.at("experiment"), "hrelation");
  EXPECT_EQ(parameters.at("points"), 6);
  EXPECT_NEAR(parameters.at("g").get<double>(), 1e-9, 1e-12);
  EXPECT_NEAR(parameters.at("L").get<double>(), 5e-5, 1e-6);
  EXPECT_GT(parameters.at("g_stderr").get<double>(), 0.0);
  // Figure 1 with these g and L: superstep 1 costs 2 + g·2^20 + L for P0, max(2, 4) + ... for P1, superstep 2
  // max(F_{1,0} + 4, F_{1,1} + 2) + g·2^21 + L.
  const double g = parameters["g"].get<double>();
  const double L = parameters["L"].get<double>();
  const double f10 = 2 + g * 1048576 + L;
  const double f11 = 4 + g * 1048576 + L;
  EXPECT_NEAR(sum.at("program").at("obsp").get<double>(), std::max(f10 + 4, f11 + 2) + g * 2097152 + L, 1e-12);

  const Json max = run_json({figure1, "--hrelation", bsp_data + "/hrelation.jsonl", "--combine", "max", "--json"});
  EXPECT_NEAR(max.at("parameters").at("g").get<double>(), 2 * g, 1e-18);
  EXPECT_EQ(max.at("parameters").at("combine"), "max");
}

TEST(BspCommand, ClampsANegativeFitWithANote) {
  const ProcessResult result =
      run({figure1, "--hrelation", bsp_data + "/hrelation_negative.jsonl", "--experiment", "exchange"});
  ASSERT_EQ(result.exit_code, 0) << describe(result);
  EXPECT_TRUE(contains(result.standard_output, "L = 0 ± 0 s; @ = sum")) << result.standard_output;
  EXPECT_TRUE(contains(result.standard_output, "note: the unconstrained fit gave L = -7.826e-06 s"))
      << result.standard_output;
}

// ---- Errors ------------------------------------------------------------------------------------

TEST(BspCommand, BadTracesFailAtTheirPlace) {
  TemporaryDirectory directory;
  const std::string header = "{\"augur\":\"bsp\",\"version\":1,\"ranks\":2}\n";
  const std::string record0 =
      "{\"rank\":0,\"machine\":\"/"
      "\",\"pid\":0,\"nprocs\":2,\"superstep\":1,\"work\":1,\"in\":0,\"out\":0,\"partners\":[],\"sync\":\"oblivious\","
      "\"end\":1}\n";
  const std::string bad_sync =
      directory.write("sync.jsonl", header + "# comment\n" + record0 +
                                        "{\"rank\":1,\"machine\":\"/"
                                        "\",\"pid\":1,\"nprocs\":2,\"superstep\":1,\"work\":1,\"in\":0,\"out\":0,"
                                        "\"partners\":[],\"sync\":\"eventually\",\"end\":1}\n");
  EXPECT_TRUE(fails_with(run({bad_sync, "--g", "0", "--L", "1"}),
                         bad_sync + ":4:103: unknown sync 'eventually' (expected none, oblivious or barrier)"));
  const std::string extra_rank =
      directory.write("rank.jsonl", header + record0 +
                                        "{\"rank\":2,\"machine\":\"/"
                                        "\",\"pid\":1,\"nprocs\":2,\"superstep\":1,\"work\":1,\"in\":0,\"out\":0,"
                                        "\"partners\":[],\"sync\":\"oblivious\",\"end\":1}\n");
  EXPECT_TRUE(fails_with(run({extra_rank, "--g", "0", "--L", "1", "--json"}),
                         extra_rank + ":3:9: 'rank' is 2, beyond the header's 2 ranks (0..1)"));
  const std::string version = directory.write("version.jsonl", "{\"augur\":\"bsp\",\"version\":3,\"ranks\":2}\n");
  EXPECT_TRUE(fails_with(run({version, "--g", "0", "--L", "1"}),
                         version + ":1:26: augur bsp version 3 is not supported (expected 1)"));
  EXPECT_TRUE(fails_with(
      run({directory.write("missing.jsonl", header + record0), "--g", "0", "--L", "1"}),
      directory.write("missing.jsonl", header + record0) + ":2:21: machine '/' has nprocs 2 but no record of pid 1"));
  const ProcessResult absent = run({bsp_data + "/no-such.jsonl", "--g", "0", "--L", "1"});
  EXPECT_EQ(absent.exit_code, 1) << describe(absent);
  EXPECT_TRUE(absent.standard_output.empty());
  EXPECT_TRUE(contains(absent.standard_error, "augur bsp: " + bsp_data + "/no-such.jsonl: cannot read"))
      << describe(absent);
}

TEST(BspCommand, BadHRelationRecordsFail) {
  EXPECT_TRUE(
      fails_with(run({figure1, "--hrelation", bsp_data + "/hrelation.jsonl", "--experiment", "barrier"}),
                 bsp_data + "/hrelation.jsonl:16:1: experiment 'barrier' has no variable 'h' (its variables: P)"));
  EXPECT_TRUE(fails_with(
      run({figure1, "--hrelation", bsp_data + "/hrelation.jsonl", "--experiment", "nope"}),
      bsp_data + "/hrelation.jsonl: no experiment 'nope' with times in the records (found: hrelation, barrier)"));
}

TEST(BspCommand, UsageErrorsExitWithTwo) {
  for (const Arguments& arguments : std::vector<Arguments>{
           {figure1},
           {figure1, "--g", "1e-9"},
           {figure1, "--g", "-1", "--L", "1"},
           {figure1, "--g", "0", "--L", "1", "--hrelation", bsp_data + "/hrelation.jsonl"},
           {figure1, "--g", "0", "--L", "1", "--combine", "mean"},
           {figure1, "--g", "0", "--L", "1", "--experiment", "x"},
           {},
       }) {
    const ProcessResult result = run(arguments);
    EXPECT_EQ(result.exit_code, 2) << describe(result);
    EXPECT_TRUE(result.standard_output.empty()) << describe(result);
    EXPECT_FALSE(result.standard_error.empty()) << describe(result);
  }
}

// docs/bsp.md quotes the command between "<!-- tested" and "<!-- end tested -->": each quoted "$ augur bsp ARGS"
// (run from the top directory) must print exactly what follows it, or begin with it when the quote ends in "...".
TEST(BspCommand, TheGuideQuotesTheRealOutput) {
  std::ifstream stream(std::string(AUGUR_SOURCE_DIR) + "/docs/bsp.md");
  const std::string guide{std::istreambuf_iterator<char>(stream), std::istreambuf_iterator<char>()};
  int quoted = 0;
  for (std::size_t at = guide.find("<!-- tested"); at != std::string::npos; at = guide.find("<!-- tested", at + 1)) {
    const std::size_t end = guide.find("<!-- end tested -->", at);
    ASSERT_NE(end, std::string::npos);
    const std::string block = guide.substr(at, end - at);
    const std::size_t command = block.find("$ augur bsp ");
    if (command == std::string::npos) continue;
    const std::size_t line_end = block.find('\n', command);
    std::istringstream words(block.substr(command + 2, line_end - command - 2));
    Arguments argv{"sh", "-c", "cd \"$0\" && exec \"$@\"", AUGUR_SOURCE_DIR, augur_exe};
    std::string word;
    words >> word;  // "augur"
    while (words >> word) argv.push_back(word);
    std::string expected = block.substr(line_end + 1, block.rfind("```") - line_end - 1);
    const bool prefix = expected.size() >= 4 && expected.compare(expected.size() - 4, 4, "...\n") == 0;
    if (prefix) expected.resize(expected.size() - 4);
    const ProcessResult result = augur::core::run_process(argv);
    ASSERT_EQ(result.exit_code, 0) << describe(result);
    if (prefix) {
      EXPECT_EQ(result.standard_output.substr(0, expected.size()), expected);
    } else {
      EXPECT_EQ(result.standard_output, expected);
    }
    ++quoted;
  }
  EXPECT_EQ(quoted, 3);
}

TEST(BspCommand, HelpHasExamples) {
  const ProcessResult result = run({"--help"});
  ASSERT_EQ(result.exit_code, 0) << describe(result);
  for (const char* text : {"--g", "--L", "--hrelation", "--experiment", "--combine", "--supersteps", "--json",
                           "Examples:", "examples/bsp/figure1.jsonl", "docs/bsp.md"}) {
    EXPECT_TRUE(contains(result.standard_output, text)) << text << "\n" << result.standard_output;
  }
}

}  // namespace
