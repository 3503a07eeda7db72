// Issue 15, item 11: parameter names that formulas cannot spell (`a-b`, `N P`, `1x`) are refused where the
// file names them, in every format the reader accepts; before, they were read and the search failed later
// at a place in its own text ("model:1:1: unknown name 'a'").
#include <gtest/gtest.h>

#include <string>

#include "model/dataset.hpp"

namespace augur::model {
namespace {

std::string error_of(const std::string& text, const ReadOptions& options = {}) {
  try {
    (void)parse_dataset("data", text, options);
  } catch (const core::InputError& error) {
    return error.what();
  }
  return "no error";
}

const std::string refusal =
    "as a parameter: a parameter's name must be a letter or '_' followed by letters, "
    "digits and '_' (formulas refer to parameters by name)";

TEST(DatasetNames, CsvRefusesParameterColumnsThatAreNotNamesAtTheirColumn) {
  EXPECT_EQ(error_of("N,a-b,time\n1,2,3\n"), "data:1:3: cannot use column 'a-b' " + refusal);
  EXPECT_EQ(error_of("N P , time\n1,3\n"), "data:1:1: cannot use column 'N P' " + refusal);
  EXPECT_EQ(error_of("# sizes\n\"1x\",time\n1,3\n"), "data:2:1: cannot use column '1x' " + refusal);
  EXPECT_EQ(error_of("N,\"caf\xc3\xa9\",time\n1,2,3\n"), "data:1:3: cannot use column 'caf\xc3\xa9' " + refusal);
  // Only parameters must be names: the value, region and metric columns, and columns left out, may be anything.
  EXPECT_EQ(error_of("N,time (s),Region\n1,3,a-b\n"), "no error");
  ReadOptions options;
  options.parameter_columns = {"N"};
  options.value_column = "t-1";
  EXPECT_EQ(error_of("N,a-b,t-1\n1,2,3\n", options), "no error");
  EXPECT_EQ(error_of("N,_p2,time\n1,2,3\n"), "no error");
}

TEST(DatasetNames, ExtraPTextRefusesParametersThatAreNotNames) {
  EXPECT_EQ(error_of("PARAMETER p\nPARAMETER n-1\nPOINTS (1 2)\nREGION r\nDATA 1\n"),
            "data:2:11: cannot use the name 'n-1' " + refusal);
  EXPECT_EQ(error_of("PARAMETER 2p\n"), "data:1:11: cannot use the name '2p' " + refusal);
}

TEST(DatasetNames, JsonLinesRefusesVariablesAndParamsThatAreNotNames) {
  EXPECT_EQ(error_of("{\"experiment\":\"e\",\"variables\":{\"N\":1,\"a-b\":2},\"time\":1}\n"),
            "data:1:38: cannot use variable 'a-b' " + refusal);
  EXPECT_EQ(error_of("{\"params\":{\"1x\":4},\"value\":1.5}\n"), "data:1:12: cannot use the name '1x' " + refusal);
  // Counter names are metrics, not parameters.
  EXPECT_EQ(error_of("{\"experiment\":\"e\",\"variables\":{\"N\":1},\"time\":1,\"counters\":{\"PAPI-X\":2}}\n"),
            "no error");
}

}  // namespace
}  // namespace augur::model
