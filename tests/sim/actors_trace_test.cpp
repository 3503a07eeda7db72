// The actor simulator's timeline, replications and switching (src/sim/actors): each event of the timeline of
// a tiny program at the times worked by hand in the comments; the same replications whatever the threads;
// store-and-forward against cut-through over three hops, alone and in contention.
#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "actors_programs.hpp"
#include "augur/sim/engine.hpp"
#include "sim/actors/simulate.hpp"
#include "support/trace_nesting.hpp"

namespace augur::sim::actors {
namespace {

using test::line_of_four;
using test::one_message;
using test::run_mapped;
using test::two_senders;

using test::ping_pong;

const char* const two_sites = "topology ring 2\nlatency 2\nbandwidth 10\nsend-overhead 1\nreceive-overhead 0.5\ncontext-switch 0.25\n";

// The run's timeline, parsed back (it must be valid JSON), one line per event: "M row name",
// "X row name category start end", "s|f row name category id time" (times in model units).
struct Traced {
  Simulation result;
  std::vector<std::string> events;
};

Traced run_traced(const std::string& program_text, const std::string& machine_text, Placement rule, std::map<std::string, double> set = {}) {
  const Program program = parse_program(program_text, "p.actors", set);
  const Machine machine = parse_machine(machine_text, "m.machine");
  std::string text;
  TimelineWriter writer([&](std::string_view piece) { text += piece; });
  Traced traced{simulate(program, machine, initial_mapping(program, machine, rule, 1), {}, writer), {}};
  writer.finish();
  const nlohmann::json json = nlohmann::json::parse(text);
  EXPECT_EQ(augur::test::trace_nesting_problems(json), std::vector<std::string>{}) << "every row nests (Perfetto)";
  const auto units = [](const nlohmann::json& microseconds) { return microseconds.get<double>() / 1e6; };
  for (const auto& event : json.at("traceEvents")) {
    const std::string phase = event.at("ph");
    std::ostringstream line;
    line << phase << " " << event.at("tid").get<int>() << " ";
    if (phase == "M") {
      line << event.at("args").at("name").get<std::string>();
    } else if (phase == "X") {
      line << event.at("name").get<std::string>() << " / " << event.at("cat").get<std::string>() << " " << units(event.at("ts")) << " "
           << units(event.at("ts")) + units(event.at("dur"));
    } else {
      line << event.at("name").get<std::string>() << " / " << event.at("cat").get<std::string>() << " " << event.at("id").get<int>() << " "
           << units(event.at("ts"));
    }
    traced.events.push_back(line.str());
  }
  return traced;
}

// a on site 0, b on site 1. a sends ball 2 (the start message is 1): send overhead [0, 1], 20 / 10 on the
// link and latency 2: at site 1 at 5, received [5, 5.5], computed [5.5, 8.5]; b sends ball 3 back: [8.5, 9.5],
// at site 0 at 13.5, received [13.5, 14], computed [14, 17]. No context switch: one player a site.
TEST(ActorsTimeline, TwoSitesEventByEvent) {
  const Traced traced = run_traced(ping_pong, two_sites, Placement::RoundRobin, {{"rounds", 2}});
  EXPECT_DOUBLE_EQ(traced.result.time, 17.0);
  const std::vector<std::string> expected = {
      "M 0 site 0",
      "M 1 site 1",
      "X 0 a send ball / send 0 1",
      "s 0 ball / message 2 0",
      "f 1 ball / message 2 5",
      "X 1 b receive ball / receive 5 5.5",
      "X 1 b ball / compute 5.5 8.5",
      "X 1 b send ball / send 8.5 9.5",
      "s 1 ball / message 3 8.5",
      "f 0 ball / message 3 13.5",
      "X 0 a receive ball / receive 13.5 14",
      "X 0 a ball / compute 14 17",
  };
  EXPECT_EQ(traced.events, expected);
}

// Both on site 0, four rounds: no overheads, messages from and to site 0 at once; b computes [0, 3], a after
// a switch [3, 3.25] computes [3.25, 6.25], b after a switch [6.25, 6.5] computes [6.5, 9.5], a after a switch
// [9.5, 9.75] computes [9.75, 12.75].
TEST(ActorsTimeline, OneSiteShowsContextSwitches) {
  const Traced traced = run_traced(ping_pong, two_sites, Placement::OneSite);
  EXPECT_DOUBLE_EQ(traced.result.time, 12.75);
  const std::vector<std::string> expected = {
      "M 0 site 0",
      "M 1 site 1",
      "s 0 ball / message 2 0",
      "f 0 ball / message 2 0",
      "X 0 b ball / compute 0 3",
      "s 0 ball / message 3 3",
      "f 0 ball / message 3 3",
      "X 0 switch to a / switch 3 3.25",
      "X 0 a ball / compute 3.25 6.25",
      "s 0 ball / message 4 6.25",
      "f 0 ball / message 4 6.25",
      "X 0 switch to b / switch 6.25 6.5",
      "X 0 b ball / compute 6.5 9.5",
      "s 0 ball / message 5 9.5",
      "f 0 ball / message 5 9.5",
      "X 0 switch to a / switch 9.5 9.75",
      "X 0 a ball / compute 9.75 12.75",
  };
  EXPECT_EQ(traced.events, expected);
}

// A timeline changes nothing of the run.
TEST(ActorsTimeline, TracingChangesNoResult) {
  const Program program = parse_program(ping_pong, "p.actors", {{"rounds", 6}});
  const Machine machine = parse_machine(two_sites, "m.machine");
  const Mapping mapping = initial_mapping(program, machine, Placement::RoundRobin, 1);
  TimelineWriter writer([](std::string_view) {});
  const Simulation traced = simulate(program, machine, mapping, {}, writer);
  const Simulation plain = simulate(program, machine, mapping, {});
  EXPECT_EQ(traced.time, plain.time);
  EXPECT_EQ(traced.events, plain.events);
  EXPECT_EQ(traced.messages, plain.messages);
  EXPECT_EQ(traced.sites[1].busy, plain.sites[1].busy);
}


// ---- replications ----

// Replication 0 is the run of the seed (streams 0 and 1); the others draw their own branches.
TEST(ActorsReplications, EachReplicationHasStreamsOfItsOwn) {
  const Program program = parse_program("type C { on go { loop 20 { branch 0.5 { compute 1 } } } }\nplayer c : C\nstart go to c\n", "p.actors", {});
  const Machine machine = parse_machine("topology full 1\n", "m.machine");
  const Mapping mapping = initial_mapping(program, machine, Placement::RoundRobin, 1);
  SimulationOptions options;
  options.seed = 5;
  const double seed_run = simulate(program, machine, mapping, options).time;
  std::vector<double> times;
  for (int replication = 0; replication < 6; ++replication) {
    options.replication = replication;
    times.push_back(simulate(program, machine, mapping, options).time);
    EXPECT_EQ(simulate(program, machine, mapping, options).time, times.back()) << "reproducible";
  }
  EXPECT_EQ(times[0], seed_run);
  EXPECT_NE(std::count(times.begin(), times.end(), times[0]), 6) << "the replications differ";
}

// ---- switching ----

TEST(ActorsSwitching, TheMachineSaysWhichAndStoreAndForwardIsTheDefault) {
  EXPECT_EQ(parse_machine("topology ring 2\n", "m").switching, "store-and-forward");
  EXPECT_FALSE(parse_machine("topology ring 2\n", "m").cut_through);
  EXPECT_TRUE(parse_machine("topology ring 2\nswitching cut-through\n", "m").cut_through);
  const auto error = [](const std::string& text) {
    try {
      (void)parse_machine(text, "m.machine");
    } catch (const core::InputError& failure) {
      return std::string(failure.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(error("topology ring 2\nswitching wormhol\n"), "m.machine:2:11: switching is store-and-forward, cut-through or wormhole, not 'wormhol'");
  EXPECT_EQ(error("topology ring 2\nswitching cut-through\nswitching cut-through\n"), "m.machine:3:1: 'switching' given twice");
}

// One message of size 10 over three hops of bandwidth 5 and latency 1. Store-and-forward: each hop whole,
// 3 × (10 / 5 + 1) = 9. Cut-through: the head crosses the three latencies while the body streams behind,
// 3 × 1 + 10 / 5 = 5.
TEST(ActorsSwitching, OneMessageOverThreeHops) {
  const std::string mapping = "s 0\nz 3\n";
  EXPECT_DOUBLE_EQ(run_mapped(one_message, line_of_four("store-and-forward"), mapping).time, 9.0);
  const Simulation cut = run_mapped(one_message, line_of_four("cut-through"), mapping);
  EXPECT_DOUBLE_EQ(cut.time, 5.0);
  for (int c : {0, 2, 4}) EXPECT_DOUBLE_EQ(cut.channels[static_cast<std::size_t>(c)].busy, 2.0) << c;  // 0->1, 1->2, 2->3
}

// The middle link at bandwidth 2 (10 / 2 = 5). Store-and-forward: (2 + 1) + (5 + 1) + (2 + 1) = 12.
// Cut-through: the body streams at the slowest link's pace, 3 × 1 + 5 = 8; the last channel is held from
// the head's arrival at 2 until the tail has crossed at 7 (5, not 2).
TEST(ActorsSwitching, CutThroughStreamsAtTheSlowestLink) {
  const std::string mapping = "s 0\nz 3\n";
  EXPECT_DOUBLE_EQ(run_mapped(one_message, line_of_four("store-and-forward", "2"), mapping).time, 12.0);
  const Simulation cut = run_mapped(one_message, line_of_four("cut-through", "2"), mapping);
  EXPECT_DOUBLE_EQ(cut.time, 8.0);
  EXPECT_DOUBLE_EQ(cut.channels[2].busy, 5.0);
  EXPECT_DOUBLE_EQ(cut.channels[4].busy, 5.0);
}

// a and b on site 0 send to z on site 3 at time 0; b waits for the first channel until 2.
// Store-and-forward: a's hops end at 3, 6, 9; b's hops [2, 4] → 5, [5, 7] → 8, [8, 10] → 11.
// Cut-through: a arrives at 3 × 1 + 2 = 5; b starts at 2, its head at site 1 at 3, site 2 at 4, site 3 at 5,
// its tail 2 later: 7.
TEST(ActorsSwitching, TwoMessagesContendForTheSameRoute) {
  const std::string mapping = "a 0\nb 0\nz 3\n";
  const Simulation stored = run_mapped(two_senders, line_of_four("store-and-forward"), mapping);
  EXPECT_DOUBLE_EQ(stored.time, 11.0);
  const Simulation cut = run_mapped(two_senders, line_of_four("cut-through"), mapping);
  EXPECT_DOUBLE_EQ(cut.time, 7.0);
  EXPECT_DOUBLE_EQ(cut.channels[0].busy, 4.0);
  EXPECT_EQ(cut.channels[4].messages, 2);
}

// a on site 0 sends to z on site 3 while b on site 1 sends to y on site 2 (channel 1->2 busy [0, 2]).
// Store-and-forward: b's message arrives at 3; a's: [0, 2] → 3, [3, 5] → 6, [6, 8] → 9.
// Cut-through: a's head reaches site 1 at 1 and waits there for channel 1->2 until 2 (its tail is at site 1
// at 3: the channel is held [2, 4]); head at site 2 at 3, channel 2->3 [3, 5], its tail at site 3 at 6.
TEST(ActorsSwitching, ABlockedMessageWaitsAtTheSite) {
  const char* const crossing = R"(type S { on go { send data size 10 to z } }
type T { on go { send data size 10 to y } }
type Z { on data { compute 0 } }
player a : S
player b : T
player z : Z
player y : Z
start go to a
start go to b
)";
  const std::string mapping = "a 0\nb 1\nz 3\ny 2\n";
  EXPECT_DOUBLE_EQ(run_mapped(crossing, line_of_four("store-and-forward"), mapping).time, 9.0);
  const Simulation cut = run_mapped(crossing, line_of_four("cut-through"), mapping);
  EXPECT_DOUBLE_EQ(cut.time, 6.0);
  EXPECT_DOUBLE_EQ(cut.channels[2].busy, 4.0);  // b's [0, 2] and a's [2, 4]
}

// The timeline of cut-through: the flow ends when the tail arrives.
TEST(ActorsSwitching, TheFlowEndsWhenTheWholeMessageIsThere) {
  const Traced traced = run_traced(one_message, line_of_four("cut-through"), Placement::RoundRobin);
  // Round-robin: s on 0, z on 1: one hop, 1 + 10 / 5 = 3.
  EXPECT_DOUBLE_EQ(traced.result.time, 3.0);
  EXPECT_EQ(traced.events.back(), "f 1 data / message 2 3");
}

}  // namespace
}  // namespace augur::sim::actors
