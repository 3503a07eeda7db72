// The heuristics of post-game analysis that move one player (tune_heuristics.hpp), each an independent line
// of reasoning over one simulation's statistics (seed 004 §3.3), and what all the heuristics share.
#include "sim/actors/tune_heuristics.hpp"

#include <algorithm>
#include <string>
#include <unordered_map>

namespace augur::sim::actors::tuning {
namespace {

double mean_of(const std::vector<Channel>& channels, double Channel::*field, double otherwise) {
  if (channels.empty()) return otherwise;
  double sum = 0.0;
  for (const auto& channel : channels) sum += channel.*field;
  return sum / static_cast<double>(channels.size());
}

}  // namespace

Statistics::Statistics(const Program& program_, const Machine& machine_, const Simulation& simulation_)
    : program(program_), machine(machine_), simulation(simulation_), partners(simulation_.players.size()) {
  for (const auto& pair : simulation.partners) {
    if (pair.sender == pair.receiver) continue;
    for (const auto& [a, b] : {std::pair{pair.sender, pair.receiver}, std::pair{pair.receiver, pair.sender}}) {
      auto& list = partners[static_cast<std::size_t>(a)];
      const auto other = b;  // a structured binding is not captured by older compilers' lambdas (clang < 16)
      auto found = std::find_if(list.begin(), list.end(), [&](const Partner& partner) { return partner.other == other; });
      if (found == list.end()) found = list.insert(list.end(), Partner{b, 0.0, 0.0});
      found->messages += static_cast<double>(pair.messages);
      found->traffic += pair.traffic;
    }
  }
}

double transfer_cost(const Machine& machine, double messages, double traffic, double hops) {
  if (hops <= 0) return 0.0;
  return messages * (machine.send_overhead + machine.receive_overhead + hops * mean_of(machine.channels, &Channel::latency, 0.0)) +
         traffic * hops / mean_of(machine.channels, &Channel::bandwidth, 1.0);
}

Move make_move(const Simulation& simulation, int player, int to, const char* heuristic, double gain) {
  const auto& moved = simulation.players[static_cast<std::size_t>(player)];
  return {player, moved.name, moved.site, to, heuristic, gain};
}

Proposal single(const Simulation& simulation, int player, int to, const char* heuristic, double gain) {
  return {{make_move(simulation, player, to, heuristic, gain)}, heuristic, gain};
}

// Communication affinity: heavy partners on different sites. Co-locating them saves, per message, the
// send and receive overheads and the hops' latency and transmission; the player with less work moves to
// its partner's site. Link contention: partners more than a hop apart may instead come closer, next to
// each other, saving all hops but one.
void communication(const Statistics& statistics, std::vector<Proposal>& proposals) {
  const Machine& machine = statistics.machine;
  const Simulation& simulation = statistics.simulation;
  for (const auto& pair : simulation.partners) {
    const int a = statistics.site(pair.sender);
    const int b = statistics.site(pair.receiver);
    if (a == b) continue;
    const double hops = machine.hops(a, b);
    const double gain = transfer_cost(machine, static_cast<double>(pair.messages), pair.traffic, hops);
    const bool sender_moves = statistics.busy(pair.sender) <= statistics.busy(pair.receiver);
    const int player = sender_moves ? pair.sender : pair.receiver;
    const int partner_site = sender_moves ? b : a;
    proposals.push_back(single(simulation, player, partner_site, "communication", gain));
    if (hops < 2) continue;
    // Contention: closer without sharing a site, on the least busy neighbour of the partner's site, saving
    // the latency and transmission of all hops but one (the overheads remain).
    int beside = -1;
    for (int site = 0; site < machine.sites; ++site)
      if (machine.hops(partner_site, site) == 1 && (beside < 0 || statistics.site_busy(site) < statistics.site_busy(beside))) beside = site;
    const double saved = hops - 1.0;
    proposals.push_back(single(simulation, player, beside, "contention",
                               static_cast<double>(pair.messages) * saved * mean_of(machine.channels, &Channel::latency, 0.0) +
                                   pair.traffic * saved / mean_of(machine.channels, &Channel::bandwidth, 1.0)));
  }
}

namespace {

int busiest_site(const std::vector<SiteResult>& sites) {
  return static_cast<int>(std::max_element(sites.begin(), sites.end(), [](const auto& x, const auto& y) { return x.busy < y.busy; }) - sites.begin());
}
int idlest_site(const std::vector<SiteResult>& sites) {
  return static_cast<int>(std::min_element(sites.begin(), sites.end(), [](const auto& x, const auto& y) { return x.busy < y.busy; }) - sites.begin());
}

}  // namespace

// Load balance: from the busiest site, the player and the destination that best even the two sites, the
// player's work rescaled by the sites' speeds (a fast site may take more): the busiest site's time saved,
// busy - max(busy - work, destination's busy + work × speed here / speed there).
void load(const Statistics& statistics, std::vector<Proposal>& proposals) {
  const Machine& machine = statistics.machine;
  const auto& sites = statistics.simulation.sites;
  const int busiest = busiest_site(sites);
  const double high = sites[static_cast<std::size_t>(busiest)].busy;
  int best = -1;
  int best_site = -1;
  double best_gain = 0.0;
  double best_after = 0.0;  // among equal gains, the destination least busy after the move
  for (std::size_t p = 0; p < statistics.simulation.players.size(); ++p) {
    if (statistics.site(static_cast<int>(p)) != busiest) continue;
    const double work = statistics.busy(static_cast<int>(p));
    for (int site = 0; site < machine.sites; ++site) {
      if (site == busiest) continue;
      const double moved = work * statistics.speed(busiest) / statistics.speed(site);
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
  if (best >= 0) proposals.push_back(single(statistics.simulation, best, best_site, "load", best_gain));
}

// Concurrency: two busy players sharing a site wait for each other; the second busiest of the most
// queued site moves to the least busy site, saving the time it waited (the site's mean queue over the run),
// or else the busiest (in a farm, work goes to whichever worker asks: it follows the one that moves).
void concurrency(const Statistics& statistics, std::vector<Proposal>& proposals) {
  const Simulation& simulation = statistics.simulation;
  const auto& sites = simulation.sites;
  const auto queued = static_cast<int>(std::max_element(sites.begin(), sites.end(), [](const auto& x, const auto& y) { return x.mean_queue < y.mean_queue; }) - sites.begin());
  const int idlest = idlest_site(sites);
  if (queued == idlest || sites[static_cast<std::size_t>(queued)].mean_queue <= 0.0) return;
  std::vector<int> players;
  for (std::size_t p = 0; p < simulation.players.size(); ++p)
    if (simulation.players[p].site == queued) players.push_back(static_cast<int>(p));
  if (players.size() < 2) return;
  std::stable_sort(players.begin(), players.end(), [&](int x, int y) { return statistics.busy(x) > statistics.busy(y); });
  const double gain = sites[static_cast<std::size_t>(queued)].mean_queue * simulation.time / static_cast<double>(players.size());
  proposals.push_back(single(simulation, players[1], idlest, "concurrency", gain));
  proposals.push_back(single(simulation, players[0], idlest, "concurrency", gain));  // or the busiest (its work may follow it)
}

namespace {

// Who created whom, from the creation paths: each creator and its created players, in order.
std::vector<std::pair<int, std::vector<int>>> creators(const Program& program, const Simulation& simulation) {
  std::unordered_map<std::string, int> index;
  for (std::size_t p = 0; p < simulation.players.size(); ++p) index[simulation.players[p].name] = static_cast<int>(p);
  std::vector<std::pair<int, std::vector<int>>> children;
  std::unordered_map<int, std::size_t> slot;
  for (std::size_t p = program.players.size(); p < simulation.players.size(); ++p) {
    const std::string& name = simulation.players[p].name;
    const auto parent = index.find(name.substr(0, name.rfind('/')));
    if (parent == index.end()) continue;
    const auto [entry, added] = slot.try_emplace(parent->second, children.size());
    if (added) children.push_back({parent->second, {}});
    children[entry->second].second.push_back(static_cast<int>(p));
  }
  return children;
}

// The cost of the messages between a and b over `hops` hops.
double pair_cost(const Statistics& statistics, int a, int b, double hops) {
  for (const auto& partner : statistics.partners[static_cast<std::size_t>(a)])
    if (partner.other == b) return transfer_cost(statistics.machine, partner.messages, partner.traffic, hops);
  return 0.0;
}

// The least busy site but `except`, the nearest to `home` among equals.
int least_busy_near(const Statistics& statistics, int home, int except) {
  const Machine& machine = statistics.machine;
  int target = -1;
  for (int site = 0; site < machine.sites; ++site) {
    if (site == except) continue;
    const double busy = statistics.site_busy(site);
    const double best = target < 0 ? 0.0 : statistics.site_busy(target);
    if (target < 0 || busy < best || (busy == best && machine.hops(home, site) < machine.hops(home, target))) target = site;
  }
  return target;
}

}  // namespace

// Creation placement (seed 004 §3: players created while the program runs), two lines of reasoning on who
// created whom. Siblings, created by one creator, run at the same time: two on one site take turns, so the
// later one goes to the least busy site nearest its creator, saving the smaller of the two works less the
// longer way of its messages with the creator. A creator that waits for its children is idle meanwhile: its
// first child may share its site, saving their messages' cost, less the work of the other players there
// (but the creator's ancestors, which wait too).
void creation(const Statistics& statistics, std::vector<Proposal>& proposals) {
  const Machine& machine = statistics.machine;
  const Simulation& simulation = statistics.simulation;
  for (const auto& [creator, created] : creators(statistics.program, simulation)) {
    const int home = statistics.site(creator);
    for (std::size_t later = 1; later < created.size(); ++later) {
      const int child = created[later];
      const auto end = created.begin() + static_cast<std::ptrdiff_t>(later);
      const auto sibling = std::find_if(created.begin(), end, [&](int other) { return statistics.site(other) == statistics.site(child); });
      if (sibling == end) continue;
      const int target = least_busy_near(statistics, home, statistics.site(child));
      const double gain = std::min(statistics.busy(child), statistics.busy(*sibling)) - pair_cost(statistics, creator, child, machine.hops(home, target)) +
                          pair_cost(statistics, creator, child, machine.hops(home, statistics.site(child)));
      proposals.push_back(single(simulation, child, target, "creation", gain));
    }
    const int first = created.front();
    if (statistics.site(first) == home) continue;
    const std::string& path = simulation.players[static_cast<std::size_t>(creator)].name;
    double others = 0.0;
    for (std::size_t p = 0; p < simulation.players.size(); ++p) {
      const auto& player = simulation.players[p];
      const bool ancestor = path.compare(0, player.name.size() + 1, player.name + "/") == 0;
      if (player.site == home && static_cast<int>(p) != creator && !ancestor) others += player.busy;
    }
    const double gain = pair_cost(statistics, creator, first, machine.hops(home, statistics.site(first))) - std::min(others, statistics.busy(first));
    proposals.push_back(single(simulation, first, home, "creation", gain));
  }
}

}  // namespace augur::sim::actors::tuning
