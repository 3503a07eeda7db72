#include "task_system_io.hpp"

#include <iostream>
#include <iterator>

#include "augur/core/expression.hpp"
#include "core/files.hpp"
#include "core/table.hpp"

namespace augur::cli {

tspp::TaskSystem load_task_system(const std::string& file) {
  if (file.empty() || file == "-") {
    const std::string text{std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>()};
    return tspp::parse_task_system(text, "<stdin>");
  }
  return tspp::parse_task_system(core::read_file(file), file);
}

std::string render_queue_tables(const tspp::TaskSystem& system, const std::vector<double>& utilization,
                                const std::vector<double>& queue_length,
                                const std::vector<std::vector<double>>& arrival_queue,
                                const std::vector<std::vector<double>>& queue_of_task) {
  using core::format_number;
  std::string text;
  core::TextTable resources({"Resource", "Utilization", "Queue Length"});
  for (std::size_t k = 0; k < system.resources.size(); ++k) {
    resources.add_row({system.resources[k].name, format_number(utilization[k], 3), format_number(queue_length[k], 3)});
  }
  text += resources.render() + "\n";
  for (const auto* rows : {&arrival_queue, &queue_of_task}) {
    text += rows == &arrival_queue ? "Arrival Instant Queue Length\n\n" : "Queue Length of Task\n\n";
    std::vector<std::string> header{"Task"};
    for (const auto& resource : system.resources) header.push_back(resource.name);
    core::TextTable table(header);
    for (std::size_t i = 0; i < system.tasks.size(); ++i) {
      std::vector<std::string> row{system.tasks[i].name};
      for (double value : (*rows)[i]) row.push_back(format_number(value, 3));
      table.add_row(row);
    }
    text += table.render() + "\n";
  }
  return text;
}

std::string render_times_csv(const tspp::TaskSystem& system, const std::vector<TaskTimes>& tasks, double completion_mean,
                             double completion_deviation) {
  // Task names are identifiers of the TSPP language: no comma or quote to escape.
  std::string out = "kind,name,start_mean,start_sd,residence_mean,residence_sd,end_mean,end_sd\n";
  for (std::size_t i = 0; i < tasks.size(); ++i) {
    const TaskTimes& t = tasks[i];
    out += "task," + system.tasks[i].name;
    for (const double value : {t.start_mean, t.start_deviation, t.residence_mean, t.residence_deviation, t.end_mean, t.end_deviation}) {
      out += "," + core::format_shortest(value);
    }
    out += "\n";
  }
  return out + "completion,,,,,," + core::format_shortest(completion_mean) + "," + core::format_shortest(completion_deviation) + "\n";
}

}  // namespace augur::cli
