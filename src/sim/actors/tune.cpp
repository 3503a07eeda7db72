// Post-game analysis (tune.hpp): three heuristics, each an independent line of reasoning over one
// simulation's statistics, and the resolution of their proposals (seed 004 §3.3).
#include "sim/actors/tune.hpp"

#include <algorithm>
#include <set>

namespace augur::sim::actors {
namespace {

double mean_of(const std::vector<Channel>& channels, double Channel::*field, double otherwise) {
  if (channels.empty()) return otherwise;
  double sum = 0.0;
  for (const auto& channel : channels) sum += channel.*field;
  return sum / static_cast<double>(channels.size());
}

// Communication affinity: heavy partners on different sites. Co-locating them saves, per message, the
// send and receive overheads and the hops' latency and transmission; the player with less work moves to
// its partner's site. Link contention: partners more than a hop apart may instead come closer, next to
// each other, saving all hops but one.
void communication(const Machine& machine, const Mapping& mapping, const Simulation& simulation, std::vector<Move>& moves) {
  const auto statics = static_cast<int>(mapping.sites.size());
  const double latency = mean_of(machine.channels, &Channel::latency, 0.0);
  const double bandwidth = mean_of(machine.channels, &Channel::bandwidth, 1.0);
  for (const auto& pair : simulation.partners) {
    if (pair.sender >= statics || pair.receiver >= statics) continue;
    const int a = mapping.sites[static_cast<std::size_t>(pair.sender)];
    const int b = mapping.sites[static_cast<std::size_t>(pair.receiver)];
    if (a == b) continue;
    const double hops = machine.hops(a, b);
    const double gain = static_cast<double>(pair.messages) * (machine.send_overhead + machine.receive_overhead + hops * latency) +
                        pair.traffic * hops / bandwidth;
    const bool sender_moves = simulation.players[static_cast<std::size_t>(pair.sender)].busy <= simulation.players[static_cast<std::size_t>(pair.receiver)].busy;
    const int player = sender_moves ? pair.sender : pair.receiver;
    const int from = sender_moves ? a : b;
    const int partner_site = sender_moves ? b : a;
    moves.push_back({player, from, partner_site, "communication", gain});
    if (hops < 2) continue;
    // Contention: closer without sharing a site, one hop from the partner on the way back, saving hops - 1.
    const int beside = machine.channels[static_cast<std::size_t>(machine.next_channel(partner_site, from))].to;
    moves.push_back({player, from, beside, "contention", gain * (hops - 1.0) / hops - static_cast<double>(pair.messages) * (machine.send_overhead + machine.receive_overhead)});
  }
}

// Load balance: from the busiest site to the least busy, the player whose work best evens the two.
void load(const Mapping& mapping, const Simulation& simulation, std::vector<Move>& moves) {
  const auto& sites = simulation.sites;
  const auto busiest = static_cast<int>(std::max_element(sites.begin(), sites.end(), [](const auto& x, const auto& y) { return x.busy < y.busy; }) - sites.begin());
  const auto idlest = static_cast<int>(std::min_element(sites.begin(), sites.end(), [](const auto& x, const auto& y) { return x.busy < y.busy; }) - sites.begin());
  const double high = sites[static_cast<std::size_t>(busiest)].busy;
  const double low = sites[static_cast<std::size_t>(idlest)].busy;
  int best = -1;
  double best_gain = 0.0;
  for (std::size_t p = 0; p < mapping.sites.size(); ++p) {
    if (mapping.sites[p] != busiest) continue;
    const double work = simulation.players[p].busy;
    const double gain = high - std::max(high - work, low + work);
    if (gain > best_gain) {
      best_gain = gain;
      best = static_cast<int>(p);
    }
  }
  if (best >= 0) moves.push_back({best, busiest, idlest, "load", best_gain});
}

// Concurrency: two busy players sharing a site wait for each other; the second busiest of the most
// queued site moves to the least busy site, saving the time it waited (the site's mean queue over the run).
void concurrency(const Mapping& mapping, const Simulation& simulation, std::vector<Move>& moves) {
  const auto& sites = simulation.sites;
  const auto queued = static_cast<int>(std::max_element(sites.begin(), sites.end(), [](const auto& x, const auto& y) { return x.mean_queue < y.mean_queue; }) - sites.begin());
  const auto idlest = static_cast<int>(std::min_element(sites.begin(), sites.end(), [](const auto& x, const auto& y) { return x.busy < y.busy; }) - sites.begin());
  if (queued == idlest || sites[static_cast<std::size_t>(queued)].mean_queue <= 0.0) return;
  std::vector<int> players;
  for (std::size_t p = 0; p < mapping.sites.size(); ++p)
    if (mapping.sites[p] == queued) players.push_back(static_cast<int>(p));
  if (players.size() < 2) return;
  std::sort(players.begin(), players.end(), [&](int x, int y) { return simulation.players[static_cast<std::size_t>(x)].busy > simulation.players[static_cast<std::size_t>(y)].busy; });
  const double gain = sites[static_cast<std::size_t>(queued)].mean_queue * simulation.time / static_cast<double>(players.size());
  moves.push_back({players[1], queued, idlest, "concurrency", gain});
}

Mapping applied(const Mapping& mapping, const std::vector<Move>& moves) {
  Mapping result = mapping;
  for (const auto& move : moves) result.sites[static_cast<std::size_t>(move.player)] = move.to;
  return result;
}

// One move per player and per site (as source or destination), best projected gain first.
std::vector<Move> resolve(const std::vector<Move>& proposals) {
  std::vector<Move> chosen;
  std::set<int> players;
  std::set<int> sites;
  for (const auto& move : proposals) {
    if (players.count(move.player) != 0 || sites.count(move.from) != 0 || sites.count(move.to) != 0) continue;
    players.insert(move.player);
    sites.insert(move.from);
    sites.insert(move.to);
    chosen.push_back(move);
  }
  return chosen;
}

}  // namespace

std::vector<Move> propose_moves(const Program& program, const Machine& machine, const Mapping& mapping, const Simulation& simulation) {
  (void)program;
  std::vector<Move> moves;
  communication(machine, mapping, simulation, moves);
  load(mapping, simulation, moves);
  concurrency(mapping, simulation, moves);
  std::erase_if(moves, [](const Move& move) { return move.projected_gain <= 0.0 || move.from == move.to; });
  std::stable_sort(moves.begin(), moves.end(), [](const Move& a, const Move& b) { return a.projected_gain > b.projected_gain; });
  return moves;
}

TuneResult tune(const Program& program, const Machine& machine, const Mapping& initial, const TuneOptions& options) {
  TuneResult result;
  const auto simulate_mapping = [&](const Mapping& mapping) {
    ++result.simulations;
    return simulate(program, machine, mapping, options.simulation);
  };
  Mapping one_site = initial;
  std::fill(one_site.sites.begin(), one_site.sites.end(), 0);
  one_site.created = Placement::OneSite;
  result.one_site_time = simulate_mapping(one_site).time;
  result.mapping = initial;
  Simulation current = simulate_mapping(initial);
  result.time = current.time;
  for (int iteration = 0; iteration < options.maximum_iterations; ++iteration) {
    TuneIteration record;
    record.time = current.time;
    const std::vector<Move> proposals = propose_moves(program, machine, result.mapping, current);
    record.proposals = static_cast<long>(proposals.size());
    // The non-conflicting proposals together, then each of the best alone, until one is faster.
    std::vector<std::vector<Move>> attempts{resolve(proposals)};
    const std::size_t first_alone = attempts.front().size() == 1 ? 1 : 0;  // resolve() always takes the best
    for (std::size_t p = first_alone; p < proposals.size() && p < options.alternatives; ++p) attempts.push_back({proposals[p]});
    bool improved = false;
    for (const auto& attempt : attempts) {
      if (attempt.empty()) continue;
      const Mapping candidate = applied(result.mapping, attempt);
      Simulation next = simulate_mapping(candidate);
      if (next.time < current.time) {
        improved = true;
        record.applied = attempt;
        result.mapping = candidate;
        current = std::move(next);
        break;
      }
    }
    result.iterations.push_back(std::move(record));
    if (!improved) break;
  }
  if (result.iterations.empty() || !result.iterations.back().applied.empty()) result.iterations.push_back({current.time, 0, {}});
  result.time = current.time;
  return result;
}

}  // namespace augur::sim::actors
