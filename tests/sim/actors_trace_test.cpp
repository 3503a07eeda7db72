// The actor simulator's timeline, replications and switching (src/sim/actors): each event of the timeline of
// a tiny program at the times worked by hand in the comments; the same replications whatever the threads;
// store-and-forward against cut-through over three hops, alone and in contention.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "augur/sim/engine.hpp"
#include "sim/actors/simulate.hpp"

namespace augur::sim::actors {
namespace {

const char* const ping_pong = R"(param rounds = 2
type Player {
  on serve { send ball(hits = 1) size 20 to b }
  on ball {
    compute 3
    if hits < rounds { send ball(hits = hits + 1) size 20 to sender }
  }
}
player a : Player
player b : Player
start serve to a
)";

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
  const Traced traced = run_traced(ping_pong, two_sites, Placement::RoundRobin);
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
  const Traced traced = run_traced(ping_pong, two_sites, Placement::OneSite, {{"rounds", 4}});
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

}  // namespace
}  // namespace augur::sim::actors
