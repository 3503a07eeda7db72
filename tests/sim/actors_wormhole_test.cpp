// Wormhole switching in the actor simulator (src/sim/actors/simulate_wormhole.cpp, docs/actors.md "Wormhole"):
// times worked by hand in the comments, against cut-through and store-and-forward on the same machines; a
// blocked worm holding the channel behind it; a cycle of worms on a ring reported as a deadlock.
#include <gtest/gtest.h>

#include <string>

#include "actors_programs.hpp"
#include "augur/core/diagnostics.hpp"
#include "sim/actors/simulate.hpp"

namespace augur::sim::actors {
namespace {

using test::line_of_four;
using test::one_message;
using test::run_mapped;
using test::two_senders;

std::string error_of(const std::string& machine_text) {
  try {
    (void)parse_machine(machine_text, "m.machine");
  } catch (const core::InputError& failure) {
    return failure.what();
  }
  return "no error";
}

TEST(ActorsWormhole, TheMachineSaysSo) {
  const Machine machine = parse_machine("topology ring 2\nswitching wormhole\n", "m");
  EXPECT_TRUE(machine.wormhole);
  EXPECT_FALSE(machine.cut_through);
  EXPECT_EQ(machine.switching, "wormhole");
  EXPECT_FALSE(parse_machine("topology ring 2\nswitching cut-through\n", "m").wormhole);
  EXPECT_EQ(error_of("topology ring 2\nswitching circuit\n"), "m.machine:2:11: switching is store-and-forward, cut-through or wormhole, not 'circuit'");
}

// Alone, a worm is cut-through's time: its head takes the channels at 0, 1 and 2 and is at site 3 at 3; the
// body streams behind at 10 / 5: the tail is there at 5. Each channel is held until the tail was sent onto
// it, 2 after the head took it.
TEST(ActorsWormhole, OneMessageOverThreeHops) {
  const Simulation worm = run_mapped(one_message, line_of_four("wormhole"), "s 0\nz 3\n");
  EXPECT_DOUBLE_EQ(worm.time, 5.0);
  for (int c : {0, 2, 4}) {
    EXPECT_DOUBLE_EQ(worm.channels[static_cast<std::size_t>(c)].busy, 2.0) << c;
    EXPECT_EQ(worm.channels[static_cast<std::size_t>(c)].messages, 1) << c;
    EXPECT_DOUBLE_EQ(worm.channels[static_cast<std::size_t>(c)].traffic, 10.0) << c;
  }
  EXPECT_TRUE(worm.deadlock.empty());
}

// The middle link at bandwidth 2: the worm moves as one, at the pace of its slowest channel, 10 / 2 = 5.
// Tail at site 3 at 3 + 5 = 8 (as cut-through); but every channel is held 5: 0->1 [0, 5], 1->2 [1, 6],
// 2->3 [2, 7] (cut-through sends on 0->1 at its own bandwidth: 2).
TEST(ActorsWormhole, TheWormMovesAtItsSlowestChannel) {
  const Simulation worm = run_mapped(one_message, line_of_four("wormhole", "2"), "s 0\nz 3\n");
  EXPECT_DOUBLE_EQ(worm.time, 8.0);
  for (int c : {0, 2, 4}) EXPECT_DOUBLE_EQ(worm.channels[static_cast<std::size_t>(c)].busy, 5.0) << c;
  const Simulation cut = run_mapped(one_message, line_of_four("cut-through", "2"), "s 0\nz 3\n");
  EXPECT_DOUBLE_EQ(cut.time, 8.0);
  EXPECT_DOUBLE_EQ(cut.channels[0].busy, 2.0);
}

// a and b on site 0 both send to z on site 3 at 0. a's head takes 0->1 at 0, 1->2 at 1, 2->3 at 2; its tail
// releases them at 2, 3 and 4 and reaches site 3 at 5. b's head waits at site 0 (holding nothing) until 2,
// then finds 1->2 free at 3 and 2->3 at 4 as it arrives: at site 3 at 5, its tail at 7.
TEST(ActorsWormhole, TwoMessagesContendOnOneLink) {
  const Simulation worm = run_mapped(two_senders, line_of_four("wormhole"), "a 0\nb 0\nz 3\n");
  EXPECT_DOUBLE_EQ(worm.time, 7.0);
  for (int c : {0, 2, 4}) {
    EXPECT_DOUBLE_EQ(worm.channels[static_cast<std::size_t>(c)].busy, 4.0) << c;
    EXPECT_EQ(worm.channels[static_cast<std::size_t>(c)].messages, 2) << c;
  }
}

// x (site 1 -> site 2) holds 1->2 over [0, 2]. a (site 0 -> site 2) takes 0->1 at 0; its head is at site 1 at
// 1 and waits there for 1->2 until 2: the whole worm stands still for 1, so 0->1, which its tail would have
// released at 2, is held until 3. c (site 0 -> site 1), sent just after a, waits for 0->1 until 3: its head
// is at site 1 at 4, its tail at 6 (0->1 held [3, 5]). a goes on at 2: head at site 2 at 3, tail at 5
// (1->2 held [2, 4]).
// Cut-through: a waits whole at site 1 and frees 0->1 at 2, so c starts at 2 and is there at 5.
// Store-and-forward: c crosses 0->1 over [2, 4], at site 1 at 5; a crosses 1->2 over [3, 5], at site 2 at 6.
TEST(ActorsWormhole, ABlockedWormHoldsTheChannelBehindIt) {
  const char* const three = R"(type A { on go { send data size 10 to y } }
type X { on go { send data size 10 to y } }
type C { on go { send data size 10 to w } }
type Z { on data { compute 0 } }
player a : A
player x : X
player c : C
player y : Z
player w : Z
start go to x
start go to a
start go to c
)";
  const std::string mapping = "a 0\nx 1\nc 0\ny 2\nw 1\n";
  const Simulation worm = run_mapped(three, line_of_four("wormhole"), mapping);
  EXPECT_DOUBLE_EQ(worm.time, 6.0);
  EXPECT_DOUBLE_EQ(worm.channels[0].busy, 5.0);  // a [0, 3], c [3, 5]
  EXPECT_DOUBLE_EQ(worm.channels[2].busy, 4.0);  // x [0, 2], a [2, 4]
  EXPECT_TRUE(worm.deadlock.empty());
  EXPECT_DOUBLE_EQ(run_mapped(three, line_of_four("cut-through"), mapping).time, 5.0);
  EXPECT_DOUBLE_EQ(run_mapped(three, line_of_four("store-and-forward"), mapping).time, 6.0);
}

// Five players on a ring of five, each sending to the player two sites on (shortest routes, all the same
// way round). Each head takes its first channel at 0 and is at the next site at 1, where the channel it
// needs is held by the next worm, whose tail would release it at 10 / 1 = 10, but which waits too: a cycle.
const char* const two_on = R"(type P {
  on go { if index < 3 { send data size bytes to p[index + 2] } else { send data size bytes to p[index - 3] } }
  on data { compute 0 }
}
param bytes = 10
group p[5] : P
start go to all p
)";

Simulation ring_of_five(const std::string& switching, double bytes) {
  const Program program = parse_program(two_on, "p.actors", {{"bytes", bytes}});
  const Machine machine = parse_machine("topology ring 5\nlatency 1\nswitching " + switching + "\n", "m.machine");
  return simulate(program, machine, initial_mapping(program, machine, Placement::RoundRobin, 1), {});
}

TEST(ActorsWormhole, ACycleOfWormsIsReportedAsADeadlock) {
  const Simulation worm = ring_of_five("wormhole", 10);
  EXPECT_DOUBLE_EQ(worm.time, 1.0);
  ASSERT_EQ(worm.deadlock.size(), 5U);
  // By channel: 0->1 (the worm of p[4] waits for it, p[0]'s holds it), then 1->2, ...; the ring's channels
  // are 0->1, 1->0, 1->2, 2->1, ... so 0->1 is channel 0 and comes first.
  const Waiting& first = worm.deadlock.front();
  EXPECT_EQ(first.channel, "0->1");
  EXPECT_EQ(worm.players[static_cast<std::size_t>(first.sender)].name, "p[4]");
  EXPECT_EQ(worm.players[static_cast<std::size_t>(first.player)].name, "p[1]");
  EXPECT_EQ(first.kind, "data");
  EXPECT_EQ(first.holder, "'data' from p[0] to p[2]");
  EXPECT_EQ(first.where, "p.actors:2:72");  // the second send
  for (const Waiting& entry : worm.deadlock) EXPECT_EQ(entry.needed, 1);
  // Held channels count as busy to the end: each first channel [0, 1].
  EXPECT_DOUBLE_EQ(worm.channels[0].busy, 1.0);
  // Cut-through does not hold: each message waits whole at the next site until 10 and arrives at 21.
  const Simulation cut = ring_of_five("cut-through", 10);
  EXPECT_TRUE(cut.deadlock.empty());
  EXPECT_DOUBLE_EQ(cut.time, 21.0);
  // Store-and-forward: the first hop [0, 10], at the next site at 11, the second [11, 21], there at 22.
  EXPECT_DOUBLE_EQ(ring_of_five("store-and-forward", 10).time, 22.0);
}

// Short worms leave before the cycle closes: each tail is sent onto the first channel at 0.5, before the
// next head arrives at 1; heads at site i + 2 at 2, tails at 2.5.
TEST(ActorsWormhole, ShortWormsPassWhereLongOnesDeadlock) {
  const Simulation worm = ring_of_five("wormhole", 0.5);
  EXPECT_TRUE(worm.deadlock.empty());
  EXPECT_DOUBLE_EQ(worm.time, 2.5);
}

// Dimension-order routing on a mesh has no cycle of channels: the same long worms, two columns on, pass.
TEST(ActorsWormhole, DimensionOrderOnAMeshPasses) {
  const Program program = parse_program(two_on, "p.actors", {});
  const Machine machine = parse_machine("topology mesh 5 1\nrouting dimension-order\nlatency 1\nswitching wormhole\n", "m.machine");
  const Simulation worm = simulate(program, machine, initial_mapping(program, machine, Placement::RoundRobin, 1), {});
  EXPECT_TRUE(worm.deadlock.empty());
}

}  // namespace
}  // namespace augur::sim::actors
