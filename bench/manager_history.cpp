// The programs' history in the manager's policies (docs/manager.md, "history"; issue 20): hesrpt-plan and
// rollout with and without each program's measured curve and last works as a new job's prior, relative to
// equipartition, on the random open arrivals of the thesis's five applications, where the copies of a
// program are identical (the history is exact there), and on the same workloads with each job's work scaled
// by a factor drawn uniformly in [0.5, 1.5] (generator seeded 1000 + the workload's seed), where it is not.
// `--train` prints the training seeds (1-5 and 16-25, 64 CPUs) on which the history's parameters and
// rollout-wide's neighbourhood were chosen; the default run the held-out seeds 6-15 and the fresh held-out
// seeds 26-35 at 32, 64 and 128 CPUs, the example workloads, 5% noise, the self-analysis's baseline and the
// cost of a decision. Also rollout with the oracle (true curves and works from arrival): what learning costs it. Prints Markdown tables; never fails.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <ctime>
#include <random>
#include <string>
#include <vector>

#include "bench_arguments.hpp"
#include "core/files.hpp"
#include "manager/history.hpp"
#include "manager/simulate.hpp"
#include "manager_workloads.hpp"

namespace {

using namespace augur;

struct Variant {
  std::string label;
  manager::PolicyKind policy;
  bool history;
  manager::HistoryPrior prior;
  bool oracle;
};

constexpr auto curve = manager::HistoryPrior::curve;
constexpr auto curve_and_work = manager::HistoryPrior::curve_and_work;
const std::vector<Variant> variants{{"hesrpt-plan", manager::PolicyKind::hesrpt_plan, false, curve, false},
                                    {"hesrpt-plan, history (curves)", manager::PolicyKind::hesrpt_plan, true, curve, false},
                                    {"hesrpt-plan, history (curves and works)", manager::PolicyKind::hesrpt_plan, true, curve_and_work, false},
                                    {"rollout", manager::PolicyKind::rollout, false, curve, false},
                                    {"rollout, history (curves)", manager::PolicyKind::rollout, true, curve, false},
                                    {"rollout, history (curves and works)", manager::PolicyKind::rollout, true, curve_and_work, false},
                                    {"hesrpt-plan, oracle", manager::PolicyKind::hesrpt_plan, false, curve, true},
                                    {"rollout, oracle", manager::PolicyKind::rollout, false, curve, true},
                                    {"rollout-wide", manager::PolicyKind::rollout_wide, false, curve, false},
                                    {"rollout-wide, history (curves)", manager::PolicyKind::rollout_wide, true, curve, false}};

// How the jobs measure: exact, with noise (seed 1), or as the self-analysis does.
struct Model {
  double noise = 0.0;
  bool self_analysis = false;
};

const Variant equipartition{"equipartition", manager::PolicyKind::equipartition, false, curve, false};

double mean_response(const manager::Workload& workload, int cpus, const Variant& variant, Model model) {
  manager::SimulationOptions options;
  options.policy.policy = variant.policy;
  options.policy.cpus = cpus;
  options.history = variant.history;
  options.policy.history_prior = variant.prior;
  options.oracle = variant.oracle;
  options.speedup_noise = model.noise;
  options.self_analysis = model.self_analysis;
  return manager::simulate(workload, options).mean_response_time;
}

// Each job's work times a factor uniform in [0.5, 1.5] (top 53 bits of std::mt19937_64 seeded `seed`).
manager::Workload scaled(manager::Workload workload, std::uint64_t seed) {
  std::mt19937_64 generator(seed);
  for (manager::WorkloadJob& job : workload.jobs) job.work *= 0.5 + static_cast<double>(generator() >> 11) * 0x1.0p-53;
  return workload;
}

struct Summary {
  double median = 0.0;
  double lowest = 0.0;
  double highest = 0.0;
};

Summary summary(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return {n % 2 == 1 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]), values.front(), values.back()};
}

// Per variant and machine, over the seeds: the median ratio to equipartition (lowest-highest) with the
// programs' copies identical, then with their works scaled.
void print_seeds(const std::vector<manager::WorkloadJob>& kinds, const std::vector<int>& seed_list, const std::vector<int>& sizes,
                 const std::string& title, Model model) {
  std::printf("\n%s: mean response time relative to equipartition's, median over the seeds (lowest-highest); identical copies / "
              "works scaled by [0.5, 1.5]\n\n| policy |", title.c_str());
  for (const int cpus : sizes) std::printf(" %d CPUs |", cpus);
  std::printf("\n| --- |");
  for (std::size_t i = 0; i < sizes.size(); ++i) std::printf(" --- |");
  std::printf("\n");
  std::vector<std::vector<std::vector<double>>> ratios(variants.size(), std::vector<std::vector<double>>(sizes.size() * 2));
  for (std::size_t m = 0; m < sizes.size(); ++m) {
    for (const int seed : seed_list) {
      const manager::Workload exact = bench::random_workload(kinds, sizes[m], static_cast<std::uint64_t>(seed));
      for (int form = 0; form < 2; ++form) {
        const manager::Workload workload = form == 0 ? exact : scaled(exact, 1000 + static_cast<std::uint64_t>(seed));
        const double base = mean_response(workload, sizes[m], equipartition, model);
        for (std::size_t v = 0; v < variants.size(); ++v) {
          const Variant& variant = variants[v];
          ratios[v][2 * m + static_cast<std::size_t>(form)].push_back(
              mean_response(workload, sizes[m], variant, model) / base);
        }
      }
    }
  }
  for (std::size_t v = 0; v < variants.size(); ++v) {
    std::printf("| %s |", variants[v].label.c_str());
    for (std::size_t m = 0; m < sizes.size(); ++m) {
      const Summary exact = summary(ratios[v][2 * m]);
      const Summary spread = summary(ratios[v][2 * m + 1]);
      std::printf(" %.3f (%.3f-%.3f) / %.3f (%.3f-%.3f) |", exact.median, exact.lowest, exact.highest, spread.median, spread.lowest,
                  spread.highest);
    }
    std::printf("\n");
  }
}

// The example workloads at 64 CPUs, each variant's ratio to equipartition, as shipped / works scaled.
void print_examples(const std::vector<std::pair<std::string, manager::Workload>>& workloads) {
  std::printf("\nThe example workloads, 64 CPUs: mean response time relative to equipartition's; as shipped / works scaled by [0.5, 1.5] "
              "(seed 1000)\n\n| policy |");
  for (const auto& named : workloads) std::printf(" %s |", named.first.c_str());
  std::printf("\n| --- |");
  for (std::size_t i = 0; i < workloads.size(); ++i) std::printf(" --- |");
  std::printf("\n");
  for (const Variant& variant : variants) {
    std::printf("| %s |", variant.label.c_str());
    for (const auto& named : workloads) {
      for (int form = 0; form < 2; ++form) {
        const manager::Workload workload = form == 0 ? named.second : scaled(named.second, 1000);
        const double base = mean_response(workload, 64, equipartition, {});
        std::printf(form == 0 ? " %.3f" : " / %.3f |", mean_response(workload, 64, variant, {}) / base);
      }
    }
    std::printf("\n");
  }
}

// The CPU time of one decision at 64 CPUs, 30 applications (six of each of the five, on 2 processors,
// S(2) and S(4) measured, work left 100 to 3000 s), with no history and with the five programs' history
// (their curves measured at 4, 8, 16, 32 and 48, two works each): the mean over 200 decisions.
void print_decision_cost(const std::vector<manager::WorkloadJob>& kinds) {
  std::vector<manager::ApplicationReport> reports;
  manager::ProgramHistories histories;
  for (std::uint64_t id = 0; id < 30; ++id) {
    const manager::WorkloadJob& kind = kinds[id % kinds.size()];
    manager::ApplicationReport report;
    report.id = id;
    report.name = kind.name + "." + std::to_string(id);
    report.program = kind.name;
    report.allocation = 2;
    report.speedups = {{2, kind.curve.at(2), manager::SpeedupState::calculated}, {4, kind.curve.at(4), manager::SpeedupState::calculated}};
    report.predicted_time = id % 3 == 0 ? 0.0 : (100.0 + 100.0 * static_cast<double>(id)) / kind.curve.at(2);
    reports.push_back(report);
  }
  for (const manager::WorkloadJob& kind : kinds) {
    std::vector<manager::SpeedupEntry> measured;
    for (const int processors : {4, 8, 16, 32, 48}) measured.push_back({processors, kind.curve.at(processors), manager::SpeedupState::calculated});
    histories.record_speedups(kind.name, measured);
    histories.record_finished(kind.name, kind.work);
    histories.record_finished(kind.name, kind.work * 1.2);
  }
  std::printf("\nCost of one decision, 64 CPUs, 30 applications, a third with no work predicted (CPU time, mean over 200 decisions)\n\n"
              "| policy | µs per decision, no history | with the five programs' history |\n| --- | --- | --- |\n");
  for (const manager::PolicyKind kind : {manager::PolicyKind::hesrpt_plan, manager::PolicyKind::rollout, manager::PolicyKind::rollout_wide}) {
    std::printf("| %s |", std::string(manager::policy_name(kind)).c_str());
    for (const bool history : {false, true}) {
      manager::PolicyParameters parameters;
      parameters.policy = kind;
      parameters.cpus = 64;
      parameters.history_prior = curve_and_work;
      if (history) parameters.history = histories.programs();
      constexpr int decisions = 200;
      std::size_t sink = 0;
      const std::clock_t start = std::clock();
      for (int repeat = 0; repeat < decisions; ++repeat) sink += manager::decide(parameters, reports).size();
      const double seconds = static_cast<double>(std::clock() - start) / CLOCKS_PER_SEC;
      std::printf(" %.0f |", sink > 0 ? seconds / decisions * 1e6 : 0.0);
    }
    std::printf("\n");
  }
}

std::vector<int> range(int first, int last) {
  std::vector<int> values;
  for (int value = first; value <= last; ++value) values.push_back(value);
  return values;
}

}  // namespace

int main(int argc, char** argv) {
  augur::bench::check_arguments(argc, argv,
                                "usage: bench_manager_history [FOLDER]  (the folder of amdahl, thesis and open.workload; default "
                                "examples/manager)\n"
                                "       bench_manager_history --train  (the training seeds 1-5 and 16-25 only)",
                                {"--train"}, 1);
  const bool train = argc == 2 && std::string(argv[1]) == "--train";
  const std::string folder = argc == 2 && !train ? argv[1] : AUGUR_SOURCE_DIR "/examples/manager";
  try {
    std::vector<std::pair<std::string, manager::Workload>> workloads;
    for (const std::string name : {"open", "thesis", "amdahl"}) {
      const std::string path = folder + "/" + name + ".workload";
      workloads.emplace_back(name + ".workload", manager::parse_workload(core::read_file(path), path, [&](const std::string& file) {
                               return core::read_file(folder + "/" + file);
                             }));
    }
    const std::vector<manager::WorkloadJob>& kinds = workloads[1].second.jobs;  // thesis.workload's five
    if (train) {
      print_seeds(kinds, range(1, 5), {64}, "Training seeds 1-5", {});
      print_seeds(kinds, range(16, 25), {64}, "Training seeds 16-25", {});
      return 0;
    }
    print_seeds(kinds, range(6, 15), {32, 64, 128}, "Held-out seeds 6-15 (no parameter chosen on them)", {});
    print_seeds(kinds, range(26, 35), {32, 64, 128}, "Fresh held-out seeds 26-35 (run first with rollout-wide, no parameter chosen on them)", {});
    print_examples(workloads);
    print_seeds(kinds, range(6, 15), {64}, "Held-out seeds 6-15, speedups measured with 5% noise (noise seed 1)", {0.05, false});
    print_seeds(kinds, range(6, 15), {64}, "Held-out seeds 6-15, as the self-analysis measures (--self-analysis)", {0.0, true});
    print_decision_cost(kinds);
  } catch (const std::exception& error) {
    std::fprintf(stderr, "bench_manager_history: %s\n", error.what());
    return 0;  // a benchmark never fails
  }
  return 0;
}
