// The searches of augur actors search (src/sim/actors/search*.cpp): exhaustive search against a brute force
// written here, the machine's symmetries counted by hand, results independent of the thread count, random
// search and annealing never worse than their start, greedy load balancing on a case computed by hand.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "sim/actors/search.hpp"
#include "sim/actors/tune.hpp"

namespace augur::sim::actors {
namespace {

const char* const chain = R"(param items = 3
type Source { on go { loop items { send item size 10 to stage[0] } } }
type Stage {
  on item {
    compute 4 + index
    if index + 1 < 3 { send item size 10 to stage[index + 1] } else { send item size 5 to sink }
  }
}
type Sink { on item { compute 1 } }
player source : Source
group stage[3] : Stage
player sink : Sink
start go to source
)";

// Divide and conquer of depth 2 (7 players, 6 of them created), written compactly.
const char* const tree = R"(type Node {
  on solve {
    if level < 2 { compute 1  create left : Node  create right : Node
      send solve(level = level + 1) size 4 to left  send solve(level = level + 1) size 4 to right
      wait done count 2  compute 1 } else { compute 6 }
    if level > 0 { send done size 2 to parent }
  }
}
player root : Node
start solve(level = 0) to root
)";

const char* const mesh2x2 = "topology mesh 2 2\nrouting dimension-order\nlatency 1\nbandwidth 5\nsend-overhead 0.5\nreceive-overhead 0.5\ncontext-switch 0.25\n";
const char* const line3 = "topology links 3\nlink 0 1\nlink 1 2\nlatency 1\nbandwidth 4\nsend-overhead 0.5\nreceive-overhead 0.5\nsite 2 speed 2\n";

struct Case {
  Program program;
  Machine machine;
  Layout initial;
};

Case make_case(const std::string& program_text, const std::string& machine_text) {
  Program program = parse_program(program_text, "p.actors");
  Machine machine = parse_machine(machine_text, "m.machine");
  Mapping mapping = initial_mapping(program, machine, Placement::RoundRobin, 1);
  mapping.created = Placement::Creator;
  return {std::move(program), std::move(machine), {std::move(mapping), {}}};
}

SearchResult run_search(const Case& input, SearchMethod method, long budget, int threads, std::uint64_t seed = 1) {
  SearchOptions options;
  options.method = method;
  options.budget = budget;
  options.threads = threads;
  options.simulation.seed = seed;
  return search(input.program, input.machine, input.initial, options);
}

// Brute force: every site for every player named (the static ones, then `created` by name), simulated.
double brute_force(const Case& input, const std::vector<std::string>& created) {
  const std::size_t statics = input.program.players.size();
  const std::size_t players = statics + created.size();
  const auto sites = static_cast<std::size_t>(input.machine.sites);
  std::size_t total = 1;
  for (std::size_t p = 0; p < players; ++p) total *= sites;
  double best = INFINITY;
  for (std::size_t code = 0; code < total; ++code) {
    Layout layout;
    layout.mapping.created = Placement::Creator;
    std::size_t rest = code;
    for (std::size_t p = 0; p < players; ++p, rest /= sites) {
      const int site = static_cast<int>(rest % sites);
      if (p < statics) layout.mapping.sites.push_back(site);
      else layout.created.emplace_back(created[p - statics], site);
    }
    const Simulation run = simulate_layout(input.program, input.machine, layout, {});
    if (run.deadlock.empty()) best = std::min(best, run.time);
  }
  return best;
}

TEST(ActorsSearch, ExhaustiveFindsTheBruteForceOptimumOfAPipeline) {
  for (const char* machine : {mesh2x2, line3}) {
    const Case input = make_case(chain, machine);
    const SearchResult result = run_search(input, SearchMethod::Exhaustive, 1000000, 2);
    EXPECT_DOUBLE_EQ(result.time, brute_force(input, {})) << machine;
    EXPECT_DOUBLE_EQ(simulate_layout(input.program, input.machine, result.best, {}).time, result.time);
    EXPECT_EQ(result.static_players, 5);
    EXPECT_EQ(result.created_players, 0);
  }
}

TEST(ActorsSearch, ExhaustiveMovesCreatedPlayersToo) {
  const Case input = make_case(tree, mesh2x2);
  const SearchResult result = run_search(input, SearchMethod::Exhaustive, 1000000, 2);
  EXPECT_EQ(result.created_players, 6);
  EXPECT_DOUBLE_EQ(result.time, brute_force(input, {"root/left", "root/right", "root/left/left", "root/left/right", "root/right/left", "root/right/right"}));
  EXPECT_LT(result.time, result.initial_time);  // round-robin leaves the created players with their creator
  EXPECT_EQ(result.best.created.size(), 6u);
}

// A homogeneous 2 × 2 mesh with dimension-order routes (x first): the identity, the two reflections and the
// half turn leave it unchanged; the transposition and the quarter turns swap the order of x and y, so they
// do not. None fixes a site but the identity: Burnside counts 4^5 / 4 = 256 mappings. A line 0-1-2 whose
// site 2 is faster has no symmetry but the identity: 3^5 = 243 mappings.
TEST(ActorsSearch, ExhaustiveCountsTheMachinesSymmetries) {
  const SearchResult mesh = run_search(make_case(chain, mesh2x2), SearchMethod::Exhaustive, 1000000, 1);
  EXPECT_EQ(mesh.symmetries, 4);
  EXPECT_DOUBLE_EQ(mesh.mappings, 256.0);
  EXPECT_EQ(mesh.simulations, 257);  // the initial layout, then one mapping per orbit
  const SearchResult line = run_search(make_case(chain, line3), SearchMethod::Exhaustive, 1000000, 1);
  EXPECT_EQ(line.symmetries, 1);
  EXPECT_DOUBLE_EQ(line.mappings, 243.0);
  EXPECT_EQ(line.simulations, 244);
}

// The symmetries by brute force: every permutation of the sites that keeps speeds, context switches, the
// channels (with their latency and bandwidth) and every route's next hop.
const char* const one_player = "type A { on go { compute 5 } }\nplayer a : A\nstart go to a\n";

long brute_force_symmetries(const Machine& machine) {
  const auto n = static_cast<std::size_t>(machine.sites);
  const auto channel = [&](int a, int b) -> const Channel* {
    for (const auto& c : machine.channels)
      if (c.from == a && c.to == b) return &c;
    return nullptr;
  };
  std::vector<int> g(n);
  for (std::size_t s = 0; s < n; ++s) g[s] = static_cast<int>(s);
  long count = 0;
  do {
    bool keeps = true;
    for (std::size_t a = 0; a < n && keeps; ++a) {
      keeps = machine.speed[a] == machine.speed[static_cast<std::size_t>(g[a])] && machine.context_switch[a] == machine.context_switch[static_cast<std::size_t>(g[a])];
      for (std::size_t b = 0; b < n && keeps; ++b) {
        const Channel* here = channel(static_cast<int>(a), static_cast<int>(b));
        const Channel* there = channel(g[a], g[b]);
        keeps = (here == nullptr) == (there == nullptr) && (here == nullptr || (here->latency == there->latency && here->bandwidth == there->bandwidth));
        if (keeps && a != b) {
          const int hop = machine.channels[static_cast<std::size_t>(machine.next_channel(static_cast<int>(a), static_cast<int>(b)))].to;
          keeps = machine.channels[static_cast<std::size_t>(machine.next_channel(g[a], g[b]))].to == g[static_cast<std::size_t>(hop)];
        }
      }
    }
    count += keeps ? 1 : 0;
  } while (std::next_permutation(g.begin(), g.end()));
  return count;
}

TEST(ActorsSearch, TheMachinesSymmetriesAreThoseABruteForceFinds) {
  for (const char* text : {"topology hypercube 3\n", "topology hypercube 3\nrouting dimension-order\n", "topology ring 6\n", "topology torus 2 4\n",
                           "topology full 5\nlink 0 1 latency 1\n", "topology mesh 3 2\nrouting dimension-order\n", "topology links 6\nlink 0 1\nlink 1 2\nlink 2 0\nlink 3 4\nlink 4 5\nlink 5 3\nlink 0 3\n"}) {
    const Case input = make_case(one_player, text);
    const SearchResult result = run_search(input, SearchMethod::Exhaustive, 1000000, 1);
    EXPECT_EQ(result.symmetries, brute_force_symmetries(input.machine)) << text;
  }
}

// A hypercube of 256 sites has 2^8 × 8! permutations that keep its links, of which the shortest routes
// (ties to the lowest neighbour) keep only a few: they are sought keeping the routes as they go, in moments.
// A machine too large for the budget whatever its symmetries is refused before they are sought.
TEST(ActorsSearch, ExhaustiveOnLargeMachinesAnswersPromptly) {
  const SearchResult result = run_search(make_case(one_player, "topology hypercube 8\n"), SearchMethod::Exhaustive, 1000000, 1);
  // The identity and a -> a XOR 1: a route flips the highest differing bit set at the source, else the
  // lowest differing bit, and flipping bit 0 of both ends keeps that choice.
  EXPECT_EQ(result.symmetries, 2);
  EXPECT_DOUBLE_EQ(result.time, 5.0);
  try {
    (void)run_search(make_case(chain, "topology ring 1024\n"), SearchMethod::Exhaustive, 1000000, 1);
    FAIL() << "no error";
  } catch (const std::runtime_error& error) {
    EXPECT_EQ(std::string(error.what()),
              "exhaustive search of 5 players on 1024 sites is at least 2199023255552 mappings (whatever the machine's symmetries), more than the "
              "budget of 1000000 simulations: raise --budget or use annealing");
  }
}

TEST(ActorsSearch, ExhaustiveRefusesASpaceLargerThanTheBudget) {
  try {
    (void)run_search(make_case(chain, mesh2x2), SearchMethod::Exhaustive, 100, 1);
    FAIL() << "no error";
  } catch (const std::runtime_error& error) {
    EXPECT_EQ(std::string(error.what()),
              "exhaustive search of 5 players on 4 sites is 256 mappings (after 4 symmetries of the machine), more than the budget of 100 "
              "simulations: raise --budget or use annealing");
  }
}

TEST(ActorsSearch, ResultsDoNotDependOnTheThreadCount) {
  const Case input = make_case(tree, mesh2x2);
  for (const SearchMethod method : {SearchMethod::Exhaustive, SearchMethod::Annealing, SearchMethod::Random, SearchMethod::Clustering}) {
    const SearchResult one = run_search(input, method, 5000, 1, 7);
    for (const int threads : {2, 3}) {
      const SearchResult more = run_search(input, method, 5000, threads, 7);
      EXPECT_EQ(more.time, one.time) << static_cast<int>(method) << " " << threads;
      EXPECT_EQ(more.simulations, one.simulations);
      EXPECT_EQ(more.best.mapping.sites, one.best.mapping.sites);
      EXPECT_EQ(more.best.created, one.best.created);
    }
  }
}

// Through a spread that evaluates the candidates last first and hands back copies of their bytes (as the
// ranks of an MPI launch do), every method finds what the threads find.
TEST(ActorsSearch, ASpreadGivesWhatTheThreadsGive) {
  const Case input = make_case(tree, mesh2x2);
  for (const SearchMethod method : {SearchMethod::Exhaustive, SearchMethod::Annealing, SearchMethod::Random, SearchMethod::Clustering, SearchMethod::Greedy}) {
    const SearchResult threaded = run_search(input, method, 5000, 2, 5);
    SearchOptions options;
    options.method = method;
    options.budget = 5000;
    options.simulation.seed = 5;
    long evaluated = 0;
    options.spread = [&](int count, const std::function<std::string(int)>& evaluate, const std::function<void(int, const std::string&)>& collect) {
      std::vector<std::string> results(static_cast<std::size_t>(count));
      for (int index = count - 1; index >= 0; --index, ++evaluated) results[static_cast<std::size_t>(index)] = evaluate(index);
      for (int index = 0; index < count; ++index) collect(index, std::string(results[static_cast<std::size_t>(index)]));
    };
    const SearchResult spread = search(input.program, input.machine, input.initial, options);
    EXPECT_EQ(spread.time, threaded.time) << static_cast<int>(method);
    EXPECT_EQ(spread.simulations, threaded.simulations) << static_cast<int>(method);
    EXPECT_EQ(spread.best.mapping.sites, threaded.best.mapping.sites) << static_cast<int>(method);
    EXPECT_EQ(spread.best.created, threaded.best.created) << static_cast<int>(method);
    if (method != SearchMethod::Greedy) {
      EXPECT_GT(evaluated, 0) << static_cast<int>(method);
    }
  }
}

TEST(ActorsSearch, RandomSearchAndAnnealingAreNeverWorseThanTheirStartNorBetterThanTheOptimum) {
  const Case input = make_case(chain, line3);
  const double optimum = brute_force(input, {});
  for (const std::uint64_t seed : {1, 2, 3, 4}) {
    for (const SearchMethod method : {SearchMethod::Random, SearchMethod::Annealing}) {
      for (const long budget : {1L, 2L, 10L, 60L}) {
        const SearchResult result = run_search(input, method, budget, 2, seed);
        EXPECT_LE(result.time, result.initial_time);
        EXPECT_GE(result.time, optimum);
        EXPECT_EQ(result.simulations, budget);
        EXPECT_DOUBLE_EQ(simulate_layout(input.program, input.machine, result.best, {}).time, result.time);
      }
    }
  }
}

// Three independent players of work 6, 4 and 3 on two sites, profiled on one site: the heaviest to site 0,
// the next to the emptier site 1 (4 < 6), the last to site 1 (4 + 3 = 7 < 6 + 3 = 9).
TEST(ActorsSearch, GreedyBalancesTheLoadHeaviestFirst) {
  const char* const text = "type W { on go { compute work } }\nplayer a : W\nplayer b : W\nplayer c : W\n"
                           "start go(work = 3) to a\nstart go(work = 6) to b\nstart go(work = 4) to c\n";
  const Program program = parse_program(text, "p.actors");
  const Machine machine = parse_machine("topology ring 2\n", "m.machine");
  const Layout layout = greedy_layout(program, machine, {Mapping{{0, 0, 0}, Placement::Creator}, {}}, {});
  EXPECT_EQ(layout.mapping.sites, (std::vector<int>{1, 0, 1}));
  SearchOptions options;
  options.method = SearchMethod::Greedy;
  const SearchResult result = search(program, machine, {Mapping{{0, 0, 0}, Placement::Creator}, {}}, options);
  EXPECT_DOUBLE_EQ(result.time, 7.0);
  EXPECT_DOUBLE_EQ(result.initial_time, 13.0);
  EXPECT_EQ(result.simulations, 2);
}

TEST(ActorsSearch, AnInitialDeadlockIsAnError) {
  const char* const text = "type P { on go { wait answer count 1 } }\nplayer p : P\nstart go to p\n";
  const Case input = make_case(text, mesh2x2);
  EXPECT_THROW((void)run_search(input, SearchMethod::Random, 10, 1), std::runtime_error);
}


// Creation placement on a tree of depth 1 (root creates left then right, sends each a solve of size 4, gets a
// done of size 2; leaves compute 20) on a ring of 3. Between the root and a child: 2 messages × (send 0.5 +
// receive 0.5 + latency 1) + 6 size units / bandwidth 2 = 7 a hop.
const char* const pair_tree = R"(type Node {
  on solve {
    if level < 1 {
      create left : Node
      create right : Node
      send solve(level = 1) size 4 to left
      send solve(level = 1) size 4 to right
      wait done count 2
    } else {
      compute 20
      send done size 2 to parent
    }
  }
}
player root : Node
start solve(level = 0) to root
)";
const char* const ring3 = "topology ring 3\nlatency 1\nbandwidth 2\nsend-overhead 0.5\nreceive-overhead 0.5\n";

// The moves of one heuristic's proposals, best first.
std::vector<Move> moves_by(const char* heuristic, const std::vector<Proposal>& proposals) {
  std::vector<Move> moves;
  for (const auto& proposal : proposals)
    if (proposal.heuristic == heuristic) moves.insert(moves.end(), proposal.moves.begin(), proposal.moves.end());
  return moves;
}

std::vector<Move> creation_moves(const Program& program, const Machine& machine, const Mapping& mapping, const SimulationOptions& options) {
  return moves_by("creation", propose(program, machine, simulate(program, machine, mapping, options)));
}

TEST(ActorsTune, CreationPlacementSpreadsSiblingsAndKeepsTheFirstChildBesideItsCreator) {
  const Program program = parse_program(pair_tree, "p.actors");
  const Machine machine = parse_machine(ring3, "m.machine");
  // All on site 0: the siblings take turns; right (the later) goes to the least busy site nearest the root,
  // site 1 (sites 1 and 2 are idle, both a hop away), saving min(20, 20) - 7 = 13.
  const std::vector<Move> together = creation_moves(program, machine, {{0}, Placement::Creator}, {});
  ASSERT_EQ(together.size(), 1u);
  EXPECT_EQ(together[0].name, "root/right");
  EXPECT_EQ(together[0].from, 0);
  EXPECT_EQ(together[0].to, 1);
  EXPECT_DOUBLE_EQ(together[0].projected_gain, 13.0);
  // left on site 1, right on site 2: the root waits while they work, so its first child may join it, saving
  // its messages' 7 (nothing else works on site 0).
  SimulationOptions apart;
  apart.created_sites = {{"root/left", 1}, {"root/right", 2}};
  const std::vector<Move> spread = creation_moves(program, machine, {{0}, Placement::Creator}, apart);
  ASSERT_EQ(spread.size(), 1u);
  EXPECT_EQ(spread[0].name, "root/left");
  EXPECT_EQ(spread[0].to, 0);
  EXPECT_DOUBLE_EQ(spread[0].projected_gain, 7.0);
}

TEST(ActorsTune, TheTunedMappingNamesEveryCreatedPlayerAndGivesItsTime) {
  const Program program = parse_program(tree, "p.actors");
  const Machine machine = parse_machine(mesh2x2, "m.machine");
  const TuneResult tuned = tune(program, machine, initial_mapping(program, machine, Placement::RoundRobin, 1), {});
  EXPECT_LT(tuned.time, tuned.iterations.front().time);
  EXPECT_EQ(tuned.created.size(), 6u);
  long kept = 0;
  for (const auto& [name, count] : tuned.heuristics) kept += count.kept;
  long applied = 0;
  for (const auto& iteration : tuned.iterations) applied += static_cast<long>(iteration.applied.size());
  EXPECT_EQ(kept, applied);
  Mapping mapping = tuned.mapping;
  mapping.created = Placement::Creator;
  EXPECT_DOUBLE_EQ(simulate_layout(program, machine, {mapping, tuned.created}, {}).time, tuned.time);
}


std::vector<Move> moves_of(const char* heuristic, const std::string& program_text, const std::string& machine_text, const Mapping& mapping) {
  const Program program = parse_program(program_text, "p.actors");
  const Machine machine = parse_machine(machine_text, "m.machine");
  return moves_by(heuristic, propose(program, machine, simulate(program, machine, mapping, {})));
}

// Two players of work 10 on site 1 of three fully connected sites, site 0 twice as fast: either moved to
// site 0 takes 5 there, to site 2 takes 10; both save 20 - max(20 - 10, ...) = 10, and among equal gains
// the destination least busy after the move wins: site 0.
TEST(ActorsTune, LoadBalanceRescalesWorkByTheSitesSpeeds) {
  const std::vector<Move> moves = moves_of("load", "type W { on go { compute 10 } }\ngroup w[2] : W\nstart go to all w\n",
                                           "topology full 3\nsite 0 speed 2\n", {{1, 1}, Placement::Creator});
  ASSERT_EQ(moves.size(), 1u);
  EXPECT_EQ(moves[0].from, 1);
  EXPECT_EQ(moves[0].to, 0);
  EXPECT_DOUBLE_EQ(moves[0].projected_gain, 10.0);
}

// A ping-pong of four balls (size 20) between sites 0 and 2 of a line 0-1-2 (latency 2, bandwidth 10): each
// direction carried 2 balls, 40 size units; moving a partner next to the other saves one hop of each:
// 2 × 2 + 40 / 10 = 8. Both players work 6 (two computes of 3), so the sender of each pair moves, to site 1.
TEST(ActorsTune, ContentionBringsDistantPartnersNextToEachOther) {
  const char* const text = "type P {\n  on serve { send ball(hits = 1) size 20 to b }\n"
                           "  on ball { compute 3  if hits < 4 { send ball(hits = hits + 1) size 20 to sender } }\n}\n"
                           "player a : P\nplayer b : P\nstart serve to a\n";
  const std::vector<Move> moves = moves_of("contention", text, "topology links 3\nlink 0 1\nlink 1 2\nlatency 2\nbandwidth 10\n", {{0, 2}, Placement::Creator});
  ASSERT_EQ(moves.size(), 2u);
  for (const auto& move : moves) {
    EXPECT_EQ(move.to, 1);
    EXPECT_DOUBLE_EQ(move.projected_gain, 8.0);
  }
  EXPECT_NE(moves[0].name, moves[1].name);
}

}  // namespace
}  // namespace augur::sim::actors
