// Post-game analysis's heuristics that move players together (src/sim/actors/tune_exchange.cpp) and the
// perturbations of tune: each proposal and its projected gain computed by hand on a crafted case.
#include <gtest/gtest.h>

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

#include "sim/actors/search.hpp"
#include "sim/actors/tune.hpp"

namespace augur::sim::actors {
namespace {

struct Tuned {
  Program program;
  Machine machine;
};

Tuned make(const std::string& program_text, const std::string& machine_text) {
  return {parse_program(program_text, "p.actors"), parse_machine(machine_text, "m.machine")};
}

std::vector<Proposal> proposals_of(const char* heuristic, const Tuned& tuned, const Mapping& mapping) {
  std::vector<Proposal> proposals = propose(tuned.program, tuned.machine, simulate(tuned.program, tuned.machine, mapping, {}));
  std::erase_if(proposals, [&](const Proposal& proposal) { return proposal.heuristic != heuristic; });
  return proposals;
}

struct Expected {
  std::string name;
  int from = 0;
  int to = 0;
};

// The proposal moves these players, in this order, and projects `gain`, repeated in each move.
void expect_proposal(const Proposal& proposal, const std::vector<Expected>& moves, double gain) {
  ASSERT_EQ(proposal.moves.size(), moves.size());
  for (std::size_t m = 0; m < moves.size(); ++m) {
    EXPECT_EQ(proposal.moves[m].name, moves[m].name);
    EXPECT_EQ(proposal.moves[m].from, moves[m].from);
    EXPECT_EQ(proposal.moves[m].to, moves[m].to);
    EXPECT_EQ(proposal.moves[m].heuristic, proposal.heuristic);
    EXPECT_DOUBLE_EQ(proposal.moves[m].projected_gain, gain);
  }
  EXPECT_DOUBLE_EQ(proposal.projected_gain, gain);
}

// a sends b 4 messages of size 10 (a works 0, b 4: a compute of 1 each); c works 10, d 2. On two sites
// (latency 1, bandwidth 10, no overheads), a and c on site 0 (busy 10), b and d on site 1 (busy 6). The
// messages cost 4 × 1 + 40 / 10 = 8 a hop. a exchanging with d: the 8 saved, the sites' busiest from 10 to
// max(10 + 2, 6 - 2) = 12: gain 6; b exchanging with c (the mirror image): site 0 4, site 1 12, gain 6.
TEST(ActorsTuneExchange, APlayerTradesSitesWithOneBesideItsPartner) {
  const Tuned tuned = make("type A { on go { loop 4 { send m size 10 to b } } }\ntype B { on m { compute 1 } }\n"
                           "type W { on go { compute index * 8 + 2 } }\n"
                           "player a : A\nplayer b : B\ngroup w[2] : W\nstart go to a\nstart go to all w\n",
                           "topology full 2\nlatency 1\nbandwidth 10\n");
  // w[1] works 10 (c), w[0] works 2 (d)
  const std::vector<Proposal> proposals = proposals_of("exchange", tuned, {{0, 1, 1, 0}, Placement::Creator});
  ASSERT_EQ(proposals.size(), 2u);
  expect_proposal(proposals[0], {{"a", 0, 1}, {"w[0]", 1, 0}}, 6.0);
  expect_proposal(proposals[1], {{"b", 1, 0}, {"w[1]", 0, 1}}, 6.0);
}

// Three independent players on three sites, site 0 twice as fast: l works 2 on site 0 (busy 1), h 20 on
// site 1, m 8 on site 2. h to site 0: site 1's 20 becomes site 0's 1 + 10: gain 9; h exchanging with l:
// site 0 10, site 1 2: gain 10. m to site 0: max(8, 1) → 1 + 4: gain 3; m exchanging with l: 4 and 2, gain 4.
TEST(ActorsTuneSpeed, TheHeaviestPlayersGoToTheFastSiteAndTheLightOnesMakeRoom) {
  const Tuned tuned = make("type L { on go { compute 2 } }\ntype H { on go { compute 20 } }\ntype M { on go { compute 8 } }\n"
                           "player l : L\nplayer h : H\nplayer m : M\nstart go to l\nstart go to h\nstart go to m\n",
                           "topology full 3\nsite 0 speed 2\n");
  const std::vector<Proposal> proposals = proposals_of("speed", tuned, {{0, 1, 2}, Placement::Creator});
  ASSERT_EQ(proposals.size(), 4u);
  expect_proposal(proposals[0], {{"h", 1, 0}, {"l", 0, 1}}, 10.0);
  expect_proposal(proposals[1], {{"h", 1, 0}}, 9.0);
  expect_proposal(proposals[2], {{"m", 2, 0}, {"l", 0, 2}}, 4.0);
  expect_proposal(proposals[3], {{"m", 2, 0}}, 3.0);
  // On a machine of equal sites the heuristic has nothing to say.
  const Tuned equal = make("type W { on go { compute 1 } }\ngroup w[2] : W\nstart go to all w\n", "topology full 2\n");
  EXPECT_TRUE(proposals_of("speed", equal, {{0, 0}, Placement::Creator}).empty());
}

// A line 0 - 1 - 2 (latency 1, bandwidth 10, no overheads): x on site 0 sends y 2 messages of size 10; y,
// on site 2 with z, passes each on to z. Messages between x and y cost 2 × 1 + 20 / 10 = 4 a hop, 8 over the
// two. y and z move together: to site 0, the 8 saved and site 0's busy 0 + 4 = site 2's 4 before: gain 8; to
// site 1, 4 saved: gain 4. Site 0 it is.
TEST(ActorsTuneChain, PartnersOnOneSiteMoveTogether) {
  const Tuned tuned = make("type X { on go { loop 2 { send m size 10 to y } } }\ntype Y { on m { compute 1  send m size 10 to z } }\n"
                           "type Z { on m { compute 1 } }\nplayer x : X\nplayer y : Y\nplayer z : Z\nstart go to x\n",
                           "topology links 3\nlink 0 1\nlink 1 2\nlatency 1\nbandwidth 10\n");
  const std::vector<Proposal> proposals = proposals_of("chain", tuned, {{0, 2, 2}, Placement::Creator});
  ASSERT_EQ(proposals.size(), 1u);
  expect_proposal(proposals[0], {{"y", 2, 0}, {"z", 2, 0}}, 8.0);
}

const char* const pipeline = R"(param items = 6
type Source { on go { loop items { send item size 20 to stage[0] } } }
type Stage {
  on item {
    compute 4 + 2 * index
    if index + 1 < 4 { send item size 20 to stage[index + 1] } else { send item size 20 to sink }
  }
}
type Sink { on item { compute 1 } }
player source : Source
group stage[4] : Stage
player sink : Sink
start go to source
)";
const char* const cube = "topology hypercube 3\nrouting dimension-order\nsite 0 speed 2\nlatency 1\nbandwidth 10\nsend-overhead 1\nreceive-overhead 1\n";

// Perturbations: when no proposal is faster, a few players of the best mapping so far go to random sites
// (max(2, 6 / 8) = 2 here) and the analysis goes on; the result is the best mapping seen, the same for the
// same seed, never slower than the analysis without them.
TEST(ActorsTunePerturbation, GoesOnFromTheBestMappingAndKeepsTheBest) {
  const Tuned tuned = make(pipeline, cube);
  const Mapping start = initial_mapping(tuned.program, tuned.machine, Placement::RoundRobin, 1);
  TuneOptions alone;
  alone.perturbations = 0;
  const TuneResult plain = tune(tuned.program, tuned.machine, start, alone);
  TuneOptions options;
  options.maximum_iterations = 100;
  options.perturbations = 3;
  const TuneResult perturbed = tune(tuned.program, tuned.machine, start, options);
  EXPECT_LE(perturbed.time, plain.time);
  EXPECT_EQ(perturbed.heuristics.at("perturbation").proposed, 2 * 3);
  EXPECT_EQ(perturbed.heuristics.at("perturbation").kept, 2 * 3);
  int kicks = 0;
  double fastest = perturbed.iterations.front().time;
  for (const auto& iteration : perturbed.iterations) {
    fastest = std::min(fastest, iteration.time);
    if (iteration.applied.empty() || iteration.applied.front().heuristic != "perturbation") continue;
    ++kicks;
    ASSERT_EQ(iteration.applied.size(), 2u);
    EXPECT_NE(iteration.applied[0].name, iteration.applied[1].name);
    for (const auto& move : iteration.applied) EXPECT_NE(move.from, move.to);
  }
  EXPECT_EQ(kicks, 3);
  EXPECT_DOUBLE_EQ(perturbed.time, fastest);
  EXPECT_DOUBLE_EQ(simulate_layout(tuned.program, tuned.machine, {perturbed.mapping, perturbed.created}, {}).time, perturbed.time);
  const TuneResult again = tune(tuned.program, tuned.machine, start, options);
  EXPECT_EQ(again.mapping.sites, perturbed.mapping.sites);
  EXPECT_EQ(again.simulations, perturbed.simulations);
}

// Two peers that each wait for the other's answer before answering deadlock under every mapping: tune, like
// search, refuses the initial mapping (it once printed the deadlocked run's time as the tuned one, exit 0).
TEST(ActorsTune, AnInitialDeadlockIsAnError) {
  const Tuned tuned = make("type Peer { on go { send request size 10 to all pair  wait answer count 2 }\n"
                           "  on request { send answer size 10 to sender } }\ngroup pair[2] : Peer\nstart go to all pair\n",
                           "topology ring 4\n");
  try {
    (void)tune(tuned.program, tuned.machine, initial_mapping(tuned.program, tuned.machine, Placement::RoundRobin, 1), {});
    FAIL() << "no error";
  } catch (const std::runtime_error& error) {
    EXPECT_EQ(std::string(error.what()), "the program deadlocks under the initial mapping ('pair[0]' waits for 'answer' at p.actors:1:55): nothing to tune");
  }
}

}  // namespace
}  // namespace augur::sim::actors
