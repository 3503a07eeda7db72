#include "deterministic.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <string>

#include "structure_walk.hpp"

namespace augur::tspp {
namespace {

constexpr int not_started = -1;
constexpr int ended = -2;

// The most tasks that may be present at once: a serial group runs one child at a time, a parallel one all.
double width(const Node& node) {
  if (node.kind == Node::Kind::Task) return 1.0;
  double result = 0.0;
  for (const Node& child : node.children) {
    result = node.kind == Node::Kind::Serial ? std::max(result, width(child)) : result + width(child);
  }
  return result;
}

struct Visit {
  std::size_t resource;
  double work;
};

// One trajectory of the system, event by event: an event is the end of one or more visits.
class Trajectory {
public:
  Trajectory(const TaskSystem& system, const PredictorOptions& options)
      : system_(system), walk_(system), fcfs_(options.discipline == Discipline::FirstComeFirstServed),
        tasks_(system.tasks.size()), resources_(system.resources.size()), visits_(tasks_), visit_(tasks_, not_started),
        remaining_(tasks_, 0.0), rate_(tasks_, 0.0), start_(tasks_, 0.0), end_(tasks_, 0.0), queue_(resources_),
        time_at_(tasks_ * resources_, 0.0), found_(tasks_ * resources_, 0.0) {
    const int visits = std::max(options.visits, 1);
    // Counted before any is stored: the visits are kept (16 bytes each), so their number is bounded too.
    double total = 0.0;
    for (const Task& task : system.tasks) {
      for (const double demand : task.demands) total += demand > 0.0 ? visits : 0.0;
    }
    if (total > max_visits) {
      throw std::invalid_argument("the deterministic limit keeps at most " + std::to_string(static_cast<long long>(max_visits)) +
                                  " visits, and this system has more (use another method)");
    }
    if (total * width(system.structure) > max_work) {
      throw std::invalid_argument("the deterministic limit handles at most " + std::to_string(static_cast<long long>(max_work)) +
                                  " visits x tasks present at once, and this system has more (use another method)");
    }
    for (std::size_t i = 0; i < tasks_; ++i) {
      const auto& demands = system.tasks[i].demands;
      for (int cycle = 0; cycle < visits; ++cycle) {
        for (std::size_t k = 0; k < resources_; ++k) {
          if (demands[k] > 0.0) visits_[i].push_back({k, demands[k] / visits});
        }
      }
    }
  }

  void run() {
    std::vector<int> started;
    walk_.start(StructureWalk::root, started);
    begin(started);
    std::vector<std::size_t> finished;
    while (active_ > 0) {
      const double step = next_step();
      if (!(step < std::numeric_limits<double>::infinity())) break;  // no task served: cannot happen
      finished.clear();
      for (std::size_t k = 0; k < resources_; ++k) {
        for (int task : queue_[k]) {
          const auto i = static_cast<std::size_t>(task);
          time_at_[i * resources_ + k] += step;
          if (rate_[i] <= 0.0) continue;
          remaining_[i] -= rate_[i] * step;
          const double work = visits_[i][static_cast<std::size_t>(visit_[i])].work;
          if (remaining_[i] <= 1e-9 * work) finished.push_back(i);
        }
      }
      now_ += step;
      std::sort(finished.begin(), finished.end());
      for (std::size_t i : finished) advance(i);
    }
  }

  [[nodiscard]] Prediction prediction() const;

private:
  static constexpr double max_work = 4e9;
  static constexpr double max_visits = 2e7;  // 320 MB of visits
  const TaskSystem& system_;
  StructureWalk walk_;
  bool fcfs_;
  std::size_t tasks_, resources_;
  std::vector<std::vector<Visit>> visits_;
  std::vector<int> visit_;  // the current visit, or not_started / ended
  std::vector<double> remaining_, rate_, start_, end_;
  std::vector<std::vector<int>> queue_;  // per resource: the tasks present, in order of arrival
  std::vector<double> time_at_, found_;  // task x resource
  std::size_t active_ = 0;
  double now_ = 0.0;

  // Each present task's rate (its share of a server) into rate_; the time to the next end of a visit.
  double next_step() {
    double step = std::numeric_limits<double>::infinity();
    for (std::size_t k = 0; k < resources_; ++k) {
      const Resource& resource = system_.resources[k];
      const auto present = static_cast<double>(queue_[k].size());
      const double servers = resource.servers;
      for (std::size_t place = 0; place < queue_[k].size(); ++place) {
        const auto i = static_cast<std::size_t>(queue_[k][place]);
        double rate = 1.0;
        if (resource.kind == Resource::Kind::Queuing) {
          if (fcfs_) rate = static_cast<double>(place) < servers ? 1.0 : 0.0;
          else rate = present <= servers ? 1.0 : servers / present;
        }
        rate_[i] = rate;
        if (rate > 0.0) step = std::min(step, remaining_[i] / rate);
      }
    }
    return std::max(step, 0.0);
  }

  void arrive(std::size_t i) {
    const Visit& visit = visits_[i][static_cast<std::size_t>(visit_[i])];
    found_[i * resources_ + visit.resource] += static_cast<double>(queue_[visit.resource].size());
    queue_[visit.resource].push_back(static_cast<int>(i));
    remaining_[i] = visit.work;
  }

  void begin(std::vector<int>& started) {
    for (std::size_t next = 0; next < started.size(); ++next) {
      const auto i = static_cast<std::size_t>(started[next]);
      start_[i] = now_;
      if (visits_[i].empty()) {
        finish(i, started);
        continue;
      }
      visit_[i] = 0;
      ++active_;
      arrive(i);
    }
  }

  void finish(std::size_t i, std::vector<int>& started) {
    visit_[i] = ended;
    end_[i] = now_;
    walk_.after_end(static_cast<int>(i), [this](int j) { return visit_[static_cast<std::size_t>(j)] == ended; }, started);
  }

  // Ends task i's current visit: on to its next visit, or the task ends and starts what follows it.
  void advance(std::size_t i) {
    auto& queue = queue_[visits_[i][static_cast<std::size_t>(visit_[i])].resource];
    queue.erase(std::find(queue.begin(), queue.end(), static_cast<int>(i)));
    rate_[i] = 0.0;
    if (static_cast<std::size_t>(visit_[i] + 1) < visits_[i].size()) {
      ++visit_[i];
      arrive(i);
      return;
    }
    --active_;
    std::vector<int> started;
    finish(i, started);
    begin(started);
  }
};

Prediction Trajectory::prediction() const {
  std::vector<double> arrival_queue(tasks_ * resources_, 0.0);  // the customers found, per arrival
  for (std::size_t i = 0; i < tasks_; ++i) {
    for (std::size_t k = 0; k < resources_; ++k) {
      std::size_t arrivals = 0;
      for (const Visit& visit : visits_[i]) arrivals += visit.resource == k ? 1 : 0;
      if (arrivals > 0) arrival_queue[i * resources_ + k] = found_[i * resources_ + k] / static_cast<double>(arrivals);
    }
  }
  return trajectory_prediction(system_, {start_, end_, time_at_, arrival_queue, now_});
}

}  // namespace

Prediction trajectory_prediction(const TaskSystem& system, const TrajectoryFigures& figures) {
  const std::size_t tasks = system.tasks.size();
  const std::size_t resources = system.resources.size();
  const double now = figures.completion;
  Prediction prediction;
  prediction.converged = true;
  prediction.completion = {now, 0.0};
  prediction.tasks.resize(tasks);
  prediction.resources.assign(resources, {});
  for (std::size_t i = 0; i < tasks; ++i) {
    TaskPrediction& task = prediction.tasks[i];
    task.start = {figures.start[i], 0.0};
    task.end = {figures.end[i], 0.0};
    task.residence = {figures.end[i] - figures.start[i], 0.0};
    const auto first = static_cast<std::ptrdiff_t>(i * resources);
    const auto last = static_cast<std::ptrdiff_t>((i + 1) * resources);
    task.residence_at.assign(figures.time_at.begin() + first, figures.time_at.begin() + last);
    task.arrival_queue.assign(figures.arrival_queue.begin() + first, figures.arrival_queue.begin() + last);
    task.queue_of_task.assign(resources, 0.0);
    double total = 0.0;
    for (double value : task.residence_at) total += value;
    for (std::size_t k = 0; k < resources; ++k) {
      if (total > 0.0) task.queue_of_task[k] = task.residence_at[k] / total;
      if (now <= 0.0) continue;
      const Resource& resource = system.resources[k];
      const double servers = resource.kind == Resource::Kind::Delay ? 1.0 : resource.servers;
      prediction.resources[k].utilization += system.tasks[i].demands[k] / (servers * now);
      prediction.resources[k].queue_length += task.residence_at[k] / now;
    }
  }
  return prediction;
}

Prediction predict_deterministic(const TaskSystem& system, const PredictorOptions& options) {
  Trajectory trajectory(system, options);
  trajectory.run();
  return trajectory.prediction();
}

}  // namespace augur::tspp
