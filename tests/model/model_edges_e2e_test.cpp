// Issue 15: the model commands at the edges of their inputs, as a user runs them (the built augur binary):
// names that are not UTF-8 in `fit --json` (item 12), parameter names formulas cannot spell (item 11),
// grids at the end of the range of doubles and a relative fit of subnormal values (item 15).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/files.hpp"
#include "core/process.hpp"
#include "support/temporary_directory.hpp"

namespace {

using augur::core::ProcessResult;
using nlohmann::json;

std::string describe(const ProcessResult& result) {
  return result.describe_status() + "\n--- stdout ---\n" + result.standard_output + "--- stderr ---\n" +
         result.standard_error;
}

ProcessResult augur(std::vector<std::string> arguments) {
  arguments.insert(arguments.begin(), AUGUR_EXE);
  return augur::core::run_process(arguments);
}

class ModelEdges : public ::testing::Test {
 protected:
  std::string write(const std::string& name, const std::string& text) const {
    const std::string path = directory.file(name);
    augur::core::write_file_atomically(path, text);
    return path;
  }
  augur::test::TemporaryDirectory directory{"augur-model-edges"};
};

TEST_F(ModelEdges, FitJsonWritesRegionNamesThatAreNotUtf8WithReplacementCharacters) {
  const std::string data = write("regions.csv", "region,N,time\ncaf\xe9,1,2\ncaf\xe9,2,4\ncaf\xe9,3,6\ncaf\xe9,4,8\n");
  const ProcessResult result = augur({"fit", data, "--formula", "c[0] + c[1]*N", "--json"});
  ASSERT_EQ(result.exit_code, 0) << describe(result);
  const json document = json::parse(result.standard_output);
  EXPECT_EQ(document.at("models").at(0).at("region").get<std::string>(), "caf\xef\xbf\xbd");
}

TEST_F(ModelEdges, ParameterNamesFormulasCannotSpellAreRefusedAtTheHeader) {
  const std::string data = write("names.csv", "N,a-b,time\n1,1,2\n2,1,4\n3,2,6\n4,2,8\n");
  const ProcessResult result = augur({"fit", data});
  EXPECT_EQ(result.exit_code, 1) << describe(result);
  EXPECT_EQ(result.standard_error.rfind(data + ":1:3: cannot use column 'a-b' as a parameter", 0), 0U)
      << describe(result);
  const ProcessResult chosen = augur({"fit", data, "--parameters", "N", "--formula", "c[0] + c[1]*N"});
  EXPECT_EQ(chosen.exit_code, 0) << "a column left out may have any name\n" << describe(chosen);
}

TEST_F(ModelEdges, GridsReachTheLargestDouble) {
  const std::string data = write("line.csv", "P,time\n1,1\n2,2\n3,3\n4,4\n");
  ProcessResult result =
      augur({"predict", data, "--formula", "c[0] + c[1]*P", "--json", "--grid", "P=1e300:1.7976931348623157e308:*10"});
  ASSERT_EQ(result.exit_code, 0) << describe(result);
  EXPECT_EQ(json::parse(result.standard_output).at("predictions").size(), 9U) << result.standard_output;
  result = augur({"predict", data, "--formula", "c[0] + c[1]*P", "--json", "--grid", "P=-1.7e308:1.7e308:+1e308"});
  ASSERT_EQ(result.exit_code, 0) << describe(result);
  EXPECT_EQ(json::parse(result.standard_output).at("predictions").size(), 4U) << result.standard_output;
  result = augur({"predict", data, "--formula", "c[0] + c[1]*P", "--grid", "P=1e300:1e300:+1"});
  EXPECT_EQ(result.exit_code, 0) << "one value\n" << describe(result);
  result = augur({"predict", data, "--formula", "c[0] + c[1]*P", "--grid", "P=1e16:1.0000000000000008e16:+1"});
  EXPECT_EQ(result.exit_code, 1) << describe(result);
  EXPECT_NE(result.standard_error.find("--grid P=1e16:1.0000000000000008e16:+1: the step 1 is below the precision"),
            std::string::npos)
      << describe(result);
}

TEST_F(ModelEdges, RelativeFitOfSubnormalValues) {
  const std::string data = write("tiny.csv", "N,time\n1,4.9e-324\n2,9.9e-324\n3,1.5e-323\n4,2e-323\n");
  const ProcessResult result = augur({"fit", data, "--relative", "--formula", "c[0] + c[1]*N", "--json"});
  ASSERT_EQ(result.exit_code, 0) << describe(result);
  const json document = json::parse(result.standard_output);
  const json& constants = document.at("models").at(0).at("segments").at(0).at("constants");
  ASSERT_EQ(constants.size(), 2U) << result.standard_output;
  EXPECT_EQ(constants.at(1).at("value").get<double>(), 4.9e-324) << result.standard_output;
  // Beside values near 1, the weights differ by 2^1074: the weighted points cannot tell the constants apart,
  // although the terms are independent. Said so, at the series, instead of "linearly dependent".
  const std::string mixed = write("mixed.csv", "N,time\n1,4.9e-324\n2,2\n3,3\n4,4\n");
  const ProcessResult refused = augur({"fit", mixed, "--relative", "--formula", "c[0] + c[1]*N"});
  EXPECT_EQ(refused.exit_code, 1) << describe(refused);
  EXPECT_EQ(refused.standard_error.rfind(
                mixed + ":2:1: the terms of c[0] + c[1] * N cannot be told apart by a relative fit", 0),
            0U)
      << describe(refused);
}

// Issue 21: `fit --segments auto` without a formula gives each segment its own searched formula, in the
// table, the JSON and the piecewise Python; `predict` uses the segment's own formula.
TEST_F(ModelEdges, SegmentedSearchGivesEachSegmentItsOwnFormula) {
  std::string text = "p,time\n";
  for (int p : {2, 4, 8, 12, 16, 24, 32, 48, 64, 96, 128, 192, 256}) {
    text += std::to_string(p) + "," + std::to_string(p <= 32 ? 10.0 * p : 0.3125 * p * p) + "\n";
  }
  const std::string data = write("two_laws.csv", text);
  const ProcessResult table = augur({"fit", data, "--segments", "auto"});
  ASSERT_EQ(table.exit_code, 0) << describe(table);
  EXPECT_NE(table.standard_output.find("formula   one per segment"), std::string::npos) << table.standard_output;
  EXPECT_NE(table.standard_output.find("segment 1: p 2..32 (7 points)\n  formula   c[0] + c[1] * p\n"), std::string::npos) << table.standard_output;
  EXPECT_NE(table.standard_output.find("segment 2: p 48..256 (6 points)\n  formula   c[0] + c[1] * p^2\n"), std::string::npos) << table.standard_output;

  const ProcessResult result = augur({"fit", data, "--segments", "auto", "--json"});
  ASSERT_EQ(result.exit_code, 0) << describe(result);
  const json model = json::parse(result.standard_output).at("models").at(0);
  EXPECT_EQ(model.at("symbolic"), "c[0] + c[1] * p; c[0] + c[1] * p^2");
  EXPECT_EQ(model.at("segments").at(1).at("symbolic"), "c[0] + c[1] * p^2");
  const std::string python = model.at("python").get<std::string>();
  EXPECT_EQ(python.rfind("(", 0), 0U) << python;
  EXPECT_NE(python.find(" * p) if p < 39.19"), std::string::npos) << python;  // the cut at √(32·48)
  EXPECT_NE(python.find(" * p**2)"), std::string::npos) << python;

  const ProcessResult predicted = augur({"predict", data, "--segments", "auto", "--at", "p=512", "--json"});
  ASSERT_EQ(predicted.exit_code, 0) << describe(predicted);
  const json prediction = json::parse(predicted.standard_output).at("predictions").at(0);
  EXPECT_NEAR(prediction.at("value").get<double>(), 81920.0, 1e-4) << predicted.standard_output;
  EXPECT_EQ(prediction.at("segment"), 1) << predicted.standard_output;
}

}  // namespace
