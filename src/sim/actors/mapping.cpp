// Mappings of players to sites: by a rule, or from a mapping file (docs/formats.md, "Mappings").
#include <cmath>
#include <cstdlib>
#include <set>
#include <unordered_map>

#include "augur/sim/engine.hpp"
#include "sim/actors/simulate.hpp"

namespace augur::sim::actors {

Mapping initial_mapping(const Program& program, const Machine& machine, Placement rule, std::uint64_t seed) {
  Mapping mapping;
  mapping.created = rule;
  RandomStream random(seed, 1);
  for (std::size_t p = 0; p < program.players.size(); ++p) {
    switch (rule) {
      case Placement::RoundRobin: mapping.sites.push_back(static_cast<int>(p % static_cast<std::size_t>(machine.sites))); break;
      case Placement::Random: mapping.sites.push_back(std::min(machine.sites - 1, static_cast<int>(random.uniform() * machine.sites))); break;
      case Placement::OneSite:
      case Placement::Creator: mapping.sites.push_back(0); break;
    }
  }
  return mapping;
}

MappingFile read_mapping(const std::string& text, const std::string& file, const Program& program, const Machine& machine) {
  const core::SourceText source(file, text);
  std::unordered_map<std::string, int> players;
  for (std::size_t p = 0; p < program.players.size(); ++p) players[program.players[p].name] = static_cast<int>(p);
  MappingFile result;
  result.mapping.sites.assign(program.players.size(), -1);
  std::set<std::string> named;
  for (std::size_t begin = 0; begin < text.size();) {
    std::size_t end = text.find('\n', begin);
    if (end == std::string::npos) end = text.size();
    std::size_t position = begin;
    std::vector<std::pair<std::string, std::size_t>> words;
    while (position < end) {
      while (position < end && (text[position] == ' ' || text[position] == '\t' || text[position] == '\r')) ++position;
      if (position >= end || text[position] == '#') break;
      const std::size_t start = position;
      while (position < end && text[position] != ' ' && text[position] != '\t' && text[position] != '\r' && text[position] != '#') ++position;
      words.emplace_back(text.substr(start, position - start), start);
    }
    begin = end + 1;
    if (words.empty()) continue;
    if (words.size() != 2) source.fail(words.size() < 2 ? words[0].second + words[0].first.size() : words[2].second, "expected 'PLAYER SITE'");
    const auto& [name, name_at] = words[0];
    char* stop = nullptr;
    const double site = std::strtod(words[1].first.c_str(), &stop);
    if (*stop != '\0' || site != std::floor(site) || site < 0 || site >= machine.sites)
      source.fail(words[1].second, "no site '" + words[1].first + "' (the machine's sites are 0 to " + std::to_string(machine.sites - 1) + ")");
    if (!named.insert(name).second) source.fail(name_at, "player '" + name + "' mapped twice");
    const auto found = players.find(name);
    if (found != players.end()) {
      result.mapping.sites[static_cast<std::size_t>(found->second)] = static_cast<int>(site);
    } else if (name.find('/') != std::string::npos) {
      result.created.emplace_back(name, static_cast<int>(site));
    } else {
      source.fail(name_at, "unknown player '" + name + "' (a created player is named by its creation path, e.g. root/left)");
    }
  }
  for (std::size_t p = 0; p < program.players.size(); ++p)
    if (result.mapping.sites[p] < 0) source.fail(text.size(), "player '" + program.players[p].name + "' has no site");
  return result;
}

}  // namespace augur::sim::actors
