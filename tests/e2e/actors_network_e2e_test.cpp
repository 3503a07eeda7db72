// End-to-end tests of augur actors under wormhole switching (a deadlock of the network reported, exit 1) and
// of augur actors search over the ranks of mpirun (when MPI is built): every method prints under 2 and 3
// ranks what one process prints, rank 0 alone writes the mapping and reports an error (docs/actors.md,
// "Wormhole" and "Searches over MPI ranks").
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/process.hpp"
#include "e2e_support.hpp"

namespace {

using namespace augur::e2e;
using augur::core::ProcessResult;

const std::string examples = examples_of("actors");

ProcessResult run_actors(const Arguments& arguments) { return run_command("actors", arguments); }

// Five players on a ring of five, each sending 10 to the player two sites on: every worm holds its first
// channel and waits for the next one's (docs/actors.md, "Wormhole").
const char* const two_on = R"(type P {
  on go { if index < 3 { send data size 10 to p[index + 2] } else { send data size 10 to p[index - 3] } }
  on data { compute 0 }
}
group p[5] : P
start go to all p
)";

TEST(ActorsWormholeE2e, ACycleOfWormsIsADeadlockSaidOnStderrWithExitOne) {
  TemporaryDirectory directory;
  const auto program = directory.write("two_on.actors", two_on);
  const auto machine = directory.write("ring5.machine", "topology ring 5\nlatency 1\nswitching wormhole\n");
  const ProcessResult table = run_actors({"simulate", program, "--machine", machine});
  EXPECT_EQ(table.exit_code, 1) << describe(table);
  EXPECT_TRUE(contains(table.standard_output, "(ring, 5 sites, shortest routing, wormhole)")) << table.standard_output;
  EXPECT_TRUE(contains(table.standard_output, "message 'data' from p[4] to p[1] (sent at " + program + ":2:69) waits for channel 0->1, held by 'data' from p[0] to p[2]"))
      << table.standard_output;
  EXPECT_TRUE(contains(table.standard_error, "deadlock: 5 messages are stuck in the network")) << table.standard_error;
  const ProcessResult json = run_actors({"simulate", program, "--machine", machine, "--json"});
  EXPECT_EQ(json.exit_code, 1) << describe(json);
  const auto deadlock = nlohmann::json::parse(json.standard_output).at("deadlock");
  ASSERT_EQ(deadlock.size(), 5U);
  EXPECT_EQ(deadlock[0]["channel"], "0->1");
  EXPECT_EQ(deadlock[0]["sender"], "p[4]");
  EXPECT_EQ(deadlock[0]["player"], "p[1]");
  EXPECT_EQ(deadlock[0]["held_by"], "'data' from p[0] to p[2]");
}

// The same ring under cut-through: no deadlock (each message waits whole at the next site).
TEST(ActorsWormholeE2e, CutThroughPassesWhereWormsDeadlock) {
  TemporaryDirectory directory;
  const auto program = directory.write("two_on.actors", two_on);
  const auto machine = directory.write("ring5.machine", "topology ring 5\nlatency 1\nswitching cut-through\n");
  const ProcessResult result = run_actors({"simulate", program, "--machine", machine, "--json"});
  ASSERT_EQ(result.exit_code, 0) << describe(result);
  EXPECT_DOUBLE_EQ(nlohmann::json::parse(result.standard_output)["time"].get<double>(), 21.0);
}

#ifdef AUGUR_MPIEXEC
ProcessResult run_search(const Arguments& arguments) {
  Arguments search{"search"};
  search.insert(search.end(), arguments.begin(), arguments.end());
  return run_actors(search);
}

// augur actors ARGUMENTS... under mpirun -np RANKS.
ProcessResult run_actors_mpi(int ranks, const Arguments& arguments) {
  Arguments argv = mpirun(ranks);
  argv.insert(argv.end(), {AUGUR_EXE, "actors"});
  argv.insert(argv.end(), arguments.begin(), arguments.end());
  return augur::core::run_process(argv);
}

ProcessResult run_search_mpi(int ranks, const Arguments& arguments) {
  Arguments search{"search"};
  search.insert(search.end(), arguments.begin(), arguments.end());
  return run_actors_mpi(ranks, search);
}

// Each method under 2 and 3 ranks gives the bytes one process gives (and those of another thread count).
TEST(ActorsSearchMpiE2e, ExhaustiveOverRanksGivesTheOptimumOfOneProcess) {
  expect_ranks_print_what_one_process_prints(
      {examples + "pipeline.actors", "--machine", examples + "mesh2x2.machine", "--method", "exhaustive", "--threads", "2"}, run_search, run_search_mpi);
}

TEST(ActorsSearchMpiE2e, AnnealingOverRanksGivesWhatOneProcessGives) {
  expect_ranks_print_what_one_process_prints(
      {examples + "divide.actors", "--machine", examples + "hypercube3.machine", "--method", "annealing", "--budget", "200"}, run_search, run_search_mpi);
}

TEST(ActorsSearchMpiE2e, RandomOverRanksGivesWhatOneProcessGives) {
  const Arguments base{examples + "irregular.actors", "--machine", examples + "mesh4x4.machine", "--method", "random", "--budget", "150"};
  expect_ranks_print_what_one_process_prints(base, run_search, run_search_mpi);
  // ... and what three threads give.
  Arguments threaded = base;
  threaded.insert(threaded.end(), {"--threads", "3"});
  const ProcessResult alone = run_search(threaded);
  ASSERT_EQ(alone.exit_code, 0) << describe(alone);
  const ProcessResult shared = run_search_mpi(2, base);
  ASSERT_EQ(shared.exit_code, 0) << describe(shared);
  EXPECT_EQ(shared.standard_output, alone.standard_output);
  Arguments json = base;
  json.push_back("--json");
  const ProcessResult counted = run_search_mpi(3, json);
  ASSERT_EQ(counted.exit_code, 0) << describe(counted);
  EXPECT_EQ(nlohmann::json::parse(counted.standard_output)["simulations"], 150);  // the budget, shared
}

TEST(ActorsSearchMpiE2e, ClusteringAndGreedyOverRanksGiveWhatOneProcessGives) {
  for (const std::string method : {"clustering", "greedy"})
    expect_ranks_print_what_one_process_prints({examples + "farm.actors", "--machine", examples + "mesh4x4.machine", "--method", method}, run_search,
                                               run_search_mpi);
}

// Rank 0 writes the mapping, the same file as one process writes.
TEST(ActorsSearchMpiE2e, RankZeroWritesTheMapping) {
  TemporaryDirectory directory;
  const std::string alone = (directory.path() / "alone.map").string();
  const std::string shared = (directory.path() / "shared.map").string();
  const Arguments base{examples + "pipeline.actors", "--machine", examples + "mesh2x2.machine", "--method", "random", "--budget", "50", "--write-mapping"};
  Arguments arguments = base;
  arguments.push_back(alone);
  ASSERT_EQ(run_search(arguments).exit_code, 0);
  arguments = base;
  arguments.push_back(shared);
  const ProcessResult result = run_search_mpi(2, arguments);
  ASSERT_EQ(result.exit_code, 0) << describe(result);
  EXPECT_EQ(read_text(shared), read_text(alone));
  EXPECT_EQ(directory.names(), (std::vector<std::string>{"alone.map", "shared.map"}));
}

// A refusal (exhaustive past its budget) is reported once, by rank 0, with exit status 1.
TEST(ActorsSearchMpiE2e, AnErrorUnderMpiIsReportedOnce) {
  const ProcessResult result =
      run_search_mpi(2, {examples + "pipeline.actors", "--machine", examples + "mesh2x2.machine", "--method", "exhaustive", "--budget", "10"});
  EXPECT_EQ(result.exit_code, 1) << describe(result);
  EXPECT_EQ(result.standard_output, "");
  const auto first = result.standard_error.find("more than the budget");
  ASSERT_NE(first, std::string::npos) << result.standard_error;
  EXPECT_EQ(result.standard_error.find("more than the budget", first + 1), std::string::npos) << result.standard_error;
}

// Tune under mpirun: rank 0 alone tunes and prints, what one process prints.
TEST(ActorsSearchMpiE2e, TuneUnderMpiPrintsOnce) {
  const Arguments tune{"tune", examples + "pipeline.actors", "--machine", examples + "ring8.machine"};
  const ProcessResult alone = run_actors(tune);
  ASSERT_EQ(alone.exit_code, 0) << describe(alone);
  const ProcessResult shared = run_actors_mpi(2, tune);
  ASSERT_EQ(shared.exit_code, 0) << describe(shared);
  EXPECT_EQ(shared.standard_output, alone.standard_output);
}
#endif

}  // namespace
