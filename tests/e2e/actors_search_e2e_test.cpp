// End-to-end tests of augur actors search and --initial greedy: the built binary on the shipped examples and
// on files in a fresh temporary directory; the JSON fields, the written mapping read back by simulate, the
// refusals (exhaustive past its budget, an unknown method) and their exit statuses.
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
const std::string examples = examples_of("actors");

// augur actors ARGUMENTS...
ProcessResult run_actors(const Arguments& arguments) { return run_command("actors", arguments); }

// Two independent players of work 6 and 4 and a third of 3 on two sites: the optimum is 7 (6 | 4 + 3).
const char* const three = "type W { on go { compute work } }\nplayer a : W\nplayer b : W\nplayer c : W\n"
                          "start go(work = 3) to a\nstart go(work = 6) to b\nstart go(work = 4) to c\n";

TEST(ActorsSearchE2e, ExhaustiveJsonGivesTheOptimumAndItsMapping) {
  TemporaryDirectory directory;
  const auto program = directory.write("three.actors", three);
  const auto machine = directory.write("two.machine", "topology ring 2\n");
  const ProcessResult result = run_actors({"search", program, "--machine", machine, "--method", "exhaustive", "--json", "--threads", "2"});
  ASSERT_EQ(result.exit_code, 0) << describe(result);
  const auto json = nlohmann::json::parse(result.standard_output);
  EXPECT_EQ(json["method"], "exhaustive");
  EXPECT_DOUBLE_EQ(json["best_time"].get<double>(), 7.0);
  EXPECT_DOUBLE_EQ(json["initial_time"].get<double>(), 7.0);  // round-robin: a and c on site 0, b on site 1
  // The ring of two sites has one symmetry besides the identity (the swap): 2^3 / 2 = 4 mappings.
  EXPECT_EQ(json["symmetries"], 2);
  EXPECT_EQ(json["simulations"], 5);
  EXPECT_NE(json["mapping"]["b"], json["mapping"]["a"]);
  EXPECT_EQ(json["mapping"]["a"], json["mapping"]["c"]);
}

TEST(ActorsSearchE2e, TheWrittenMappingGivesTheSameTimeUnderSimulate) {
  TemporaryDirectory directory;
  const auto mapping = directory.path() / "best.map";
  const ProcessResult found = run_actors({"search", examples + "divide.actors", "--machine", examples + "mesh2x2.machine", "--set", "depth=2",
                                          "--method", "random", "--budget", "50", "--seed", "3", "--json", "--write-mapping", mapping.string()});
  ASSERT_EQ(found.exit_code, 0) << describe(found);
  const auto json = nlohmann::json::parse(found.standard_output);
  EXPECT_EQ(json["created_players"], 6);
  EXPECT_EQ(json["simulations"], 50);
  EXPECT_LE(json["best_time"].get<double>(), json["initial_time"].get<double>());
  const ProcessResult simulated = run_actors({"simulate", examples + "divide.actors", "--machine", examples + "mesh2x2.machine", "--set", "depth=2",
                                              "--seed", "3", "--mapping", mapping.string(), "--json"});
  ASSERT_EQ(simulated.exit_code, 0) << describe(simulated);
  EXPECT_DOUBLE_EQ(nlohmann::json::parse(simulated.standard_output)["time"].get<double>(), json["best_time"].get<double>());
}

TEST(ActorsSearchE2e, ExhaustivePastItsBudgetIsRefused) {
  const ProcessResult result = run_actors({"search", examples + "pipeline.actors", "--machine", examples + "mesh4x4.machine", "--method", "exhaustive"});
  EXPECT_EQ(result.exit_code, 1) << describe(result);
  EXPECT_EQ(result.standard_error,
            "augur actors search: exhaustive search of 6 players on 16 sites is 4194304 mappings (after 4 symmetries of the machine), more than "
            "the budget of 1000000 simulations: raise --budget or use annealing\n");
  EXPECT_EQ(result.standard_output, "");
}

TEST(ActorsSearchE2e, UsageErrorsExitWithTwo) {
  EXPECT_EQ(run_actors({"search", examples + "pipeline.actors", "--machine", examples + "ring8.machine", "--method", "best"}).exit_code, 2);
  EXPECT_EQ(run_actors({"search", examples + "pipeline.actors", "--machine", examples + "ring8.machine"}).exit_code, 2);
  EXPECT_EQ(run_actors({"search", examples + "pipeline.actors", "--machine", examples + "ring8.machine", "--method", "random", "--budget", "0"}).exit_code, 2);
}

TEST(ActorsSearchE2e, GreedyInitialMappingPlacesCreatedPlayersByName) {
  const ProcessResult result = run_actors({"simulate", examples + "divide.actors", "--machine", examples + "hypercube3.machine", "--initial", "greedy", "--json"});
  ASSERT_EQ(result.exit_code, 0) << describe(result);
  const auto json = nlohmann::json::parse(result.standard_output);
  EXPECT_EQ(json["mapping"].size(), 15u);
  // The eight leaves are the heaviest (work 100 and 2 of overheads; 104 for the one profiled on the twice-as-
  // fast site 0, 52 × 2): greedy places them first, one a site: the first on site 0 (done at 52), the next
  // on sites 1 to 7, each done at 102 sooner than on site 0 at (104 + 102) / 2 = 103.
  std::vector<int> leaves(8, 0);
  for (const auto& player : json["players"]) {
    const std::string name = player["name"].get<std::string>();
    if (std::count(name.begin(), name.end(), '/') == 3) ++leaves[static_cast<std::size_t>(player["site"].get<int>())];
  }
  EXPECT_EQ(leaves, (std::vector<int>{1, 1, 1, 1, 1, 1, 1, 1}));
}

}  // namespace
