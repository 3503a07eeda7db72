// End-to-end tests of the task-system commands: augur tspp and the seed's tspp, augur sim, augur gen-tasks,
// run as a user runs them (e2e_swim_support.hpp: no AUGUR_* or OMP_* variable of the caller).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "e2e_swim_support.hpp"
#include "support/temporary_directory.hpp"
#include "support/trace_nesting.hpp"

namespace {

namespace fs = std::filesystem;
using augur::core::ProcessResult;
using namespace augur::e2e;  // run, describe, contains, load_json, ...
using augur::test::trace_nesting_problems;

const std::string augur_exe = AUGUR_EXE;

// A folder of its own for each test, removed at the end.
using TemporaryFolder = augur::test::TemporaryDirectory;

}  // namespace

// ---- TSPP ------------------------------------------------------------------------------------

namespace {

const std::string tspp_exe = AUGUR_TSPP_EXE;
const std::string figure11 = std::string(AUGUR_EXAMPLES_DIR) + "/tspp/figure11.tspp";

TEST(Tspp, PrintsTheTablesOfFigure12) {
  const ProcessResult result = run({augur_exe, "tspp", "--method", "mak-lundstrom", figure11});
  ASSERT_EQ(result.exit_code, 0) << describe(result);
  for (const char* text : {"Utilization", "Arrival Instant Queue Length", "Queue Length of Task", "Residence",
                           "task-3  2.635 (1.949)", "Number of iterations = 4"}) {
    EXPECT_TRUE(contains(result.standard_output, text)) << text << "\n" << describe(result);
  }
}

TEST(Tspp, TheSeedsInterfaceReadsStandardInput) {
  // tspp [-b] [-d] <in >out, through a shell for the redirection.
  const ProcessResult dump = run({"/bin/sh", "-c", "\"" + tspp_exe + "\" -d < \"" + figure11 + "\""});
  ASSERT_EQ(dump.exit_code, 0) << describe(dump);
  // Figure 13 for 6 tasks and 3 resources: N, K, 3 utilizations, 3 queue lengths, 18 + 18 queue values,
  // 6 x 6 times, the completion's mean and std, the iterations.
  EXPECT_EQ(count_occurrences(dump.standard_output, "\n"), 2u + 3 + 3 + 18 + 18 + 36 + 2 + 1);
  EXPECT_EQ(dump.standard_output.rfind("6\n3\n", 0), 0u);
  const ProcessResult brief = run({"/bin/sh", "-c", "\"" + tspp_exe + "\" -b < \"" + figure11 + "\""});
  ASSERT_EQ(brief.exit_code, 0) << describe(brief);
  EXPECT_FALSE(contains(brief.standard_output, "Utilization"));
  EXPECT_TRUE(contains(brief.standard_output, "Completion time = "));
  const ProcessResult bad = run({tspp_exe, "-x"});
  EXPECT_EQ(bad.exit_code, 2);
}

TEST(Tspp, TheTransientMethod) {
  const ProcessResult result = run({augur_exe, "tspp", "--method", "transient", "--json", figure11});
  ASSERT_EQ(result.exit_code, 0) << describe(result);
  const Json json = Json::parse(result.standard_output);
  EXPECT_EQ(json.at("method"), "transient");
  // Between 0.88 and 1 times the simulated 5.877 (docs/sim.md): it sees less queueing than there is.
  const double completion = json.at("completion").at("mean").get<double>();
  EXPECT_GT(completion, 5.877 * 0.88);
  EXPECT_LT(completion, 5.877);
  const ProcessResult visits = run({augur_exe, "tspp", "--method", "transient", "-V", "10", "--json", figure11});
  ASSERT_EQ(visits.exit_code, 0) << describe(visits);
  EXPECT_LT(Json::parse(visits.standard_output).at("completion").at("std").get<double>(),
            json.at("completion").at("std").get<double>());
  const ProcessResult bad = run({augur_exe, "tspp", "--method", "guess", figure11});
  EXPECT_NE(bad.exit_code, 0);
  EXPECT_TRUE(bad.standard_output.empty()) << describe(bad);
}

TEST(Tspp, JsonHoldsTheDocumentedFields) {
  const ProcessResult result = run({augur_exe, "tspp", "--method", "mak-lundstrom", "--json", figure11});
  ASSERT_EQ(result.exit_code, 0) << describe(result);
  const Json json = Json::parse(result.standard_output);
  EXPECT_TRUE(positive_finite(json.at("completion").at("mean")));
  EXPECT_TRUE(positive_finite(json.at("completion").at("std")));
  EXPECT_EQ(json.at("iterations"), 4);
  ASSERT_EQ(json.at("resources").size(), 3u);
  EXPECT_EQ(json.at("resources").at(1).at("name"), "disk-1");
  EXPECT_TRUE(json.at("resources").at(0).contains("utilization"));
  EXPECT_TRUE(json.at("resources").at(0).contains("queue_length"));
  ASSERT_EQ(json.at("tasks").size(), 6u);
  for (const char* field : {"start", "residence", "end"}) {
    EXPECT_TRUE(json.at("tasks").at(2).at(field).contains("mean")) << field;
    EXPECT_TRUE(json.at("tasks").at(2).at(field).contains("std")) << field;
  }
}

TEST(Tspp, BadInputNamesTheFaultAndPrintsNothing) {
  const TemporaryFolder folder;
  const fs::path input = folder.path() / "bad.tspp";
  std::ofstream(input) << "resource\n  cpu <- queuing;\ntask\n  a <- { gpu: 1; }\nstructure { a; }\n";
  const ProcessResult result = run({augur_exe, "tspp", input.string()});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_EQ(result.standard_output, "");
  EXPECT_EQ(result.standard_error, input.string() + ":4:10: unknown resource 'gpu' in task 'a'\n");
  const ProcessResult missing = run({augur_exe, "tspp", (folder.path() / "none.tspp").string()});
  EXPECT_EQ(missing.exit_code, 1);
  EXPECT_TRUE(contains(missing.standard_error, "none.tspp: cannot read")) << describe(missing);
  EXPECT_EQ(missing.standard_output, "");
}

}  // namespace

// ---- The task-system simulator -------------------------------------------------------------

namespace {

TEST(Sim, SimulatesTheSeedsExampleWithATimeline) {
  const TemporaryFolder folder;
  const fs::path trace = folder.path() / "trace.json";
  const ProcessResult result = run({augur_exe, "sim", figure11, "--replications", "200", "--json", "--trace", trace.string()});
  ASSERT_EQ(result.exit_code, 0) << describe(result);
  const Json json = Json::parse(result.standard_output);
  EXPECT_EQ(json.at("replications"), 200);
  EXPECT_TRUE(positive_finite(json.at("completion").at("mean")));
  EXPECT_TRUE(positive_finite(json.at("completion").at("ci95_half_width")));
  ASSERT_EQ(json.at("tasks").size(), 6u);
  EXPECT_TRUE(json.at("tasks").at(0).at("residence").contains("std"));
  ASSERT_EQ(json.at("resources").size(), 3u);
  Json timeline;
  ASSERT_TRUE(load_json(trace, timeline));
  // 3 thread names + 6 tasks x 3 resources services.
  EXPECT_EQ(timeline.at("traceEvents").size(), 3u + 18u);
  const ProcessResult table = run({augur_exe, "sim", figure11, "--replications", "50", "--discipline", "ps", "-V", "10"});
  ASSERT_EQ(table.exit_code, 0) << describe(table);
  EXPECT_TRUE(contains(table.standard_output, "95% confidence interval")) << describe(table);
}

TEST(Sim, AnyThreadCountPrintsTheSameBytes) {
  const TemporaryFolder folder;
  std::string output;
  std::string timeline;
  for (const char* threads : {"1", "2", "5"}) {
    const fs::path trace = folder.path() / (std::string("trace") + threads + ".json");
    const ProcessResult result = run({augur_exe, "sim", figure11, "--replications", "97", "--discipline", "ps", "--json", "-q",
                                      "--threads", threads, "--trace", trace.string()});
    ASSERT_EQ(result.exit_code, 0) << describe(result);
    if (output.empty()) {
      output = result.standard_output;
      timeline = read_text(trace);
      // Processor sharing serves tasks together: each on a lane of its own, so that every row nests.
      EXPECT_EQ(trace_nesting_problems(Json::parse(timeline)), std::vector<std::string>{});
      EXPECT_TRUE(contains(timeline, "(lane 2)")) << "the tasks of figure 11 overlap at the cpu";
      continue;
    }
    EXPECT_EQ(result.standard_output, output) << threads << " threads";
    EXPECT_EQ(read_text(trace), timeline) << threads << " threads";
  }
  EXPECT_EQ(run({augur_exe, "sim", figure11, "--threads", "0"}).exit_code, 2);
}

TEST(Sim, RejectsBadOptionsAndInput) {
  EXPECT_EQ(run({augur_exe, "sim", figure11, "--service", "uniform"}).exit_code, 2);
  EXPECT_EQ(run({augur_exe, "sim", figure11, "--replications", "0"}).exit_code, 2);
  const TemporaryFolder folder;
  const fs::path input = folder.path() / "bad.tspp";
  std::ofstream(input) << "resource\n  cpu <- queuing;\ntask\n  a <- { cpu: 1; }\nstructure { a; a; }\n";
  const ProcessResult result = run({augur_exe, "sim", input.string(), "--trace", (folder.path() / "t.json").string()});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_EQ(result.standard_error, input.string() + ":5:16: task 'a' appears twice in the structure (first at 5:13)\n");
  EXPECT_EQ(result.standard_output, "");
  EXPECT_FALSE(fs::exists(folder.path() / "t.json"));
}

}  // namespace

namespace {

TEST(GenTasks, WritesASystemTheOtherToolsRead) {
  const TemporaryFolder folder;
  const fs::path file = folder.path() / "random.tspp";
  const ProcessResult generated =
      run({augur_exe, "gen-tasks", "--tasks", "25", "--resources", "4", "--seed", "3", "-o", file.string()});
  ASSERT_EQ(generated.exit_code, 0) << describe(generated);
  const ProcessResult again = run({augur_exe, "gen-tasks", "--tasks", "25", "--resources", "4", "--seed", "3"});
  EXPECT_EQ(read_text(file), again.standard_output) << "the same seed, the same system";
  const ProcessResult predicted = run({augur_exe, "tspp", "--residence", "phases", "--json", file.string()});
  ASSERT_EQ(predicted.exit_code, 0) << describe(predicted);
  EXPECT_EQ(Json::parse(predicted.standard_output).at("tasks").size(), 25u);
  const ProcessResult simulated = run({augur_exe, "sim", file.string(), "--replications", "20", "--json", "-q"});
  ASSERT_EQ(simulated.exit_code, 0) << describe(simulated);
  EXPECT_EQ(run({augur_exe, "gen-tasks", "--tasks", "0"}).exit_code, 2);
  EXPECT_EQ(run({augur_exe, "gen-tasks", "--demand-min", "2", "--demand-max", "1"}).exit_code, 1);
}

}  // namespace
