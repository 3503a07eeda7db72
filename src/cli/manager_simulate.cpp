// augur manager simulate WORKLOAD --cpus N --policy P [--quantum Q] [--json|--csv] [--timeline FILE]
// (docs/manager.md, "Simulation"): reads the workload (and the speedup files it names, relative to its
// folder), simulates it under the policy with the real manager's decide(), prints.
#include <CLI/CLI.hpp>
#include <cstdint>
#include <cstdio>
#include <filesystem>

#include "augur/core/diagnostics.hpp"
#include "command.hpp"
#include "core/files.hpp"
#include "manager/workload.hpp"
#include "manager_simulate.hpp"
#include "flags.hpp"

namespace augur::cli {
namespace {

struct ManagerSimulateOptions {
  std::string workload;
  int cpus = 64;
  std::string policy = "equipartition";
  double quantum = 1.0;
  double target_efficiency = 0.7;
  double low_efficiency = 0.5;
  int step = 4;
  int fixed = 0;
  double minimum_gain = 0.0;
  int multiprogramming = 0;
  double noise = 0.0;
  std::uint64_t seed = 1;
  bool self_analysis = false;
  bool history = false;
  bool history_work = false;
  bool json = false;
  bool csv = false;
  std::string timeline;
};

manager::Workload load_workload(const std::string& path) {
  const std::filesystem::path folder = std::filesystem::path(path).parent_path();
  const manager::FileReader read_beside = [&folder](const std::string& name) {
    const std::filesystem::path file = std::filesystem::path(name).is_absolute() ? std::filesystem::path(name) : folder / name;
    try {
      return core::read_file(file.string());
    } catch (const std::runtime_error&) {
      throw core::InputError({name, 0, 0}, "cannot read it (" + file.string() + ")");
    }
  };
  std::string text;
  try {
    text = core::read_file(path);
  } catch (const std::runtime_error&) {
    throw core::InputError({path, 0, 0}, "cannot read the workload");
  }
  return manager::parse_workload(text, path, read_beside);
}

manager::SimulationOptions simulation_options(const ManagerSimulateOptions& cli) {
  manager::SimulationOptions options;
  options.quantum = cli.quantum;
  if (!(cli.noise >= 0.0 && cli.noise <= 1.0)) throw core::InputError({"--noise", 0, 0}, "noise must be in [0, 1]");
  options.speedup_noise = cli.noise;
  options.seed = cli.seed;
  options.self_analysis = cli.self_analysis;
  options.history = cli.history || cli.history_work;
  options.policy.history_prior = cli.history_work ? manager::HistoryPrior::curve_and_work : manager::HistoryPrior::curve;
  manager::PolicyParameters& policy = options.policy;
  policy.policy = *manager::parse_policy(cli.policy);  // CLI11 checked the name
  policy.cpus = cli.cpus;
  policy.target_efficiency = cli.target_efficiency;
  policy.low_efficiency = cli.low_efficiency;
  policy.step = cli.step;
  policy.fixed_processors = cli.fixed;
  policy.minimum_gain = cli.minimum_gain;
  policy.multiprogramming_level = cli.multiprogramming;
  if (const auto problem = manager::validate_parameters(policy)) {
    // The option at fault, from the parameter the message starts with.
    static const std::pair<const char*, const char*> option_of[] = {{"target", "--target-efficiency"}, {"low", "--low-efficiency"},
                                                                  {"step", "--step"}, {"fixed", "--fixed"}, {"minimum", "--minimum-gain"},
                                                                    {"multiprogramming", "--multiprogramming"}};
    std::string option = "--cpus";
    for (const auto& [word, name] : option_of) {
      if (problem->starts_with(word)) option = name;
    }
    throw core::InputError({option, 0, 0}, *problem);
  }
  return options;
}

int run_manager_simulate(const ManagerSimulateOptions& cli) {
  try {
    if (!cli.timeline.empty()) core::refuse_output_over_inputs(cli.timeline, {cli.workload});
    const manager::SimulationOptions options = simulation_options(cli);
    const manager::Workload workload = load_workload(cli.workload);
    const manager::SimulationResult result = manager::simulate(workload, options);
    if (!cli.timeline.empty()) core::write_file_atomically(cli.timeline, manager::allocation_timeline(result).json());
    const std::string output = cli.json  ? render_simulation_json(result)
                               : cli.csv ? render_simulation_csv(result)
                                         : render_simulation_table(cli.workload, options, result);
    std::fputs(output.c_str(), stdout);
    return 0;
  } catch (const std::exception& error) {
    return report_error("manager simulate", error);
  }
}

std::string policy_names() {
  std::string names;
  for (const manager::PolicyKind kind : manager::all_policies()) names += (names.empty() ? "" : ", ") + std::string(manager::policy_name(kind));
  return names;
}

}  // namespace

Runner declare_manager_simulate_command(CLI::App& command) {
  auto options = std::make_shared<ManagerSimulateOptions>();
  command.add_option("workload", options->workload, "The workload: one 'job NAME key=value ...' per line (docs/formats.md, \"Manager workloads\")")
      ->required();
  command.add_option("--cpus", options->cpus, "Processors of the simulated machine")->check(CLI::Range(1, 1 << 20))->capture_default_str();
  std::vector<std::string> names;
  for (const manager::PolicyKind kind : manager::all_policies()) names.emplace_back(manager::policy_name(kind));
  command.add_option("--policy", options->policy, "The policy: " + policy_names())->check(CLI::IsMember(names))->capture_default_str();
  command.add_option("--quantum", options->quantum, "Seconds between two decisions of the manager")
      ->check(finite_number())
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  command.add_option("--target-efficiency", options->target_efficiency, "PDPA: grow while S(P)/P reaches this")->capture_default_str();
  command.add_option("--low-efficiency", options->low_efficiency, "PDPA: shrink below this")->capture_default_str();
  command.add_option("--step", options->step, "PDPA: processors added or taken per move")->capture_default_str();
  command.add_option("--fixed", options->fixed, "fixed: processors per job (0: each job its request, or the machine)")->capture_default_str();
  command.add_option("--minimum-gain", options->minimum_gain,
                     "equal-efficiency, marginal-gain: never give a processor that adds less predicted speedup")
      ->capture_default_str();
  command.add_option("--multiprogramming", options->multiprogramming,
                     "Run at most this many jobs at once, the others queue (0: no limit; PDPA sets its own)")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  command.add_option("--noise", options->noise,
                     "Noise in the speedups the jobs measure: each is the true one times exp(noise x z), z normal (0: exact)")
      ->capture_default_str();
  command.add_option("--seed", options->seed, "Seed of the noise's random numbers")->capture_default_str();
  command.add_flag("--self-analysis", options->self_analysis,
                   "Jobs measure as the self-analysis does: a baseline quantum on B first, re-measurements of T(B)");
  command.add_flag("--history", options->history,
                   "Keep each program's measured speedups: hesrpt-plan and the rollouts start its new jobs with them");
  command.add_flag("--history-work", options->history_work,
                   "--history, and a new job's work the mean of its program's last two finished jobs' until it predicts its own");
  add_json_flag(command, options->json, "JSON instead of the table");
  add_csv_flag(command, options->csv, "One CSV row per job instead of the table");
  command.add_option("--timeline", options->timeline, "Also write the allocations over time as a Perfetto timeline (Chrome trace JSON)");
  command.footer(
      "Examples:\n"
      "  augur manager simulate examples/manager/thesis.workload --cpus 64 --policy pdpa\n"
      "  augur manager simulate examples/manager/open.workload --cpus 128 --policy equipartition --json\n"
      "Guide: docs/manager.md");
  return [options] { return run_manager_simulate(*options); };
}

}  // namespace augur::cli
