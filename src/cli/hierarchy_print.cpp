// The tables and the JSON of augur hierarchy simulate (hierarchy_print.hpp).
#include "hierarchy_print.hpp"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <sstream>

#include "core/json_text.hpp"
#include "core/stats_json.hpp"
#include "core/table.hpp"

namespace augur::cli {
namespace {

using core::format_number;
namespace hierarchy = sim::hierarchy;

std::string list_of(const std::vector<int>& values) {
  std::string text;
  for (const int value : values) text += (text.empty() ? "" : ",") + std::to_string(value);
  return text;
}

// "mean (standard deviation)" over replications; the value alone for one run.
std::string mean_and_deviation(const sim::Statistic& statistic, int decimals) {
  if (statistic.count < 2) return format_number(statistic.mean, decimals);
  return format_number(statistic.mean, decimals) + " (" + format_number(statistic.deviation, decimals) + ")";
}

std::string describe_machine(const hierarchy::Machine& machine) {
  std::ostringstream out;
  out << machine.levels << (machine.levels == 1 ? " level" : " levels");
  if (machine.levels > 1) out << ", fan-out " << list_of(machine.fanout);
  out << ", " << machine.processors << " processors under each lowest CS (" << machine.total_processors() << " processors)";
  return out.str();
}

void processors_summary(std::ostringstream& out, const hierarchy::Summary& summary) {
  const auto& utilization = summary.processor_utilization;
  if (utilization.size() <= 16) {
    core::TextTable table({"Processor", "Utilization"});
    for (std::size_t p = 0; p < utilization.size(); ++p) table.add_row({std::to_string(p), format_number(utilization[p].mean, 3)});
    out << table.render();
    return;
  }
  std::size_t least = 0, most = 0;
  double total = 0.0;
  for (std::size_t p = 0; p < utilization.size(); ++p) {
    total += utilization[p].mean;
    if (utilization[p].mean < utilization[least].mean) least = p;
    if (utilization[p].mean > utilization[most].mean) most = p;
  }
  out << "Processors: utilization " << format_number(total / static_cast<double>(utilization.size()), 3) << " on average, from "
      << format_number(utilization[least].mean, 3) << " (processor " << least << ") to " << format_number(utilization[most].mean, 3)
      << " (processor " << most << "); --json lists every processor\n";
}

}  // namespace

std::string hierarchy_table(const HierarchyOptions& cli, const hierarchy::Machine& machine, const hierarchy::Summary& summary) {
  std::ostringstream out;
  out << "Machine " << (cli.machine.empty() ? "from the flags" : cli.machine) << ": " << describe_machine(machine) << "\n";
  if (cli.program.empty()) out << "Model " << cli.model << ", seed " << cli.seed << ", " << summary.replications << " replications, ";
  else out << "Program " << cli.program << ", ";
  out << format_number(summary.elementary.mean, cli.program.empty() ? 1 : 0) << " elementary functions per program, " << summary.events << " events\n\n";
  const auto& ratio = summary.ratio;
  out << "Execution time  " << mean_and_deviation(summary.time, 3) << "\n";
  out << "Ideal time      " << mean_and_deviation(summary.ideal_time, 3) << "\n";
  out << "Ratio           " << mean_and_deviation(ratio, 4);
  if (summary.replications > 1) out << "  95% interval " << format_number(ratio.mean - ratio.half_width, 4) << " .. " << format_number(ratio.mean + ratio.half_width, 4);
  out << (summary.replications > 1 ? "\n(mean (standard deviation) over the replications)\n\n" : "\n\n");
  core::TextTable levels({"Level", "CSs", "Utilization", "Occupancy", "Max occupancy", "Grasped", "Migrated", "Transfers", "Network"});
  for (std::size_t l = 0; l < summary.levels.size(); ++l) {
    const auto& level = summary.levels[l];
    levels.add_row({std::to_string(l + 1), std::to_string(machine.control_subsystems(static_cast<int>(l) + 1)), format_number(level.utilization.mean, 3),
                    format_number(level.occupancy.mean, 2), format_number(level.occupancy_maximum.mean, 1), format_number(level.grasped.mean, 1),
                    format_number(level.migrated.mean, 1), format_number(level.transfers.mean, 1), format_number(level.network.mean, 1)});
  }
  out << levels.render() << "\n";
  processors_summary(out, summary);
  return out.str();
}

std::string hierarchy_json(const HierarchyOptions& cli, const hierarchy::Machine& machine, const hierarchy::Summary& summary) {
  nlohmann::ordered_json json;
  const auto& ratio = summary.ratio;
  json["time"] = summary.time.mean;
  json["ideal_time"] = summary.ideal_time.mean;
  json["ratio"] = ratio.mean;
  json["ratio_ci"] = {ratio.mean - ratio.half_width, ratio.mean + ratio.half_width};
  json["estimates"] = {{"time", core::estimate_json(summary.time.estimate())},
                       {"ideal_time", core::estimate_json(summary.ideal_time.estimate())},
                       {"ratio", core::estimate_json(ratio.estimate())}};
  json["replications"] = summary.replications;
  json["seed"] = cli.seed;
  json["source"] = cli.program.empty() ? cli.model : cli.program;
  json["elementary"] = summary.elementary.mean;
  json["events"] = summary.events;
  nlohmann::ordered_json levels = nlohmann::ordered_json::array();
  for (std::size_t l = 0; l < summary.levels.size(); ++l) {
    const auto& level = summary.levels[l];
    levels.push_back({{"level", l + 1}, {"control_subsystems", machine.control_subsystems(static_cast<int>(l) + 1)},
                      {"utilization", level.utilization.mean}, {"occupancy", level.occupancy.mean}, {"occupancy_maximum", level.occupancy_maximum.mean},
                      {"occupancy_share", level.occupancy_share.mean}, {"grasped", level.grasped.mean}, {"migrated", level.migrated.mean},
                      {"transfers", level.transfers.mean}, {"network", level.network.mean}});
  }
  json["levels"] = std::move(levels);
  json["packets"] = {{"grasped", summary.grasped.mean}, {"migrated", summary.migrated.mean}};
  nlohmann::ordered_json processors = nlohmann::ordered_json::array();
  for (const auto& processor : summary.processor_utilization) processors.push_back(processor.mean);
  json["processor_utilization"] = std::move(processors);
  return core::json_text(json, 2) + "\n";
}

}  // namespace augur::cli
