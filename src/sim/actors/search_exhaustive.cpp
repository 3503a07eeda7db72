// Exhaustive search (search.hpp): every mapping of the players searched, one per class of mappings that the
// machine's symmetries make equivalent, simulated over threads in blocks; the first fastest in lexicographic
// order of the sites is the optimum.
#include <algorithm>
#include <cmath>
#include <functional>
#include <stdexcept>
#include <string>
#include <utility>

#include "augur/core/expression.hpp"
#include "augur/sim/engine.hpp"
#include "sim/actors/search_space.hpp"

namespace augur::sim::actors {
namespace {

using Permutation = std::vector<int>;

// channel[a * sites + b]: the channel from a to b, or -1.
std::vector<int> channel_matrix(const Machine& machine) {
  const auto n = static_cast<std::size_t>(machine.sites);
  std::vector<int> matrix(n * n, -1);
  for (std::size_t c = 0; c < machine.channels.size(); ++c)
    matrix[static_cast<std::size_t>(machine.channels[c].from) * n + static_cast<std::size_t>(machine.channels[c].to)] = static_cast<int>(c);
  return matrix;
}

bool same_channel(const Machine& machine, int c, int d) {
  if (c < 0 || d < 0) return c == d;
  const Channel& x = machine.channels[static_cast<std::size_t>(c)];
  const Channel& y = machine.channels[static_cast<std::size_t>(d)];
  return x.latency == y.latency && x.bandwidth == y.bandwidth;
}

// Every route's next hop maps to the image's next hop: next_channel(g a, g b) = g(next_channel(a, b)).
bool routes_commute(const Machine& machine, const Permutation& g) {
  for (int a = 0; a < machine.sites; ++a)
    for (int b = 0; b < machine.sites; ++b) {
      if (a == b) continue;
      const Channel& hop = machine.channels[static_cast<std::size_t>(machine.next_channel(a, b))];
      const Channel& image = machine.channels[static_cast<std::size_t>(machine.next_channel(g[static_cast<std::size_t>(a)], g[static_cast<std::size_t>(b)]))];
      if (image.to != g[static_cast<std::size_t>(hop.to)]) return false;
    }
  return true;
}

// What routes_commute() asks of the pairs of sites `site` makes with those mapped before it, g being known on
// 0..site: a next hop already mapped maps to the image's next hop, one not mapped yet to a site no one maps to
// (found early, this prunes the machines with many more graph symmetries than route symmetries: hypercubes).
bool routes_may_commute(const Machine& machine, const Permutation& g, const std::vector<char>& used, std::size_t site) {
  const auto at = [&](std::size_t s) { return g[s]; };
  for (std::size_t before = 0; before < site; ++before) {
    for (const auto& [a, b] : {std::pair{site, before}, std::pair{before, site}}) {
      const auto hop = static_cast<std::size_t>(machine.channels[static_cast<std::size_t>(machine.next_channel(static_cast<int>(a), static_cast<int>(b)))].to);
      const int image = machine.channels[static_cast<std::size_t>(machine.next_channel(at(a), at(b)))].to;
      if (hop <= site ? image != at(hop) : used[static_cast<std::size_t>(image)] != 0 || image == at(site)) return false;
    }
  }
  return true;
}

// The site permutations g that leave the machine unchanged: equal speed and context switch at s and g(s), a
// channel a->b exactly when there is one g(a)->g(b) with the same latency and bandwidth, and routes that
// commute with g. Under such a g the simulator (which reads sites through nothing else; created players not
// named stay on their creator's site) runs mapping g∘m event for event as m, so one mapping of each orbit is
// enough. Found by backtracking; more than `limit` of them: only the identity is used.
std::vector<Permutation> symmetries(const Machine& machine, std::size_t limit) {
  const auto n = static_cast<std::size_t>(machine.sites);
  const std::vector<int> matrix = channel_matrix(machine);
  const auto channel = [&](std::size_t a, std::size_t b) { return matrix[a * n + b]; };
  std::vector<Permutation> found;
  Permutation g(n, -1);
  std::vector<char> used(n, 0);
  bool overflow = false;
  std::function<void(std::size_t)> extend = [&](std::size_t site) {
    if (overflow) return;
    if (site == n) {
      if (routes_commute(machine, g)) found.push_back(g);
      overflow = found.size() > limit;
      return;
    }
    for (std::size_t image = 0; image < n; ++image) {
      if (used[image] != 0 || machine.speed[image] != machine.speed[site] || machine.context_switch[image] != machine.context_switch[site]) continue;
      bool fits = true;
      for (std::size_t before = 0; before < site && fits; ++before) {
        const auto other = static_cast<std::size_t>(g[before]);
        fits = same_channel(machine, channel(site, before), channel(image, other)) && same_channel(machine, channel(before, site), channel(other, image));
      }
      g[site] = static_cast<int>(image);
      if (!fits || !routes_may_commute(machine, g, used, site)) continue;
      used[image] = 1;
      extend(site + 1);
      used[image] = 0;
    }
  };
  extend(0);
  if (overflow || found.empty()) {
    Permutation identity(n);
    for (std::size_t s = 0; s < n; ++s) identity[s] = static_cast<int>(s);
    return {identity};
  }
  return found;
}

// Walks the mappings whose prefixes are the smallest of their orbits: at each player, a site s is skipped
// when some g, equal to the identity on the prefix so far, maps s below s (the whole mapping then has a
// smaller image, which is walked instead); `equal` holds, per g, whether g fixes the prefix so far.
struct Walk {
  const std::vector<Permutation>& group;  // without the identity
  int sites = 0;
  std::size_t players = 0;
  std::vector<int> prefix;

  void walk(std::size_t depth, std::size_t limit, const std::vector<char>& equal, const std::function<void(const std::vector<char>&)>& visit) {
    if (depth == limit) return visit(equal);
    std::vector<char> next(equal.size());
    for (int site = 0; site < sites; ++site) {
      bool smallest = true;
      for (std::size_t g = 0; g < group.size() && smallest; ++g) {
        next[g] = equal[g];
        if (equal[g] == 0) continue;
        const int image = group[g][static_cast<std::size_t>(site)];
        smallest = image >= site;
        next[g] = image == site ? 1 : 0;
      }
      if (!smallest) continue;
      prefix[depth] = site;
      walk(depth + 1, limit, next, visit);
    }
  }
};

}  // namespace

Exhaustive search_exhaustive(const SearchSpace& space, const SearchOptions& options) {
  const Machine& machine = space.machine;
  const std::size_t players = space.players();
  const auto refuse = [&](const std::string& mappings) {
    throw std::runtime_error("exhaustive search of " + std::to_string(players) + " players on " + std::to_string(machine.sites) + " sites is " + mappings +
                             ", more than the budget of " + std::to_string(options.budget) + " simulations: raise --budget or use annealing");
  };
  // Burnside's count is at least sites^players / (the symmetries used, at most `limit`): a space larger than
  // the budget even so is refused before the symmetries are sought.
  constexpr std::size_t limit = 512;
  const double at_least = std::pow(static_cast<double>(machine.sites), static_cast<double>(players)) / static_cast<double>(limit);
  if (at_least > static_cast<double>(options.budget) - 1.0) refuse("at least " + core::format_shortest(at_least) + " mappings (whatever the machine's symmetries)");
  std::vector<Permutation> group = symmetries(machine, limit);
  Exhaustive result;
  result.symmetries = static_cast<long>(group.size());
  // Burnside: the orbits are the mean over g of the mappings g fixes, (sites g fixes)^players.
  double orbits = 0.0;
  for (const auto& g : group) {
    double fixed = 0.0;
    for (std::size_t s = 0; s < g.size(); ++s) fixed += g[s] == static_cast<int>(s) ? 1.0 : 0.0;
    orbits += std::pow(fixed, static_cast<double>(players));
  }
  result.mappings = orbits / static_cast<double>(group.size());
  if (result.mappings > static_cast<double>(options.budget) - 1.0)
    refuse(core::format_shortest(result.mappings) + " mappings (after " + std::to_string(group.size()) + " symmetries of the machine)");
  std::erase_if(group, [](const Permutation& g) { return std::is_sorted(g.begin(), g.end()); });  // the identity prunes nothing
  // Blocks: the canonical prefixes of the first players, each walked to the end on one thread, in order.
  const std::size_t depth = std::min<std::size_t>(players, machine.sites >= 8 ? 2 : 3);
  Walk prefixes{group, machine.sites, players, std::vector<int>(players, 0)};
  std::vector<std::pair<std::vector<int>, std::vector<char>>> blocks;
  prefixes.walk(0, depth, std::vector<char>(group.size(), 1), [&](const std::vector<char>& equal) { blocks.emplace_back(prefixes.prefix, equal); });
  Progress progress{options};
  run_candidates(
      options, static_cast<int>(blocks.size()),
      [&](int block) {
        Walk walk{group, machine.sites, players, blocks[static_cast<std::size_t>(block)].first};
        Found best;
        walk.walk(depth, players, blocks[static_cast<std::size_t>(block)].second, [&](const std::vector<char>&) {
          ++best.simulations;
          keep_better(best, walk.prefix, space.time(walk.prefix));
        });
        return best;
      },
      [&](int, Found&& found) {
        result.found.simulations += found.simulations;
        progress.add(found.simulations);
        keep_better(result.found, found.sites, found.time);
      });
  return result;
}

}  // namespace augur::sim::actors
