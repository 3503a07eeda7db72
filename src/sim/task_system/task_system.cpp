#include "augur/sim/task_system.hpp"

#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "augur/sim/engine.hpp"
#include "task_system_replication.hpp"

namespace augur::sim {
namespace {

using tspp::Resource;
using tspp::TaskSystem;

using task_system_detail::Outcome;
using task_system_detail::replicate;
using task_system_detail::TraceSink;

// The simulation, with the intervals of the first replication handed to `trace` (when given) on the
// thread that runs it.
TaskSystemSimulation simulate_traced(const TaskSystem& system, const TaskSystemOptions& options, const TraceSink* trace,
                                     const std::function<void(int, int)>& progress) {
  const std::size_t tasks = system.tasks.size();
  const std::size_t resources = system.resources.size();
  std::vector<Accumulator> starts(tasks), residences(tasks), ends(tasks);
  Accumulator completion;
  std::vector<double> arrival(tasks * resources, 0.0), share(tasks * resources, 0.0);
  std::vector<double> utilization(resources, 0.0), queue(resources, 0.0);
  TaskSystemSimulation result;
  const int replications = std::max(options.replications, 1);
  // Each replication depends on (seed, index) only and they are combined in index order, so the figures
  // are the same bits for any thread count.
  const auto combine = [&](int index, Outcome&& outcome) {
    result.events += outcome.events;
    const double total = outcome.completion;
    completion.add(total);
    for (std::size_t i = 0; i < tasks; ++i) {
      starts[i].add(outcome.start[i]);
      ends[i].add(outcome.end[i]);
      const double residence = outcome.end[i] - outcome.start[i];
      residences[i].add(residence);
      for (std::size_t k = 0; k < resources; ++k) {
        const std::size_t cell = i * resources + k;
        if (outcome.arrival_count[cell] > 0.0) arrival[cell] += outcome.arrival_sum[cell] / outcome.arrival_count[cell];
        if (residence > 0.0) share[cell] += outcome.time_at[cell] / residence;
      }
    }
    for (std::size_t k = 0; k < resources; ++k) {
      if (total <= 0.0) continue;
      const Resource& resource = system.resources[k];
      const double servers = resource.kind == Resource::Kind::Delay ? 1.0 : resource.servers;
      utilization[k] += outcome.busy_integral[k] / (servers * total);
      queue[k] += outcome.present_integral[k] / total;
    }
    if (progress) progress(index + 1, replications);
  };
  run_replications(
      replications, options.threads,
      [&](int index) { return replicate(system, options, index, index == 0 ? trace : nullptr); }, combine);
  result.replications = replications;
  result.completion = completion.statistic();
  result.tasks.resize(tasks);
  for (std::size_t i = 0; i < tasks; ++i) {
    SimulatedTask& task = result.tasks[i];
    task.start = starts[i].statistic();
    task.residence = residences[i].statistic();
    task.end = ends[i].statistic();
    task.arrival_queue.resize(resources);
    task.queue_of_task.resize(resources);
    for (std::size_t k = 0; k < resources; ++k) {
      task.arrival_queue[k] = arrival[i * resources + k] / replications;
      task.queue_of_task[k] = share[i * resources + k] / replications;
    }
  }
  result.resources.resize(resources);
  for (std::size_t k = 0; k < resources; ++k) {
    result.resources[k].utilization = utilization[k] / replications;
    result.resources[k].queue_length = queue[k] / replications;
  }
  return result;
}

// The rows and spans of the timeline of a task system, on a Timeline or a TimelineWriter: lane 0 of
// resource k is row k; a further lane gets the next free row, named "<resource> (lane <n>)" (counted from
// 1), when its first service ends.
template <typename Rows>
class TaskSystemRows {
public:
  TaskSystemRows(const TaskSystem& system, Rows& timeline) : system_(system), timeline_(timeline) {
    for (std::size_t k = 0; k < system.resources.size(); ++k) timeline.name_row(static_cast<int>(k), system.resources[k].name);
  }

  void add(const TraceInterval& interval) {
    const std::string& resource = system_.resources[static_cast<std::size_t>(interval.resource)].name;
    int row = interval.resource;
    if (interval.lane > 0) {
      const auto [at, added] = lane_rows_.try_emplace({interval.resource, interval.lane}, next_row_);
      if (added) {
        ++next_row_;
        timeline_.name_row(at->second, resource + " (lane " + std::to_string(interval.lane + 1) + ")");
      }
      row = at->second;
    }
    timeline_.span(row, system_.tasks[static_cast<std::size_t>(interval.task)].name, resource, interval.start, interval.end);
  }

private:
  const TaskSystem& system_;
  Rows& timeline_;
  std::map<std::pair<int, int>, int> lane_rows_;
  int next_row_ = static_cast<int>(system_.resources.size());
};

}  // namespace

TaskSystemSimulation simulate(const TaskSystem& system, const TaskSystemOptions& options, bool record_trace,
                              const std::function<void(int, int)>& progress) {
  std::vector<TraceInterval> trace;
  const TraceSink keep = [&trace](const TraceInterval& interval) { trace.push_back(interval); };
  TaskSystemSimulation result = simulate_traced(system, options, record_trace ? &keep : nullptr, progress);
  result.trace = std::move(trace);
  return result;
}

TaskSystemSimulation simulate(const TaskSystem& system, const TaskSystemOptions& options, TimelineWriter& timeline,
                              const std::function<void(int, int)>& progress) {
  TaskSystemRows<TimelineWriter> rows(system, timeline);
  const TraceSink write = [&rows](const TraceInterval& interval) { rows.add(interval); };
  return simulate_traced(system, options, &write, progress);
}

Timeline task_system_timeline(const TaskSystem& system, const TaskSystemSimulation& result) {
  Timeline timeline;
  TaskSystemRows<Timeline> rows(system, timeline);
  for (const TraceInterval& interval : result.trace) rows.add(interval);
  return timeline;
}

}  // namespace augur::sim
