// The actor simulator (src/sim/actors): exact times of tiny programs on tiny machines, computed by hand in
// the comments; the parsers' errors at file:line:col; deadlocks; routing (post-game analysis:
// actors_post_game_test.cpp).
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

// The located message of the InputError that `read(input)` throws, or "no error".
template <typename Read>
std::string error_of(const Read& read, const std::string& input) {
  try {
    read(input);
  } catch (const core::InputError& error) {
    return error.what();
  }
  return "no error";
}

// Each input (first) read by `read` fails with its message (second).
template <typename Read>
void expect_errors(const Read& read, const std::vector<std::pair<std::string, std::string>>& cases) {
  for (const auto& [input, message] : cases) EXPECT_EQ(error_of(read, input), message) << input;
}

std::string program_error(const std::string& text, std::map<std::string, double> set = {}) {
  return error_of([&](const std::string& input) { (void)parse_program(input, "p.actors", set); }, text);
}

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

const char* const pipeline = R"(param items = 4
param stages = 3
type Source { on go { loop items { send item size 10 to stage[0] } } }
type Stage {
  on item {
    compute 5
    if index + 1 < stages { send item size 10 to stage[index + 1] }
  }
}
player source : Source
group stage[stages] : Stage
start go to source
)";

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

TEST(Actors, EveryParseErrorIsLocated) {
  expect_errors([](const std::string& text) { (void)parse_program(text, "p.actors"); },
                {
      {"parm n = 1\n",
       "p.actors:1:1: expected 'param', 'type', 'player', 'group' or 'start', found 'parm'"},
      {"param n 1\n",
       "p.actors:1:9: expected '='"},
      {"param n = \n",
       "p.actors:2:1: expected an expression, found the end of the file"},
      {"param n = 1\nparam n = 2\nstart go to a\n",
       "p.actors:2:7: parameter 'n' declared twice"},
      {"type A { on go { jump } }\n",
       "p.actors:1:18: unknown statement 'jump' (compute, send, create, loop, branch, if, wait, stop or NAME = ...)"},
      {"type A { on go { compute w } }\nplayer a : A\nstart go to a\n",
       "p.actors:1:26: unknown name 'w' (not a parameter, a field of message 'go', a variable of type 'A', index, row, column)"},
      {"type A { on go { send x to b } }\nplayer a : A\nstart go to a\n",
       "p.actors:1:28: unknown player 'b'"},
      {"type A { on go { send x to all b } }\nplayer a : A\nstart go to a\n",
       "p.actors:1:32: unknown group 'b'"},
      {"type A { on go { send x to g } }\ngroup g[2] : A\nstart go to g[0]\n",
       "p.actors:1:28: 'g' is a group: name an element (g[i]) or all of it (all g)"},
      {"type A { on go { send x to g[1, 2] } }\ngroup g[2] : A\nstart go to g[0]\n",
       "p.actors:1:28: group 'g' has 1 dimension"},
      {"type A { on go { send x b } }\n",
       "p.actors:1:25: expected 'size' or 'to'"},
      {"type A { on go { send x(a = 1, a = 2) to self } }\nplayer p : A\nstart go to p\n",
       "p.actors:1:32: field 'a' given twice"},
      {"type A { on go { if 1 { } } }\n",
       "p.actors:1:23: expected a comparison (<, <=, ==, !=, >, >=)"},
      {"type A { on go { x = 1 } }\nplayer a : A\nstart go to a\n",
       "p.actors:1:18: unknown variable 'x' (declare it with 'var x = ...' in the type)"},
      {"type A { on go { create c : B } }\n",
       "p.actors:1:29: unknown player type 'B'"},
      {"player a : B\n",
       "p.actors:1:12: unknown player type 'B'"},
      {"type A { }\ntype A { }\n",
       "p.actors:2:6: type 'A' declared twice"},
      {"type A { on go { } on go { } }\n",
       "p.actors:1:23: a second behaviour on 'go' in type 'A'"},
      {"type A { }\nplayer a : A\nplayer a : A\n",
       "p.actors:3:8: player or group 'a' declared twice"},
      {"type A { }\ngroup g[0] : A\n",
       "p.actors:2:9: a group's size must be a whole number from 1 to 1000000, not 0"},
      {"type A { }\nplayer a : A\n",
       "p.actors:3:1: the program sends no start message ('start KIND to PLAYER')"},
      {"type A { }\nplayer a : A\nstart go to sender\n",
       "p.actors:3:13: a start message has no sender, parent or self: name a player or a group"},
      {"type A { on go { compute 1 }\n",
       "p.actors:2:1: expected 'var', 'on' or '}', found the end of the file"},
      {"type A { on go { compute (1 } }\n",
       "p.actors:1:29: expected a ')' to close the '(' at 1:26 but found '}'"}
                });
}

TEST(Actors, MachineErrorsAreLocated) {
  expect_errors([](const std::string& text) { (void)parse_machine(text, "m.machine"); },
                {
      {"latency 1\n",
       "m.machine:2:1: the machine has no 'topology' line"},
      {"topology star 4\n",
       "m.machine:1:10: unknown topology 'star' (ring N, mesh W H, torus W H, hypercube D, full N, links N)"},
      {"topology mesh 4\n",
       "m.machine:1:16: 'topology' needs 3 values"},
      {"topology ring 4\nbandwidth 0\n",
       "m.machine:2:11: expected a number above 0, found '0'"},
      {"topology ring 4\nlatency x\n",
       "m.machine:2:9: expected a number, found 'x'"},
      {"topology ring 4\nlatency 1\nlatency 2\n",
       "m.machine:3:1: 'latency' given twice"},
      {"topology ring 4\nspeeed 1\n",
       "m.machine:2:1: unknown setting 'speeed' (topology, routing, switching, speed, context-switch, send-overhead, receive-overhead, latency, bandwidth, site, link)"},
      {"topology ring 4\nrouting dimension-order\n",
       "m.machine:2:9: dimension-order routing needs a mesh, a torus or a hypercube"},
      {"topology ring 4\nlink 0 2\n",
       "m.machine:2:6: no link between sites 0 and 2 in this ring (explicit links need 'topology links N')"},
      {"topology ring 4\nsite 4 speed 2\n",
       "m.machine:2:6: no site 4 (the machine has 4)"},
      {"topology links 3\nlink 0 1\n",
       "m.machine:1:10: the machine is not connected: site 2 cannot reach site 0"},
      {"topology links 3\nlink 0 0\n",
       "m.machine:2:8: a link joins two different sites"},
      {"topology ring 3\nlink 0 1 speed 3\n",
       "m.machine:2:10: unknown setting 'speed' here"},
      {"topology full 257\n",
       "m.machine:1:10: a full machine has at most 256 sites (every pair is a link)"}
                });
}

// The largest machines are built in moments (a full machine's links were once deduplicated by a scan of
// every channel, sites⁴ in all): every pair of a full machine one hop apart, a link line finds its channel.
TEST(Actors, LargestMachinesAreBuilt) {
  const Machine full = parse_machine("topology full 256\nlink 200 3 latency 5\n", "m.machine");
  ASSERT_EQ(full.channels.size(), 256U * 255U);
  EXPECT_EQ(full.hops(0, 255), 1);
  EXPECT_EQ(full.hops(255, 0), 1);
  EXPECT_EQ(full.hops(117, 116), 1);
  const Channel& from_3 = full.channels[static_cast<std::size_t>(full.next_channel(3, 200))];
  const Channel& to_3 = full.channels[static_cast<std::size_t>(full.next_channel(200, 3))];
  EXPECT_EQ(from_3.from, 3);
  EXPECT_EQ(from_3.to, 200);
  EXPECT_EQ(from_3.latency, 5.0);
  EXPECT_EQ(to_3.latency, 5.0);
  EXPECT_EQ(full.channels[static_cast<std::size_t>(full.next_channel(3, 199))].latency, 0.0);
  const Machine links = parse_machine("topology links 4\nlink 0 1\nlink 2 1\nlink 3 2 bandwidth 4\nlink 1 0 latency 2\n", "m.machine");
  EXPECT_EQ(links.channels.size(), 6U);
  EXPECT_EQ(links.hops(0, 3), 3);
  EXPECT_EQ(links.channels[static_cast<std::size_t>(links.next_channel(2, 3))].bandwidth, 4.0);
  EXPECT_EQ(links.channels[static_cast<std::size_t>(links.next_channel(0, 1))].latency, 2.0);
  EXPECT_EQ(links.channels[static_cast<std::size_t>(links.next_channel(1, 0))].latency, 2.0);
}

TEST(Actors, MappingErrorsAreLocated) {
  const Program program = parse_program(pipeline, "p.actors");
  const Machine machine = parse_machine("topology ring 3\n", "m.machine");
  expect_errors([&](const std::string& text) { (void)read_mapping(text, "m.map", program, machine); },
                {
      {"source 0\nstage[0] 3\n",
       "m.map:2:10: no site '3' (the machine's sites are 0 to 2)"},
      {"sorce 0\n",
       "m.map:1:1: unknown player 'sorce' (a created player is named by its creation path, e.g. root/left)"},
      {"source 0\nsource 1\n",
       "m.map:2:1: player 'source' mapped twice"},
      {"source 0\n",
       "m.map:2:1: player 'stage[0]' has no site"},
      {"source 0 1\n",
       "m.map:1:10: expected 'PLAYER SITE'"}
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
