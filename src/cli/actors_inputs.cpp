// What the subcommands of augur actors share: their input options and the reading of the program, the
// machine and the mapping (actors_command.hpp).
#include <CLI/CLI.hpp>
#include <cstdio>

#include "actors_command.hpp"
#include "command.hpp"
#include "augur/core/diagnostics.hpp"
#include "augur/core/expression.hpp"
#include "core/files.hpp"
#include "core/json_text.hpp"
#include "sim/actors/search.hpp"
#include "flags.hpp"

namespace augur::cli {
namespace {

namespace actors = sim::actors;

std::map<std::string, double> parse_settings(const std::vector<std::string>& settings) {
  std::map<std::string, double> values;
  for (const std::string& setting : settings) {
    const std::size_t equals = setting.find('=');
    const std::string name = setting.substr(0, equals);
    if (equals == std::string::npos || !core::is_name(name))
      throw core::InputError({"--set", 0, 0}, "expected NAME=VALUE, found '" + setting + "'");
    const core::SourceText source("--set " + name, setting.substr(equals + 1));
    values[name] = core::evaluate(*core::parse_expression(source), {}, source);
  }
  return values;
}

actors::Placement placement_of(const std::string& rule) {
  if (rule == "random") return actors::Placement::Random;
  if (rule == "one-site") return actors::Placement::OneSite;
  return actors::Placement::RoundRobin;
}

}  // namespace

void add_actors_inputs(CLI::App& command, ActorsOptions& options) {
  command.add_option("PROGRAM", options.program, "The actor program (docs/formats.md, \"Actor programs\")")->required();
  command.add_option("--machine", options.machine, "The machine file (docs/formats.md, \"Machines\")")->required()->type_name("FILE");
  auto* mapping = command.add_option("--mapping", options.mapping, "A mapping file: PLAYER SITE a line (docs/formats.md, \"Mappings\")")->type_name("FILE");
  command.add_option("--initial", options.initial,
                     "The mapping by a rule: round-robin (default), random or one-site (created players follow it), or greedy (load "
                     "balancing from a round-robin run; created players placed by name)")
      ->check(CLI::IsMember({"round-robin", "random", "one-site", "greedy"}))
      ->excludes(mapping);
  command.add_option("--seed", options.seed, "Seed of the random streams (branches, random placement)")->default_val(1);
  command.add_option("--set", options.set, "Set a parameter of the program: NAME=VALUE (repeatable)")->type_name("NAME=VALUE");
  add_json_flag(command, options.json, "JSON instead of the tables");
}

int run_reporting_errors(const char* subcommand, const std::function<int()>& body) {
  try {
    return body();
  } catch (const std::exception& error) {
    return report_error(std::string("actors ") + subcommand, error);
  }
}

ActorsInputs load_actors_inputs(const ActorsOptions& cli) {
  ActorsInputs inputs{actors::parse_program(core::read_file(cli.program), cli.program, parse_settings(cli.set)),
                      actors::parse_machine(core::read_file(cli.machine), cli.machine), {}, {}};
  inputs.options.seed = cli.seed;
  if (!cli.mapping.empty()) {
    actors::MappingFile file = actors::read_mapping(core::read_file(cli.mapping), cli.mapping, inputs.program, inputs.machine);
    inputs.mapping = std::move(file.mapping);
    inputs.options.created_sites = std::move(file.created);
  } else if (cli.initial == "greedy") {
    const actors::Layout start{actors::initial_mapping(inputs.program, inputs.machine, actors::Placement::RoundRobin, cli.seed), {}};
    actors::Layout greedy = actors::greedy_layout(inputs.program, inputs.machine, start, inputs.options);
    inputs.mapping = std::move(greedy.mapping);
    inputs.options.created_sites = std::move(greedy.created);
  } else {
    inputs.mapping = actors::initial_mapping(inputs.program, inputs.machine, placement_of(cli.initial), cli.seed);
  }
  return inputs;
}

std::string mapping_text(const actors::Program& program, const actors::Mapping& mapping, const std::vector<std::pair<std::string, int>>& created) {
  std::string text;
  for (std::size_t p = 0; p < mapping.sites.size(); ++p) text += program.players[p].name + " " + std::to_string(mapping.sites[p]) + "\n";
  for (const auto& [name, site] : created) text += name + " " + std::to_string(site) + "\n";
  return text;
}

}  // namespace augur::cli
