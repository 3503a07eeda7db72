// The pruned method's error against its beam K (issue 22): bench_tspp_accuracy's random systems in its
// exponential regimes, each predicted by the pruned pass at every K asked, against the reference kept in
// the benchmark's reference file (the exact chain where it fits in --exact-states states, else the
// simulator). With --hybrid the hybrid method too, and the figures split by the hybrid's part: "exact"
// (its chain fits) or past it. Relative error of the mean completion time: mean / std / max of its absolute
// value (bias), CPU seconds per system (mean / max). Prints figures; never fails.
// Usage: bench_tspp_pruned_beam --references FILE [--systems N] [--replications R] [--seed S] [--exact-states N]
//                               [--beams K1,K2,...] [--regimes 1,2,3,4] [--hybrid] [--each] [--past-beam] [--rule]
// --rule: the pruned pass with the hybrid's beam ("pruned K=rule") instead of the list.
// --past-beam: only the systems whose hybrid beam (hybrid_pruned_work / (levels x tasks)) is below
// hybrid_pruned_min_beam: the ones the hybrid's pruned pass does not take.
//                               [--past-beam]
// --past-beam: only the systems whose hybrid beam (hybrid_pruned_work / (levels x tasks)) is below
// hybrid_pruned_min_beam, the systems the hybrid's pruned pass does not take.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "augur/tspp_predictor.hpp"
#include "bench_arguments.hpp"
#include "tspp_accuracy_references.hpp"
#include "tspp_accuracy_report.hpp"

namespace {

struct Settings {
  int systems = 100;
  int replications = 1000;
  unsigned long long seed = 1;
  long exact_states = 200000;
  std::string references;
  std::vector<std::size_t> beams = {100, 1000, 10000};
  std::string regimes = "1,2,3,4";
  bool hybrid = false;
  bool each = false;
  bool past_beam = false;
  bool rule = false;
};

long positive(const char* value, const char* name) { return bench::positive_option("bench_tspp_pruned_beam", value, name); }

Settings parse_settings(int argc, char** argv) {
  const char* usage =
      "usage: bench_tspp_pruned_beam --references FILE [--systems N] [--replications R] [--seed S] [--exact-states N] "
      "[--beams K1,K2,...] [--regimes 1,2,3,4] [--hybrid] [--each] [--past-beam] [--rule]";
  augur::bench::check_arguments(argc, argv, usage,
                                {"--references F", "--systems N", "--replications R", "--seed S", "--exact-states N", "--beams K",
                                 "--regimes R", "--hybrid", "--each", "--past-beam", "--rule"});
  Settings settings;
  for (int index = 1; index < argc; ++index) {
    const std::string option = argv[index];
    if (option == "--hybrid") settings.hybrid = true;
    else if (option == "--each") settings.each = true;
    else if (option == "--past-beam") settings.past_beam = true;
    else if (option == "--rule") settings.rule = true;
    else if (option == "--references") settings.references = argv[++index];
    else if (option == "--systems") settings.systems = static_cast<int>(positive(argv[++index], "--systems"));
    else if (option == "--replications") settings.replications = static_cast<int>(positive(argv[++index], "--replications"));
    else if (option == "--seed") settings.seed = static_cast<unsigned long long>(positive(argv[++index], "--seed"));
    else if (option == "--exact-states") settings.exact_states = positive(argv[++index], "--exact-states");
    else if (option == "--regimes") settings.regimes = argv[++index];
    else if (option == "--beams") {
      settings.beams.clear();
      std::istringstream list(argv[++index]);
      for (std::string beam; std::getline(list, beam, ',');) settings.beams.push_back(static_cast<std::size_t>(positive(beam.c_str(), "--beams")));
    }
  }
  if (settings.references.empty()) {
    std::fprintf(stderr, "%s\n", usage);
    std::exit(2);
  }
  return settings;
}

// The hybrid's beam for a system: hybrid_pruned_work / (levels x tasks), levels = V x (resources used) summed.
double hybrid_beam(const augur::tspp::TaskSystem& system, int visits) {
  double levels = 0.0;
  for (const auto& task : system.tasks) {
    for (double demand : task.demands) levels += demand > 0.0 ? visits : 0;
  }
  return augur::tspp::hybrid_pruned_work / std::max(1.0, levels * static_cast<double>(system.tasks.size()));
}

double cpu_seconds() { return static_cast<double>(std::clock()) / CLOCKS_PER_SEC; }

// Errors and CPU seconds of one method on one group of systems.
struct Tally {
  std::vector<double> errors, seconds;
  void add(double error, double cpu) {
    errors.push_back(error);
    seconds.push_back(cpu);
  }
  [[nodiscard]] std::string render() const {
    if (errors.empty()) return "-";
    double sum = 0.0, bias = 0.0, worst = 0.0, cpu = 0.0, cpu_max = 0.0;
    for (double e : errors) sum += std::fabs(e), bias += e, worst = std::max(worst, std::fabs(e));
    for (double s : seconds) cpu += s, cpu_max = std::max(cpu_max, s);
    const double n = static_cast<double>(errors.size());
    const double mean = sum / n;
    double square = 0.0;
    for (double e : errors) square += (std::fabs(e) - mean) * (std::fabs(e) - mean);
    char line[200];
    std::snprintf(line, sizeof line, "n=%zu  %.2f%% / %.2f%% / %.2f%% (%+.2f%%)  cpu %.3f / %.3f s", errors.size(), 100 * mean,
                  100 * std::sqrt(square / n), 100 * worst, 100 * bias / n, cpu / n, cpu_max);
    return line;
  }
};

}  // namespace

int main(int argc, char** argv) {
  const Settings settings = parse_settings(argc, argv);
  const bench::ReferenceFile kept(settings.references, settings.seed, settings.replications, settings.exact_states);
  const std::vector<bench::Regime> regimes = bench::regimes();
  std::map<std::string, Tally> tallies;  // "regime | group | method"
  std::mt19937_64 random(settings.seed);
  for (int index = 0; index < settings.systems; ++index) {
    const auto system = bench::next_system(random);
    for (std::size_t r = 0; r < regimes.size(); ++r) {
      if (("," + settings.regimes + ",").find("," + std::to_string(r + 1) + ",") == std::string::npos) continue;
      if (regimes[r].service != augur::sim::ServiceDistribution::Exponential) continue;
      const auto truth = kept.find(index, static_cast<int>(r) + 1);
      if (!truth) continue;  // not in the file: bench_tspp_accuracy --only none computes it
      const double beam_rule = hybrid_beam(system, regimes[r].visits);
      if (settings.past_beam && beam_rule >= static_cast<double>(augur::tspp::hybrid_pruned_min_beam)) continue;
      if (settings.past_beam) std::printf("system %d %s: %zu tasks, hybrid beam %.1f\n", index, regimes[r].name, system.tasks.size(), beam_rule);
      const bench::Method pruned{"pruned", augur::tspp::Method::Pruned, augur::tspp::ResidenceDistribution::Exponential, true};
      std::string group = truth->exact ? "exact reference" : "simulated reference";
      std::string prefix = std::string(regimes[r].name) + " | ";
      if (settings.hybrid) {
        const bench::Method hybrid{"hybrid", augur::tspp::Method::Hybrid, augur::tspp::ResidenceDistribution::Exponential, true};
        const double begin = cpu_seconds();
        const auto prediction = augur::tspp::predict(system, hybrid.options(regimes[r]));
        const double error = (prediction.completion.mean - truth->completion) / truth->completion;
        group = prediction.part == "exact" ? "hybrid exact" : "past the hybrid's chain";
        tallies[prefix + group + " | hybrid"].add(error, cpu_seconds() - begin);
        if (settings.each) std::printf("system %d %s: hybrid %s %+.2f%%\n", index, regimes[r].name, prediction.part.c_str(), 100 * error);
      }
      std::vector<std::size_t> beams = settings.rule ? std::vector<std::size_t>{} : settings.beams;
      const std::size_t rule_beam = static_cast<std::size_t>(std::clamp(beam_rule, 1.0, static_cast<double>(augur::tspp::default_pruned_beam)));
      if (settings.rule) beams.push_back(rule_beam);
      for (std::size_t b = 0; b < beams.size(); ++b) {
        const std::size_t beam = beams[b];
        const bool by_rule = settings.rule && b + 1 == beams.size();
        augur::tspp::PredictorOptions predictor = pruned.options(regimes[r]);
        predictor.beam = beam;
        const double begin = cpu_seconds();
        const auto prediction = augur::tspp::predict(system, predictor);
        const double cpu = cpu_seconds() - begin;
        const double error = (prediction.completion.mean - truth->completion) / truth->completion;
        char name[40];
        if (by_rule) std::snprintf(name, sizeof name, "pruned K=rule");
        else std::snprintf(name, sizeof name, "pruned K=%zu", beam);
        tallies[prefix + group + " | " + name].add(error, cpu);
        if (settings.each) {
          std::printf("system %d %s (%zu tasks): %s %+.2f%% dropped %.3g cpu %.2f s\n", index, regimes[r].name, system.tasks.size(), name,
                      100 * error, prediction.dropped, cpu);
          std::fflush(stdout);
        }
      }
    }
    if ((index + 1) % 10 == 0) std::fprintf(stderr, "bench_tspp_pruned_beam: %d/%d systems\n", index + 1, settings.systems);
  }
  for (const auto& [key, tally] : tallies) std::printf("%s: %s\n", key.c_str(), tally.render().c_str());
  return 0;
}
