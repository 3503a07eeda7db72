// End-to-end tests of augur actors simulate's timeline (--trace) and replications (--replications over
// --threads and, when MPI is built, over the ranks of mpirun): the built binary on files written into a fresh
// temporary directory and on the shipped examples (docs/actors.md, "The timeline" and "Replications").
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/process.hpp"
#include "e2e_support.hpp"

namespace {

using namespace augur::e2e;
using augur::core::ProcessResult;

const std::string examples = examples_of("actors");

// augur actors simulate ARGUMENTS...
ProcessResult run(const Arguments& arguments) {
  Arguments simulate{"simulate"};
  simulate.insert(simulate.end(), arguments.begin(), arguments.end());
  return run_command("actors", simulate);
}

const char* const two_sites = "topology ring 2\nlatency 2\nbandwidth 10\nsend-overhead 1\nreceive-overhead 0.5\n";

// The trace is whole JSON: a row per site, per trip a send, a receive and a compute slice, a flow per ball.
TEST(ActorsTraceE2e, TheTimelineIsJsonWithARowPerSiteAndAFlowPerMessage) {
  TemporaryDirectory directory;
  const auto program = directory.write("ping.actors", ping_pong);
  const auto machine = directory.write("two.machine", two_sites);
  const std::string trace = (directory.path() / "ping.trace.json").string();
  const ProcessResult result = run({program, "--machine", machine, "--trace", trace});
  ASSERT_EQ(result.exit_code, 0) << describe(result);
  EXPECT_TRUE(contains(result.standard_output, "Execution time 34.000")) << result.standard_output;
  const nlohmann::json events = nlohmann::json::parse(read_text(trace)).at("traceEvents");
  std::map<std::string, int> phases;
  std::map<std::string, int> categories;
  double end = 0;
  for (const auto& event : events) {
    ++phases[event.at("ph").get<std::string>()];
    if (event.at("ph") == "X") {
      ++categories[event.at("cat").get<std::string>()];
      end = std::max(end, event.at("ts").get<double>() + event.at("dur").get<double>());
    }
  }
  EXPECT_EQ(phases, (std::map<std::string, int>{{"M", 2}, {"X", 12}, {"s", 4}, {"f", 4}}));
  EXPECT_EQ(categories, (std::map<std::string, int>{{"compute", 4}, {"receive", 4}, {"send", 4}}));
  EXPECT_DOUBLE_EQ(end, 34e6);  // one time unit shown as a second
}

TEST(ActorsTraceE2e, TheTimelineNeverReplacesAnInput) {
  TemporaryDirectory directory;
  const auto program = directory.write("ping.actors", ping_pong);
  const auto machine = directory.write("two.machine", two_sites);
  const ProcessResult result = run({program, "--machine", machine, "--trace", machine});
  EXPECT_EQ(result.exit_code, 1) << describe(result);
  EXPECT_EQ(read_text(machine), two_sites);
  EXPECT_EQ(directory.names(), (std::vector<std::string>{"ping.actors", "two.machine"}));
}

// With replications the timeline is replication 0's, which is the run without them.
TEST(ActorsTraceE2e, WithReplicationsTheTimelineIsTheFirstReplications) {
  TemporaryDirectory directory;
  const std::string once = (directory.path() / "once.json").string();
  const std::string first = (directory.path() / "first.json").string();
  const Arguments base{examples + "irregular.actors", "--machine", examples + "mesh4x4.machine", "--trace"};
  Arguments arguments = base;
  arguments.push_back(once);
  ASSERT_EQ(run(arguments).exit_code, 0);
  arguments = base;
  arguments.insert(arguments.end(), {first, "--replications", "6", "--threads", "3"});
  const ProcessResult result = run(arguments);
  ASSERT_EQ(result.exit_code, 0) << describe(result);
  EXPECT_EQ(read_text(first), read_text(once));
  EXPECT_FALSE(nlohmann::json::parse(read_text(first)).at("traceEvents").empty());
}

// Without randomness every replication takes the hand-computed 34: mean 34, no spread, 5 times the events.
TEST(ActorsReplicationsE2e, ADeterministicProgramGivesItsTimeWithoutSpread) {
  TemporaryDirectory directory;
  const auto program = directory.write("ping.actors", ping_pong);
  const auto machine = directory.write("two.machine", two_sites);
  const ProcessResult once = run({program, "--machine", machine, "--json"});
  const ProcessResult result = run({program, "--machine", machine, "--replications", "5", "--json"});
  ASSERT_EQ(result.exit_code, 0) << describe(result);
  const auto json = nlohmann::json::parse(result.standard_output);
  EXPECT_EQ(json["replications"], 5);
  EXPECT_DOUBLE_EQ(json["time"]["mean"].get<double>(), 34.0);
  EXPECT_DOUBLE_EQ(json["time"]["std"].get<double>(), 0.0);
  EXPECT_DOUBLE_EQ(json["time"]["ci95_half_width"].get<double>(), 0.0);
  EXPECT_DOUBLE_EQ(json["messages"]["mean"].get<double>(), 5.0);
  EXPECT_DOUBLE_EQ(json["events"].get<double>(), 5.0 * nlohmann::json::parse(once.standard_output)["events"].get<double>());
  EXPECT_DOUBLE_EQ(json["sites"][0]["utilization"]["mean"].get<double>(), 9.0 / 34.0);
}

// One branch of probability one half: each replication takes 0 or 10, from streams of its own.
TEST(ActorsReplicationsE2e, EachReplicationDrawsItsOwnBranches) {
  TemporaryDirectory directory;
  const auto program = directory.write("coin.actors", "type C { on go { branch 0.5 { compute 10 } } }\nplayer c : C\nstart go to c\n");
  const auto machine = directory.write("one.machine", "topology full 1\n");
  const ProcessResult result = run({program, "--machine", machine, "--replications", "64", "--json"});
  ASSERT_EQ(result.exit_code, 0) << describe(result);
  const auto time = nlohmann::json::parse(result.standard_output)["time"];
  EXPECT_EQ(time["minimum"], 0.0);
  EXPECT_EQ(time["maximum"], 10.0);
  const double heads = time["mean"].get<double>() * 64 / 10;
  EXPECT_NEAR(heads, std::round(heads), 1e-9) << "a whole number of replications took 10";
}

// The figures are the same bytes for any number of threads.
TEST(ActorsReplicationsE2e, TheResultsAreTheSameForAnyThreadCount) {
  const Arguments base{examples + "irregular.actors", "--machine", examples + "mesh4x4.machine", "--replications", "24"};
  std::vector<std::string> outputs;
  for (const std::string threads : {"1", "2", "3", "5"}) {
    for (const bool json : {false, true}) {
      Arguments arguments = base;
      arguments.insert(arguments.end(), {"--threads", threads});
      if (json) arguments.push_back("--json");
      const ProcessResult result = run(arguments);
      ASSERT_EQ(result.exit_code, 0) << describe(result);
      outputs.push_back(result.standard_output);
    }
  }
  for (std::size_t i = 2; i < outputs.size(); ++i) EXPECT_EQ(outputs[i], outputs[i % 2]) << i;
  EXPECT_NE(nlohmann::json::parse(outputs[1])["time"]["std"].get<double>(), 0.0) << "the replications differ";
}

#ifdef AUGUR_MPIEXEC
// Under mpirun the replications are shared among the ranks and rank 0 prints what one process prints.
ProcessResult run_mpi(int ranks, const Arguments& arguments) {
  Arguments argv = mpirun(ranks);
  argv.insert(argv.end(), {AUGUR_EXE, "actors", "simulate"});
  argv.insert(argv.end(), arguments.begin(), arguments.end());
  return augur::core::run_process(argv);
}

TEST(ActorsReplicationsE2e, MpiRanksGiveWhatOneProcessGives) {
  expect_ranks_print_what_one_process_prints({examples + "irregular.actors", "--machine", examples + "mesh4x4.machine", "--replications", "8"}, run, run_mpi);
}

// Rank 0 writes the timeline of replication 0, the same file as one process writes.
TEST(ActorsReplicationsE2e, UnderMpiRankZeroWritesTheTimeline) {
  TemporaryDirectory directory;
  const std::string alone = (directory.path() / "alone.json").string();
  const std::string shared = (directory.path() / "shared.json").string();
  const Arguments base{examples + "irregular.actors", "--machine", examples + "mesh4x4.machine", "--replications", "4", "--trace"};
  Arguments arguments = base;
  arguments.push_back(alone);
  ASSERT_EQ(run(arguments).exit_code, 0);
  arguments = base;
  arguments.push_back(shared);
  const ProcessResult result = run_mpi(2, arguments);
  ASSERT_EQ(result.exit_code, 0) << describe(result);
  EXPECT_EQ(read_text(shared), read_text(alone));
}

// An error at run time is reported once, by rank 0, with exit status 1.
TEST(ActorsReplicationsE2e, AnErrorUnderMpiIsReportedOnce) {
  TemporaryDirectory directory;
  const auto program = directory.write("bad.actors", "type C { on go { branch 0.9 { send go size 1 to c } else { compute 1 / 0 } } }\nplayer c : C\nstart go to c\n");
  const auto machine = directory.write("one.machine", "topology full 1\n");
  const ProcessResult result = run_mpi(2, {program, "--machine", machine, "--replications", "4"});
  EXPECT_EQ(result.exit_code, 1) << describe(result);
  EXPECT_EQ(result.standard_output, "");
  const std::string& errors = result.standard_error;
  const auto first = errors.find("bad.actors:");
  ASSERT_NE(first, std::string::npos) << errors;
  EXPECT_EQ(errors.find("bad.actors:", first + 1), std::string::npos) << errors;
}
#endif

}  // namespace
