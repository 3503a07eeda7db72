// The manager's policies on the example workloads (docs/manager.md, "Figures"): for 16 to 256 processors,
// each policy's mean response time and makespan relative to equipartition's, simulated with
// `augur manager simulate`'s engine. Equipartition runs twice: with no multiprogramming limit and with the
// fixed level of 4 (PDPA, pdpa-lend, shortest-first, hesrpt-plan and the rollouts set their own). Then random open arrivals of the
// thesis's five applications (Poisson, several seeds), and at 64 processors the worst job of each policy
// (its response time and slowdown), learnt against the oracle, with noise, and with the self-analysis's
// baseline in the model. Prints Markdown tables; never fails.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <ctime>
#include <random>
#include <string>
#include <vector>

#include "augur/core/diagnostics.hpp"
#include "bench_arguments.hpp"
#include "core/files.hpp"
#include "manager/simulate.hpp"
#include "manager_workloads.hpp"

namespace {

using namespace augur;

struct Row {
  std::string label;
  manager::PolicyKind policy;
  int multiprogramming_level;
};

const std::vector<Row> rows{{"equipartition", manager::PolicyKind::equipartition, 0},
                            {"equipartition, level 4", manager::PolicyKind::equipartition, 4},
                            {"pdpa", manager::PolicyKind::pdpa, 0},
                            {"pdpa-lend", manager::PolicyKind::pdpa_lend, 0},
                            {"shortest-first", manager::PolicyKind::shortest_first, 0},
                            {"hesrpt-plan", manager::PolicyKind::hesrpt_plan, 0},
                            {"rollout", manager::PolicyKind::rollout, 0},
                            {"rollout-arrivals", manager::PolicyKind::rollout_arrivals, 0},
                            {"rollout-wide", manager::PolicyKind::rollout_wide, 0},
                            {"equal-efficiency", manager::PolicyKind::equal_efficiency, 0},
                            {"marginal-gain", manager::PolicyKind::marginal_gain, 0},
                            {"fixed, level 4", manager::PolicyKind::fixed, 4}};
const std::vector<int> machines{16, 32, 64, 128, 256};
constexpr int seeds = 5;
using bench::random_jobs;
using bench::random_load;
using bench::random_text;
using bench::random_workload;

manager::SimulationResult run(const manager::Workload& workload, int cpus, const Row& row, double noise = 0.0,
                              std::uint64_t seed = 1, bool oracle = false, bool self_analysis = false) {
  manager::SimulationOptions options;
  options.oracle = oracle;
  options.self_analysis = self_analysis;
  options.speedup_noise = noise;
  options.seed = seed;
  options.policy.policy = row.policy;
  options.policy.cpus = cpus;
  options.policy.multiprogramming_level = row.multiprogramming_level;
  return manager::simulate(workload, options);
}

void print_header(const std::string& title) {
  std::printf("\n%s\n\n| policy |", title.c_str());
  for (const int cpus : machines) std::printf(" %d CPUs |", cpus);
  std::printf("\n| --- |");
  for (std::size_t i = 0; i < machines.size(); ++i) std::printf(" --- |");
  std::printf("\n");
}

void print_workload(const std::string& name, const manager::Workload& workload) {
  print_header(name + " (" + std::to_string(workload.jobs.size()) +
               " jobs): mean response time / makespan, relative to equipartition (no level)");
  std::vector<manager::SimulationResult> baseline;
  for (const int cpus : machines) baseline.push_back(run(workload, cpus, rows[0]));
  for (const Row& row : rows) {
    std::printf("| %s |", row.label.c_str());
    for (std::size_t m = 0; m < machines.size(); ++m) {
      if (&row == &rows[0]) {
        std::printf(" %.0f s / %.0f s |", baseline[m].mean_response_time, baseline[m].makespan);
        continue;
      }
      const manager::SimulationResult result = run(workload, machines[m], row);
      std::printf(" %.2f / %.2f |", result.mean_response_time / baseline[m].mean_response_time,
                  result.makespan / baseline[m].makespan);
    }
    std::printf("\n");
  }
}

// Over the seeds, per policy and machine: the median of the ratio to equipartition, its mean and its range.
void print_random(const std::vector<manager::WorkloadJob>& kinds) {
  print_header("random open arrivals (" + std::to_string(random_jobs) + " jobs of the thesis's five, load " +
               std::to_string(random_load).substr(0, 3) + ", seeds 1-" + std::to_string(seeds) +
               "): mean response time relative to equipartition's, median over the seeds, mean, (lowest-highest)");
  for (const Row& row : rows) {
    std::printf("| %s |", row.label.c_str());
    for (const int cpus : machines) {
      std::vector<double> ratios;
      double base_sum = 0.0;
      for (int seed = 1; seed <= seeds; ++seed) {
        const manager::Workload workload = random_workload(kinds, cpus, static_cast<std::uint64_t>(seed));
        const double base = run(workload, cpus, rows[0]).mean_response_time;
        ratios.push_back(&row == &rows[0] ? 1.0 : run(workload, cpus, row).mean_response_time / base);
        base_sum += base;
      }
      std::sort(ratios.begin(), ratios.end());
      double mean = 0.0;
      for (const double ratio : ratios) mean += ratio / seeds;
      if (&row == &rows[0]) {
        std::printf(" %.0f s |", base_sum / seeds);
      } else {
        std::printf(" %.2f, %.2f (%.2f-%.2f) |", ratios[seeds / 2], mean, ratios.front(), ratios.back());
      }
    }
    std::printf("\n");
  }
}

// The random arrivals of seeds `first` to `last` (held out: seeds 6-15 chose no parameter of any policy) at
// 32, 64 and 128 processors: per policy the median of the ratio to equipartition, its lowest and highest;
// hesrpt-plan with the oracle too (every job's true curve and work), the ceiling of its rule there.
void print_seed_range(const std::vector<manager::WorkloadJob>& kinds, int first, int last, const std::string& note) {
  const std::vector<int> sizes{32, 64, 128};
  std::printf("\nrandom open arrivals, seeds %d-%d (%s): mean response time relative to equipartition's, median over the seeds "
              "(lowest-highest)\n\n| policy |", first, last, note.c_str());
  for (const int cpus : sizes) std::printf(" %d CPUs |", cpus);
  std::printf("\n| --- | --- | --- | --- |\n");
  std::vector<std::vector<manager::Workload>> workloads(sizes.size());
  std::vector<std::vector<double>> bases(sizes.size());
  for (std::size_t m = 0; m < sizes.size(); ++m) {
    for (int seed = first; seed <= last; ++seed) {
      workloads[m].push_back(random_workload(kinds, sizes[m], static_cast<std::uint64_t>(seed)));
      bases[m].push_back(run(workloads[m].back(), sizes[m], rows[0]).mean_response_time);
    }
  }
  const auto line = [&](const std::string& label, const Row& row, bool oracle) {
    std::printf("| %s |", label.c_str());
    for (std::size_t m = 0; m < sizes.size(); ++m) {
      std::vector<double> ratios;
      for (std::size_t s = 0; s < workloads[m].size(); ++s) {
        ratios.push_back(run(workloads[m][s], sizes[m], row, 0.0, 1, oracle).mean_response_time / bases[m][s]);
      }
      std::sort(ratios.begin(), ratios.end());
      const std::size_t n = ratios.size();
      const double median = n % 2 == 1 ? ratios[n / 2] : 0.5 * (ratios[n / 2 - 1] + ratios[n / 2]);
      std::printf(" %.3f (%.3f-%.3f) |", median, ratios.front(), ratios.back());
    }
    std::printf("\n");
  };
  for (const Row& row : rows) {
    if (&row != &rows[0]) line(row.label, row, false);
  }
  line("hesrpt-plan, oracle", rows[5], true);
}

// At 64 processors, with noise in the measured speedups (each S(P) a job calculates is the true one times
// exp(noise x z)): the median over noise seeds 1-5 of the ratio to equipartition, on open.workload and on
// the random arrivals of seed 1. Equipartition reads no speedup: its figures do not move with the noise.
void print_noise(const manager::Workload& open, const std::vector<manager::WorkloadJob>& kinds) {
  const std::vector<double> noises{0.0, 0.05, 0.1, 0.2};
  const manager::Workload arrivals = random_workload(kinds, 64, 1);
  std::printf("\nWith noise in the measured speedups, 64 CPUs: mean response time relative to equipartition's, median over noise "
              "seeds 1-%d (open.workload / random arrivals, seed 1)\n\n| policy |", seeds);
  for (const double noise : noises) std::printf(" noise %.2f |", noise);
  std::printf("\n| --- |");
  for (std::size_t i = 0; i < noises.size(); ++i) std::printf(" --- |");
  std::printf("\n");
  const double open_base = run(open, 64, rows[0]).mean_response_time;
  const double arrivals_base = run(arrivals, 64, rows[0]).mean_response_time;
  for (const Row& row : rows) {
    if (&row == &rows[0]) continue;
    std::printf("| %s |", row.label.c_str());
    for (const double noise : noises) {
      std::vector<double> on_open;
      std::vector<double> on_arrivals;
      for (int seed = 1; seed <= (noise > 0.0 ? seeds : 1); ++seed) {
        on_open.push_back(run(open, 64, row, noise, static_cast<std::uint64_t>(seed)).mean_response_time / open_base);
        on_arrivals.push_back(run(arrivals, 64, row, noise, static_cast<std::uint64_t>(seed)).mean_response_time / arrivals_base);
      }
      std::sort(on_open.begin(), on_open.end());
      std::sort(on_arrivals.begin(), on_arrivals.end());
      std::printf(" %.2f / %.2f |", on_open[on_open.size() / 2], on_arrivals[on_arrivals.size() / 2]);
    }
    std::printf("\n");
  }
}

// At 64 processors, per seed of the random arrivals (and on open.workload): hesrpt-plan and shortest-first
// as they run (learning each job's curve and work from what it measures) and with the oracle (every job's
// true curve and work from its arrival): what the learning costs, and what the rule itself reaches.
void print_oracle(const manager::Workload& open, const std::vector<manager::WorkloadJob>& kinds) {
  const Row& hesrpt = rows[5];
  const Row& shortest = rows[4];
  std::printf("\nLearnt against the oracle (true curves and work), 64 CPUs: mean response time relative to equipartition's\n\n"
              "| workload | hesrpt-plan | hesrpt-plan, oracle | shortest-first | shortest-first, oracle |\n"
              "| --- | --- | --- | --- | --- |\n");
  const auto line = [&](const std::string& name, const manager::Workload& workload) {
    const double base = run(workload, 64, rows[0]).mean_response_time;
    const auto ratio = [&](const Row& row, bool oracle) { return run(workload, 64, row, 0.0, 1, oracle).mean_response_time / base; };
    std::printf("| %s | %.3f | %.3f | %.3f | %.3f |\n", name.c_str(), ratio(hesrpt, false), ratio(hesrpt, true), ratio(shortest, false),
                ratio(shortest, true));
  };
  line("open.workload", open);
  for (int seed = 1; seed <= seeds; ++seed) line("random, seed " + std::to_string(seed), random_workload(kinds, 64, static_cast<std::uint64_t>(seed)));
}

// At 64 processors, each policy as the jobs measure in the model so far (S(P) after a whole quantum on P)
// and as the self-analysis does (SimulationOptions::self_analysis: a baseline quantum on B first, T(B)
// re-measured one iteration in 23): the mean response time relative to equipartition's under the same
// model (equipartition's own in seconds), on open.workload and the random arrivals (median over the seeds).
void print_self_analysis(const manager::Workload& open, const std::vector<manager::WorkloadJob>& kinds) {
  std::printf("\nAs the self-analysis measures, 64 CPUs: mean response time relative to equipartition's under the same model "
              "(open.workload / random arrivals, median over seeds 1-%d)\n\n| policy | S(P) after a quantum on P | with the "
              "self-analysis's baseline |\n| --- | --- | --- |\n", seeds);
  std::vector<manager::Workload> arrivals;
  for (int seed = 1; seed <= seeds; ++seed) arrivals.push_back(random_workload(kinds, 64, static_cast<std::uint64_t>(seed)));
  for (const Row& row : rows) {
    std::printf("| %s |", row.label.c_str());
    for (const bool self_analysis : {false, true}) {
      const auto mean = [&](const manager::Workload& workload, const Row& which) {
        return run(workload, 64, which, 0.0, 1, false, self_analysis).mean_response_time;
      };
      std::vector<double> ratios;
      double base_sum = 0.0;
      for (const manager::Workload& workload : arrivals) {
        const double base = mean(workload, rows[0]);
        base_sum += base;
        ratios.push_back(mean(workload, row) / base);
      }
      std::sort(ratios.begin(), ratios.end());
      if (&row == &rows[0]) {
        std::printf(" %.0f s / %.0f s (mean) |", mean(open, row), base_sum / seeds);
      } else {
        std::printf(" %.3f / %.3f |", mean(open, row) / mean(open, rows[0]), ratios[seeds / 2]);
      }
    }
    std::printf("\n");
  }
}

// The worst job at 64 processors: its response time and its slowdown, response / (work / S(64)), the
// time it would take alone on the machine.
void print_worst(const std::string& name, const manager::Workload& workload) {
  std::printf("| %s |", name.c_str());
  for (const Row& row : rows) {
    const manager::SimulationResult result = run(workload, 64, row);
    double worst_response = 0.0;
    double worst_slowdown = 0.0;
    for (std::size_t index = 0; index < result.jobs.size(); ++index) {
      const manager::WorkloadJob& job = workload.jobs[index];
      const int usable = job.max_processors > 0 ? std::min(job.max_processors, 64) : 64;
      worst_response = std::max(worst_response, result.jobs[index].response_time);
      worst_slowdown = std::max(worst_slowdown, result.jobs[index].response_time / (job.work / job.curve.at(usable)));
    }
    std::printf(" %.0f s / %.1f |", worst_response, worst_slowdown);
  }
  std::printf("\n");
}

// What one decision costs at 64 processors with 30 applications (six of each of the thesis's five, each on
// 2 processors with its S(2) and S(4) measured and its work left from 100 to 3000 one-processor seconds):
// the CPU time of hesrpt-plan's, rollout's and rollout-arrivals' decide(), the mean over 200 decisions.
void print_decision_cost(const std::vector<manager::WorkloadJob>& kinds) {
  std::vector<manager::ApplicationReport> reports;
  for (std::uint64_t id = 0; id < 30; ++id) {
    const manager::WorkloadJob& kind = kinds[id % kinds.size()];
    manager::ApplicationReport report;
    report.id = id;
    report.name = kind.name + "." + std::to_string(id);
    report.allocation = 2;
    report.speedups = {{2, kind.curve.at(2), manager::SpeedupState::calculated}, {4, kind.curve.at(4), manager::SpeedupState::calculated}};
    report.predicted_time = (100.0 + 100.0 * static_cast<double>(id)) / kind.curve.at(2);
    reports.push_back(report);
  }
  std::printf("\nCost of one decision, 64 CPUs, 30 applications (CPU time, mean over 200 decisions)\n\n| policy | µs per decision |\n| --- | --- |\n");
  for (const manager::PolicyKind kind : {manager::PolicyKind::hesrpt_plan, manager::PolicyKind::rollout, manager::PolicyKind::rollout_arrivals}) {
    manager::PolicyParameters parameters;
    parameters.policy = kind;
    parameters.cpus = 64;
    parameters.clock = {1000.0, 0.0, 101};  // rollout-arrivals: one arrival expected every 10 s, 30 newcomers
    constexpr int decisions = 200;
    std::size_t sink = 0;
    const std::clock_t start = std::clock();
    for (int repeat = 0; repeat < decisions; ++repeat) sink += manager::decide(parameters, reports).size();
    const double seconds = static_cast<double>(std::clock() - start) / CLOCKS_PER_SEC;
    std::printf("| %s | %.0f |\n", std::string(manager::policy_name(kind)).c_str(), sink > 0 ? seconds / decisions * 1e6 : 0.0);
  }
}

}  // namespace

int main(int argc, char** argv) {
  augur::bench::check_arguments(argc, argv,
                                "usage: bench_manager_policies [FOLDER]  (the folder of amdahl, thesis and open.workload; default "
                                "examples/manager)\n"
                                "       bench_manager_policies --random-workload CPUS SEED  (print one random workload)\n"
                                "       bench_manager_policies --random-seeds FIRST LAST NOTE  (one range of seeds only)",
                                {"--random-workload CPUS", "--random-seeds FIRST"}, 2);
  const std::string folder = argc == 2 ? argv[1] : AUGUR_SOURCE_DIR "/examples/manager";
  try {
    std::vector<std::pair<std::string, manager::Workload>> workloads;
    for (const std::string name : {"amdahl", "thesis", "open"}) {
      const std::string path = folder + "/" + name + ".workload";
      workloads.emplace_back(name + ".workload",
                             manager::parse_workload(core::read_file(path), path, [&](const std::string& file) {
                               return core::read_file(folder + "/" + file);
                             }));
    }
    const std::vector<manager::WorkloadJob>& kinds = workloads[1].second.jobs;  // thesis.workload's five
    if (argc == 4 && std::string(argv[1]) == "--random-workload") {
      std::printf("%s", random_text(kinds, std::stoi(argv[2]), std::stoull(argv[3])).c_str());
      return 0;
    }
    if (argc == 5 && std::string(argv[1]) == "--random-seeds") {  // one range of seeds only
      print_seed_range(kinds, std::stoi(argv[2]), std::stoi(argv[3]), argv[4]);
      return 0;
    }
    for (const auto& [name, workload] : workloads) print_workload(name, workload);
    print_random(kinds);
    print_seed_range(kinds, 6, 15, "held out: not used to choose any parameter");
    std::printf("\nThe worst job at 64 CPUs: its response time / its slowdown (response over its time alone on the machine)\n\n| workload |");
    for (const Row& row : rows) std::printf(" %s |", row.label.c_str());
    std::printf("\n| --- |");
    for (std::size_t i = 0; i < rows.size(); ++i) std::printf(" --- |");
    std::printf("\n");
    for (const auto& [name, workload] : workloads) print_worst(name, workload);
    print_worst("random, seed 1", random_workload(kinds, 64, 1));
    print_oracle(workloads[2].second, kinds);
    print_noise(workloads[2].second, kinds);
    print_self_analysis(workloads[2].second, kinds);
    print_decision_cost(kinds);
  } catch (const std::exception& error) {
    std::fprintf(stderr, "bench_manager_policies: %s\n", error.what());
    return 0;  // a benchmark never fails
  }
  return 0;
}
