// augur actors search PROGRAM --machine M --method exhaustive|annealing|random|greedy|clustering [--budget N]
// [--threads T] [--mapping FILE | --initial RULE] [--write-mapping FILE] [--seed S] [--set k=v] [--json]
// (docs/actors.md): the baselines of post-game analysis; prints the best mapping found and its time.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <functional>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>

#include "actors_command.hpp"
#include "progress.hpp"
#include "augur/core/diagnostics.hpp"
#include "core/files.hpp"
#include "core/json_text.hpp"
#include "core/table.hpp"
#include "sim/actors/search.hpp"
#include "sim/parallel/ranks.hpp"
#include "flags.hpp"

namespace augur::cli {
namespace {

using core::format_number;
namespace actors = sim::actors;

const std::map<std::string, actors::SearchMethod> methods{{"exhaustive", actors::SearchMethod::Exhaustive},
                                                          {"annealing", actors::SearchMethod::Annealing},
                                                          {"random", actors::SearchMethod::Random},
                                                          {"greedy", actors::SearchMethod::Greedy},
                                                          {"clustering", actors::SearchMethod::Clustering}};

// Exhaustive search may simulate up to a million mappings unless told more; the others 1000 simulations.
long default_budget(const std::string& method) { return method == "exhaustive" ? 1000000 : 1000; }

std::string render_table(const ActorsOptions& cli, const ActorsInputs& inputs, const actors::SearchResult& result) {
  std::ostringstream out;
  out << "Search of " << cli.program << " on " << cli.machine << ": " << cli.method << " from " << (cli.mapping.empty() ? cli.initial : cli.mapping)
      << ", " << (result.static_players + result.created_players) << " players (" << result.static_players << " static, "
      << result.created_players << " created) on " << inputs.machine.sites << " sites\n";
  if (cli.method == "exhaustive")
    out << "The machine has " << result.symmetries << " symmetr" << (result.symmetries == 1 ? "y" : "ies") << ": "
        << core::format_shortest(result.mappings) << " mappings to simulate\n";
  out << "Best time " << format_number(result.time, 3) << " (from " << format_number(result.initial_time, 3) << "), "
      << result.simulations << " simulations\n\nMapping:\n"
      << mapping_text(inputs.program, result.best.mapping, result.best.created);
  return out.str();
}

std::string render_json(const ActorsOptions& cli, const ActorsInputs& inputs, const actors::SearchResult& result) {
  nlohmann::ordered_json json;
  json["method"] = cli.method;
  json["best_time"] = result.time;
  json["simulations"] = result.simulations;
  nlohmann::ordered_json mapping = nlohmann::ordered_json::object();
  for (std::size_t p = 0; p < result.best.mapping.sites.size(); ++p) mapping[inputs.program.players[p].name] = result.best.mapping.sites[p];
  for (const auto& [name, site] : result.best.created) mapping[name] = site;
  json["mapping"] = std::move(mapping);
  json["initial_time"] = result.initial_time;
  json["static_players"] = result.static_players;
  json["created_players"] = result.created_players;
  if (cli.method == "exhaustive") {
    json["symmetries"] = result.symmetries;
    json["mappings"] = result.mappings;
  }
  return core::json_text(json, 2) + "\n";
}

}  // namespace

std::shared_ptr<ActorsOptions> add_actors_search(CLI::App& command) {
  auto options = std::make_shared<ActorsOptions>();
  add_actors_inputs(command, *options);
  command.add_option("--method", options->method,
                     "exhaustive (every mapping, the machine's symmetries pruned), annealing, random, greedy (load balancing) or "
                     "clustering (communication)")
      ->required()
      ->check(CLI::IsMember({"exhaustive", "annealing", "random", "greedy", "clustering"}));
  command.add_option("--budget", options->budget,
                     "Simulations at most (default 1000; exhaustive: 1000000, and it refuses a larger space)")
      ->check(CLI::Range(1L, 1000000000L));
  add_threads_option(command, options->threads, "Threads to simulate on (0: the hardware's); the results do not depend on it", 0);
  command.add_option("--write-mapping", options->write_mapping, "Write the best mapping to this file (a mapping file, whole or not at all)")
      ->type_name("FILE");
  add_progress_flags(command, options->progress, options->quiet);
  command.footer("Under mpirun the candidates are shared among the ranks and rank 0 prints the same result (docs/actors.md, "
                 "\"Searches over MPI ranks\").");
  return options;
}

namespace {

// The search on this rank: every rank searches, its candidates shared among the ranks (each rank's block over
// its threads, every result to every rank, so that each goes on alike); rank 0 alone prints and writes.
int search_on(const ActorsOptions& cli, const sim::parallel::Ranks& ranks) {
  if (!cli.write_mapping.empty()) core::refuse_output_over_inputs(cli.write_mapping, {cli.program, cli.machine, cli.mapping});
  const ActorsInputs inputs = load_actors_inputs(cli);
  actors::SearchOptions options;
  options.method = methods.at(cli.method);
  options.budget = cli.budget > 0 ? cli.budget : default_budget(cli.method);
  options.threads = cli.threads;
  options.simulation = inputs.options;
  catch_interruptions();  // Ctrl-C: the threads stop before their next simulation; no output, no mapping written
  options.interruption = check_interrupted;
  if (ranks.size() > 1) {
    options.spread = [&ranks, threads = cli.threads](int count, const std::function<std::string(int)>& evaluate,
                                                     const std::function<void(int, const std::string&)>& collect) {
      sim::parallel::run_encoded_on_every_rank(ranks, count, threads, evaluate, collect);
    };
  }
  Progress progress("augur actors search", 0, "simulations", ranks.root() ? Progress::mode_for(cli.quiet, cli.progress) : Progress::Mode::off);
  options.progress = [&progress](long simulations) { progress.update(simulations); };
  const actors::Layout initial{inputs.mapping, inputs.options.created_sites};
  const actors::SearchResult result = actors::search(inputs.program, inputs.machine, initial, options);
  if (!ranks.root()) return 0;
  if (!cli.write_mapping.empty())
    core::write_file_atomically(cli.write_mapping, mapping_text(inputs.program, result.best.mapping, result.best.created));
  progress.clear();
  const std::string output = cli.json ? render_json(cli, inputs, result) : render_table(cli, inputs, result);
  std::fputs(output.c_str(), stdout);
  return 0;
}

}  // namespace

// Under mpirun every rank reads the inputs and searches; rank 0 alone reports errors and prints.
int run_actors_search(const ActorsOptions& cli) {
  std::unique_ptr<sim::parallel::Ranks> ranks;
  const int status = run_reporting_errors("search", [&] {
    ranks = std::make_unique<sim::parallel::Ranks>();
    return 0;
  });
  if (status != 0) return status;
  if (ranks->root()) return run_reporting_errors("search", [&] { return search_on(cli, *ranks); });
  try {
    return search_on(cli, *ranks);  // errors: rank 0 reports them
  } catch (const std::exception&) {
    return 1;
  }
}

}  // namespace augur::cli
