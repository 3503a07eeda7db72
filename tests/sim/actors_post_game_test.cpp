// Post-game analysis on a simulated run: the proposals of the communication and load heuristics and their
// projected gains, computed by hand (the simulator: actors_test.cpp; the exchange heuristics:
// actors_tune_test.cpp).
#include <gtest/gtest.h>

#include <vector>

#include "actors_programs.hpp"
#include "sim/actors/simulate.hpp"
#include "sim/actors/tune.hpp"

namespace augur::sim::actors {
namespace {

using test::ping_pong;

// The proposals, each of one move (a proposal of several moves fails the test).
std::vector<Move> single_moves(const std::vector<Proposal>& proposals) {
  std::vector<Move> moves;
  for (const auto& proposal : proposals) {
    EXPECT_EQ(proposal.moves.size(), 1u) << proposal.heuristic;
    moves.insert(moves.end(), proposal.moves.begin(), proposal.moves.end());
  }
  return moves;
}

TEST(ActorsTune, CommunicationAffinityCoLocatesHeavyPartners) {
  const Program program = parse_program(ping_pong, "p.actors");
  const Machine machine = parse_machine("topology ring 2\nlatency 2\nbandwidth 10\nsend-overhead 1\nreceive-overhead 0.5\n", "m.machine");
  const Mapping initial = initial_mapping(program, machine, Placement::RoundRobin, 1);
  const std::vector<Move> moves = single_moves(propose(program, machine, simulate(program, machine, initial, {})));
  ASSERT_FALSE(moves.empty());
  // 2 messages × (send 1 + receive 0.5 + 1 hop × latency 2) + 40 size units × 1 hop / bandwidth 10 = 11
  EXPECT_EQ(moves[0].heuristic, "communication");
  EXPECT_DOUBLE_EQ(moves[0].projected_gain, 11.0);
  EXPECT_EQ(moves[0].player, 0);
  EXPECT_EQ(moves[0].to, 1);
  const TuneResult result = tune(program, machine, initial, {});
  EXPECT_DOUBLE_EQ(result.iterations.front().time, 34.0);
  EXPECT_DOUBLE_EQ(result.time, 12.0);  // four computes of 3 on one site
  EXPECT_DOUBLE_EQ(result.one_site_time, 12.0);
  EXPECT_EQ(result.mapping.sites[0], result.mapping.sites[1]);
}

TEST(ActorsTune, LoadBalanceSpreadsIndependentWork) {
  const char* const text = "type W { on go { compute 10 } }\ngroup w[4] : W\nstart go to all w\n";
  const Program program = parse_program(text, "p.actors");
  const Machine machine = parse_machine("topology full 4\n", "m.machine");
  const Mapping initial = initial_mapping(program, machine, Placement::OneSite, 1);
  const std::vector<Move> moves = single_moves(propose(program, machine, simulate(program, machine, initial, {})));
  ASSERT_EQ(moves.size(), 3u);
  // The concurrency heuristic: 3, 2 and 1 work items wait 10 each on site 0, 60 / 4 players = 15 a player;
  // it proposes the second busiest (w[1], the first of equals being the busiest), then the busiest.
  EXPECT_EQ(moves[0].heuristic, "concurrency");
  EXPECT_EQ(moves[0].name, "w[1]");
  EXPECT_DOUBLE_EQ(moves[0].projected_gain, 15.0);
  EXPECT_EQ(moves[1].heuristic, "concurrency");
  EXPECT_EQ(moves[1].name, "w[0]");
  EXPECT_EQ(moves[2].heuristic, "load");
  EXPECT_DOUBLE_EQ(moves[2].projected_gain, 10.0);  // 40 - max(40 - 10, 0 + 10)
  EXPECT_EQ(moves[2].to, 1);
  TuneOptions options;
  options.perturbations = 0;  // the analysis alone: it stops at the first mapping no proposal improves
  const TuneResult result = tune(program, machine, initial, options);
  ASSERT_EQ(result.iterations.size(), 4u);
  EXPECT_DOUBLE_EQ(result.iterations[1].time, 30.0);
  EXPECT_DOUBLE_EQ(result.time, 10.0);
  EXPECT_DOUBLE_EQ(result.one_site_time / result.time, 4.0);
  EXPECT_TRUE(result.iterations.back().applied.empty());
}

}  // namespace
}  // namespace augur::sim::actors
