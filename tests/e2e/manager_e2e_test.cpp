// End-to-end tests of augur manager simulate: the built binary on workloads written into a fresh temporary
// directory, checked against outcomes worked out by hand; exit statuses 0, 1 (bad input) and 2 (usage).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/process.hpp"
#include "e2e_support.hpp"

namespace {

using namespace augur::e2e;
using augur::core::ProcessResult;
using Arguments = std::vector<std::string>;

const std::string augur_exe = AUGUR_EXE;

ProcessResult run(const Arguments& arguments) {
  Arguments argv{augur_exe, "manager", "simulate"};
  argv.insert(argv.end(), arguments.begin(), arguments.end());
  return augur::core::run_process(argv);
}

// Two linear jobs on 2 processors: A alone until the decision at 3 (B arrived at 2.5), then one each; A
// ends at 7 and B, with both from 7, at 10: responses 7 and 7.5, makespan 10, every processor busy.
const char* const two_jobs = "job a work=10 amdahl=0\njob b arrival=2.5 work=10 amdahl=0\n";

TEST(ManagerE2e, JsonGivesTheHandComputedTimes) {
  TemporaryDirectory directory;
  const auto workload = directory.write("two.workload", two_jobs);
  const ProcessResult result = run({workload, "--cpus", "2", "--policy", "equipartition", "--json"});
  ASSERT_EQ(result.exit_code, 0) << describe(result);
  const auto json = nlohmann::json::parse(result.standard_output);
  EXPECT_EQ(json["policy"], "equipartition");
  EXPECT_EQ(json["cpus"], 2);
  EXPECT_DOUBLE_EQ(json["mean_response_time"].get<double>(), 7.25);
  EXPECT_DOUBLE_EQ(json["makespan"].get<double>(), 10.0);
  EXPECT_DOUBLE_EQ(json["utilization"].get<double>(), 1.0);
  ASSERT_EQ(json["jobs"].size(), 2u);
  EXPECT_EQ(json["jobs"][1]["name"], "b");
  EXPECT_DOUBLE_EQ(json["jobs"][1]["start"].get<double>(), 3.0);
  EXPECT_EQ(json["jobs"][1]["allocations"][1]["processors"], 2);
}

TEST(ManagerE2e, TableCsvAndTimeline) {
  TemporaryDirectory directory;
  const auto workload = directory.write("two.workload", two_jobs);
  const auto timeline = directory.path() / "allocations.json";
  ProcessResult result = run({workload, "--cpus", "2", "--timeline", timeline.string()});
  ASSERT_EQ(result.exit_code, 0) << describe(result);
  EXPECT_TRUE(contains(result.standard_output, "Mean response time 7.25 s, makespan 10.00 s, utilization 100.0%")) << result.standard_output;
  const auto trace = nlohmann::json::parse(read_text(timeline));
  EXPECT_FALSE(trace["traceEvents"].empty());
  result = run({workload, "--cpus", "2", "--csv"});
  ASSERT_EQ(result.exit_code, 0) << describe(result);
  EXPECT_TRUE(starts_with(result.standard_output, "job,arrival,start,finish,response_time,")) << result.standard_output;
  EXPECT_TRUE(contains(result.standard_output, "\nb,2.500000,3.000000,10.000000,7.500000,")) << result.standard_output;
}

TEST(ManagerE2e, PdpaGivesThePoorJobItsEfficientSize) {
  // A linear job and one with f = 0.5 on 32: PDPA takes the second down 16, 12, 8, 4, 1 (docs/manager.md).
  TemporaryDirectory directory;
  const auto workload = directory.write("mix.workload", "job a work=100000 amdahl=0\njob b work=1000 amdahl=0.5\n");
  const ProcessResult result = run({workload, "--cpus", "32", "--policy", "pdpa", "--json"});
  ASSERT_EQ(result.exit_code, 0) << describe(result);
  const auto json = nlohmann::json::parse(result.standard_output);
  const auto& b = json["jobs"][1]["allocations"];
  ASSERT_GE(b.size(), 5u);
  EXPECT_EQ(b[4]["processors"], 1);
  EXPECT_DOUBLE_EQ(b[4]["time"].get<double>(), 4.0);
}

TEST(ManagerE2e, BadInputAndUsage) {
  TemporaryDirectory directory;
  const auto workload = directory.write("bad.workload", "job a work=1 amdahl=0\njob b work=1 amdahl=0 speedup=none.json\n");
  ProcessResult result = run({workload});
  EXPECT_EQ(result.exit_code, 1) << describe(result);
  EXPECT_TRUE(contains(result.standard_error, "bad.workload:2:5: job 'b': give exactly one of amdahl=, table= and speedup=")) << result.standard_error;
  const auto good = directory.write("good.workload", two_jobs);
  result = run({good, "--policy", "pdpa", "--step", "0"});
  EXPECT_EQ(result.exit_code, 1) << describe(result);
  EXPECT_TRUE(contains(result.standard_error, "--step: step must be at least 1")) << result.standard_error;
  result = run({good, "--policy", "round-robin"});
  EXPECT_EQ(result.exit_code, 2) << describe(result);
  result = run({(directory.path() / "missing.workload").string()});
  EXPECT_EQ(result.exit_code, 1) << describe(result);
  EXPECT_TRUE(contains(result.standard_error, "missing.workload: cannot read the workload")) << result.standard_error;
  result = run({good, "--timeline", good});  // never over its input
  EXPECT_EQ(result.exit_code, 1) << describe(result);
  EXPECT_EQ(read_text(good), two_jobs);
}

}  // namespace
