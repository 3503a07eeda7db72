// Post-game analysis against the optimum (issue 18, seed 004 §3.4: "95% optimal speed-up", "96% ... in a
// few iterations", "outperforms ... random search"): for the shipped programs at several sizes on meshes and
// hypercubes, tune's time from round-robin, the optimum (exhaustive search where the space after the
// machine's symmetries fits in 60000 simulations, else the best of long annealing runs and of every method
// here), tune as a percentage of it (optimum time / tune's time = tune's speedup / the optimal speedup), its
// iterations, random search with tune's number of simulations (the median of 5 seeds), and the other
// baselines; then how often each heuristic's moves were kept. Prints figures; never fails.
// A case of 255 players on 64 sites too. Usage: bench_actors_tune [--quick | --large] (--quick: fewer cases,
// shorter annealing; --large: the 255 players alone). The environment may set tune's options for a comparison:
// ALTERNATIVES, ITERATIONS, PERTURBATIONS, WEIGH (0: proposals ranked by projected gain alone), and ONLY (the cases whose
// "program machine" contains it).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "sim/actors/search.hpp"
#include "sim/actors/tune.hpp"
#include "bench_arguments.hpp"

namespace {

namespace actors = augur::sim::actors;

std::string read(const std::string& name) {
  std::ifstream in(std::string(AUGUR_EXAMPLES_DIR) + "/actors/" + name);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

struct Case {
  std::string program;
  std::map<std::string, double> set;
  std::string machine;
  bool shape = true;  // a pipeline or divide and conquer: the 95% goal applies
  long annealing = 0; // the long annealing runs' budget when not the default
};

std::string label(const Case& c) {
  std::string text = c.program;
  for (const auto& [name, value] : c.set) text += " " + name + "=" + std::to_string(static_cast<long>(value));
  return text;
}

double process_seconds() { return static_cast<double>(std::clock()) / CLOCKS_PER_SEC; }

actors::SearchResult run(const actors::Program& program, const actors::Machine& machine, const actors::Layout& start, actors::SearchMethod method,
                         long budget, std::uint64_t seed) {
  actors::SearchOptions options;
  options.method = method;
  options.budget = budget;
  options.threads = 2;
  options.simulation.seed = seed;
  return actors::search(program, machine, start, options);
}

struct Row {
  double tune = 0, optimum = 0, random = 0, greedy = 0, clustering = 0, annealing = 0;
  int iterations = 0, simulations = 0;
  bool exhaustive = false;
};

Row measure(const Case& c, long annealing_budget, std::map<std::string, actors::HeuristicCount>& kept) {
  const actors::Program program = actors::parse_program(read(c.program + ".actors"), c.program, c.set);
  const actors::Machine machine = actors::parse_machine(read(c.machine + ".machine"), c.machine);
  const actors::Mapping round_robin = actors::initial_mapping(program, machine, actors::Placement::RoundRobin, 1);
  const actors::Layout start{round_robin, {}};
  Row row;
  actors::TuneOptions tune_options;
  if (const char* alternatives = std::getenv("ALTERNATIVES")) tune_options.alternatives = std::stoul(alternatives);
  if (const char* perturbations = std::getenv("PERTURBATIONS")) tune_options.perturbations = std::stoi(perturbations);
  if (const char* iterations = std::getenv("ITERATIONS")) tune_options.maximum_iterations = std::stoi(iterations);
  if (const char* weigh = std::getenv("WEIGH")) tune_options.weigh_by_record = std::strcmp(weigh, "0") != 0;
  const actors::TuneResult tuned = actors::tune(program, machine, round_robin, tune_options);
  for (const auto& [name, count] : tuned.heuristics) {
    kept[name].proposed += count.proposed;
    kept[name].kept += count.kept;
  }
  row.tune = tuned.time;
  row.iterations = static_cast<int>(tuned.iterations.size()) - 1;
  row.simulations = tuned.simulations;
  std::vector<double> randoms;
  for (std::uint64_t seed = 1; seed <= 5; ++seed) randoms.push_back(run(program, machine, start, actors::SearchMethod::Random, tuned.simulations, seed).time);
  std::sort(randoms.begin(), randoms.end());
  row.random = randoms[2];
  row.greedy = run(program, machine, start, actors::SearchMethod::Greedy, 2, 1).time;
  row.clustering = run(program, machine, start, actors::SearchMethod::Clustering, 100, 1).time;
  row.annealing = run(program, machine, start, actors::SearchMethod::Annealing, tuned.simulations, 1).time;
  try {
    row.optimum = run(program, machine, start, actors::SearchMethod::Exhaustive, 60000, 1).time;
    row.exhaustive = true;
  } catch (const std::runtime_error&) {
    row.optimum = std::min({row.tune, row.random, row.greedy, row.clustering, row.annealing});
    for (std::uint64_t seed = 1; seed <= 3; ++seed)
      row.optimum = std::min(row.optimum, run(program, machine, start, actors::SearchMethod::Annealing, c.annealing > 0 ? c.annealing : annealing_budget, seed).time);
  }
  return row;
}

}  // namespace

int main(int argc, char** argv) {
  augur::bench::check_arguments(argc, argv,
                                "usage: bench_actors_tune [--quick | --large]\n"
                                "Post-game analysis (tune) against the search baselines; --quick: fewer programs, --large: larger ones",
                                {"--quick", "--large"}, 0);
  const bool quick = argc > 1 && std::strcmp(argv[1], "--quick") == 0;
  const bool large = argc > 1 && std::strcmp(argv[1], "--large") == 0;
  std::vector<Case> cases;
  for (const char* machine : {"mesh2x2", "hypercube2", "mesh4x4", "hypercube3"}) {
    if (large) break;
    for (const double stages : {2.0, 4.0, 6.0}) cases.push_back({"pipeline", {{"stages", stages}}, machine});
    for (const double depth : {2.0, 3.0}) cases.push_back({"divide", {{"depth", depth}}, machine});
    if (quick) continue;
    cases.push_back({"farm", {}, machine, false});
    cases.push_back({"stencil", {{"n", 3}}, machine, false});
    cases.push_back({"irregular", {}, machine, false});
  }
  // 255 players on 64 sites (seed 004 §3.4: "experiments on a larger scale (with 200+ players)").
  cases.push_back({"divide", {{"depth", 7}, {"size", 12800}}, "mesh8x8", true, quick ? 500 : 4000});
  const long annealing_budget = quick ? 2000 : 20000;
  std::printf("Post-game analysis (tune, from round-robin) against the optimum; random search: median of 5 seeds with tune's simulations\n");
  std::printf("%-22s %-10s %9s %9s %3s %7s %5s %5s %9s %9s %9s %9s\n", "program", "machine", "tune", "optimum", "by", "%", "iter", "sims", "random",
              "annealing", "greedy", "cluster");
  std::map<std::string, actors::HeuristicCount> kept;
  double worst = 100.0;
  int ahead = 0;
  int measured = 0;
  const double started = process_seconds();
  const char* only = std::getenv("ONLY");
  for (const auto& c : cases) {
    if (only != nullptr && (label(c) + " " + c.machine).find(only) == std::string::npos) continue;
    const Row row = measure(c, annealing_budget, kept);
    const double percent = 100.0 * row.optimum / row.tune;
    if (c.shape) worst = std::min(worst, percent);
    ahead += row.tune <= row.random ? 1 : 0;
    ++measured;
    std::printf("%-22s %-10s %9.1f %9.1f %3s %7.1f %5d %5d %9.1f %9.1f %9.1f %9.1f\n", label(c).c_str(), c.machine.c_str(), row.tune, row.optimum,
                row.exhaustive ? "ex" : "an", percent, row.iterations, row.simulations, row.random, row.annealing, row.greedy, row.clustering);
    std::fflush(stdout);
  }
  std::printf("\nworst %% of optimum on pipelines and divide and conquer: %.1f; tune at least as fast as random search in %d of %d cases\n", worst,
              ahead, measured);
  std::printf("heuristic      proposed  kept\n");
  for (const auto& [name, count] : kept) std::printf("%-13s %9ld %5ld\n", name.c_str(), count.proposed, count.kept);
  std::printf("CPU time %.1f s (2 search threads)\n", process_seconds() - started);
  return 0;
}
