// The actor simulator (src/sim/actors): exact times of tiny programs on tiny machines, computed by hand in
// the comments; deadlocks; run-time errors; routing (the parsers' errors at file:line:col:
// actors_errors_test.cpp; post-game analysis: actors_post_game_test.cpp).
#include <gtest/gtest.h>

#include <string>

#include "actors_programs.hpp"
#include "sim/actors/simulate.hpp"

namespace augur::sim::actors {
namespace {

Simulation run(const std::string& program_text, const std::string& machine_text, const std::string& mapping_text = "",
               Placement rule = Placement::RoundRobin, std::map<std::string, double> set = {}) {
  const Program program = parse_program(program_text, "p.actors", set);
  const Machine machine = parse_machine(machine_text, "m.machine");
  if (mapping_text.empty()) return simulate(program, machine, initial_mapping(program, machine, rule, 1), {});
  const MappingFile mapping = read_mapping(mapping_text, "m.map", program, machine);
  SimulationOptions options;
  options.created_sites = mapping.created;
  return simulate(program, machine, mapping.mapping, options);
}

using test::error_of;
using test::expect_errors;
using test::pipeline;
using test::program_error;
using test::ping_pong;

// Ping-pong on two sites: each trip is send 1 + transmission 20/10 + latency 2 + receive 0.5 = 5.5, then
// compute 3: four trips, 4 × 8.5 = 34.
TEST(Actors, PingPongOnTwoSitesTakesFourTripsOfEightAndAHalf) {
  const Simulation result = run(ping_pong, "topology ring 2\nlatency 2\nbandwidth 10\nsend-overhead 1\nreceive-overhead 0.5\n");
  EXPECT_DOUBLE_EQ(result.time, 34.0);
  ASSERT_EQ(result.sites.size(), 2u);
  EXPECT_DOUBLE_EQ(result.sites[0].busy, 9.0);  // two sends (1), two receives (0.5), two computes (3)
  EXPECT_DOUBLE_EQ(result.sites[1].busy, 9.0);
  EXPECT_DOUBLE_EQ(result.sites[0].utilization, 9.0 / 34.0);
  ASSERT_EQ(result.channels.size(), 2u);
  EXPECT_EQ(result.channels[0].messages, 2);
  EXPECT_DOUBLE_EQ(result.channels[0].traffic, 40.0);
  EXPECT_DOUBLE_EQ(result.channels[0].busy, 4.0);
  EXPECT_EQ(result.players[0].messages_in, 3);  // serve and two balls
  EXPECT_EQ(result.players[0].messages_out, 2);
  EXPECT_DOUBLE_EQ(result.players[1].busy, 9.0);
  EXPECT_EQ(result.messages, 5);
  EXPECT_TRUE(result.deadlock.empty());
}

TEST(Actors, PlayersOnOneSiteExchangeWithoutTheNetworkAndPayContextSwitches) {
  // All on site 0: no send or receive time, four computes of 3 and a context switch of 0.25 at each of
  // the three changes of player: 12.75.
  const Simulation result = run(ping_pong, "topology ring 2\nlatency 2\nbandwidth 10\nsend-overhead 1\nreceive-overhead 0.5\ncontext-switch 0.25\n", "",
                                Placement::OneSite);
  EXPECT_DOUBLE_EQ(result.time, 12.75);
  EXPECT_EQ(result.sites[0].context_switches, 3);
  EXPECT_EQ(result.channels[0].messages, 0);
}

// A 3-stage pipeline on a ring of 3: each stage computes 5 per item, each hop takes 10/10 + 1 = 2; the last
// item leaves stage 0 at 20, stage 1 at 27, stage 2 at 34 = 5 × (4 + 2) + 2 × 2.
TEST(Actors, ThreeStagePipelineOnARingFillsAndDrains) {
  const Simulation result = run(pipeline, "topology ring 3\nlatency 1\nbandwidth 10\n", "source 0\nstage[0] 0\nstage[1] 1\nstage[2] 2\n");
  EXPECT_DOUBLE_EQ(result.time, 34.0);
  EXPECT_DOUBLE_EQ(result.players[3].busy, 20.0);
  EXPECT_EQ(result.players[3].messages_in, 4);
  EXPECT_DOUBLE_EQ(result.sites[2].utilization, 20.0 / 34.0);
}

TEST(Actors, ParametersAreSetFromTheCommandLine) {
  const Simulation result = run(pipeline, "topology ring 3\nlatency 1\nbandwidth 10\n", "source 0\nstage[0] 0\nstage[1] 1\nstage[2] 2\n",
                                Placement::RoundRobin, {{"items", 10}});
  EXPECT_DOUBLE_EQ(result.time, 5.0 * 12 + 4);
  EXPECT_EQ(program_error(pipeline, {{"item", 3}}), "--set: the program has no parameter 'item'");
}

// Two messages of size 10 on one link of bandwidth 1 and latency 1: the first arrives at 11, the second
// waits for the link and arrives at 21.
TEST(Actors, TwoMessagesContendForOneLink) {
  const char* const text = R"(type Sender { on go { send data size 10 to c } }
type Sink { on data { compute 0 } }
player a : Sender
player b : Sender
player c : Sink
start go to a
start go to b
)";
  const Simulation result = run(text, "topology ring 2\nlatency 1\nbandwidth 1\n", "a 0\nb 0\nc 1\n");
  EXPECT_DOUBLE_EQ(result.time, 21.0);
  const ChannelResult& forth = result.channels[0];
  const ChannelResult& back = result.channels[1];
  EXPECT_TRUE(forth.messages == 2 && forth.busy == 20.0 && back.messages == 0) << forth.messages << " " << forth.busy;
  EXPECT_DOUBLE_EQ(forth.utilization, 20.0 / 21.0);
}

// Store-and-forward over two hops of a line of three sites: 2 × (10/5 + 1) = 6.
TEST(Actors, MessagesAreStoredAndForwardedAtEachHop) {
  const char* const text = "type S { on go { send data size 10 to z } }\ntype Z { on data { compute 0 } }\nplayer s : S\nplayer z : Z\nstart go to s\n";
  const Simulation result = run(text, "topology links 3\nlink 0 1\nlink 1 2\nlatency 1\nbandwidth 5\n", "s 0\nz 2\n");
  EXPECT_DOUBLE_EQ(result.time, 6.0);
}

TEST(Actors, DivideAndConquerCreatesATreeAndWaitsForItsChildren) {
  const char* const text = R"(param depth = 2
type Node {
  on solve {
    if level < depth {
      create left : Node
      create right : Node
      send solve(level = level + 1) size 1 to left
      send solve(level = level + 1) size 1 to right
      wait done count 2
      compute 1
    } else {
      compute 4
    }
    if level > 0 { send done size 1 to parent }
  }
}
player root : Node
start solve(level = 0) to root
)";
  // All on one site: 4 leaves × 4 + 3 merges × 1 = 19.
  const Simulation result = run(text, "topology full 2\n", "", Placement::OneSite);
  EXPECT_DOUBLE_EQ(result.time, 19.0);
  ASSERT_EQ(result.players.size(), 7u);
  EXPECT_EQ(result.players[1].name, "root/left");
  EXPECT_EQ(result.players[3].name, "root/left/left");
  EXPECT_TRUE(result.deadlock.empty());
}

TEST(Actors, AMappingFileMayPlaceCreatedPlayersByTheirCreationPath) {
  const char* const text = R"(type Node {
  on go {
    if level < 2 {
      create child : Node
      send go(level = level + 1) to child
    }
  }
}
player root : Node
start go(level = 0) to root
)";
  // root/child is named; root/child/child is not and stays on its creator's site
  const Simulation result = run(text, "topology ring 4\n", "root 0\nroot/child 3\n");
  ASSERT_EQ(result.players.size(), 3u);
  EXPECT_EQ(result.players[1].name, "root/child");
  EXPECT_EQ(result.players[1].site, 3);
  EXPECT_EQ(result.players[2].name, "root/child/child");
  EXPECT_EQ(result.players[2].site, 3);
  // by a rule, created players continue it: round-robin after the one static player
  const Simulation by_rule = run(text, "topology ring 4\n");
  EXPECT_EQ(by_rule.players[1].site, 1);
  EXPECT_EQ(by_rule.players[2].site, 2);
}

TEST(Actors, ADeadlockSaysWhoWaitsForWhat) {
  const char* const text = R"(type A { on go { send request size 1 to b
  wait reply count 2 } }
type B { on request { send reply to sender } }
player a : A
player b : B
start go to a
)";
  const Simulation result = run(text, "topology ring 2\n");
  ASSERT_EQ(result.deadlock.size(), 1u);
  EXPECT_EQ(result.players[static_cast<std::size_t>(result.deadlock[0].player)].name, "a");
  EXPECT_EQ(result.deadlock[0].kind, "reply");
  EXPECT_EQ(result.deadlock[0].received, 1);
  EXPECT_EQ(result.deadlock[0].needed, 2);
  EXPECT_EQ(result.deadlock[0].where, "p.actors:2:3");
}

TEST(Actors, FunctionsOfFieldsAreEvaluatedWhileTheProgramRuns) {
  // max(9, 2) + sqrt(9 * 4) + min(index, 1, 2) = 9 + 6 + 0 = 15 work units at speed 1
  const Simulation result = run("type A { on go { compute max(w, 2) + sqrt(w * 4) + min(index, 1, 2) } }\nplayer a : A\nstart go(w = 9) to a\n", "topology ring 1\n");
  EXPECT_DOUBLE_EQ(result.time, 15.0);
  EXPECT_EQ(program_error("type A { on go { compute foo(w) } }\nplayer a : A\nstart go(w = 1) to a\n"),
            "p.actors:1:26: unknown function 'foo' (known: sqrt, log, log2, ln, log10, exp, abs, min, max, pow)");
}

TEST(Actors, BranchesFollowTheSeededStream) {
  const char* const text = "type A { on go { loop 1000 { branch 0.25 { send hit to b } } } }\ntype B { on hit { compute 1 } }\nplayer a : A\nplayer b : B\nstart go to a\n";
  const Simulation result = run(text, "topology ring 1\n");
  EXPECT_NEAR(static_cast<double>(result.players[1].messages_in), 250.0, 50.0);
  EXPECT_EQ(run(text, "topology ring 1\n").players[1].messages_in, result.players[1].messages_in);
}

TEST(Actors, RunTimeErrorsAreLocatedAtTheStatement) {
  expect_errors([](const std::string& text) { (void)run(text, "topology ring 2\n"); },
                {
      {"type A { on go { send x to g[index + 2] } }\ngroup g[2] : A\nstart go to g[0]\n",
       "p.actors:1:36: index 2 is outside group 'g' (0 to 1)"},
      {"type A { on go { send x to g[1] } }\ngroup g[2] : A\nstart go to g[0]\n",
       "p.actors:1:18: player 'g[1]' (type A) has no behaviour on message 'x'"},
      {"type A { on go { send x to sender } }\nplayer a : A\nstart go to a\n",
       "p.actors:1:18: this message has no sender (it is a start message)"},
      {"type A { on go { send x to parent } }\nplayer a : A\nstart go to a\n",
       "p.actors:1:18: 'a' has no parent (it was not created by a player)"},
      {"type A { on go { compute 0 - 1 } }\nplayer a : A\nstart go to a\n",
       "p.actors:1:28: work must be at least 0, not -1"},
      {"type A { on go { loop 1e12 { } } }\nplayer a : A\nstart go to a\n",
       "p.actors:1:18: 'a' ran 100000000 statements without time passing (a loop without work?)"},
      {"type A { var x = 0\n on go { compute 1 / x } }\nplayer a : A\nstart go to a\n",
       "p.actors:2:20: division by zero"}
                });
}

TEST(Actors, RoutesFollowTheTopology) {
  const Machine mesh = parse_machine("topology mesh 4 4\nrouting dimension-order\n", "m");
  EXPECT_EQ(mesh.sites, 16);
  EXPECT_EQ(mesh.hops(0, 15), 6);
  EXPECT_EQ(mesh.channels[static_cast<std::size_t>(mesh.next_channel(0, 15))].to, 1);  // x first
  const Machine torus = parse_machine("topology torus 4 4\n", "m");
  EXPECT_EQ(torus.hops(0, 3), 1);
  EXPECT_EQ(torus.hops(0, 15), 2);
  const Machine cube = parse_machine("topology hypercube 3\nrouting dimension-order\n", "m");
  EXPECT_EQ(cube.hops(0, 7), 3);
  EXPECT_EQ(cube.channels[static_cast<std::size_t>(cube.next_channel(0, 6))].to, 2);  // lowest differing bit first
  const Machine ring = parse_machine("topology ring 8\n", "m");
  EXPECT_EQ(ring.hops(0, 5), 3);
  EXPECT_EQ(ring.channels.size(), 16u);
  const Machine full = parse_machine("topology full 5\n", "m");
  EXPECT_EQ(full.hops(1, 4), 1);
}

TEST(Actors, StencilOnATwoDimensionalGroupExchangesHalos) {
  const char* const text = R"(param n = 3
param steps = 2
type Cell {
  var neighbours = 0
  on go {
    loop steps {
      neighbours = 0
      if row > 0 { send halo size 1 to cell[row - 1, column]
        neighbours = neighbours + 1 }
      if row + 1 < n { send halo size 1 to cell[row + 1, column]
        neighbours = neighbours + 1 }
      if column > 0 { send halo size 1 to cell[row, column - 1]
        neighbours = neighbours + 1 }
      if column + 1 < n { send halo size 1 to cell[row, column + 1]
        neighbours = neighbours + 1 }
      wait halo count neighbours
      compute 1
    }
  }
}
group cell[n, n] : Cell
start go to all cell
)";
  const Simulation result = run(text, "topology mesh 3 3\nlatency 1\n");  // one cell a site: 2 × (1 + 1 + 1) = 6
  EXPECT_DOUBLE_EQ(result.time, 6.0);
  EXPECT_EQ(result.messages, 9 + 2 * 24);
  EXPECT_EQ(result.players[4].name, "cell[1,1]");
  EXPECT_TRUE(result.deadlock.empty());
}

}  // namespace
}  // namespace augur::sim::actors
