// Accuracy of the TSPP methods (issue 22): random task systems (5 to 60 tasks, 2 to 6 resources) in five
// regimes, each method's completion time against a reference: the exact method where its chain fits
// (exponential service, at most --exact-states states), the simulator otherwise. Errors over all the
// systems, and by bands of the busiest resource's utilization (from the reference's completion time).
// Prints figures; never fails. --references FILE keeps the references in FILE (tspp_accuracy_references.hpp:
// the format), computed the first time and read afterwards; --only none computes the references alone.
// Usage: bench_tspp_accuracy [--systems N] [--replications R] [--seed S] [--exact-states N] [--only METHOD]
//                            [--regimes 1,2,...] [--references FILE]
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "augur/sim/task_system.hpp"
#include "augur/tspp_predictor.hpp"
#include "bench_arguments.hpp"
#include "tspp/predictor_steps.hpp"
#include "tspp_accuracy_references.hpp"
#include "tspp_accuracy_report.hpp"

namespace {

using augur::sim::Discipline;
using augur::sim::ServiceDistribution;

long parse(const char* value, const char* name) { return bench::positive_option("bench_tspp_accuracy", value, name); }

struct Settings {
  int systems = 100;
  int replications = 2000;
  unsigned long long seed = 1;
  long exact_states = 200000;
  std::string only;     // one method by name (--only hybrid): the others are left out
  std::string regimes;  // --regimes 1,2: only these regimes (numbered from 1 in the order printed)
  std::string references;  // --references FILE: the references kept there
};

constexpr const char* usage_text =
    "usage: bench_tspp_accuracy [--systems N] [--replications R] [--seed S] [--exact-states N] [--only METHOD|none] [--regimes 1,2,...] [--references FILE]";

Settings parse_settings(int argc, char** argv) {
  augur::bench::check_arguments(argc, argv, usage_text,
                                {"--systems N", "--replications R", "--seed S", "--exact-states N", "--only M", "--regimes R", "--references F"});
  Settings settings;
  for (int index = 1; index < argc; index += 2) {
    const std::string option = index + 1 < argc ? argv[index] : "";
    if (option == "--systems") settings.systems = static_cast<int>(parse(argv[index + 1], "--systems"));
    else if (option == "--replications") settings.replications = static_cast<int>(parse(argv[index + 1], "--replications"));
    else if (option == "--seed") settings.seed = static_cast<unsigned long long>(parse(argv[index + 1], "--seed"));
    else if (option == "--exact-states") settings.exact_states = parse(argv[index + 1], "--exact-states");
    else if (option == "--only") settings.only = argv[index + 1];
    else if (option == "--regimes") settings.regimes = argv[index + 1];
    else if (option == "--references") settings.references = argv[index + 1];
    else {
      std::fprintf(stderr, "%s\n", usage_text);
      std::exit(2);
    }
  }
  return settings;
}

using bench::Reference;

Reference reference(const augur::tspp::TaskSystem& system, const bench::Regime& regime, const Settings& settings, int index) {
  if (regime.service == ServiceDistribution::Exponential) {
    augur::tspp::PredictorOptions options;
    options.method = augur::tspp::Method::Exact;
    options.visits = regime.visits;
    options.discipline = regime.discipline == Discipline::ProcessorSharing ? augur::tspp::Discipline::ProcessorSharing
                                                                          : augur::tspp::Discipline::FirstComeFirstServed;
    options.max_states = static_cast<std::size_t>(settings.exact_states);
    try {
      augur::tspp::Prediction prediction = augur::tspp::predict(system, options);
      return {prediction.completion.mean, true, std::move(prediction)};
    } catch (const std::invalid_argument&) {
      // past the limit: simulate
    }
  }
  augur::sim::TaskSystemOptions simulation;
  simulation.replications = settings.replications;
  simulation.seed = static_cast<std::uint64_t>(index) + 1;
  simulation.service = regime.service;
  simulation.discipline = regime.discipline;
  simulation.visits = regime.visits;
  simulation.threads = 0;  // all the cores: the figures do not depend on the thread count
  return {augur::sim::simulate(system, simulation).completion.mean, false, {}};
}

// The busiest resource's utilization: its total demand over the completion time (servers counted).
double busiest_utilization(const augur::tspp::TaskSystem& system, double completion) {
  double busiest = 0.0;
  for (std::size_t k = 0; k < system.resources.size(); ++k) {
    double work = 0.0;
    for (const auto& task : system.tasks) work += task.demands[k];
    const double servers = system.resources[k].kind == augur::tspp::Resource::Kind::Delay ? 1.0 : system.resources[k].servers;
    busiest = std::max(busiest, work / (servers * completion));
  }
  return busiest;
}

// The seed's step 2 alone, on the exact residence times: its error is the reduction's.
void locate_errors(const augur::tspp::TaskSystem& system, const Reference& truth, std::size_t regime, bench::Results& results) {
  std::vector<double> residence_at;
  for (const auto& task : truth.prediction.tasks) residence_at.insert(residence_at.end(), task.residence_at.begin(), task.residence_at.end());
  for (auto distribution : {augur::tspp::ResidenceDistribution::Exponential, augur::tspp::ResidenceDistribution::Phases}) {
    augur::tspp::PredictorOptions options;
    options.residence = distribution;
    const double completion = augur::tspp::reduce_with_residence_times(system, options, residence_at).mean;
    results.add_step2(regime, distribution == augur::tspp::ResidenceDistribution::Phases, (completion - truth.completion) / truth.completion);
  }
}

}  // namespace

int main(int argc, char** argv) {
  const Settings settings = parse_settings(argc, argv);
  std::vector<bench::Regime> regimes = bench::regimes();
  std::vector<int> numbers;  // each regime's number in bench::regimes(), from 1
  for (std::size_t r = 0; r < regimes.size(); ++r) numbers.push_back(static_cast<int>(r) + 1);
  if (!settings.regimes.empty()) {
    std::vector<bench::Regime> chosen;
    std::vector<int> chosen_numbers;
    for (std::size_t r = 0; r < regimes.size(); ++r) {
      if (("," + settings.regimes + ",").find("," + std::to_string(r + 1) + ",") != std::string::npos) {
        chosen.push_back(regimes[r]);
        chosen_numbers.push_back(numbers[r]);
      }
    }
    regimes = chosen;
    numbers = chosen_numbers;
  }
  bench::ReferenceFile kept;
  if (!settings.references.empty()) kept = bench::ReferenceFile(settings.references, settings.seed, settings.replications, settings.exact_states);
  std::vector<bench::Method> methods = bench::methods();
  if (settings.only == "none") {
    methods.clear();
  } else if (!settings.only.empty()) {
    std::erase_if(methods, [&settings](const bench::Method& method) { return settings.only != method.name; });
    if (methods.empty()) {
      std::fprintf(stderr, "bench_tspp_accuracy: --only: no method named '%s'\n", settings.only.c_str());
      return 2;
    }
  }
  bench::Results results(regimes.size(), methods.size());
  std::mt19937_64 random(settings.seed);
  std::printf("bench_tspp_accuracy: %d random systems (5-60 tasks, 2-6 resources, depth 2-5); reference: the exact method "
              "up to %ld states, else the simulator (%d replications)\n",
              settings.systems, settings.exact_states, settings.replications);
  if (kept.enabled()) std::printf("references kept in %s (%zu read)\n", settings.references.c_str(), kept.size());
  for (int index = 0; index < settings.systems; ++index) {
    const auto system = bench::next_system(random);
    for (std::size_t r = 0; r < regimes.size(); ++r) {
      std::optional<Reference> found = kept.find(index, numbers[r]);
      if (!found) {
        found = reference(system, regimes[r], settings, index);
        if (kept.enabled()) kept.add(index, numbers[r], *found);
      }
      const Reference& truth = *found;
      const double utilization = busiest_utilization(system, truth.completion);
      results.add_reference(r, truth.exact, utilization);
      for (std::size_t m = 0; m < methods.size(); ++m) {
        try {
          const auto prediction = augur::tspp::predict(system, methods[m].options(regimes[r]));
          results.add(r, m, (prediction.completion.mean - truth.completion) / truth.completion, utilization);
          if (!prediction.part.empty()) results.add_part(r, prediction.part, (prediction.completion.mean - truth.completion) / truth.completion);
          if (truth.exact) results.add_residences(r, m, prediction, truth.prediction);
        } catch (const std::invalid_argument&) {
          results.refuse(r, m);  // past the method's limit of size
        }
      }
      if (truth.exact) locate_errors(system, truth, r, results);
    }
    if ((index + 1) % 10 == 0) std::fprintf(stderr, "bench_tspp_accuracy: %d/%d systems\n", index + 1, settings.systems);
  }
  std::printf("%s", results.render(regimes, methods).c_str());
  return 0;
}
