// One replication of the task-system simulator on the discrete-event engine (docs/sim.md): the stations of the
// resources (FCFS, processor sharing, delay), the tasks' visits, the service intervals.
#include "task_system_replication.hpp"

#include <algorithm>
#include <cmath>
#include <deque>
#include <limits>
#include <map>
#include <memory>

#include "augur/sim/engine.hpp"

namespace augur::sim::task_system_detail {
namespace {

using tspp::Node;
using tspp::Resource;
using tspp::TaskSystem;

// One replication of the task system.
class Replication {
public:
  Replication(const TaskSystem& system, const TaskSystemOptions& options, std::uint64_t index, const TraceSink* trace)
      : system_(system), options_(options), random_(options.seed, index), trace_(trace) {
    const std::size_t tasks = system.tasks.size();
    const std::size_t resources = system.resources.size();
    start_.assign(tasks, 0.0);
    end_.assign(tasks, 0.0);
    time_at_.assign(tasks * resources, 0.0);
    arrival_sum_.assign(tasks * resources, 0.0);
    arrival_count_.assign(tasks * resources, 0.0);
    stations_.resize(resources);
  }

  void run() {
    start(system_.structure, [this] { completion_ = engine_.now(); });
    engine_.run();
    for (std::size_t k = 0; k < stations_.size(); ++k) account(k);
  }

  const TaskSystem& system_;
  const TaskSystemOptions& options_;
  Engine engine_;
  RandomStream random_;
  const TraceSink* trace_;  // none: no timeline
  double completion_ = 0.0;
  std::vector<double> start_, end_, time_at_, arrival_sum_, arrival_count_;

  struct Job {
    int task;
    double arrival;
    double service_start;
    double remaining;  // processor sharing
    int lane = 0;      // the timeline's row among the station's concurrent services (when traced)
  };
  struct Station {
    std::deque<Job> waiting;            // FCFS
    int busy = 0;                       // FCFS: servers in use
    std::vector<Job> sharing;           // processor sharing
    std::uint64_t version = 0;          // processor sharing: the completion event still valid
    int present = 0;
    double last_change = 0.0;
    double present_integral = 0.0;      // integral of customers present
    double busy_integral = 0.0;         // integral of busy servers
    std::vector<char> lanes;            // traced: which lanes of the timeline are in use
  };
  std::vector<Station> stations_;

  [[nodiscard]] double servers(std::size_t k) const {
    const Resource& resource = system_.resources[k];
    return resource.kind == Resource::Kind::Delay ? std::numeric_limits<double>::infinity() : resource.servers;
  }

  void account(std::size_t k) {
    Station& station = stations_[k];
    const double elapsed = engine_.now() - station.last_change;
    station.present_integral += elapsed * station.present;
    station.busy_integral += elapsed * std::min<double>(station.present, servers(k));
    station.last_change = engine_.now();
  }

  // ---- timeline lanes ----
  // Services that overlap at one station (several servers, a delay, processor sharing) go to separate
  // lanes, each a row of its own, so that no row holds partially overlapping slices: a service takes the
  // lowest lane free when it begins and gives it back when it ends.

  int take_lane(std::size_t k) {
    if (trace_ == nullptr) return 0;
    std::vector<char>& lanes = stations_[k].lanes;
    const auto free = std::find(lanes.begin(), lanes.end(), char{0});
    const auto lane = static_cast<std::size_t>(free - lanes.begin());
    if (free == lanes.end()) lanes.push_back(1);
    else *free = 1;
    return static_cast<int>(lane);
  }

  void give_lane(std::size_t k, int lane) {
    if (trace_ != nullptr) stations_[k].lanes[static_cast<std::size_t>(lane)] = 0;
  }

  // ---- the structure ----

  void start(const Node& node, std::function<void()> done) {
    if (node.kind == Node::Kind::Task) {
      start_task(node.task, std::move(done));
      return;
    }
    if (node.kind == Node::Kind::Serial) {
      start_serial(node, 0, std::move(done));
      return;
    }
    auto remaining = std::make_shared<std::size_t>(node.children.size());
    for (const Node& child : node.children) {
      start(child, [remaining, done] {
        if (--*remaining == 0) done();
      });
    }
  }

  void start_serial(const Node& node, std::size_t child, std::function<void()> done) {
    if (child == node.children.size()) {
      done();
      return;
    }
    start(node.children[child], [this, &node, child, done] { start_serial(node, child + 1, done); });
  }

  // ---- a task: V cycles over its resources ----

  void start_task(int task, std::function<void()> done) {
    start_[static_cast<std::size_t>(task)] = engine_.now();
    next_visit(task, 0, 0, std::move(done));
  }

  // Visits, from (cycle, resource) on, the next resource the task has a demand on.
  void next_visit(int task, int cycle, std::size_t resource, std::function<void()> done) {
    const auto& demands = system_.tasks[static_cast<std::size_t>(task)].demands;
    while (cycle < options_.visits) {
      while (resource < demands.size() && demands[resource] <= 0.0) ++resource;
      if (resource < demands.size()) break;
      resource = 0;
      ++cycle;
    }
    if (cycle >= options_.visits) {
      end_[static_cast<std::size_t>(task)] = engine_.now();
      // Through the event queue, not a direct call: a long chain of tasks without demand would
      // otherwise recurse once per task.
      engine_.schedule(0.0, std::move(done));
      return;
    }
    const double mean = demands[resource] / options_.visits;
    const double service =
        options_.service == ServiceDistribution::Exponential ? random_.exponential(mean) : mean;
    arrive(task, resource, service, [this, task, cycle, resource, done] { next_visit(task, cycle, resource + 1, done); });
  }

  void arrive(int task, std::size_t k, double service, std::function<void()> leave) {
    Station& station = stations_[k];
    const std::size_t cell = static_cast<std::size_t>(task) * stations_.size() + k;
    arrival_sum_[cell] += station.present;
    arrival_count_[cell] += 1.0;
    account(k);
    ++station.present;
    Job job{task, engine_.now(), engine_.now(), service};
    const Resource& resource = system_.resources[k];
    if (resource.kind == Resource::Kind::Delay) {
      job.lane = take_lane(k);
      engine_.schedule(service, [this, job, k, leave] { depart(job, k, leave); });
      return;
    }
    if (options_.discipline == Discipline::ProcessorSharing) {
      advance_sharing(k);
      leaves_[{task, k}] = leave;
      job.lane = take_lane(k);
      station.sharing.push_back(job);
      reschedule_sharing(k);
      return;
    }
    if (station.busy < resource.servers) {
      ++station.busy;
      job.lane = take_lane(k);
      engine_.schedule(service, [this, job, k, leave] { finish_fcfs(job, k, leave); });
    } else {
      leaves_[{task, k}] = leave;
      station.waiting.push_back(job);
    }
  }

  void finish_fcfs(const Job& job, std::size_t k, const std::function<void()>& leave) {
    Station& station = stations_[k];
    --station.busy;
    give_lane(k, job.lane);
    if (!station.waiting.empty()) {
      Job next = station.waiting.front();
      station.waiting.pop_front();
      next.service_start = engine_.now();
      next.lane = take_lane(k);
      ++station.busy;
      auto next_leave = leaves_[{next.task, k}];
      engine_.schedule(next.remaining, [this, next, k, next_leave] { finish_fcfs(next, k, next_leave); });
    }
    depart(job, k, leave);
  }

  void depart(const Job& job, std::size_t k, const std::function<void()>& leave) {
    account(k);
    --stations_[k].present;
    time_at_[static_cast<std::size_t>(job.task) * stations_.size() + k] += engine_.now() - job.arrival;
    if (trace_ != nullptr) {
      // A queuing centre served first come first served gave its lane back in finish_fcfs, to its next job.
      const bool queued_fcfs = system_.resources[k].kind != Resource::Kind::Delay &&
                               options_.discipline == Discipline::FirstComeFirstServed;
      if (!queued_fcfs) give_lane(k, job.lane);
      (*trace_)({job.task, static_cast<int>(k), job.service_start, engine_.now(), job.lane});
    }
    leave();
  }

  // ---- processor sharing ----

  [[nodiscard]] double sharing_rate(std::size_t k) const {
    const double count = static_cast<double>(stations_[k].sharing.size());
    return count <= servers(k) ? 1.0 : servers(k) / count;
  }

  std::vector<double> sharing_since_;

  void advance_sharing(std::size_t k) {
    if (sharing_since_.size() != stations_.size()) sharing_since_.assign(stations_.size(), 0.0);
    Station& station = stations_[k];
    const double elapsed = engine_.now() - sharing_since_[k];
    const double rate = station.sharing.empty() ? 0.0 : sharing_rate(k);
    for (Job& job : station.sharing) job.remaining -= elapsed * rate;
    sharing_since_[k] = engine_.now();
  }

  void reschedule_sharing(std::size_t k) {
    Station& station = stations_[k];
    const std::uint64_t version = ++station.version;
    if (station.sharing.empty()) return;
    double least = std::numeric_limits<double>::infinity();
    for (const Job& job : station.sharing) least = std::min(least, job.remaining);
    engine_.schedule(std::max(least, 0.0) / sharing_rate(k), [this, k, version] {
      if (stations_[k].version != version) return;  // superseded by an arrival or departure
      advance_sharing(k);
      Station& here = stations_[k];
      auto finished = std::min_element(here.sharing.begin(), here.sharing.end(),
                                       [](const Job& a, const Job& b) { return a.remaining < b.remaining; });
      const Job job = *finished;
      here.sharing.erase(finished);
      reschedule_sharing(k);
      auto leave = leaves_[{job.task, k}];
      depart(job, k, leave);
    });
  }

  std::map<std::pair<int, std::size_t>, std::function<void()>> leaves_;
};

}  // namespace

Outcome replicate(const TaskSystem& system, const TaskSystemOptions& options, int index, const TraceSink* trace) {
  Replication replication(system, options, static_cast<std::uint64_t>(index), trace);
  replication.run();
  Outcome outcome;
  outcome.completion = replication.completion_;
  outcome.events = replication.engine_.events_run();
  outcome.start = std::move(replication.start_);
  outcome.end = std::move(replication.end_);
  outcome.time_at = std::move(replication.time_at_);
  outcome.arrival_sum = std::move(replication.arrival_sum_);
  outcome.arrival_count = std::move(replication.arrival_count_);
  for (const auto& station : replication.stations_) {
    outcome.present_integral.push_back(station.present_integral);
    outcome.busy_integral.push_back(station.busy_integral);
  }
  return outcome;
}

}  // namespace augur::sim::task_system_detail
