// Post-game analysis (tune.hpp): the heuristics' proposals (tune_heuristics.cpp, tune_exchange.cpp), their
// resolution into a new mapping, the iteration, and the perturbations when no proposal is faster.
#include "sim/actors/tune.hpp"

#include <algorithm>
#include <cstdint>
#include <map>
#include <set>
#include <string>

#include "augur/sim/engine.hpp"
#include "sim/actors/search.hpp"
#include "sim/actors/tune_heuristics.hpp"

namespace augur::sim::actors {
namespace {

// One proposal per player and per site (as source or destination), in the order given.
std::vector<const Proposal*> resolve(const std::vector<const Proposal*>& proposals) {
  std::vector<const Proposal*> chosen;
  std::set<std::string> players;
  std::set<int> sites;
  for (const Proposal* proposal : proposals) {
    const bool conflicts = std::any_of(proposal->moves.begin(), proposal->moves.end(), [&](const Move& move) {
      return players.count(move.name) != 0 || sites.count(move.from) != 0 || sites.count(move.to) != 0;
    });
    if (conflicts) continue;
    for (const auto& move : proposal->moves) {
      players.insert(move.name);
      sites.insert(move.from);
      sites.insert(move.to);
    }
    chosen.push_back(proposal);
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

std::vector<Move> moves_of(const std::vector<const Proposal*>& proposals) {
  std::vector<Move> moves;
  for (const Proposal* proposal : proposals) moves.insert(moves.end(), proposal->moves.begin(), proposal->moves.end());
  return moves;
}

// Where an attempt sends its players, in order of their names.
std::vector<std::pair<std::string, int>> destinations(const std::vector<const Proposal*>& attempt) {
  std::vector<std::pair<std::string, int>> result;
  for (const Move& move : moves_of(attempt)) result.emplace_back(move.name, move.to);
  std::sort(result.begin(), result.end());
  return result;
}

bool share_a_player(const Proposal& a, const Proposal& b) {
  return std::any_of(a.moves.begin(), a.moves.end(), [&](const Move& x) {
    return std::any_of(b.moves.begin(), b.moves.end(), [&](const Move& y) { return x.name == y.name; });
  });
}

// The attempts of one iteration, in order of projected gain (weighed by the record of the heuristic so far,
// (kept + 1) / (proposed + 2), with options.weigh_by_record): the non-conflicting proposals together, then each of the best
// alone, then two of the best together, sharing no player (a move may pay only with another: two stages onto
// one fast site).
std::vector<std::vector<const Proposal*>> attempts_of(const std::vector<Proposal>& proposals, const TuneOptions& options,
                                                     const std::map<std::string, HeuristicCount>& record) {
  std::vector<const Proposal*> ordered;
  for (const auto& proposal : proposals) ordered.push_back(&proposal);
  if (options.weigh_by_record) {
    const auto weight = [&](const Proposal* proposal) {
      const auto found = record.find(proposal->heuristic);
      const HeuristicCount count = found == record.end() ? HeuristicCount{} : found->second;
      return proposal->projected_gain * static_cast<double>(count.kept + 1) / static_cast<double>(count.proposed + 2);
    };
    std::stable_sort(ordered.begin(), ordered.end(), [&](const Proposal* a, const Proposal* b) { return weight(a) > weight(b); });
  }
  std::vector<std::vector<const Proposal*>> attempts{resolve(ordered)};
  const std::size_t first_alone = attempts.front().size() == 1 ? 1 : 0;  // resolve() always takes the best
  for (std::size_t p = first_alone; p < ordered.size() && p < options.alternatives; ++p) attempts.push_back({ordered[p]});
  for (std::size_t a = 0; a < ordered.size() && a < options.paired; ++a)
    for (std::size_t b = a + 1; b < ordered.size() && b < options.paired; ++b)
      if (!share_a_player(*ordered[a], *ordered[b])) attempts.push_back({ordered[a], ordered[b]});
  return attempts;
}

// A perturbation of the best mapping: max(2, players / 8) players drawn from the stream (seed, 5000 + k),
// each to a site drawn among the others.
std::vector<Move> perturbation(const Machine& machine, const Simulation& best, std::uint64_t seed, int k) {
  RandomStream random(seed, 5000 + static_cast<std::uint64_t>(k));
  const auto players = static_cast<int>(best.players.size());
  std::vector<int> order(static_cast<std::size_t>(players));
  for (int p = 0; p < players; ++p) order[static_cast<std::size_t>(p)] = p;
  const int count = std::min(players, std::max(2, players / 8));
  const auto draw = [&](int below) { return std::min(below - 1, static_cast<int>(random.uniform() * below)); };
  std::vector<Move> moves;
  for (int i = 0; i < count; ++i) {
    std::swap(order[static_cast<std::size_t>(i)], order[static_cast<std::size_t>(i + draw(players - i))]);
    const int player = order[static_cast<std::size_t>(i)];
    const int other = draw(machine.sites - 1);
    const int from = best.players[static_cast<std::size_t>(player)].site;
    moves.push_back(tuning::make_move(best, player, other >= from ? other + 1 : other, "perturbation", 0.0));
  }
  return moves;
}

}  // namespace

std::vector<Proposal> propose(const Program& program, const Machine& machine, const Simulation& simulation) {
  const tuning::Statistics statistics(program, machine, simulation);
  std::vector<Proposal> proposals;
  tuning::communication(statistics, proposals);
  tuning::load(statistics, proposals);
  tuning::concurrency(statistics, proposals);
  tuning::creation(statistics, proposals);
  tuning::exchange(statistics, proposals);
  tuning::speed(statistics, proposals);
  tuning::chain(statistics, proposals);
  std::erase_if(proposals, [](const Proposal& proposal) {
    return proposal.projected_gain <= 0.0 || proposal.moves.empty() ||
           std::any_of(proposal.moves.begin(), proposal.moves.end(), [](const Move& move) { return move.from == move.to || move.to < 0; });
  });
  std::stable_sort(proposals.begin(), proposals.end(), [](const Proposal& a, const Proposal& b) { return a.projected_gain > b.projected_gain; });
  return proposals;
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
  refuse_initial_deadlock(current, "tune");
  Layout best_layout = layout;
  Simulation best = current;
  int perturbations = 0;
  for (int iteration = 0; iteration < options.maximum_iterations; ++iteration) {
    TuneIteration record;
    record.time = current.time;
    const std::vector<Proposal> proposals = propose(program, machine, current);
    record.proposals = static_cast<long>(proposals.size());
    const auto attempts = attempts_of(proposals, options, result.heuristics);
    for (const auto& proposal : proposals) result.heuristics[proposal.heuristic].proposed += static_cast<long>(proposal.moves.size());
    bool moved = false;
    std::set<std::vector<std::pair<std::string, int>>> tried;  // heuristics may propose the same moves
    for (const auto& attempt : attempts) {
      if (attempt.empty() || !tried.insert(destinations(attempt)).second) continue;
      Layout candidate = applied(program, layout, moves_of(attempt));
      Simulation next = simulate_mapping(candidate);
      if (next.deadlock.empty() && next.time < current.time) {
        moved = true;
        record.applied = moves_of(attempt);
        for (const Proposal* proposal : attempt) result.heuristics[proposal->heuristic].kept += static_cast<long>(proposal->moves.size());
        layout = std::move(candidate);
        current = std::move(next);
        break;
      }
    }
    if (moved && current.time < best.time) {
      best_layout = layout;
      best = current;
    }
    // No proposal is faster: perturb the best mapping so far and go on from there (a run that deadlocks is
    // not taken; the next perturbation is tried).
    while (!moved && perturbations < options.perturbations && machine.sites > 1 && !best.players.empty()) {
      std::vector<Move> kick = perturbation(machine, best, options.simulation.seed, perturbations++);
      Layout candidate = applied(program, best_layout, kick);
      Simulation next = simulate_mapping(candidate);
      if (!next.deadlock.empty()) continue;
      moved = true;
      result.heuristics["perturbation"].proposed += static_cast<long>(kick.size());
      result.heuristics["perturbation"].kept += static_cast<long>(kick.size());
      record.applied = std::move(kick);
      layout = std::move(candidate);
      current = std::move(next);
      if (current.time < best.time) {
        best_layout = layout;
        best = current;
      }
    }
    result.iterations.push_back(std::move(record));
    if (!moved) break;
  }
  if (result.iterations.empty() || !result.iterations.back().applied.empty()) result.iterations.push_back({current.time, 0, {}});
  result.time = best.time;
  result.mapping = std::move(best_layout.mapping);
  // Every created player by name, where the best run put it (those not moved followed the rule), so that
  // the mapping gives this time under `--mapping` too.
  for (std::size_t p = program.players.size(); p < best.players.size(); ++p) result.created.emplace_back(best.players[p].name, best.players[p].site);
  return result;
}

}  // namespace augur::sim::actors
