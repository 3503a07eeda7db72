// Post-game analysis (tune.hpp): five heuristics, each an independent line of reasoning over one
// simulation's statistics, and the resolution of their proposals (seed 004 §3.3).
#include "sim/actors/tune.hpp"

#include <algorithm>
#include <set>
#include <unordered_map>

#include "sim/actors/search.hpp"

namespace augur::sim::actors {
namespace {

double mean_of(const std::vector<Channel>& channels, double Channel::*field, double otherwise) {
  if (channels.empty()) return otherwise;
  double sum = 0.0;
  for (const auto& channel : channels) sum += channel.*field;
  return sum / static_cast<double>(channels.size());
}

int site_of(const Simulation& simulation, int player) { return simulation.players[static_cast<std::size_t>(player)].site; }
double busy_of(const Simulation& simulation, int player) { return simulation.players[static_cast<std::size_t>(player)].busy; }

Move make_move(const Simulation& simulation, int player, int to, const char* heuristic, double gain) {
  return {player, simulation.players[static_cast<std::size_t>(player)].name, site_of(simulation, player), to, heuristic, gain};
}

// The time `messages` messages of `traffic` size units take over `hops` hops: per message the send and
// receive overheads and the hops' latency, plus the transmission (the machine's mean latency and bandwidth).
double transfer_cost(const Machine& machine, double messages, double traffic, double hops) {
  if (hops <= 0) return 0.0;
  return messages * (machine.send_overhead + machine.receive_overhead + hops * mean_of(machine.channels, &Channel::latency, 0.0)) +
         traffic * hops / mean_of(machine.channels, &Channel::bandwidth, 1.0);
}

// Communication affinity: heavy partners on different sites. Co-locating them saves, per message, the
// send and receive overheads and the hops' latency and transmission; the player with less work moves to
// its partner's site. Link contention: partners more than a hop apart may instead come closer, next to
// each other, saving all hops but one.
void communication(const Machine& machine, const Simulation& simulation, std::vector<Move>& moves) {
  for (const auto& pair : simulation.partners) {
    const int a = site_of(simulation, pair.sender);
    const int b = site_of(simulation, pair.receiver);
    if (a == b) continue;
    const double hops = machine.hops(a, b);
    const double gain = transfer_cost(machine, static_cast<double>(pair.messages), pair.traffic, hops);
    const bool sender_moves = busy_of(simulation, pair.sender) <= busy_of(simulation, pair.receiver);
    const int player = sender_moves ? pair.sender : pair.receiver;
    const int partner_site = sender_moves ? b : a;
    moves.push_back(make_move(simulation, player, partner_site, "communication", gain));
    if (hops < 2) continue;
    // Contention: closer without sharing a site, on the least busy neighbour of the partner's site, saving
    // the latency and transmission of all hops but one (the overheads remain).
    int beside = -1;
    for (int site = 0; site < machine.sites; ++site)
      if (machine.hops(partner_site, site) == 1 && (beside < 0 || simulation.sites[static_cast<std::size_t>(site)].busy < simulation.sites[static_cast<std::size_t>(beside)].busy))
        beside = site;
    const double saved = hops - 1.0;
    moves.push_back(make_move(simulation, player, beside, "contention",
                              static_cast<double>(pair.messages) * saved * mean_of(machine.channels, &Channel::latency, 0.0) +
                                  pair.traffic * saved / mean_of(machine.channels, &Channel::bandwidth, 1.0)));
  }
}

int busiest_site(const std::vector<SiteResult>& sites) {
  return static_cast<int>(std::max_element(sites.begin(), sites.end(), [](const auto& x, const auto& y) { return x.busy < y.busy; }) - sites.begin());
}
int idlest_site(const std::vector<SiteResult>& sites) {
  return static_cast<int>(std::min_element(sites.begin(), sites.end(), [](const auto& x, const auto& y) { return x.busy < y.busy; }) - sites.begin());
}

// Load balance: from the busiest site, the player and the destination that best even the two sites, the
// player's work rescaled by the sites' speeds (a fast site may take more): the busiest site's time saved,
// busy - max(busy - work, destination's busy + work × speed here / speed there).
void load(const Machine& machine, const Simulation& simulation, std::vector<Move>& moves) {
  const auto& sites = simulation.sites;
  const int busiest = busiest_site(sites);
  const double high = sites[static_cast<std::size_t>(busiest)].busy;
  int best = -1;
  int best_site = -1;
  double best_gain = 0.0;
  double best_after = 0.0;  // among equal gains, the destination least busy after the move
  for (std::size_t p = 0; p < simulation.players.size(); ++p) {
    if (simulation.players[p].site != busiest) continue;
    const double work = simulation.players[p].busy;
    for (int site = 0; site < machine.sites; ++site) {
      if (site == busiest) continue;
      const double moved = work * machine.speed[static_cast<std::size_t>(busiest)] / machine.speed[static_cast<std::size_t>(site)];
      const double after = sites[static_cast<std::size_t>(site)].busy + moved;
      const double gain = high - std::max(high - work, after);
      if (gain > best_gain || (gain == best_gain && best >= 0 && after < best_after)) {
        best_gain = gain;
        best_after = after;
        best = static_cast<int>(p);
        best_site = site;
      }
    }
  }
  if (best >= 0) moves.push_back(make_move(simulation, best, best_site, "load", best_gain));
}

// Concurrency: two busy players sharing a site wait for each other; the second busiest of the most
// queued site moves to the least busy site, saving the time it waited (the site's mean queue over the run),
// or else the busiest (in a farm, work goes to whichever worker asks: it follows the one that moves).
void concurrency(const Simulation& simulation, std::vector<Move>& moves) {
  const auto& sites = simulation.sites;
  const auto queued = static_cast<int>(std::max_element(sites.begin(), sites.end(), [](const auto& x, const auto& y) { return x.mean_queue < y.mean_queue; }) - sites.begin());
  const int idlest = idlest_site(sites);
  if (queued == idlest || sites[static_cast<std::size_t>(queued)].mean_queue <= 0.0) return;
  std::vector<int> players;
  for (std::size_t p = 0; p < simulation.players.size(); ++p)
    if (simulation.players[p].site == queued) players.push_back(static_cast<int>(p));
  if (players.size() < 2) return;
  std::stable_sort(players.begin(), players.end(), [&](int x, int y) { return busy_of(simulation, x) > busy_of(simulation, y); });
  const double gain = sites[static_cast<std::size_t>(queued)].mean_queue * simulation.time / static_cast<double>(players.size());
  moves.push_back(make_move(simulation, players[1], idlest, "concurrency", gain));
  moves.push_back(make_move(simulation, players[0], idlest, "concurrency", gain));  // or the busiest (its work may follow it)
}

// Who created whom (from the creation paths) and the messages between pairs, for creation placement.
struct CreationTree {
  std::unordered_map<std::string, int> index;                           // player name -> player
  std::unordered_map<std::uint64_t, std::pair<double, double>> traffic;  // pair -> messages, size (both ways)
  std::vector<std::pair<int, std::vector<int>>> children;                // creator -> its created players, in order

  static std::uint64_t key(int a, int b) { return (static_cast<std::uint64_t>(std::min(a, b)) << 32) | static_cast<std::uint32_t>(std::max(a, b)); }
  CreationTree(const Program& program, const Simulation& simulation) {
    for (std::size_t p = 0; p < simulation.players.size(); ++p) index[simulation.players[p].name] = static_cast<int>(p);
    for (const auto& pair : simulation.partners) {
      auto& entry = traffic[key(pair.sender, pair.receiver)];
      entry.first += static_cast<double>(pair.messages);
      entry.second += pair.traffic;
    }
    std::unordered_map<int, std::size_t> slot;
    for (std::size_t p = program.players.size(); p < simulation.players.size(); ++p) {
      const std::string& name = simulation.players[p].name;
      const auto parent = index.find(name.substr(0, name.rfind('/')));
      if (parent == index.end()) continue;
      const auto [entry, added] = slot.try_emplace(parent->second, children.size());
      if (added) children.push_back({parent->second, {}});
      children[entry->second].second.push_back(static_cast<int>(p));
    }
  }
  // The cost of the messages between a and b over `hops` hops.
  double cost(const Machine& machine, int a, int b, double hops) const {
    const auto found = traffic.find(key(a, b));
    return found == traffic.end() ? 0.0 : transfer_cost(machine, found->second.first, found->second.second, hops);
  }
};

// The least busy site but `except`, the nearest to `home` among equals.
int least_busy_near(const Machine& machine, const Simulation& simulation, int home, int except) {
  int target = -1;
  for (int site = 0; site < machine.sites; ++site) {
    if (site == except) continue;
    const double busy = simulation.sites[static_cast<std::size_t>(site)].busy;
    const double best = target < 0 ? 0.0 : simulation.sites[static_cast<std::size_t>(target)].busy;
    if (target < 0 || busy < best || (busy == best && machine.hops(home, site) < machine.hops(home, target))) target = site;
  }
  return target;
}

// Creation placement (seed 004 §3: players created while the program runs), two lines of reasoning on who
// created whom. Siblings, created by one creator, run at the same time: two on one site take turns, so the
// later one goes to the least busy site nearest its creator, saving the smaller of the two works less the
// longer way of its messages with the creator. A creator that waits for its children is idle meanwhile: its
// first child may share its site, saving their messages' cost, less the work of the other players there
// (but the creator's ancestors, which wait too).
void creation(const Machine& machine, const Program& program, const Simulation& simulation, std::vector<Move>& moves) {
  const CreationTree tree(program, simulation);
  for (const auto& [creator, created] : tree.children) {
    const int home = site_of(simulation, creator);
    for (std::size_t later = 1; later < created.size(); ++later) {
      const int child = created[later];
      const auto end = created.begin() + static_cast<std::ptrdiff_t>(later);
      const auto sibling = std::find_if(created.begin(), end, [&](int other) { return site_of(simulation, other) == site_of(simulation, child); });
      if (sibling == end) continue;
      const int target = least_busy_near(machine, simulation, home, site_of(simulation, child));
      const double gain = std::min(busy_of(simulation, child), busy_of(simulation, *sibling)) -
                          tree.cost(machine, creator, child, machine.hops(home, target)) +
                          tree.cost(machine, creator, child, machine.hops(home, site_of(simulation, child)));
      moves.push_back(make_move(simulation, child, target, "creation", gain));
    }
    const int first = created.front();
    if (site_of(simulation, first) == home) continue;
    const std::string& path = simulation.players[static_cast<std::size_t>(creator)].name;
    double others = 0.0;
    for (std::size_t p = 0; p < simulation.players.size(); ++p) {
      const auto& player = simulation.players[p];
      const bool ancestor = path.compare(0, player.name.size() + 1, player.name + "/") == 0;
      if (player.site == home && static_cast<int>(p) != creator && !ancestor) others += player.busy;
    }
    const double gain = tree.cost(machine, creator, first, machine.hops(home, site_of(simulation, first))) - std::min(others, busy_of(simulation, first));
    moves.push_back(make_move(simulation, first, home, "creation", gain));
  }
}

// One move per player and per site (as source or destination), best projected gain first.
std::vector<Move> resolve(const std::vector<Move>& proposals) {
  std::vector<Move> chosen;
  std::set<std::string> players;
  std::set<int> sites;
  for (const auto& move : proposals) {
    if (players.count(move.name) != 0 || sites.count(move.from) != 0 || sites.count(move.to) != 0) continue;
    players.insert(move.name);
    sites.insert(move.from);
    sites.insert(move.to);
    chosen.push_back(move);
  }
  return chosen;
}

Layout applied(const Program& program, const Layout& layout, const std::vector<Move>& moves) {
  Layout result = layout;
  for (const auto& move : moves) {
    if (static_cast<std::size_t>(move.player) < program.players.size()) {
      result.mapping.sites[static_cast<std::size_t>(move.player)] = move.to;
      continue;
    }
    const auto named = std::find_if(result.created.begin(), result.created.end(), [&](const auto& entry) { return entry.first == move.name; });
    if (named != result.created.end()) named->second = move.to;
    else result.created.emplace_back(move.name, move.to);
  }
  return result;
}

}  // namespace

std::vector<Move> propose_moves(const Program& program, const Machine& machine, const Mapping& mapping, const Simulation& simulation) {
  (void)mapping;  // the sites are the simulation's, created players' included
  std::vector<Move> moves;
  communication(machine, simulation, moves);
  load(machine, simulation, moves);
  concurrency(simulation, moves);
  creation(machine, program, simulation, moves);
  std::erase_if(moves, [](const Move& move) { return move.projected_gain <= 0.0 || move.from == move.to; });
  std::stable_sort(moves.begin(), moves.end(), [](const Move& a, const Move& b) { return a.projected_gain > b.projected_gain; });
  return moves;
}

TuneResult tune(const Program& program, const Machine& machine, const Mapping& initial, const TuneOptions& options) {
  TuneResult result;
  const auto simulate_mapping = [&](const Layout& layout) {
    if (options.interruption) options.interruption();
    if (options.progress) options.progress(static_cast<int>(result.iterations.size()), result.simulations);
    ++result.simulations;
    return simulate_layout(program, machine, layout, options.simulation);
  };
  Layout one_site{initial, {}};
  std::fill(one_site.mapping.sites.begin(), one_site.mapping.sites.end(), 0);
  one_site.mapping.created = Placement::OneSite;
  result.one_site_time = simulate_mapping(one_site).time;
  Layout layout{initial, options.simulation.created_sites};
  Simulation current = simulate_mapping(layout);
  for (int iteration = 0; iteration < options.maximum_iterations; ++iteration) {
    TuneIteration record;
    record.time = current.time;
    const std::vector<Move> proposals = propose_moves(program, machine, layout.mapping, current);
    record.proposals = static_cast<long>(proposals.size());
    for (const auto& move : proposals) ++result.heuristics[move.heuristic].proposed;
    // The non-conflicting proposals together, then each of the best alone, until one is faster.
    std::vector<std::vector<Move>> attempts{resolve(proposals)};
    const std::size_t first_alone = attempts.front().size() == 1 ? 1 : 0;  // resolve() always takes the best
    for (std::size_t p = first_alone; p < proposals.size() && p < options.alternatives; ++p) attempts.push_back({proposals[p]});
    // Then two of the best together (a move may pay only with another: two stages onto one fast site).
    for (std::size_t a = 0; a < proposals.size() && a < options.paired; ++a)
      for (std::size_t b = a + 1; b < proposals.size() && b < options.paired; ++b)
        if (proposals[a].name != proposals[b].name) attempts.push_back({proposals[a], proposals[b]});
    bool improved = false;
    for (const auto& attempt : attempts) {
      if (attempt.empty()) continue;
      Layout candidate = applied(program, layout, attempt);
      Simulation next = simulate_mapping(candidate);
      if (next.deadlock.empty() && next.time < current.time) {
        improved = true;
        record.applied = attempt;
        for (const auto& move : attempt) ++result.heuristics[move.heuristic].kept;
        layout = std::move(candidate);
        current = std::move(next);
        break;
      }
    }
    result.iterations.push_back(std::move(record));
    if (!improved) break;
  }
  if (result.iterations.empty() || !result.iterations.back().applied.empty()) result.iterations.push_back({current.time, 0, {}});
  result.time = current.time;
  result.mapping = std::move(layout.mapping);
  // Every created player by name, where the last kept run put it (those not moved followed the rule), so that
  // the mapping gives this time under `--mapping` too.
  for (std::size_t p = program.players.size(); p < current.players.size(); ++p) result.created.emplace_back(current.players[p].name, current.players[p].site);
  return result;
}

}  // namespace augur::sim::actors
