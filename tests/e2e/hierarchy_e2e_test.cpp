// End-to-end tests of augur hierarchy: the built binary on the shipped examples (examples/hierarchy/) and on
// files written into a fresh temporary directory; exit statuses 0, 1 (bad input), 2 (usage).
#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/process.hpp"
#include "e2e_support.hpp"

namespace {

using namespace augur::e2e;
using augur::core::ProcessResult;

const std::string examples = examples_of("hierarchy");

// augur hierarchy ARGUMENTS...
ProcessResult run(const Arguments& arguments) { return run_command("hierarchy", arguments); }

TEST(HierarchyE2e, TheWorkedExampleGivesTheHandComputedTimesInJson) {
  // docs/hierarchy.md works these out: 6.1 with overhead, 4 ideal.
  const ProcessResult result = run({"simulate", "--machine", examples + "tiny.machine", "--program", examples + "two_functions.hprog", "--json"});
  ASSERT_EQ(result.exit_code, 0) << describe(result);
  const auto json = nlohmann::json::parse(result.standard_output);
  EXPECT_NEAR(json["time"].get<double>(), 6.1, 1e-12);
  EXPECT_DOUBLE_EQ(json["ideal_time"].get<double>(), 4.0);
  EXPECT_NEAR(json["ratio"].get<double>(), 6.1 / 4.0, 1e-12);
  ASSERT_EQ(json["levels"].size(), 2u);
  EXPECT_DOUBLE_EQ(json["levels"][1]["grasped"].get<double>(), 3.0);
  EXPECT_DOUBLE_EQ(json["packets"]["grasped"].get<double>(), 5.0);
  EXPECT_DOUBLE_EQ(json["packets"]["migrated"].get<double>(), 0.0);
  EXPECT_EQ(json["processor_utilization"].size(), 2u);
}

TEST(HierarchyE2e, AGeneratedProgramReRunsAsTheModelsFirstReplication) {
  TemporaryDirectory directory;
  const std::string program = directory.file("xu11.hprog");
  const ProcessResult generated = run({"generate", "XU11", "--seed", "5", "-o", program});
  ASSERT_EQ(generated.exit_code, 0) << describe(generated);
  EXPECT_TRUE(contains(generated.standard_output, "xu11.hprog: ")) << generated.standard_output;
  const Arguments machine{"--levels", "2", "--fanout", "2", "--processors", "3", "--json"};
  Arguments from_file{"simulate", "--program", program};
  from_file.insert(from_file.end(), machine.begin(), machine.end());
  Arguments from_model{"simulate", "--model", "XU11", "--seed", "5", "--replications", "1"};
  from_model.insert(from_model.end(), machine.begin(), machine.end());
  const ProcessResult a = run(from_file);
  const ProcessResult b = run(from_model);
  ASSERT_EQ(a.exit_code, 0) << describe(a);
  ASSERT_EQ(b.exit_code, 0) << describe(b);
  const auto x = nlohmann::json::parse(a.standard_output);
  const auto y = nlohmann::json::parse(b.standard_output);
  EXPECT_EQ(x["time"], y["time"]);
  EXPECT_EQ(x["ideal_time"], y["ideal_time"]);
  EXPECT_EQ(x["elementary"], y["elementary"]);
}

TEST(HierarchyE2e, TheSameNumbersOnOneThreadAndOnFour) {
  const Arguments common{"simulate", "--model", "XU20", "--levels", "2", "--fanout", "4", "--processors", "2", "--replications", "8", "--json", "-q"};
  Arguments one = common, four = common;
  one.insert(one.end(), {"--threads", "1"});
  four.insert(four.end(), {"--threads", "4"});
  const ProcessResult a = run(one);
  const ProcessResult b = run(four);
  ASSERT_EQ(a.exit_code, 0) << describe(a);
  EXPECT_EQ(a.standard_output, b.standard_output);
}

TEST(HierarchyE2e, BadInputsAreLocatedErrors) {
  struct Case {
    std::string file, text;  // written first when file is not empty; "FILE" in arguments is its path
    Arguments arguments;
    std::string message;
  };
  const std::vector<Case> cases{
      {"zero.machine", "levels 2\nfanout 0\n", {"simulate", "--machine", "FILE", "--model", "UU20"}, "zero.machine:2:8: expected a whole number from 1 to 65536, found '0'"},
      {"missing.hprog", "levels 2\nfunction main\n  call nowhere\n", {"simulate", "--program", "FILE"}, "missing.hprog:3:8: no function 'nowhere'"},
      {"bad.model", "nsize deterministic 4\nndf poisson 2\n", {"generate", "FILE"}, "bad.model:2:5: 'ndf' can be 0"},
      {"", "", {"simulate", "--model", "NOPE"}, "NOPE"},
      {"three.model", "levels 3\nnsize deterministic 2\n", {"simulate", "--model", "FILE"}, "--model: the model"}};
  TemporaryDirectory directory;
  for (const auto& test : cases) {
    Arguments arguments = test.arguments;
    if (!test.file.empty()) std::replace(arguments.begin(), arguments.end(), std::string("FILE"), directory.write(test.file, test.text));
    const ProcessResult result = run(arguments);
    EXPECT_EQ(result.exit_code, 1) << test.message;
    EXPECT_TRUE(contains(result.standard_error, test.message)) << result.standard_error;
  }
}

TEST(HierarchyE2e, UsageErrorsExitWithTwo) {
  EXPECT_EQ(run({"simulate", "--model", "UU20", "--replications", "0"}).exit_code, 2);
  EXPECT_EQ(run({"simulate", "--model", "UU20", "--program", "x"}).exit_code, 2);
  EXPECT_EQ(run({"simulate", "--machine", examples + "tiny.machine", "--fanout", "2", "--model", "UU20"}).exit_code, 2);
  EXPECT_EQ(run({}).exit_code, 2);
}

TEST(HierarchyE2e, TheOutputNeverOverwritesTheModel) {
  TemporaryDirectory directory;
  const auto model = directory.write("small.model", "nsize deterministic 2\n");
  const ProcessResult result = run({"generate", model, "-o", model});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_EQ(read_text(model), "nsize deterministic 2\n");
}

}  // namespace

namespace {

TEST(HierarchyE2e, ASweepPointIsTheSimulationOfItsMachine) {
  // N = 16 processors, fan-out 4 on two levels: 4 lowest CSs of 4 processors.
  const ProcessResult swept = run({"sweep", "--model", "XU20", "--fanout", "4", "--processors", "16", "--replications", "3", "--json", "-q"});
  const ProcessResult simulated = run({"simulate", "--model", "XU20", "--levels", "2", "--fanout", "4", "--processors", "4", "--replications", "3", "--json", "-q"});
  ASSERT_EQ(swept.exit_code, 0) << describe(swept);
  ASSERT_EQ(simulated.exit_code, 0) << describe(simulated);
  const auto point = nlohmann::json::parse(swept.standard_output)["points"][0];
  const auto json = nlohmann::json::parse(simulated.standard_output);
  EXPECT_EQ(point["processors"], 16);
  EXPECT_EQ(point["ratio"]["mean"], json["ratio"]);
  EXPECT_EQ(point["time"]["mean"], json["time"]);
  EXPECT_EQ(point["ideal_time"]["mean"], json["ideal_time"]);
}

TEST(HierarchyE2e, SweepListsAreCheckedAndImpossiblePointsSkipped) {
  ProcessResult result = run({"sweep", "--model", "UU20", "--fanout", "8", "--processors", "4:16:*2", "--replications", "2", "--json", "-q"});
  ASSERT_EQ(result.exit_code, 0) << describe(result);
  const auto points = nlohmann::json::parse(result.standard_output)["points"];
  ASSERT_EQ(points.size(), 2u);  // 4 is not a multiple of 8
  EXPECT_EQ(points[0]["processors"], 8);
  EXPECT_EQ(points[1]["processors"], 16);
  TemporaryDirectory directory;
  const auto machine = directory.write("three.machine", "levels 3\ngrasp 0 8 0\n");
  result = run({"sweep", "--machine", machine, "--model", "XU11", "--fanout", "2", "--processors", "8", "--replications", "1", "--json", "-q"});
  ASSERT_EQ(result.exit_code, 0) << describe(result);
  EXPECT_EQ(nlohmann::json::parse(result.standard_output)["levels"], 3);  // the machine's levels: 2 lowest CSs of 2 processors under 2 middle CSs
  result = run({"sweep", "--model", "UU20", "--fanout", "2", "--processors", "4:16:*1", "-q"});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_TRUE(contains(result.standard_error, "--processors: a factor must be 2 at least, found '4:16:*1'")) << result.standard_error;
  result = run({"sweep", "--model", "UU20", "--fanout", "two", "--processors", "4", "-q"});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_TRUE(contains(result.standard_error, "--fanout: expected a whole number from 1 to 65536, found 'two'")) << result.standard_error;
}

}  // namespace
