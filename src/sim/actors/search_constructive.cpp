// The constructive baselines (search.hpp): greedy load balancing and communication clustering, both built
// from the statistics of one simulation (the initial layout's).
#include <algorithm>
#include <map>
#include <numeric>

#include "augur/sim/engine.hpp"
#include "sim/actors/search_space.hpp"

namespace augur::sim::actors {

std::vector<double> player_work(const SearchSpace& space) {
  std::vector<double> work;
  for (const auto& player : space.profile.players) work.push_back(player.busy * space.machine.speed[static_cast<std::size_t>(player.site)]);
  return work;
}

std::vector<Affinity> affinities(const SearchSpace& space) {
  const Machine& machine = space.machine;
  double latency = 0.0;
  double bandwidth = 0.0;
  for (const auto& channel : machine.channels) {
    latency += channel.latency;
    bandwidth += channel.bandwidth;
  }
  const auto channels = static_cast<double>(std::max<std::size_t>(1, machine.channels.size()));
  latency /= channels;
  bandwidth = machine.channels.empty() ? 1.0 : bandwidth / channels;
  std::map<std::pair<int, int>, std::size_t> index;
  std::vector<Affinity> result;
  for (const auto& pair : space.profile.partners) {
    if (pair.sender == pair.receiver) continue;
    const auto key = std::minmax(pair.sender, pair.receiver);
    const auto [entry, added] = index.try_emplace(key, result.size());
    if (added) result.push_back({key.first, key.second, 0.0});
    result[entry->second].cost += static_cast<double>(pair.messages) * (machine.send_overhead + machine.receive_overhead + latency) + pair.traffic / bandwidth;
  }
  std::stable_sort(result.begin(), result.end(), [](const Affinity& x, const Affinity& y) { return x.cost > y.cost; });
  return result;
}

namespace {

// Players by work, heaviest first (the first of equals first).
std::vector<int> by_work(const std::vector<double>& work) {
  std::vector<int> order(work.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return work[static_cast<std::size_t>(a)] > work[static_cast<std::size_t>(b)]; });
  return order;
}

// The cost of the affinities of `unit` (a player or a cluster) with the units already placed, if it went to `site`.
double communication_at(const Machine& machine, const std::vector<std::vector<std::pair<int, double>>>& partners, const std::vector<int>& placed, int unit, int site) {
  double cost = 0.0;
  for (const auto& [other, weight] : partners[static_cast<std::size_t>(unit)])
    if (placed[static_cast<std::size_t>(other)] >= 0) cost += weight * machine.hops(site, placed[static_cast<std::size_t>(other)]);
  return cost;
}

std::vector<std::vector<std::pair<int, double>>> adjacency(std::size_t units, const std::vector<Affinity>& affinities, const std::vector<int>& unit_of) {
  std::vector<std::map<int, double>> sums(units);
  for (const auto& affinity : affinities) {
    const int a = unit_of[static_cast<std::size_t>(affinity.a)];
    const int b = unit_of[static_cast<std::size_t>(affinity.b)];
    if (a == b) continue;
    sums[static_cast<std::size_t>(a)][b] += affinity.cost;
    sums[static_cast<std::size_t>(b)][a] += affinity.cost;
  }
  std::vector<std::vector<std::pair<int, double>>> result(units);
  for (std::size_t u = 0; u < units; ++u) result[u].assign(sums[u].begin(), sums[u].end());
  return result;
}

int find(std::vector<int>& parent, int x) {
  while (parent[static_cast<std::size_t>(x)] != x) x = parent[static_cast<std::size_t>(x)] = parent[static_cast<std::size_t>(parent[static_cast<std::size_t>(x)])];
  return x;
}

// Communication clustering with a load tolerance: heaviest affinities first, two clusters merge when their
// work together stays within (1 + tolerance) × the mean work per site; past the sites, the two lightest
// clusters merge. The clusters go to sites heaviest first, each next the one most bound to those placed, on
// the free site nearest them (fewest hops weighted by cost; ties: the fastest, then the lowest site).
std::vector<int> clustered(const SearchSpace& space, const std::vector<double>& work, const std::vector<Affinity>& affinity, double tolerance) {
  const Machine& machine = space.machine;
  const auto players = static_cast<int>(work.size());
  std::vector<int> parent(static_cast<std::size_t>(players));
  std::iota(parent.begin(), parent.end(), 0);
  std::vector<double> load = work;
  const double limit = (1.0 + tolerance) * std::accumulate(work.begin(), work.end(), 0.0) / machine.sites;
  int clusters = players;
  for (const auto& edge : affinity) {
    const int a = find(parent, edge.a);
    const int b = find(parent, edge.b);
    if (a == b || load[static_cast<std::size_t>(a)] + load[static_cast<std::size_t>(b)] > limit) continue;
    parent[static_cast<std::size_t>(b)] = a;
    load[static_cast<std::size_t>(a)] += load[static_cast<std::size_t>(b)];
    --clusters;
  }
  for (; clusters > machine.sites; --clusters) {
    std::vector<int> roots;
    for (int p = 0; p < players; ++p)
      if (find(parent, p) == p) roots.push_back(p);
    std::stable_sort(roots.begin(), roots.end(), [&](int x, int y) { return load[static_cast<std::size_t>(x)] < load[static_cast<std::size_t>(y)]; });
    parent[static_cast<std::size_t>(roots[1])] = roots[0];
    load[static_cast<std::size_t>(roots[0])] += load[static_cast<std::size_t>(roots[1])];
  }
  // Number the clusters 0.. in order of their first player; then place them.
  std::vector<int> unit_of(static_cast<std::size_t>(players));
  std::map<int, int> number;
  std::vector<double> unit_work;
  for (int p = 0; p < players; ++p) {
    const auto [entry, added] = number.try_emplace(find(parent, p), static_cast<int>(number.size()));
    if (added) unit_work.push_back(0.0);
    unit_of[static_cast<std::size_t>(p)] = entry->second;
    unit_work[static_cast<std::size_t>(entry->second)] += work[static_cast<std::size_t>(p)];
  }
  const auto partners = adjacency(unit_work.size(), affinity, unit_of);
  std::vector<int> placed(unit_work.size(), -1);
  std::vector<char> taken(static_cast<std::size_t>(machine.sites), 0);
  for (std::size_t step = 0; step < unit_work.size(); ++step) {
    int unit = -1;  // the unplaced cluster most bound to those placed, then the heaviest
    double bound = -1.0;
    for (std::size_t u = 0; u < unit_work.size(); ++u) {
      if (placed[u] >= 0) continue;
      double sum = 0.0;
      for (const auto& [other, weight] : partners[u]) sum += placed[static_cast<std::size_t>(other)] >= 0 ? weight : 0.0;
      if (unit < 0 || sum > bound || (sum == bound && unit_work[u] > unit_work[static_cast<std::size_t>(unit)])) {
        unit = static_cast<int>(u);
        bound = sum;
      }
    }
    int best = -1;
    double best_cost = 0.0;
    for (int site = 0; site < machine.sites; ++site) {
      if (taken[static_cast<std::size_t>(site)] != 0) continue;
      const double cost = communication_at(machine, partners, placed, unit, site);
      if (best < 0 || cost < best_cost || (cost == best_cost && machine.speed[static_cast<std::size_t>(site)] > machine.speed[static_cast<std::size_t>(best)])) {
        best = site;
        best_cost = cost;
      }
    }
    placed[static_cast<std::size_t>(unit)] = best;
    taken[static_cast<std::size_t>(best)] = 1;
  }
  std::vector<int> sites(static_cast<std::size_t>(players));
  for (int p = 0; p < players; ++p) sites[static_cast<std::size_t>(p)] = placed[static_cast<std::size_t>(unit_of[static_cast<std::size_t>(p)])];
  return sites;
}

}  // namespace

std::vector<int> greedy_sites(const SearchSpace& space) {
  const Machine& machine = space.machine;
  const std::vector<double> work = player_work(space);
  std::vector<int> identity(work.size());
  std::iota(identity.begin(), identity.end(), 0);
  const auto partners = adjacency(work.size(), affinities(space), identity);
  std::vector<double> load(static_cast<std::size_t>(machine.sites), 0.0);
  std::vector<int> sites(work.size(), -1);
  for (const int player : by_work(work)) {
    const double w = work[static_cast<std::size_t>(player)];
    int best = -1;
    double best_finish = 0.0;
    double best_cost = 0.0;
    for (int site = 0; site < machine.sites; ++site) {
      const double finish = (load[static_cast<std::size_t>(site)] + w) / machine.speed[static_cast<std::size_t>(site)];
      const double cost = communication_at(machine, partners, sites, player, site);
      if (best < 0 || finish < best_finish || (finish == best_finish && cost < best_cost)) {
        best = site;
        best_finish = finish;
        best_cost = cost;
      }
    }
    sites[static_cast<std::size_t>(player)] = best;
    load[static_cast<std::size_t>(best)] += w;
  }
  return sites;
}

Found search_clustering(const SearchSpace& space, const SearchOptions& options) {
  const std::vector<double> work = player_work(space);
  const std::vector<Affinity> affinity = affinities(space);
  std::vector<std::vector<int>> candidates;
  for (const double tolerance : {0.0, 0.25, 0.5, 1.0, 2.0, 1e300}) {
    std::vector<int> sites = clustered(space, work, affinity, tolerance);
    if (std::find(candidates.begin(), candidates.end(), sites) == candidates.end()) candidates.push_back(std::move(sites));
  }
  candidates.resize(std::min<std::size_t>(candidates.size(), static_cast<std::size_t>(std::max(1L, options.budget - 1))));
  Found best;
  run_candidates(
      options, static_cast<int>(candidates.size()), [&](int c) { return Found{{}, space.time(candidates[static_cast<std::size_t>(c)]), 1}; },
      [&](int c, Found&& found) {
        ++best.simulations;
        keep_better(best, candidates[static_cast<std::size_t>(c)], found.time);
      });
  return best;
}

}  // namespace augur::sim::actors
