#include "sim_command.hpp"

#include "task_system_io.hpp"

#include <CLI/CLI.hpp>
#include <cstdio>
#include <functional>
#include <nlohmann/json.hpp>
#include <sstream>

#include "command.hpp"
#include "progress.hpp"
#include "augur/core/diagnostics.hpp"
#include "core/files.hpp"
#include "core/json_text.hpp"
#include "core/stats_json.hpp"
#include "core/table.hpp"
#include "augur/sim/task_system.hpp"
#include "flags.hpp"

namespace augur::cli {
namespace {

using core::format_number;

std::string with_deviation(const sim::Statistic& statistic) {
  return format_number(statistic.mean, 3) + " (" + format_number(statistic.deviation, 3) + ")";
}

std::string render_table(const tspp::TaskSystem& system, const sim::TaskSystemSimulation& result,
                         const sim::TaskSystemOptions& options, const SimOptions& cli) {
  std::ostringstream out;
  out << "Simulation: " << result.replications << " replications, seed " << options.seed << ", V = " << options.visits
      << ", " << cli.service << " service, " << (options.discipline == sim::Discipline::ProcessorSharing ? "PS" : "FCFS")
      << ", " << result.events << " events\n\n";
  out << render_queue_tables(system, result.resources, result.tasks);
  core::TextTable times({"Task", "Start", "Residence", "End"});
  for (std::size_t i = 0; i < system.tasks.size(); ++i) {
    const auto& task = result.tasks[i];
    times.add_row({system.tasks[i].name, with_deviation(task.start), with_deviation(task.residence), with_deviation(task.end)});
  }
  out << times.render() << "\n";
  out << "Completion time = " << with_deviation(result.completion) << "  95% confidence interval of the mean: "
      << format_number(result.completion.mean - result.completion.half_width, 3) << " .. "
      << format_number(result.completion.mean + result.completion.half_width, 3) << "\n";
  out << "(mean (standard deviation) over the replications)\n";
  return out.str();
}

std::string render_csv(const tspp::TaskSystem& system, const sim::TaskSystemSimulation& result) {
  std::vector<TaskTimes> times;
  for (const auto& task : result.tasks) {
    times.push_back({task.start.mean, task.start.deviation, task.residence.mean, task.residence.deviation, task.end.mean,
                     task.end.deviation});
  }
  return render_times_csv(system, times, result.completion.mean, result.completion.deviation);
}

nlohmann::ordered_json statistic_json(const sim::Statistic& statistic) { return core::estimate_json(statistic.estimate()); }

std::string render_json(const tspp::TaskSystem& system, const sim::TaskSystemSimulation& result,
                        const sim::TaskSystemOptions& options, const SimOptions& cli) {
  nlohmann::ordered_json json;
  json["replications"] = result.replications;
  json["seed"] = options.seed;
  json["visits"] = options.visits;
  json["service"] = cli.service;
  json["discipline"] = cli.discipline;
  json["events"] = result.events;
  json["completion"] = statistic_json(result.completion);
  nlohmann::ordered_json resources = nlohmann::ordered_json::array();
  for (std::size_t k = 0; k < system.resources.size(); ++k) {
    resources.push_back({{"name", system.resources[k].name},
                         {"utilization", result.resources[k].utilization},
                         {"queue_length", result.resources[k].queue_length}});
  }
  json["resources"] = std::move(resources);
  nlohmann::ordered_json tasks = nlohmann::ordered_json::array();
  for (std::size_t i = 0; i < system.tasks.size(); ++i) {
    const auto& task = result.tasks[i];
    tasks.push_back({{"name", system.tasks[i].name},
                     {"start", statistic_json(task.start)},
                     {"residence", statistic_json(task.residence)},
                     {"end", statistic_json(task.end)},
                     {"arrival_queue", task.arrival_queue},
                     {"queue_of_task", task.queue_of_task}});
  }
  json["tasks"] = std::move(tasks);
  return core::json_text(json, 2) + "\n";
}

}  // namespace

void add_sim_options(CLI::App* command, SimOptions& options) {
  command->add_option("file", options.file, "The task system (docs/formats.md); '-' or none: standard input");
  command->add_option("-r,--replications", options.replications, "Independent replications")
      ->default_val(1000)
      ->check(CLI::Range(1, 100000000));
  command->add_option("--seed", options.seed, "Seed of the random streams (the same seed, the same results)")->default_val(1);
  command->add_option("-V,--visits", options.visits, "Visit cycles V: each task spends its demand at its resources in V cycles")
      ->default_val(1)
      ->check(CLI::Range(1, visit_limit));
  command->add_option("--service", options.service, "Service times: exponential or deterministic")
      ->default_val("exponential")
      ->check(CLI::IsMember({"exponential", "deterministic"}));
  command->add_option("--discipline", options.discipline, "Queuing centres: fcfs or ps (processor sharing)")
      ->default_val("fcfs")
      ->check(CLI::IsMember({"fcfs", "ps"}));
  command->add_option("--trace", options.trace, "Write a Chrome trace-event timeline of the first replication to this file");
  add_threads_option(*command, options.threads,
                     "Threads the replications run on (default: the hardware concurrency, capped by the replications); "
                     "the results are the same for any number");
  add_json_flag(*command, options.json, "JSON instead of the table");
  add_csv_flag(*command, options.csv, "The task times and the completion time as CSV instead of the table");
  add_progress_flags(*command, options.progress, options.quiet);
  command->footer("Example:\n  augur sim examples/tspp/figure11.tspp --replications 10000 --trace figure11.trace.json");
}

namespace {

// The simulation with the timeline of its first replication streamed into --trace (a temporary file beside
// it, renamed at the end): memory does not grow with the events.
sim::TaskSystemSimulation simulate_with_trace(const tspp::TaskSystem& system, const sim::TaskSystemOptions& options,
                                              const SimOptions& cli, const std::function<void(int, int)>& progress) {
  core::OutputFile file(cli.trace);
  sim::TimelineWriter timeline([&file](std::string_view text) { file.write(text); });
  sim::TaskSystemSimulation result = sim::simulate(system, options, timeline, progress);
  timeline.finish();
  file.commit();
  return result;
}

}  // namespace

int run_sim_command(const SimOptions& cli) {
  try {
    if (!cli.trace.empty()) core::refuse_output_over_inputs(cli.trace, {cli.file});
    const tspp::TaskSystem system = load_task_system(cli.file);
    sim::TaskSystemOptions options;
    options.replications = cli.replications;
    options.seed = cli.seed;
    options.visits = cli.visits;
    options.service = cli.service == "deterministic" ? sim::ServiceDistribution::Deterministic : sim::ServiceDistribution::Exponential;
    options.discipline = cli.discipline == "ps" ? sim::Discipline::ProcessorSharing : sim::Discipline::FirstComeFirstServed;
    options.threads = cli.threads;
    catch_interruptions();  // Ctrl-C between two replications: no output, the trace's temporary removed
    Progress bar("augur sim", options.replications, "replications", Progress::mode_for(cli.quiet, cli.progress));
    const auto progress = [&bar](int done, int /*total*/) { bar.update(done); };
    const sim::TaskSystemSimulation result = cli.trace.empty() ? sim::simulate(system, options, false, progress)
                                                               : simulate_with_trace(system, options, cli, progress);
    const std::string output = cli.json  ? render_json(system, result, options, cli)
                               : cli.csv ? render_csv(system, result)
                                         : render_table(system, result, options, cli);
    bar.clear();
    std::fputs(output.c_str(), stdout);
    return 0;
  } catch (const std::exception& error) {
    return report_error("sim", error);
  }
}

Runner declare_sim_command(CLI::App& command) {
  auto options = std::make_shared<SimOptions>();
  add_sim_options(&command, *options);
  return [options] { return run_sim_command(*options); };
}

}  // namespace augur::cli
