// The manager's policies on the example workloads (docs/manager.md, "Figures"): for 16 to 256 processors,
// each policy's mean response time and makespan relative to equipartition's, simulated with
// `augur manager simulate`'s engine. Equipartition runs twice: with no multiprogramming limit and with the
// fixed level of 4 (PDPA, pdpa-lend, shortest-first and hesrpt-plan set their own). Then random open arrivals of the
// thesis's five applications (Poisson, several seeds), and at 64 processors the worst job of each policy
// (its response time and slowdown). Prints Markdown tables; never fails.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "augur/core/diagnostics.hpp"
#include "core/files.hpp"
#include "manager/simulate.hpp"

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
                            {"equal-efficiency", manager::PolicyKind::equal_efficiency, 0},
                            {"marginal-gain", manager::PolicyKind::marginal_gain, 0},
                            {"fixed, level 4", manager::PolicyKind::fixed, 4}};
const std::vector<int> machines{16, 32, 64, 128, 256};
constexpr int seeds = 5;
constexpr int random_jobs = 50;
constexpr double random_load = 0.9;

manager::SimulationResult run(const manager::Workload& workload, int cpus, const Row& row, double noise = 0.0,
                              std::uint64_t seed = 1) {
  manager::SimulationOptions options;
  options.speedup_noise = noise;
  options.seed = seed;
  options.policy.policy = row.policy;
  options.policy.cpus = cpus;
  options.policy.multiprogramming_level = row.multiprogramming_level;
  return manager::simulate(workload, options);
}

// Open arrivals of the given applications: `random_jobs` jobs, each one of them at random, Poisson
// arrivals at the rate that offers `random_load` of `cpus` processors in one-processor work. The uniform
// numbers come from the top 53 bits of mt19937_64 (the same on every standard library).
manager::Workload random_workload(const std::vector<manager::WorkloadJob>& kinds, int cpus, std::uint64_t seed) {
  std::mt19937_64 generator(seed);
  const auto uniform = [&] { return static_cast<double>(generator() >> 11) * 0x1.0p-53; };
  double mean_work = 0.0;
  for (const manager::WorkloadJob& kind : kinds) mean_work += kind.work / static_cast<double>(kinds.size());
  const double mean_gap = mean_work / (random_load * cpus);
  manager::Workload workload;
  double time = 0.0;
  for (int index = 0; index < random_jobs; ++index) {
    const auto pick = std::min(static_cast<std::size_t>(uniform() * static_cast<double>(kinds.size())), kinds.size() - 1);
    manager::WorkloadJob job = kinds[pick];
    job.name += "." + std::to_string(index + 1);
    job.arrival = std::round(time * 1000.0) / 1000.0;
    workload.jobs.push_back(job);
    time += -std::log(1.0 - uniform()) * mean_gap;
  }
  return workload;
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

}  // namespace

int main(int argc, char** argv) {
  const std::string folder = argc > 1 ? argv[1] : AUGUR_SOURCE_DIR "/examples/manager";
  try {
    std::vector<std::pair<std::string, manager::Workload>> workloads;
    for (const std::string name : {"amdahl", "thesis", "open"}) {
      const std::string path = folder + "/" + name + ".workload";
      workloads.emplace_back(name + ".workload",
                             manager::parse_workload(core::read_file(path), path, [&](const std::string& file) {
                               return core::read_file(folder + "/" + file);
                             }));
    }
    for (const auto& [name, workload] : workloads) print_workload(name, workload);
    const std::vector<manager::WorkloadJob>& kinds = workloads[1].second.jobs;  // thesis.workload's five
    print_random(kinds);
    std::printf("\nThe worst job at 64 CPUs: its response time / its slowdown (response over its time alone on the machine)\n\n| workload |");
    for (const Row& row : rows) std::printf(" %s |", row.label.c_str());
    std::printf("\n| --- |");
    for (std::size_t i = 0; i < rows.size(); ++i) std::printf(" --- |");
    std::printf("\n");
    for (const auto& [name, workload] : workloads) print_worst(name, workload);
    print_worst("random, seed 1", random_workload(kinds, 64, 1));
    print_noise(workloads[2].second, kinds);
  } catch (const std::exception& error) {
    std::fprintf(stderr, "bench_manager_policies: %s\n", error.what());
    return 0;  // a benchmark never fails
  }
  return 0;
}
