// What the files of post-game analysis share (private to sim/actors): the statistics the heuristics read
// and the heuristics themselves. tune_heuristics.cpp: communication, contention, load, concurrency and
// creation (one player moves); tune_exchange.cpp: exchange, speed and chain (players move together).
#pragma once

#include <utility>
#include <vector>

#include "sim/actors/tune.hpp"

namespace augur::sim::actors::tuning {

// A pair of partners seen from one of them: the messages and traffic of both directions.
struct Partner {
  int other = 0;
  double messages = 0.0;
  double traffic = 0.0;
};

// What the heuristics read: the simulation, and per player its partners (both directions summed).
struct Statistics {
  const Program& program;
  const Machine& machine;
  const Simulation& simulation;
  std::vector<std::vector<Partner>> partners;

  Statistics(const Program& program, const Machine& machine, const Simulation& simulation);
  [[nodiscard]] int site(int player) const { return simulation.players[static_cast<std::size_t>(player)].site; }
  [[nodiscard]] double busy(int player) const { return simulation.players[static_cast<std::size_t>(player)].busy; }
  [[nodiscard]] double site_busy(int site) const { return simulation.sites[static_cast<std::size_t>(site)].busy; }
  [[nodiscard]] double speed(int site) const { return machine.speed[static_cast<std::size_t>(site)]; }
};

// The time `messages` messages of `traffic` size units take over `hops` hops: per message the send and
// receive overheads and the hops' latency, plus the transmission (the machine's mean latency and bandwidth).
[[nodiscard]] double transfer_cost(const Machine& machine, double messages, double traffic, double hops);

[[nodiscard]] Move make_move(const Simulation& simulation, int player, int to, const char* heuristic, double gain);
// A proposal of one move.
[[nodiscard]] Proposal single(const Simulation& simulation, int player, int to, const char* heuristic, double gain);

// The projection of the heuristics that move players together: the communication cost saved on the pairs
// of partners the moves (player, site) touch, plus the time saved on the busiest of the sites involved
// (max busy before - max busy after, a moved player's busy time × speed there / speed here).
[[nodiscard]] double projected_gain(const Statistics& statistics, const std::vector<std::pair<int, int>>& moves);

void communication(const Statistics& statistics, std::vector<Proposal>& proposals);  // and contention
void load(const Statistics& statistics, std::vector<Proposal>& proposals);
void concurrency(const Statistics& statistics, std::vector<Proposal>& proposals);
void creation(const Statistics& statistics, std::vector<Proposal>& proposals);
void exchange(const Statistics& statistics, std::vector<Proposal>& proposals);
void speed(const Statistics& statistics, std::vector<Proposal>& proposals);
void chain(const Statistics& statistics, std::vector<Proposal>& proposals);

}  // namespace augur::sim::actors::tuning
