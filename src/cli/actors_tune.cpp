// augur actors tune PROGRAM --machine M [--mapping FILE | --initial RULE] [--max-iterations N] [--perturbations N]
// [--write-mapping FILE] [--seed S] [--set k=v] [--json] (docs/actors.md): post-game analysis from the
// initial mapping; prints each iteration's time and the moves applied, the final mapping, the speedup.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>

#include "actors_command.hpp"
#include "flags.hpp"
#include "progress.hpp"
#include "augur/core/diagnostics.hpp"
#include "core/files.hpp"
#include "core/json_text.hpp"
#include "core/table.hpp"
#include "sim/actors/tune.hpp"
#include "sim/parallel/ranks.hpp"

namespace augur::cli {
namespace {

using core::format_number;
namespace actors = sim::actors;

std::string move_text(const actors::Move& move) {
  return move.name + " " + std::to_string(move.from) + "->" + std::to_string(move.to) +
         " (" + move.heuristic + ", gain " + format_number(move.projected_gain, 1) + ")";
}

std::string render_table(const ActorsOptions& cli, const ActorsInputs& inputs, const actors::TuneResult& result) {
  std::ostringstream out;
  out << "Post-game analysis of " << cli.program << " on " << cli.machine << " from " << (cli.mapping.empty() ? cli.initial : cli.mapping)
      << ": " << result.simulations << " simulations\n\n";
  core::TextTable iterations({"Iteration", "Time", "Proposals", "Moves applied"});
  for (std::size_t i = 0; i < result.iterations.size(); ++i) {
    const auto& iteration = result.iterations[i];
    std::string moves;
    for (const auto& move : iteration.applied) moves += (moves.empty() ? "" : "; ") + move_text(move);
    iterations.add_row({std::to_string(i), format_number(iteration.time, 3), std::to_string(iteration.proposals), moves.empty() ? "-" : moves});
  }
  out << iterations.render() << "\n";
  out << "Time " << format_number(result.time, 3) << " (from " << format_number(result.iterations.front().time, 3) << "), on one site "
      << format_number(result.one_site_time, 3) << ": speedup " << format_number(result.one_site_time / result.time, 3) << "\n";
  out << "Moves kept of those proposed:";
  for (const auto& [name, count] : result.heuristics) out << " " << name << " " << count.kept << "/" << count.proposed;
  out << "\n\nMapping:\n"
      << mapping_text(inputs.program, result.mapping, result.created);
  return out.str();
}

std::string render_json(const ActorsInputs& inputs, const actors::TuneResult& result) {
  nlohmann::ordered_json json;
  json["time"] = result.time;
  json["initial_time"] = result.iterations.front().time;
  json["one_site_time"] = result.one_site_time;
  json["speedup"] = result.one_site_time / result.time;
  json["simulations"] = result.simulations;
  nlohmann::ordered_json iterations = nlohmann::ordered_json::array();
  for (const auto& iteration : result.iterations) {
    nlohmann::ordered_json moves = nlohmann::ordered_json::array();
    for (const auto& move : iteration.applied) {
      moves.push_back({{"player", move.name}, {"from", move.from}, {"to", move.to},
                       {"heuristic", move.heuristic}, {"projected_gain", move.projected_gain}});
    }
    iterations.push_back({{"time", iteration.time}, {"proposals", iteration.proposals}, {"moves", std::move(moves)}});
  }
  json["iterations"] = std::move(iterations);
  nlohmann::ordered_json mapping = nlohmann::ordered_json::object();
  for (std::size_t p = 0; p < result.mapping.sites.size(); ++p) mapping[inputs.program.players[p].name] = result.mapping.sites[p];
  for (const auto& [name, site] : result.created) mapping[name] = site;
  json["mapping"] = std::move(mapping);
  nlohmann::ordered_json heuristics = nlohmann::ordered_json::object();
  for (const auto& [name, count] : result.heuristics) heuristics[name] = {{"proposed", count.proposed}, {"kept", count.kept}};
  json["heuristics"] = std::move(heuristics);
  return core::json_text(json, 2) + "\n";
}

}  // namespace

std::shared_ptr<ActorsOptions> add_actors_tune(CLI::App& command) {
  auto options = std::make_shared<ActorsOptions>();
  add_actors_inputs(command, *options);
  command.add_option("--max-iterations", options->maximum_iterations, "Iterations at most (default 40)")->check(CLI::Range(1, 10000));
  command.add_option("--perturbations", options->perturbations,
                     "When no proposal is faster, perturb the best mapping (a few players to random sites) and go on, this many times "
                     "at most (default 6; 0: stop there)")
      ->check(CLI::Range(0, 10000));
  command.add_option("--write-mapping", options->write_mapping, "Write the final mapping to this file (a mapping file, whole or not at all)")
      ->type_name("FILE");
  add_progress_flags(command, options->progress, options->quiet);
  return options;
}

// Under mpirun rank 0 alone tunes and prints: post-game analysis is one sequence of simulations, each
// depending on the last (docs/actors.md, "Searches over MPI ranks"); the other ranks only join MPI.
int run_actors_tune(const ActorsOptions& cli) {
  std::unique_ptr<sim::parallel::Ranks> ranks;
  const int status = run_reporting_errors("tune", [&] {
    ranks = std::make_unique<sim::parallel::Ranks>();
    return 0;
  });
  if (status != 0 || !ranks->root()) return status;
  return run_reporting_errors("tune", [&] {
    if (!cli.write_mapping.empty()) core::refuse_output_over_inputs(cli.write_mapping, {cli.program, cli.machine, cli.mapping});
    const ActorsInputs inputs = load_actors_inputs(cli);
    actors::TuneOptions options;
    options.maximum_iterations = cli.maximum_iterations;
    options.perturbations = cli.perturbations;
    options.simulation = inputs.options;
    catch_interruptions();  // Ctrl-C: stops before the next simulation; no output, no mapping written
    options.interruption = check_interrupted;
    // Iterations of at most --max-iterations: the ETA is for all of them (tune stops sooner when no move pays).
    Progress progress("augur actors tune", cli.maximum_iterations, "iterations", Progress::mode_for(cli.quiet, cli.progress));
    options.progress = [&progress](int iterations, int simulations) {
      progress.update(iterations, std::to_string(simulations) + (simulations == 1 ? " simulation" : " simulations"));
    };
    const actors::TuneResult result = actors::tune(inputs.program, inputs.machine, inputs.mapping, options);
    progress.clear();
    if (!cli.write_mapping.empty()) core::write_file_atomically(cli.write_mapping, mapping_text(inputs.program, result.mapping, result.created));
    const std::string output = cli.json ? render_json(inputs, result) : render_table(cli, inputs, result);
    std::fputs(output.c_str(), stdout);
    return 0;
  });
}

}  // namespace augur::cli
