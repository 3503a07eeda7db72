// End-to-end tests of augur hierarchy simulate's replications over the ranks of mpirun (when MPI is built) and
// its timeline (--trace): the built binary on the shipped examples and on files in a fresh temporary directory
// (docs/hierarchy.md, "Replications over MPI ranks" and "The timeline").
#include <gtest/gtest.h>

#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/process.hpp"
#include "e2e_support.hpp"

namespace {

using namespace augur::e2e;
using augur::core::ProcessResult;

const std::string examples = examples_of("hierarchy");

// augur hierarchy simulate ARGUMENTS...
ProcessResult run(const Arguments& arguments) {
  Arguments simulate{"simulate"};
  simulate.insert(simulate.end(), arguments.begin(), arguments.end());
  return run_command("hierarchy", simulate);
}

// The timeline is whole JSON with a row per CS and processor; with replications it is replication 0's, the
// same file as a model's first program run alone (generate, then --program).
TEST(HierarchyParallelE2e, TheTimelineIsTheFirstReplications) {
  TemporaryDirectory directory;
  const std::string program = directory.file("first.hprog");
  ASSERT_EQ(augur::core::run_process({AUGUR_EXE, "hierarchy", "generate", "XU20", "--seed", "3", "-o", program}).exit_code, 0);
  const Arguments machine{"--levels", "2", "--fanout", "2", "--processors", "3", "-q", "--trace"};
  Arguments alone{"--program", program};
  alone.insert(alone.end(), machine.begin(), machine.end());
  alone.push_back(directory.file("alone.json"));
  ASSERT_EQ(run(alone).exit_code, 0);
  Arguments replicated{"--model", "XU20", "--seed", "3", "--replications", "5", "--threads", "3"};
  replicated.insert(replicated.end(), machine.begin(), machine.end());
  replicated.push_back(directory.file("replicated.json"));
  const ProcessResult result = run(replicated);
  ASSERT_EQ(result.exit_code, 0) << describe(result);
  EXPECT_EQ(read_text(directory.file("replicated.json")), read_text(directory.file("alone.json")));
  std::map<std::string, int> rows;
  const nlohmann::json timeline = nlohmann::json::parse(read_text(directory.file("alone.json")));
  for (const auto& event : timeline.at("traceEvents"))
    if (event.at("ph") == "M") ++rows[event.at("args").at("name").get<std::string>().substr(0, 3)];
  EXPECT_EQ(rows, (std::map<std::string, int>{{"lev", 3}, {"pro", 6}}));
}

TEST(HierarchyParallelE2e, TheTimelineNeverReplacesAnInput) {
  TemporaryDirectory directory;
  const std::string text = "levels 2\nfanout 2\nprocessors 2\n";
  const auto machine = directory.write("two.machine", text);
  const ProcessResult result = run({"--machine", machine, "--model", "UU20", "--trace", machine});
  EXPECT_EQ(result.exit_code, 1) << describe(result);
  EXPECT_EQ(read_text(machine), text);
  EXPECT_EQ(directory.names(), (std::vector<std::string>{"two.machine"}));
}

#ifdef AUGUR_MPIEXEC
ProcessResult run_mpi(int ranks, const Arguments& arguments) {
  Arguments argv = mpirun(ranks);
  argv.insert(argv.end(), {AUGUR_EXE, "hierarchy", "simulate"});
  argv.insert(argv.end(), arguments.begin(), arguments.end());
  return augur::core::run_process(argv);
}

// Under mpirun the replications are shared among the ranks and rank 0 prints what one process prints.
TEST(HierarchyParallelE2e, MpiRanksGiveWhatOneProcessGives) {
  expect_ranks_print_what_one_process_prints({"--levels", "2", "--fanout", "2", "--processors", "3", "--model", "XU20", "--replications", "7", "-q"}, run, run_mpi);
}

// The sweep's points are shared among the ranks too: the same table, JSON and CSV as one process.
TEST(HierarchyParallelE2e, TheSweepUnderMpiGivesWhatOneProcessGives) {
  const Arguments arguments{"sweep", "--model", "XU20,UU20", "--fanout", "2,4", "--processors", "4:16:*2", "--replications", "3", "-q"};
  const auto sweep_mpi = [](int ranks, const Arguments& sweep) {
    Arguments argv = mpirun(ranks);
    argv.insert(argv.end(), {AUGUR_EXE, "hierarchy"});
    argv.insert(argv.end(), sweep.begin(), sweep.end());
    return augur::core::run_process(argv);
  };
  const auto sweep = [](const Arguments& command) { return run_command("hierarchy", command); };
  expect_ranks_print_what_one_process_prints(arguments, sweep, sweep_mpi);
  Arguments csv = arguments;
  csv.push_back("--csv");
  const ProcessResult alone = sweep(csv);
  ASSERT_EQ(alone.exit_code, 0) << describe(alone);
  EXPECT_EQ(sweep_mpi(2, csv).standard_output, alone.standard_output);
}

// A program file is one run: rank 0's, printed once.
TEST(HierarchyParallelE2e, AProgramFileRunsOnceUnderMpi) {
  const Arguments arguments{"--machine", examples + "tiny.machine", "--program", examples + "two_functions.hprog"};
  const ProcessResult alone = run(arguments);
  ASSERT_EQ(alone.exit_code, 0) << describe(alone);
  const ProcessResult shared = run_mpi(2, arguments);
  ASSERT_EQ(shared.exit_code, 0) << describe(shared);
  EXPECT_EQ(shared.standard_output, alone.standard_output);
}

// Rank 0 writes the timeline of replication 0, the same file as one process writes.
TEST(HierarchyParallelE2e, UnderMpiRankZeroWritesTheTimeline) {
  TemporaryDirectory directory;
  const Arguments base{"--levels", "2", "--fanout", "2", "--processors", "2", "--model", "UU20", "--replications", "4", "-q", "--trace"};
  Arguments arguments = base;
  arguments.push_back(directory.file("alone.json"));
  ASSERT_EQ(run(arguments).exit_code, 0);
  arguments = base;
  arguments.push_back(directory.file("shared.json"));
  const ProcessResult result = run_mpi(2, arguments);
  ASSERT_EQ(result.exit_code, 0) << describe(result);
  EXPECT_EQ(read_text(directory.file("shared.json")), read_text(directory.file("alone.json")));
}

// A program that does not fit the machine fails on every rank: reported once, by rank 0, exit status 1.
TEST(HierarchyParallelE2e, AnErrorUnderMpiIsReportedOnce) {
  TemporaryDirectory directory;
  const auto machine = directory.write("small.machine", "levels 2\nfanout 2\nprocessors 2\ncapacity 4\n");
  const ProcessResult result = run_mpi(2, {"--machine", machine, "--model", "UU20", "--replications", "4", "-q"});
  EXPECT_EQ(result.exit_code, 1) << describe(result);
  EXPECT_EQ(result.standard_output, "");
  const std::string& errors = result.standard_error;
  const auto first = errors.find("more than the capacity");
  ASSERT_NE(first, std::string::npos) << errors;
  EXPECT_EQ(errors.find("more than the capacity", first + 1), std::string::npos) << errors;
}
#endif

}  // namespace
