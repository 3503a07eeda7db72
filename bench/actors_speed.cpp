// Speed of the actor simulator (issue 18's goal: 200 players on 64 sites exchanging 10^6 messages in under
// 1 s): tokens circulate among 200 players on an 8 × 8 mesh (dimension order, send and receive overheads,
// context switches), each hop a compute and a message to a player 1, 7 or 13 places on, at random. Median
// of 5 runs, parse and mapping included; then one run each under cut-through and wormhole switching. Prints
// figures; never fails.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "augur/core/stats.hpp"
#include "sim/actors/simulate.hpp"
#include "bench_arguments.hpp"

namespace {

const char* const program_text = R"(param players = 200
param hops = 5000
type Player {
  var next = 0
  on token {
    compute 1
    if hop < hops {
      branch 0.5 { next = index + 1 } else { branch 0.5 { next = index + 7 } else { next = index + 13 } }
      if next >= players { next = next - players }
      send token(hop = hop + 1) size 64 to p[next]
    }
  }
}
group p[players] : Player
start token(hop = 1) to all p
)";

const char* const machine_text = R"(topology mesh 8 8
routing dimension-order
context-switch 0.1
send-overhead 0.2
receive-overhead 0.2
latency 1
bandwidth 64
)";

}  // namespace

int main(int argc, char** argv) {
  augur::bench::check_arguments(argc, argv,
                                "usage: bench_actors_speed\n"
                                "Speed of the actor simulator: 200 players on an 8 x 8 mesh, median of 5 runs; prints figures",
                                {}, 0);
  using clock = std::chrono::steady_clock;
  namespace actors = augur::sim::actors;
  std::vector<double> seconds;
  actors::Simulation result;
  for (int run = 0; run < 5; ++run) {
    const auto start = clock::now();
    const actors::Program program = actors::parse_program(program_text, "bench.actors");
    const actors::Machine machine = actors::parse_machine(machine_text, "bench.machine");
    const actors::Mapping mapping = actors::initial_mapping(program, machine, actors::Placement::RoundRobin, 1);
    result = actors::simulate(program, machine, mapping, {});
    seconds.push_back(std::chrono::duration<double>(clock::now() - start).count());
  }
  const double median = augur::core::median(seconds);
  std::printf("actors: %zu players on 64 sites (8x8 mesh), %ld messages, %llu events\n", result.players.size(), result.messages,
              static_cast<unsigned long long>(result.events));
  std::printf("median of 5 runs: %.3f s (%.3g messages/s, %.3g events/s); simulated time %.1f\n", median,
              static_cast<double>(result.messages) / median, static_cast<double>(result.events) / median, result.time);
  // The same under the other switchings, one run each (store-and-forward above).
  for (const char* const switching : {"cut-through", "wormhole"}) {
    const auto start = clock::now();
    const actors::Program program = actors::parse_program(program_text, "bench.actors");
    const actors::Machine machine = actors::parse_machine(std::string(machine_text) + "switching " + switching + "\n", "bench.machine");
    const actors::Mapping mapping = actors::initial_mapping(program, machine, actors::Placement::RoundRobin, 1);
    const actors::Simulation run = actors::simulate(program, machine, mapping, {});
    const double elapsed = std::chrono::duration<double>(clock::now() - start).count();
    std::printf("%s, one run: %.3f s, %llu events; simulated time %.1f\n", switching, elapsed, static_cast<unsigned long long>(run.events), run.time);
  }
  return 0;
}
