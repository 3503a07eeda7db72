// Accuracy of the TSPP predictor against the simulator (issue 3, section 4): random task systems
// (5 to 60 tasks, 2 to 6 resources), for several simulator regimes. Prints figures; never fails.
// Usage: bench_tspp_accuracy [--systems N] [--replications R] [--seed S] [--phases | --transient]
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "augur/core/stats.hpp"
#include "core/table.hpp"
#include "augur/sim/task_system.hpp"
#include "augur/tspp_predictor.hpp"

namespace {

struct Regime {
  const char* name;
  augur::sim::ServiceDistribution service;
  augur::sim::Discipline discipline;
  int visits;
};

struct Errors {
  std::vector<double> completion;
  std::vector<double> residence;
  std::vector<double> completion_signed;  // (predicted - simulated) / simulated
};

std::string summary(const std::vector<double>& values) {
  if (values.empty()) return "-";
  const double mean = augur::core::mean(values);
  double square = 0.0;
  for (double value : values) square += (value - mean) * (value - mean);
  const double deviation = values.size() > 1 ? std::sqrt(square / static_cast<double>(values.size() - 1)) : 0.0;
  const double maximum = *std::max_element(values.begin(), values.end());
  char text[96];
  std::snprintf(text, sizeof text, "%.1f%% / %.1f%% / %.1f%%", 100 * mean, 100 * deviation, 100 * maximum);
  return text;
}

long parse(const char* value, const char* name) {
  char* end = nullptr;
  const long parsed = std::strtol(value, &end, 10);
  if (*end != '\0' || parsed < 1) {
    std::fprintf(stderr, "bench_tspp_accuracy: %s must be a positive integer, got '%s'\n", name, value);
    std::exit(2);
  }
  return parsed;
}

}  // namespace

int main(int argc, char** argv) {
  int systems = 100;
  int replications = 2000;
  unsigned long long seed = 1;
  bool phases = false;
  bool transient = false;
  for (int index = 1; index < argc; index += 2) {
    const std::string option = argv[index];
    if (option == "--phases" || option == "--transient") {
      (option == "--phases" ? phases : transient) = true;
      --index;
      continue;
    }
    if (index + 1 >= argc) {
      std::fprintf(stderr, "usage: bench_tspp_accuracy [--systems N] [--replications R] [--seed S] [--phases | --transient]\n");
      return 2;
    }
    if (option == "--systems") systems = static_cast<int>(parse(argv[index + 1], "--systems"));
    else if (option == "--replications") replications = static_cast<int>(parse(argv[index + 1], "--replications"));
    else if (option == "--seed") seed = static_cast<unsigned long long>(parse(argv[index + 1], "--seed"));
    else {
      std::fprintf(stderr, "usage: bench_tspp_accuracy [--systems N] [--replications R] [--seed S] [--phases | --transient]\n");
      return 2;
    }
  }
  using augur::sim::Discipline;
  using augur::sim::ServiceDistribution;
  const std::vector<Regime> regimes = {
      {"exponential, PS, V=1", ServiceDistribution::Exponential, Discipline::ProcessorSharing, 1},
      {"exponential, FCFS, V=1", ServiceDistribution::Exponential, Discipline::FirstComeFirstServed, 1},
      {"exponential, PS, V=10", ServiceDistribution::Exponential, Discipline::ProcessorSharing, 10},
      {"exponential, FCFS, V=10", ServiceDistribution::Exponential, Discipline::FirstComeFirstServed, 10},
      {"deterministic, FCFS, V=1", ServiceDistribution::Deterministic, Discipline::FirstComeFirstServed, 1},
  };
  std::vector<Errors> errors(regimes.size());
  std::vector<int> iterations;
  std::mt19937_64 random(seed);
  std::printf("bench_tspp_accuracy: %d random systems (5-60 tasks, 2-6 resources, depth 2-5), %d replications each, "
              "residence times %s\n",
              systems, replications,
              transient ? "from the transient method (--transient), given each regime's visits and stages"
              : phases  ? "in phases (--phases)"
                        : "exponential (the seed's)");
  for (int index = 0; index < systems; ++index) {
    augur::tspp::GeneratorOptions options;
    options.tasks = std::uniform_int_distribution<int>(5, 60)(random);
    options.resources = std::uniform_int_distribution<int>(2, 6)(random);
    options.depth = std::uniform_int_distribution<int>(2, 5)(random);
    options.seed = random();
    const auto system = augur::tspp::generate_task_system(options);
    augur::tspp::PredictorOptions predictor;
    predictor.residence = phases ? augur::tspp::ResidenceDistribution::Phases : augur::tspp::ResidenceDistribution::Exponential;
    if (transient) predictor.method = augur::tspp::Method::Transient;
    augur::tspp::Prediction prediction = augur::tspp::predict(system, predictor);
    iterations.push_back(prediction.iterations);
    for (std::size_t r = 0; r < regimes.size(); ++r) {
      if (transient) {
        // The transient method models the visits and the service distribution: give it the regime's.
        predictor.visits = regimes[r].visits;
        predictor.stages = regimes[r].service == ServiceDistribution::Deterministic ? 10 : 1;
        prediction = augur::tspp::predict(system, predictor);
      }
      augur::sim::TaskSystemOptions simulation;
      simulation.replications = replications;
      simulation.seed = static_cast<std::uint64_t>(index) + 1;
      simulation.service = regimes[r].service;
      simulation.discipline = regimes[r].discipline;
      simulation.visits = regimes[r].visits;
      simulation.threads = 0;  // all the cores: the figures do not depend on the thread count
      const auto result = augur::sim::simulate(system, simulation);
      errors[r].completion_signed.push_back((prediction.completion.mean - result.completion.mean) / result.completion.mean);
      errors[r].completion.push_back(std::fabs(errors[r].completion_signed.back()));
      for (std::size_t i = 0; i < system.tasks.size(); ++i) {
        const double simulated = result.tasks[i].residence.mean;
        if (simulated > 0.0) errors[r].residence.push_back(std::fabs(prediction.tasks[i].residence.mean - simulated) / simulated);
      }
    }
    if ((index + 1) % 10 == 0) std::fprintf(stderr, "bench_tspp_accuracy: %d/%d systems\n", index + 1, systems);
  }
  augur::core::TextTable table({"simulator regime", "completion time error: mean / std / max", "bias",
                                "residence time error: mean / std / max"});
  for (std::size_t r = 0; r < regimes.size(); ++r) {
    char bias[32];
    std::snprintf(bias, sizeof bias, "%+.1f%%", 100 * augur::core::mean(errors[r].completion_signed));
    table.add_row({regimes[r].name, summary(errors[r].completion), bias, summary(errors[r].residence)});
  }
  std::printf("%s", table.render().c_str());
  std::vector<double> iteration_values(iterations.begin(), iterations.end());
  std::printf("predictor iterations%s: mean %.1f, max %.0f (the seed: 5 on average, 12 at most)\n",
              transient ? " (V = 1, on the finest grid)" : "",
              augur::core::mean(iteration_values), *std::max_element(iteration_values.begin(), iteration_values.end()));
  std::printf("error = |predicted - simulated| / simulated, over the systems (completion) or all their tasks (residence); "
              "bias: the mean of the signed completion time errors\n");
  return 0;
}
