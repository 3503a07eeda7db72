// What `augur tspp` and `augur sim` share: reading a task system, and the tables of the seed's Figure 12
// that both print.
#pragma once

#include <string>
#include <vector>

#include "augur/tspp.hpp"

namespace augur::cli {

// Reads and parses a task system from `file`, or from standard input when it is "-" or empty.
// Throws core::InputError (a syntax or model error) or std::runtime_error (the file cannot be read).
[[nodiscard]] tspp::TaskSystem load_task_system(const std::string& file);

// Utilization and queue length per resource, then the arrival-instant queue length and the queue length
// of each task at each resource (rows in task order, columns in resource order).
[[nodiscard]] std::string render_queue_tables(const tspp::TaskSystem& system, const std::vector<double>& utilization,
                                              const std::vector<double>& queue_length,
                                              const std::vector<std::vector<double>>& arrival_queue,
                                              const std::vector<std::vector<double>>& queue_of_task);

// The same from a prediction's or a simulation's results: resources with utilization and
// queue_length, tasks with arrival_queue and queue_of_task.
template <typename Resources, typename Tasks>
[[nodiscard]] std::string render_queue_tables(const tspp::TaskSystem& system, const Resources& resources, const Tasks& tasks) {
  std::vector<double> utilization;
  std::vector<double> queue_length;
  for (const auto& resource : resources) {
    utilization.push_back(resource.utilization);
    queue_length.push_back(resource.queue_length);
  }
  std::vector<std::vector<double>> arrival;
  std::vector<std::vector<double>> share;
  for (const auto& task : tasks) {
    arrival.push_back(task.arrival_queue);
    share.push_back(task.queue_of_task);
  }
  return render_queue_tables(system, utilization, queue_length, arrival, share);
}

// One task's times as the tables show them: mean and standard deviation of start, residence and end.
struct TaskTimes {
  double start_mean, start_deviation, residence_mean, residence_deviation, end_mean, end_deviation;
};

// --csv of augur tspp and augur sim: kind,name,start_mean,start_sd,residence_mean,residence_sd,end_mean,end_sd;
// one "task" row per task in declaration order, then one "completion" row (its end columns only).
[[nodiscard]] std::string render_times_csv(const tspp::TaskSystem& system, const std::vector<TaskTimes>& tasks,
                                           double completion_mean, double completion_deviation);

}  // namespace augur::cli
