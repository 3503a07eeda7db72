// The heuristics of post-game analysis that move players together (tune_heuristics.hpp): two players
// exchanging their sites, the heaviest players onto the fastest sites, a chain of partners moving as one;
// all projected by projected_gain().
#include <algorithm>
#include <map>
#include <set>
#include <unordered_map>

#include "sim/actors/tune_heuristics.hpp"

namespace augur::sim::actors::tuning {

double projected_gain(const Statistics& statistics, const std::vector<std::pair<int, int>>& moves) {
  const Machine& machine = statistics.machine;
  std::unordered_map<int, int> target;
  for (const auto& [player, site] : moves) target[player] = site;
  const auto where = [&](int player) {
    const auto found = target.find(player);
    return found == target.end() ? statistics.site(player) : found->second;
  };
  double communication = 0.0;
  std::map<int, double> after;  // the busy time of the sites involved
  for (const auto& [player, site] : moves) {
    for (const auto& partner : statistics.partners[static_cast<std::size_t>(player)]) {
      if (target.count(partner.other) != 0 && partner.other < player) continue;  // counted from the other
      communication += transfer_cost(machine, partner.messages, partner.traffic, machine.hops(statistics.site(player), statistics.site(partner.other))) -
                       transfer_cost(machine, partner.messages, partner.traffic, machine.hops(site, where(partner.other)));
    }
    after.try_emplace(statistics.site(player), statistics.site_busy(statistics.site(player)));
    after.try_emplace(site, statistics.site_busy(site));
  }
  double before = 0.0;
  for (const auto& [site, busy] : after) before = std::max(before, busy);
  for (const auto& [player, site] : moves) {
    const int from = statistics.site(player);
    after[from] -= statistics.busy(player);
    after[site] += statistics.busy(player) * statistics.speed(from) / statistics.speed(site);
  }
  double highest = 0.0;
  for (const auto& [site, busy] : after) highest = std::max(highest, busy);
  return communication + before - highest;
}

namespace {

std::vector<std::vector<int>> players_by_site(const Statistics& statistics) {
  std::vector<std::vector<int>> result(static_cast<std::size_t>(statistics.machine.sites));
  for (std::size_t p = 0; p < statistics.simulation.players.size(); ++p) result[static_cast<std::size_t>(statistics.site(static_cast<int>(p)))].push_back(static_cast<int>(p));
  return result;
}

Proposal together(const Statistics& statistics, const std::vector<std::pair<int, int>>& moves, const char* heuristic, double gain) {
  Proposal proposal{{}, heuristic, gain};
  for (const auto& [player, site] : moves) proposal.moves.push_back(make_move(statistics.simulation, player, site, heuristic, gain));
  return proposal;
}

}  // namespace

// Exchange: a player p whose partner r is on another site would go to r's site, but that site has its own
// work; p exchanges sites with the player q there (not r) whose exchange projects the most: the messages
// p saves with r (and any others the exchange brings closer or sends away), the load of both sites even
// when p and q weigh alike.
void exchange(const Statistics& statistics, std::vector<Proposal>& proposals) {
  const auto residents = players_by_site(statistics);
  std::set<std::pair<int, int>> proposed;
  for (std::size_t index = 0; index < statistics.partners.size(); ++index) {
    const int p = static_cast<int>(index);
    for (const auto& partner : statistics.partners[index]) {
      const int home = statistics.site(p);
      const int there = statistics.site(partner.other);
      if (home == there) continue;
      int best = -1;
      double best_gain = 0.0;
      for (const int q : residents[static_cast<std::size_t>(there)]) {
        if (q == partner.other) continue;
        const double gain = projected_gain(statistics, {{p, there}, {q, home}});
        if (gain > best_gain) {
          best = q;
          best_gain = gain;
        }
      }
      if (best < 0 || !proposed.insert(std::minmax(p, best)).second) continue;
      proposals.push_back(together(statistics, {{p, there}, {best, home}}, "exchange", best_gain));
    }
  }
}

// Speed (machines whose sites differ in speed): the players that work the longest, the critical path's
// heaviest as far as busy times tell, belong on the fastest sites. Each of the four heaviest players on a
// slower site moves to a fastest site, or exchanges sites with the lightest player there; and the lightest
// player of a fastest site makes room, to the least busy site.
void speed(const Statistics& statistics, std::vector<Proposal>& proposals) {
  const Machine& machine = statistics.machine;
  const double fastest = *std::max_element(machine.speed.begin(), machine.speed.end());
  if (*std::min_element(machine.speed.begin(), machine.speed.end()) == fastest) return;
  const auto residents = players_by_site(statistics);
  std::vector<int> slower;
  for (std::size_t p = 0; p < statistics.simulation.players.size(); ++p)
    if (statistics.speed(statistics.site(static_cast<int>(p))) < fastest) slower.push_back(static_cast<int>(p));
  std::stable_sort(slower.begin(), slower.end(), [&](int a, int b) { return statistics.busy(a) > statistics.busy(b); });
  slower.resize(std::min<std::size_t>(slower.size(), 4));
  int idlest = 0;
  for (int site = 1; site < machine.sites; ++site)
    if (statistics.site_busy(site) < statistics.site_busy(idlest)) idlest = site;
  const auto propose_if_gains = [&](const std::vector<std::pair<int, int>>& moves) {
    const double gain = projected_gain(statistics, moves);
    if (gain > 0.0) proposals.push_back(together(statistics, moves, "speed", gain));
  };
  for (int fast = 0; fast < machine.sites; ++fast) {
    if (statistics.speed(fast) < fastest) continue;
    const auto& here = residents[static_cast<std::size_t>(fast)];
    const auto lightest = std::min_element(here.begin(), here.end(), [&](int a, int b) { return statistics.busy(a) < statistics.busy(b); });
    for (const int p : slower) {
      propose_if_gains({{p, fast}});
      if (lightest != here.end() && statistics.busy(*lightest) * fastest < statistics.busy(p) * statistics.speed(statistics.site(p)))
        propose_if_gains({{p, fast}, {*lightest, statistics.site(p)}});
    }
    if (lightest != here.end() && here.size() > 1 && idlest != fast) propose_if_gains({{*lightest, idlest}});
  }
}

namespace {

// The players reachable from `player` through partners on its own site.
std::vector<int> chain_of(const Statistics& statistics, int player) {
  const int site = statistics.site(player);
  std::vector<int> chain{player};
  for (std::size_t next = 0; next < chain.size(); ++next)
    for (const auto& partner : statistics.partners[static_cast<std::size_t>(chain[next])])
      if (statistics.site(partner.other) == site && std::find(chain.begin(), chain.end(), partner.other) == chain.end()) chain.push_back(partner.other);
  std::sort(chain.begin(), chain.end());
  return chain;
}

}  // namespace

// Chain: partners on one site that talk to a partner elsewhere move together, to that partner's site or to a
// site next to it (whichever projects most, the lowest of equals): moving one of them alone, as
// communication would, parts it from the others.
void chain(const Statistics& statistics, std::vector<Proposal>& proposals) {
  const Machine& machine = statistics.machine;
  std::set<std::pair<std::vector<int>, int>> proposed;
  for (const auto& pair : statistics.simulation.partners) {
    for (const auto& [mover, toward] : {std::pair{pair.receiver, pair.sender}, std::pair{pair.sender, pair.receiver}}) {
      const int there = statistics.site(toward);
      if (statistics.site(mover) == there) break;
      const std::vector<int> players = chain_of(statistics, mover);
      if (players.size() < 2) continue;
      int best_site = -1;
      double best_gain = 0.0;
      std::vector<std::pair<int, int>> best_moves;
      for (int site = 0; site < machine.sites; ++site) {
        if (site != there && machine.hops(there, site) != 1) continue;
        if (site == statistics.site(mover)) continue;
        std::vector<std::pair<int, int>> moves;
        for (const int player : players) moves.emplace_back(player, site);
        const double gain = projected_gain(statistics, moves);
        if (gain > best_gain) {
          best_site = site;
          best_gain = gain;
          best_moves = std::move(moves);
        }
      }
      if (best_site >= 0 && proposed.insert({players, best_site}).second) proposals.push_back(together(statistics, best_moves, "chain", best_gain));
    }
  }
}

}  // namespace augur::sim::actors::tuning
