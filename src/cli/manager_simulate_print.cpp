// augur manager simulate's outputs: the table, --json and --csv (docs/manager.md, "Simulation").
#include <algorithm>
#include <nlohmann/json.hpp>
#include <sstream>

#include "core/csv.hpp"
#include "core/json_text.hpp"
#include "core/table.hpp"
#include "manager_simulate.hpp"

namespace augur::cli {

namespace {

using core::format_number;

// "16 -> 44 (max 44, 9 changes)": the first and the last allocation it ran on, the largest, the changes.
std::string allocations_summary(const manager::JobOutcome& job) {
  std::vector<int> running;
  for (const auto& [time, processors] : job.allocations) {
    if (processors > 0) running.push_back(processors);
  }
  if (running.empty()) return "-";
  const int largest = *std::max_element(running.begin(), running.end());
  std::string text = std::to_string(running.front());
  if (running.size() > 1) text += " -> " + std::to_string(running.back());
  text += " (max " + std::to_string(largest) + ", " + std::to_string(running.size() - 1) + " changes)";
  return text;
}

std::string parameters_text(const manager::SimulationOptions& options) {
  const manager::PolicyParameters& policy = options.policy;
  switch (policy.policy) {
    case manager::PolicyKind::pdpa:
    case manager::PolicyKind::pdpa_lend:
    case manager::PolicyKind::shortest_first:
    case manager::PolicyKind::hesrpt_plan:
    case manager::PolicyKind::rollout:
    case manager::PolicyKind::rollout_arrivals:
    case manager::PolicyKind::rollout_wide:
      return "target efficiency " + format_number(policy.target_efficiency, 2) + ", low efficiency " +
             format_number(policy.low_efficiency, 2) + ", step " + std::to_string(policy.step);
    case manager::PolicyKind::fixed:
      return policy.fixed_processors > 0 ? std::to_string(policy.fixed_processors) + " processors per job" : "each job its request";
    case manager::PolicyKind::equal_efficiency:
    case manager::PolicyKind::marginal_gain: return "minimum gain " + format_number(policy.minimum_gain, 2);
    case manager::PolicyKind::equipartition: break;
  }
  return "equal shares";
}

}  // namespace

std::string render_simulation_table(const std::string& workload, const manager::SimulationOptions& options,
                                    const manager::SimulationResult& result) {
  std::ostringstream out;
  out << "Workload " << workload << ": " << result.jobs.size() << " jobs on " << result.cpus << " processors, policy "
      << result.policy << " (" << parameters_text(options) << "), quantum " << format_number(result.quantum, 3) << " s";
  if (options.speedup_noise > 0.0) {
    out << ", speedups measured with noise " << format_number(options.speedup_noise, 3) << " (seed " << options.seed << ")";
  }
  if (options.history) {
    out << ", with the programs' history ("
        << (options.policy.history_prior == manager::HistoryPrior::curve_and_work ? "curves and works" : "curves") << ")";
  }
  out << "\n\n";
  core::TextTable table({"Job", "Arrival", "Start", "Finish", "Response", "Work", "Efficiency", "Allocations"});
  for (const manager::JobOutcome& job : result.jobs) {
    table.add_row({job.name, format_number(job.arrival, 1), format_number(job.start, 1), format_number(job.finish, 1),
                   format_number(job.response_time, 1), format_number(job.work, 1), format_number(job.efficiency, 3),
                   allocations_summary(job)});
  }
  out << table.render() << "\n";
  out << "Mean response time " << format_number(result.mean_response_time, 2) << " s, makespan "
      << format_number(result.makespan, 2) << " s, utilization " << format_number(result.utilization * 100.0, 1)
      << "%, mean efficiency " << format_number(result.mean_efficiency, 3) << ", " << result.decisions << " decisions\n";
  out << "Times in seconds; work in seconds on one processor; efficiency = work / processor-seconds allocated.\n";
  return out.str();
}

std::string render_simulation_json(const manager::SimulationResult& result) {
  nlohmann::ordered_json json;
  json["policy"] = result.policy;
  json["cpus"] = result.cpus;
  json["quantum"] = result.quantum;
  json["mean_response_time"] = result.mean_response_time;
  json["makespan"] = result.makespan;
  json["utilization"] = result.utilization;
  json["mean_efficiency"] = result.mean_efficiency;
  json["decisions"] = result.decisions;
  nlohmann::ordered_json jobs = nlohmann::ordered_json::array();
  for (const manager::JobOutcome& job : result.jobs) {
    nlohmann::ordered_json allocations = nlohmann::ordered_json::array();
    for (const auto& [time, processors] : job.allocations) allocations.push_back({{"time", time}, {"processors", processors}});
    jobs.push_back({{"name", job.name}, {"arrival", job.arrival}, {"start", job.start}, {"finish", job.finish},
                    {"response_time", job.response_time}, {"work", job.work}, {"processor_seconds", job.processor_seconds},
                    {"efficiency", job.efficiency}, {"allocations", std::move(allocations)}});
  }
  json["jobs"] = std::move(jobs);
  return core::json_text(json, 2) + "\n";
}

std::string render_simulation_csv(const manager::SimulationResult& result) {
  std::ostringstream out;
  out << "job,arrival,start,finish,response_time,work,processor_seconds,efficiency,allocation_changes\n";
  for (const manager::JobOutcome& job : result.jobs) {
    out << core::csv_field(job.name) << ',' << format_number(job.arrival, 6) << ',' << format_number(job.start, 6) << ','
        << format_number(job.finish, 6) << ',' << format_number(job.response_time, 6) << ',' << format_number(job.work, 6)
        << ',' << format_number(job.processor_seconds, 6) << ',' << format_number(job.efficiency, 6) << ','
        << job.allocations.size() << '\n';
  }
  return out.str();
}

}  // namespace augur::cli
