// The regimes, the methods and the tables of bench_tspp_accuracy (tspp_accuracy.cpp).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "augur/core/stats.hpp"
#include "augur/sim/task_system.hpp"
#include "augur/tspp_predictor.hpp"
#include "core/table.hpp"

namespace bench {

// The benchmark's next random system: 5 to 60 tasks, 2 to 6 resources, nesting depth 2 to 5.
inline augur::tspp::TaskSystem next_system(std::mt19937_64& random) {
  augur::tspp::GeneratorOptions options;
  options.tasks = std::uniform_int_distribution<int>(5, 60)(random);
  options.resources = std::uniform_int_distribution<int>(2, 6)(random);
  options.depth = std::uniform_int_distribution<int>(2, 5)(random);
  options.seed = random();
  return augur::tspp::generate_task_system(options);
}

// A positive integer option's value; exits 2, naming the program and the option, on anything else.
inline long positive_option(const char* program, const char* value, const char* name) {
  char* end = nullptr;
  const long parsed = std::strtol(value, &end, 10);
  if (*end != '\0' || parsed < 1) {
    std::fprintf(stderr, "%s: %s must be a positive integer, got '%s'\n", program, name, value);
    std::exit(2);
  }
  return parsed;
}

struct Regime {
  const char* name;
  augur::sim::ServiceDistribution service;
  augur::sim::Discipline discipline;
  int visits;
};

inline std::vector<Regime> regimes() {
  using augur::sim::Discipline;
  using augur::sim::ServiceDistribution;
  return {
      {"exponential, PS, V=1", ServiceDistribution::Exponential, Discipline::ProcessorSharing, 1},
      {"exponential, FCFS, V=1", ServiceDistribution::Exponential, Discipline::FirstComeFirstServed, 1},
      {"exponential, PS, V=10", ServiceDistribution::Exponential, Discipline::ProcessorSharing, 10},
      {"exponential, FCFS, V=10", ServiceDistribution::Exponential, Discipline::FirstComeFirstServed, 10},
      {"deterministic, FCFS, V=1", ServiceDistribution::Deterministic, Discipline::FirstComeFirstServed, 1},
  };
}

// A method and how it is asked in a regime: the methods that model visits and service distributions are
// given the regime's (V, and 10 stages per visit for deterministic service); the seed's has no such inputs.
struct Method {
  const char* name;
  augur::tspp::Method method;
  augur::tspp::ResidenceDistribution residence = augur::tspp::ResidenceDistribution::Exponential;
  bool told_the_regime = false;

  [[nodiscard]] augur::tspp::PredictorOptions options(const Regime& regime) const {
    augur::tspp::PredictorOptions predictor;
    predictor.method = method;
    predictor.residence = residence;
    if (told_the_regime) {
      predictor.visits = regime.visits;
      predictor.stages = regime.service == augur::sim::ServiceDistribution::Deterministic ? 10 : 1;
      predictor.discipline = regime.discipline == augur::sim::Discipline::ProcessorSharing
                                 ? augur::tspp::Discipline::ProcessorSharing
                                 : augur::tspp::Discipline::FirstComeFirstServed;
    }
    return predictor;
  }
};

inline std::vector<Method> methods() {
  using augur::tspp::Method;
  using augur::tspp::ResidenceDistribution;
  return {{"seed's (mak-lundstrom)", Method::MakLundstrom, ResidenceDistribution::Exponential, false},
          {"seed's, --residence phases", Method::MakLundstrom, ResidenceDistribution::Phases, false},
          {"transient", Method::Transient, ResidenceDistribution::Exponential, true},
          {"decomposition", Method::Decomposition, ResidenceDistribution::Exponential, true},
          {"hybrid", Method::Hybrid, ResidenceDistribution::Exponential, true}};
}

// Bands of the busiest resource's utilization.
constexpr double band_edges[] = {0.0, 0.6, 0.8, 0.9, 1.0001};
constexpr std::size_t bands = 4;

inline std::size_t band_of(double utilization) {
  for (std::size_t b = 0; b + 1 < bands; ++b) {
    if (utilization < band_edges[b + 1]) return b;
  }
  return bands - 1;
}

inline std::string percent(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f%%", 100 * value);
  return text;
}

// mean / standard deviation / maximum of the absolute errors, and the mean of the signed ones.
inline std::string summary(const std::vector<double>& signed_errors) {
  if (signed_errors.empty()) return "-";
  std::vector<double> errors;
  for (double error : signed_errors) errors.push_back(std::fabs(error));
  const double mean = augur::core::mean(errors);
  double square = 0.0;
  for (double error : errors) square += (error - mean) * (error - mean);
  const double deviation = errors.size() > 1 ? std::sqrt(square / static_cast<double>(errors.size() - 1)) : 0.0;
  return percent(mean) + " / " + percent(deviation) + " / " + percent(*std::max_element(errors.begin(), errors.end())) +
         " (" + (augur::core::mean(signed_errors) >= 0 ? "+" : "") + percent(augur::core::mean(signed_errors)) + ")";
}

class Results {
public:
  Results(std::size_t regimes, std::size_t methods)
      : errors_(regimes, std::vector<std::vector<std::vector<double>>>(methods, std::vector<std::vector<double>>(bands + 1))),
        exact_(regimes, 0), simulated_(regimes, 0), in_band_(regimes, std::vector<int>(bands, 0)),
        refused_(regimes, std::vector<int>(methods, 0)) {}

  void refuse(std::size_t regime, std::size_t method) { refused_[regime][method] += 1; }

  // Step 1's share: each task's mean residence time against the exact one.
  void add_residences(std::size_t regime, std::size_t method, const augur::tspp::Prediction& predicted,
                      const augur::tspp::Prediction& exact) {
    if (residences_.empty()) residences_.assign(errors_.size(), std::vector<std::vector<double>>(errors_[0].size()));
    for (std::size_t i = 0; i < exact.tasks.size(); ++i) {
      const double truth = exact.tasks[i].residence.mean;
      if (truth > 0.0) residences_[regime][method].push_back((predicted.tasks[i].residence.mean - truth) / truth);
    }
  }

  // Step 2's share: the seed's reduction on the exact residence times (exponential or phases).
  void add_step2(std::size_t regime, bool phases, double error) {
    if (step2_.empty()) step2_.assign(errors_.size(), std::vector<std::vector<double>>(2));
    step2_[regime][phases ? 1 : 0].push_back(error);
  }

  // The signed error of a method that tells which part answered (the hybrid method's), by part.
  void add_part(std::size_t regime, const std::string& part, double error) {
    if (parts_.empty()) parts_.resize(errors_.size());
    parts_[regime][part].push_back(error);
  }

  void add_reference(std::size_t regime, bool exact, double utilization) {
    (exact ? exact_ : simulated_)[regime] += 1;
    in_band_[regime][band_of(utilization)] += 1;
  }

  // The signed relative error of a method's completion time in a regime.
  void add(std::size_t regime, std::size_t method, double error, double utilization) {
    errors_[regime][method][bands].push_back(error);
    errors_[regime][method][band_of(utilization)].push_back(error);
  }

  [[nodiscard]] std::string render(const std::vector<Regime>& regimes, const std::vector<Method>& methods) const {
    std::string out;
    for (std::size_t r = 0; r < regimes.size(); ++r) {
      std::vector<std::string> header = {"method", "refused", "all: mean / std / max (bias)"};
      for (std::size_t b = 0; b < bands; ++b) {
        char name[64];
        std::snprintf(name, sizeof name, "U %.1f-%.1f (%d systems)", band_edges[b], std::min(band_edges[b + 1], 1.0),
                      in_band_[r][b]);
        header.emplace_back(name);
      }
      augur::core::TextTable table(header);
      for (std::size_t m = 0; m < methods.size(); ++m) {
        std::vector<std::string> row = {methods[m].name, std::to_string(refused_[r][m]), summary(errors_[r][m][bands])};
        for (std::size_t b = 0; b < bands; ++b) row.push_back(summary(errors_[r][m][b]));
        table.add_row(row);
      }
      out += std::string("\n") + regimes[r].name + ": reference exact for " + std::to_string(exact_[r]) + " systems, simulated for " +
             std::to_string(simulated_[r]) + "\n" + table.render();
    }
    out += render_parts(regimes);
    out += render_sources(regimes, methods);
    out += "\nerror = (predicted - reference) / reference of the completion time: mean / std / max of its absolute value "
           "(the mean of the signed errors); U: the busiest resource's utilization, its demand over the reference's "
           "completion time\n";
    return out;
  }

private:
  [[nodiscard]] std::string render_parts(const std::vector<Regime>& regimes) const {
    if (parts_.empty()) return "";
    augur::core::TextTable table({"regime", "answered by", "systems", "mean / std / max (bias)"});
    for (std::size_t r = 0; r < regimes.size(); ++r) {
      for (const auto& [part, errors] : parts_[r]) table.add_row({regimes[r].name, part, std::to_string(errors.size()), summary(errors)});
    }
    return "\nThe hybrid method by the part that answered\n" + table.render();
  }

  [[nodiscard]] std::string render_sources(const std::vector<Regime>& regimes, const std::vector<Method>& methods) const {
    if (residences_.empty()) return "";
    std::string out = "\nWhere the errors come from, on the systems with an exact reference: step 1 (each task's mean residence "
                      "time against the exact one, over the tasks) and the seed's step 2 alone (its reduction on the exact "
                      "residence times: the completion time's error)\n";
    std::vector<std::string> header = {"what"};
    for (std::size_t r = 0; r < regimes.size(); ++r) {
      if (exact_[r] > 0) header.emplace_back(regimes[r].name);
    }
    augur::core::TextTable table(header);
    for (std::size_t m = 0; m < methods.size(); ++m) {
      std::vector<std::string> row = {std::string("residence times: ") + methods[m].name};
      for (std::size_t r = 0; r < regimes.size(); ++r) {
        if (exact_[r] > 0) row.push_back(summary(residences_[r][m]));
      }
      table.add_row(row);
    }
    for (std::size_t phases = 0; phases < 2; ++phases) {
      std::vector<std::string> row = {phases ? "seed's step 2 on exact residences, phases" : "seed's step 2 on exact residences"};
      for (std::size_t r = 0; r < regimes.size(); ++r) {
        if (exact_[r] > 0) row.push_back(summary(step2_[r][phases]));
      }
      table.add_row(row);
    }
    return out + table.render();
  }

  std::vector<std::map<std::string, std::vector<double>>> parts_;  // regime: part -> signed errors
  std::vector<std::vector<std::vector<double>>> residences_;  // regime, method: signed residence errors
  std::vector<std::vector<std::vector<double>>> step2_;       // regime, exponential / phases
  std::vector<std::vector<std::vector<std::vector<double>>>> errors_;  // regime, method, band (last: all)
  std::vector<int> exact_, simulated_;
  std::vector<std::vector<int>> in_band_;
  std::vector<std::vector<int>> refused_;  // regime, method: systems past the method's limit of size
};

}  // namespace bench
