// The ideal execution and the replications (simulate.hpp).
#include "sim/hierarchy/simulate.hpp"

#include <array>
#include <deque>
#include <queue>
#include <tuple>

namespace augur::sim::hierarchy {
namespace {

// First-ready-first-scheduled on `processors` processors without overhead: a function starts when its task
// is executable, its ready elementary functions queue in the order they became ready.
class Ideal {
public:
  explicit Ideal(const Program& program) : program_(program) {}

  double run(long processors) {
    start(0, -1, -1);
    long idle = processors;
    double now = 0.0;
    std::uint64_t order = 0;
    using Finish = std::tuple<double, std::uint64_t, int, int>;  // time, order, instance, task
    std::priority_queue<Finish, std::vector<Finish>, std::greater<>> running;
    for (;;) {
      while (idle > 0 && !ready_.empty()) {
        const auto [instance, task] = ready_.front();
        ready_.pop_front();
        running.emplace(now + program_.time[static_cast<std::size_t>(task)], order++, instance, task);
        --idle;
      }
      if (running.empty()) return now;
      now = std::get<0>(running.top());
      while (!running.empty() && std::get<0>(running.top()) == now) {  // every completion of this instant, then assign
        const auto [time, sequence, instance, task] = running.top();
        running.pop();
        ++idle;
        complete(instance, task);
      }
    }
  }

private:
  struct Instance {
    int function, parent_instance, parent_task, remaining;
    std::vector<int> pending;
  };

  void start(int function, int parent_instance, int parent_task) {
    const auto& f = program_.functions[static_cast<std::size_t>(function)];
    const int id = static_cast<int>(instances_.size());
    instances_.push_back({function, parent_instance, parent_task, f.tasks,
                          std::vector<int>(program_.predecessors.begin() + f.first_task, program_.predecessors.begin() + f.first_task + f.tasks)});
    for (int t = f.first_task; t < f.first_task + f.tasks; ++t)
      if (program_.predecessors[static_cast<std::size_t>(t)] == 0) executable(id, t);
  }
  void executable(int instance, int task) {
    const int called = program_.callee[static_cast<std::size_t>(task)];
    if (called >= 0) start(called, instance, task);
    else ready_.emplace_back(instance, task);
  }
  void complete(int id, int task) {
    for (;;) {
      const int first = program_.functions[static_cast<std::size_t>(instances_[static_cast<std::size_t>(id)].function)].first_task;
      for (int s = program_.successor_begin[static_cast<std::size_t>(task)]; s < program_.successor_begin[static_cast<std::size_t>(task) + 1]; ++s) {
        const int successor = program_.successors[static_cast<std::size_t>(s)];
        if (--instances_[static_cast<std::size_t>(id)].pending[static_cast<std::size_t>(successor - first)] == 0) executable(id, successor);
      }
      Instance& instance = instances_[static_cast<std::size_t>(id)];
      if (--instance.remaining > 0 || instance.parent_instance < 0) return;
      std::vector<int>().swap(instance.pending);
      task = instance.parent_task;  // the instance completed: so did the task that called it
      id = instance.parent_instance;
    }
  }

  const Program& program_;
  std::vector<Instance> instances_;
  std::deque<std::pair<int, int>> ready_;
};

}  // namespace

double ideal_time(const Program& program, long processors) { return Ideal(program).run(processors); }

// time, ideal time, elementary, events, levels, processors; per level its nine fields; per processor its utilization.
std::vector<double> execution_values(const Execution& run) {
  std::vector<double> values{run.time, run.ideal_time, static_cast<double>(run.elementary), static_cast<double>(run.events),
                             static_cast<double>(run.levels.size()), static_cast<double>(run.processor_utilization.size())};
  for (const LevelRun& level : run.levels)
    values.insert(values.end(), {static_cast<double>(level.control_subsystems), level.utilization, level.occupancy, level.occupancy_maximum,
                                 level.occupancy_share, static_cast<double>(level.grasped), static_cast<double>(level.migrated),
                                 static_cast<double>(level.transfers), static_cast<double>(level.network)});
  values.insert(values.end(), run.processor_utilization.begin(), run.processor_utilization.end());
  return values;
}

Execution execution_from_values(const std::vector<double>& values) {
  Execution run;
  if (values.size() < 6) return run;
  run.time = values[0];
  run.ideal_time = values[1];
  run.elementary = static_cast<long>(values[2]);
  run.events = static_cast<std::uint64_t>(values[3]);
  const auto levels = static_cast<std::size_t>(values[4]);
  const auto processors = static_cast<std::size_t>(values[5]);
  if (values.size() != 6 + 9 * levels + processors) return run;
  std::size_t at = 6;
  for (std::size_t l = 0; l < levels; ++l, at += 9) {
    const double* v = values.data() + at;
    run.levels.push_back({static_cast<long>(v[0]), v[1], v[2], v[3], v[4], static_cast<long>(v[5]), static_cast<long>(v[6]),
                          static_cast<long>(v[7]), static_cast<long>(v[8])});
  }
  run.processor_utilization.assign(values.begin() + static_cast<std::ptrdiff_t>(at), values.end());
  return run;
}

Summary simulate(const std::function<Program(int replication)>& program_of, const Machine& machine, const SimulationOptions& options) {
  Summary summary;
  summary.replications = options.replications;
  Accumulator time, ideal, ratio, elementary, grasped, migrated;
  std::vector<std::array<Accumulator, 8>> levels(static_cast<std::size_t>(machine.levels));
  std::vector<Accumulator> processors(static_cast<std::size_t>(machine.total_processors()));
  const std::function<Execution(int)> replicate = [&](int replication) {
    if (options.interruption) options.interruption();
    const Program program = program_of(replication);
    Execution run = simulate_hierarchy(program, machine, options.source, replication == 0 ? options.timeline : nullptr);
    run.ideal_time = ideal_time(program, machine.total_processors());
    return run;
  };
  const std::function<void(int, Execution&&)> combine = [&](int replication, Execution&& run) {
    time.add(run.time);
    ideal.add(run.ideal_time);
    ratio.add(run.ideal_time > 0 ? run.time / run.ideal_time : 1.0);
    elementary.add(static_cast<double>(run.elementary));
    double all_grasped = 0, all_migrated = 0;
    for (std::size_t l = 0; l < run.levels.size(); ++l) {
      const LevelRun& level = run.levels[l];
      const double values[8] = {level.utilization, level.occupancy, level.occupancy_maximum, level.occupancy_share,
                                static_cast<double>(level.grasped), static_cast<double>(level.migrated),
                                static_cast<double>(level.transfers), static_cast<double>(level.network)};
      for (std::size_t k = 0; k < 8; ++k) levels[l][k].add(values[k]);
      all_grasped += static_cast<double>(level.grasped);
      all_migrated += static_cast<double>(level.migrated);
    }
    grasped.add(all_grasped);
    migrated.add(all_migrated);
    for (std::size_t p = 0; p < run.processor_utilization.size(); ++p) processors[p].add(run.processor_utilization[p]);
    summary.events += run.events;
    if (options.progress) options.progress(replication + 1);
  };
  if (options.runner) options.runner(options.replications, options.threads, replicate, combine);
  else run_replications(options.replications, options.threads, replicate, combine);
  summary.time = time.statistic();
  summary.ideal_time = ideal.statistic();
  summary.ratio = ratio.statistic();
  summary.elementary = elementary.statistic();
  summary.grasped = grasped.statistic();
  summary.migrated = migrated.statistic();
  for (const auto& level : levels)
    summary.levels.push_back({level[0].statistic(), level[1].statistic(), level[2].statistic(), level[3].statistic(), level[4].statistic(),
                              level[5].statistic(), level[6].statistic(), level[7].statistic()});
  for (const auto& processor : processors) summary.processor_utilization.push_back(processor.statistic());
  return summary;
}

}  // namespace augur::sim::hierarchy
