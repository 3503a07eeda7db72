// The actor simulator's inputs (src/sim/actors): every error of the program, machine and mapping parsers
// located at file:line:col, and the largest machines built (the simulations: actors_test.cpp).
#include <gtest/gtest.h>

#include <string>

#include "actors_programs.hpp"
#include "sim/actors/simulate.hpp"

namespace augur::sim::actors {
namespace {

using test::expect_errors;
using test::pipeline;
using test::program_error;

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

}  // namespace
}  // namespace augur::sim::actors
