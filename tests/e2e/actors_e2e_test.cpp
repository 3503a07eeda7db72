// End-to-end tests of augur actors simulate: the built binary on the shipped examples (examples/actors/)
// and on files written into a fresh temporary directory; exit statuses 0, 1 (bad input, deadlock), 2 (usage).
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

// augur actors ARGUMENTS...
ProcessResult run(const Arguments& arguments) { return run_command("actors", arguments); }

TEST(ActorsE2e, PingPongGivesTheHandComputedTimeInJson) {
  TemporaryDirectory directory;
  const auto program = directory.write("ping.actors", ping_pong);
  const auto machine = directory.write("two.machine", "topology ring 2\nlatency 2\nbandwidth 10\nsend-overhead 1\nreceive-overhead 0.5\n");
  const ProcessResult result = run({"simulate", program, "--machine", machine, "--json"});
  ASSERT_EQ(result.exit_code, 0) << describe(result);
  const auto json = nlohmann::json::parse(result.standard_output);
  EXPECT_DOUBLE_EQ(json["time"].get<double>(), 34.0);
  EXPECT_EQ(json["sites"].size(), 2u);
  EXPECT_EQ(json["links"].size(), 2u);
  EXPECT_EQ(json["players"][1]["name"], "b");
  EXPECT_EQ(json["mapping"]["a"], 0);
  EXPECT_EQ(json["mapping"]["b"], 1);
  EXPECT_TRUE(json["deadlock"].empty());
}

TEST(ActorsE2e, TheTableNamesTheMachineAndTheTime) {
  const ProcessResult result = run({"simulate", examples + "pipeline.actors", "--machine", examples + "ring8.machine", "--set", "items=2"});
  ASSERT_EQ(result.exit_code, 0) << describe(result);
  EXPECT_TRUE(contains(result.standard_output, "(ring, 8 sites, shortest routing, store-and-forward)")) << result.standard_output;
  EXPECT_TRUE(contains(result.standard_output, "Execution time ")) << result.standard_output;
}

TEST(ActorsE2e, BadInputIsLocatedWithExitStatus1) {
  TemporaryDirectory directory;
  const auto program = directory.write("bad.actors", "type A { on go { compute x } }\nplayer a : A\nstart go to a\n");
  const auto machine = directory.write("ring.machine", "topology ring 2\n");
  ProcessResult result = run({"simulate", program, "--machine", machine});
  EXPECT_EQ(result.exit_code, 1) << describe(result);
  EXPECT_TRUE(contains(result.standard_error, "bad.actors:1:26: unknown name 'x'")) << describe(result);
  EXPECT_TRUE(result.standard_output.empty());

  const auto split = directory.write("split.machine", "topology links 4\nlink 0 1\nlink 2 3\n");
  result = run({"simulate", examples + "pipeline.actors", "--machine", split});
  EXPECT_EQ(result.exit_code, 1) << describe(result);
  EXPECT_TRUE(contains(result.standard_error, "split.machine:1:10: the machine is not connected: site 2 cannot reach site 0")) << describe(result);

  const auto mapping = directory.write("bad.map", "source 9\n");
  result = run({"simulate", examples + "pipeline.actors", "--machine", examples + "ring8.machine", "--mapping", mapping});
  EXPECT_EQ(result.exit_code, 1) << describe(result);
  EXPECT_TRUE(contains(result.standard_error, "bad.map:1:8: no site '9' (the machine's sites are 0 to 7)")) << describe(result);

  result = run({"simulate", examples + "pipeline.actors", "--machine", examples + "ring8.machine", "--set", "stagez=3"});
  EXPECT_EQ(result.exit_code, 1) << describe(result);
  EXPECT_TRUE(contains(result.standard_error, "--set: the program has no parameter 'stagez'")) << describe(result);

  result = run({"simulate", directory.file("missing.actors"), "--machine", machine});
  EXPECT_EQ(result.exit_code, 1) << describe(result);
  EXPECT_TRUE(contains(result.standard_error, "missing.actors: cannot read")) << describe(result);
}

TEST(ActorsE2e, UsageErrorsExitWith2) {
  EXPECT_EQ(run({"simulate", examples + "pipeline.actors"}).exit_code, 2);  // no --machine
  EXPECT_EQ(run({"simulate", examples + "pipeline.actors", "--machine", examples + "ring8.machine", "--initial", "best"}).exit_code, 2);
  EXPECT_EQ(run({"simulate", examples + "pipeline.actors", "--machine", examples + "ring8.machine", "--initial", "random", "--mapping",
                 examples + "pipeline.map"}).exit_code, 2);
  EXPECT_EQ(run({}).exit_code, 2);
}

TEST(ActorsE2e, ADeadlockIsReportedWithExitStatus1) {
  const ProcessResult result = run({"simulate", examples + "deadlock.actors", "--machine", examples + "ring8.machine", "--json"});
  EXPECT_EQ(result.exit_code, 1) << describe(result);
  const auto json = nlohmann::json::parse(result.standard_output);
  ASSERT_EQ(json["deadlock"].size(), 2u);
  EXPECT_EQ(json["deadlock"][0]["player"], "pair[0]");
  EXPECT_EQ(json["deadlock"][0]["kind"], "answer");
  EXPECT_TRUE(contains(result.standard_error, "deadlock: 2 players wait")) << describe(result);
}

TEST(ActorsE2e, RandomMappingsFollowTheSeed) {
  const Arguments common{"simulate", examples + "divide.actors", "--machine", examples + "mesh4x4.machine", "--initial", "random", "--json"};
  Arguments first = common;
  first.insert(first.end(), {"--seed", "5"});
  const ProcessResult a = run(first);
  const ProcessResult b = run(first);
  ASSERT_EQ(a.exit_code, 0) << describe(a);
  EXPECT_EQ(a.standard_output, b.standard_output);
}

}  // namespace

namespace {

TEST(ActorsE2e, TuneWritesAMappingThatSimulatesToItsTime) {
  TemporaryDirectory directory;
  const std::string mapping = directory.file("best.map");
  const ProcessResult tuned = run({"tune", examples + "pipeline.actors", "--machine", examples + "ring8.machine", "--json", "--write-mapping", mapping});
  ASSERT_EQ(tuned.exit_code, 0) << describe(tuned);
  const auto json = nlohmann::json::parse(tuned.standard_output);
  EXPECT_LT(json["time"].get<double>(), json["initial_time"].get<double>());
  const ProcessResult simulated = run({"simulate", examples + "pipeline.actors", "--machine", examples + "ring8.machine", "--mapping", mapping, "--json"});
  ASSERT_EQ(simulated.exit_code, 0) << describe(simulated);
  EXPECT_DOUBLE_EQ(nlohmann::json::parse(simulated.standard_output)["time"].get<double>(), json["time"].get<double>());
  // never over an input
  const ProcessResult refused = run({"tune", examples + "pipeline.actors", "--machine", examples + "ring8.machine", "--write-mapping", examples + "pipeline.actors"});
  EXPECT_EQ(refused.exit_code, 1) << describe(refused);
}

}  // namespace
