// Searches over mappings (search.hpp): the space of players searched, random search, simulated annealing and
// the driver; exhaustive search is in search_exhaustive.cpp, greedy and clustering in search_constructive.cpp.
#include "sim/actors/search.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <stdexcept>

#include "augur/sim/engine.hpp"
#include "sim/actors/search_space.hpp"

namespace augur::sim::actors {

Simulation simulate_layout(const Program& program, const Machine& machine, const Layout& layout, SimulationOptions options) {
  options.created_sites = layout.created;
  return simulate(program, machine, layout.mapping, options);
}

Layout SearchSpace::layout(const std::vector<int>& sites) const {
  Layout result;
  const std::size_t statics = program.players.size();
  result.mapping.sites.assign(sites.begin(), sites.begin() + static_cast<std::ptrdiff_t>(statics));
  result.mapping.created = Placement::Creator;
  for (std::size_t c = 0; c < created.size(); ++c) result.created.emplace_back(created[c], sites[statics + c]);
  return result;
}

double SearchSpace::time(const std::vector<int>& sites) const {
  if (interruption) interruption();
  const Simulation run = simulate_layout(program, machine, layout(sites), options);
  return run.deadlock.empty() ? run.time : never;
}

// Found as bytes: the time (8 bytes), the simulations (8), then the sites (4 each).
std::string encode_found(const Found& found) {
  const auto simulations = static_cast<std::int64_t>(found.simulations);
  std::string bytes(sizeof found.time + sizeof simulations + found.sites.size() * sizeof(std::int32_t), '\0');
  std::memcpy(bytes.data(), &found.time, sizeof found.time);
  std::memcpy(bytes.data() + sizeof found.time, &simulations, sizeof simulations);
  for (std::size_t p = 0; p < found.sites.size(); ++p) {
    const auto site = static_cast<std::int32_t>(found.sites[p]);
    std::memcpy(bytes.data() + sizeof found.time + sizeof simulations + p * sizeof site, &site, sizeof site);
  }
  return bytes;
}

Found decode_found(const std::string& bytes) {
  Found found;
  std::int64_t simulations = 0;
  constexpr std::size_t header = sizeof found.time + sizeof simulations;
  if (bytes.size() < header || (bytes.size() - header) % sizeof(std::int32_t) != 0) throw std::runtime_error("a search result came back damaged");
  std::memcpy(&found.time, bytes.data(), sizeof found.time);
  std::memcpy(&simulations, bytes.data() + sizeof found.time, sizeof simulations);
  found.simulations = static_cast<long>(simulations);
  found.sites.resize((bytes.size() - header) / sizeof(std::int32_t));
  for (std::size_t p = 0; p < found.sites.size(); ++p) {
    std::int32_t site = 0;
    std::memcpy(&site, bytes.data() + header + p * sizeof site, sizeof site);
    found.sites[p] = site;
  }
  return found;
}

void refuse_initial_deadlock(const Simulation& run, const char* what) {
  if (run.deadlock.empty()) return;
  throw std::runtime_error("the program deadlocks under the initial mapping ('" + run.players[static_cast<std::size_t>(run.deadlock.front().player)].name +
                           "' waits for '" + run.deadlock.front().kind + "' at " + run.deadlock.front().where + "): nothing to " + what);
}

namespace {

SearchSpace make_space(const Program& program, const Machine& machine, const Layout& initial, const SimulationOptions& options) {
  SearchSpace space{program, machine, options, {}, {}, {}, {}};
  space.options.created_sites.clear();
  space.profile = simulate_layout(program, machine, initial, space.options);
  refuse_initial_deadlock(space.profile, "search");
  for (std::size_t p = 0; p < space.profile.players.size(); ++p) {
    if (p >= program.players.size()) space.created.push_back(space.profile.players[p].name);
    space.initial.push_back(space.profile.players[p].site);
  }
  return space;
}

int random_site(RandomStream& random, int sites) { return std::min(sites - 1, static_cast<int>(random.uniform() * sites)); }

// Random search: the initial layout, then budget - 1 uniform layouts, candidate i from the stream (seed, 1000 + i).
Found search_random(const SearchSpace& space, const SearchOptions& options) {
  Found best{space.initial, space.profile.time, 0};
  const int count = static_cast<int>(std::max(0L, options.budget - 1));
  const std::size_t players = space.players();
  Progress progress{options};
  run_candidates(
      options, count,
      [&](int index) {
        RandomStream random(space.options.seed, 1000 + static_cast<std::uint64_t>(index));
        std::vector<int> sites(players);
        for (auto& site : sites) site = random_site(random, space.machine.sites);
        const double time = space.time(sites);
        return Found{std::move(sites), time, 1};
      },
      [&](int, Found&& candidate) {
        ++best.simulations;
        progress.add(1);
        keep_better(best, candidate.sites, candidate.time);
      });
  return best;
}

// A neighbour: half the time two players on different sites swap sites, else one player moves to another site.
void perturb(std::vector<int>& sites, int machine_sites, RandomStream& random) {
  const auto players = static_cast<int>(sites.size());
  const auto pick = [&] { return std::min(players - 1, static_cast<int>(random.uniform() * players)); };
  const int a = pick();
  if (random.uniform() < 0.5) {
    const int b = pick();
    if (sites[static_cast<std::size_t>(a)] != sites[static_cast<std::size_t>(b)]) {
      std::swap(sites[static_cast<std::size_t>(a)], sites[static_cast<std::size_t>(b)]);
      return;
    }
  }
  const int other = std::min(machine_sites - 2, static_cast<int>(random.uniform() * (machine_sites - 1)));
  auto& site = sites[static_cast<std::size_t>(a)];
  site = other >= site ? other + 1 : other;
}

// One chain of simulated annealing from the initial layout, `steps` simulations. Schedule: geometric cooling
// from T0 = 5% of the initial time to 0.05% at the last step, T_k = T0 (T_end / T0)^(k / (steps - 1));
// a worse neighbour (by d) is accepted with probability exp(-d / T_k) (Metropolis).
Found anneal(const SearchSpace& space, long steps, std::uint64_t stream) {
  RandomStream random(space.options.seed, stream);
  Found best{space.initial, space.profile.time, 0};
  std::vector<int> current = space.initial;
  double current_time = space.profile.time;
  const double start = 0.05 * space.profile.time;
  const double end = 0.0005 * space.profile.time;
  const double cooling = steps > 1 ? std::pow(end / start, 1.0 / static_cast<double>(steps - 1)) : 1.0;
  double temperature = start;
  for (long step = 0; step < steps; ++step, temperature *= cooling) {
    std::vector<int> candidate = current;
    perturb(candidate, space.machine.sites, random);
    const double time = space.time(candidate);
    ++best.simulations;
    const double draw = random.uniform();  // drawn at every step, so that the stream does not depend on the times
    const bool accept = time < current_time || (time < never && temperature > 0 && draw < std::exp(-(time - current_time) / temperature));
    keep_better(best, candidate, time);
    if (accept) {
      current = std::move(candidate);
      current_time = time;
    }
  }
  return best;
}

Found search_annealing(const SearchSpace& space, const SearchOptions& options) {
  const long steps = std::max(0L, options.budget - 1);
  const int chains = static_cast<int>(std::max(1L, std::min<long>(options.chains, steps)));
  Found best{space.initial, space.profile.time, 0};
  Progress progress{options};
  run_candidates(
      options, chains,
      [&](int chain) { return anneal(space, steps / chains + (chain < steps % chains ? 1 : 0), 100 + static_cast<std::uint64_t>(chain)); },
      [&](int, Found&& found) {
        best.simulations += found.simulations;
        progress.add(found.simulations);
        keep_better(best, found.sites, found.time);
      });
  return best;
}

}  // namespace

SearchResult search(const Program& program, const Machine& machine, const Layout& initial, const SearchOptions& options) {
  SearchSpace space = make_space(program, machine, initial, options.simulation);
  space.interruption = options.interruption;
  SearchResult result;
  result.initial_time = space.profile.time;
  result.static_players = static_cast<long>(program.players.size());
  result.created_players = static_cast<long>(space.created.size());
  Found found;
  if (machine.sites < 2 || space.players() == 0) {
    found = {space.initial, space.profile.time, 0};  // one mapping only
  } else {
    switch (options.method) {
      case SearchMethod::Exhaustive: {
        Exhaustive exhaustive = search_exhaustive(space, options);
        found = std::move(exhaustive.found);
        result.symmetries = exhaustive.symmetries;
        result.mappings = exhaustive.mappings;
        break;
      }
      case SearchMethod::Annealing: found = search_annealing(space, options); break;
      case SearchMethod::Random: found = search_random(space, options); break;
      case SearchMethod::Greedy: {
        found.sites = greedy_sites(space);
        found.time = space.time(found.sites);
        found.simulations = 1;
        break;
      }
      case SearchMethod::Clustering: found = search_clustering(space, options); break;
    }
  }
  if (!(found.time < never)) found = {space.initial, space.profile.time, found.simulations};
  result.best = space.layout(found.sites);
  result.time = found.time;
  result.simulations = 1 + found.simulations;
  return result;
}

Layout greedy_layout(const Program& program, const Machine& machine, const Layout& initial, const SimulationOptions& options) {
  const SearchSpace space = make_space(program, machine, initial, options);
  return space.layout(greedy_sites(space));
}

}  // namespace augur::sim::actors
