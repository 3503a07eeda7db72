// The task-system simulator: runs a TSPP task system (include/augur/tspp.hpp) on its queueing network
// by discrete-event simulation, without the predictor's assumptions, to check the predictor.
// Each task is a customer that spends its demand at its resources in V visit cycles (in each cycle it
// visits, in declaration order, every resource it has a demand on, for demand / V of service on
// average). Method and options: docs/sim.md.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "augur/sim/engine.hpp"
#include "augur/tspp.hpp"

namespace augur::sim {

enum class ServiceDistribution { Exponential, Deterministic };
enum class Discipline { FirstComeFirstServed, ProcessorSharing };

struct TaskSystemOptions {
  int replications = 1000;
  std::uint64_t seed = 1;
  int visits = 1;  // V
  ServiceDistribution service = ServiceDistribution::Exponential;
  Discipline discipline = Discipline::FirstComeFirstServed;
  // Threads the replications run on (0: the hardware concurrency), capped by the replications. The
  // results are the same bits for any count (run_replications).
  int threads = 1;
};

struct SimulatedTask {
  Statistic start, residence, end;
  std::vector<double> arrival_queue;  // mean number of customers found at each resource on arrival
  std::vector<double> queue_of_task;  // mean fraction of the task's residence spent at each resource
};

struct SimulatedResource {
  double utilization = 0.0;   // busy servers / (servers x completion time), mean over replications
  double queue_length = 0.0;  // customers present (in service and waiting), time average
};

// One service interval, for the timeline of the first replication.
struct TraceInterval {
  int task = 0;
  int resource = 0;
  double start = 0.0;
  double end = 0.0;
  int lane = 0;  // among the services overlapping at the resource: each lane is a row of the timeline
};

struct TaskSystemSimulation {
  Statistic completion;
  std::vector<SimulatedTask> tasks;
  std::vector<SimulatedResource> resources;
  int replications = 0;
  std::uint64_t events = 0;
  std::vector<TraceInterval> trace;  // first replication, when asked for
};

// `progress(done, total)` is called on the calling thread after each replication, in order, when given.
[[nodiscard]] TaskSystemSimulation simulate(const tspp::TaskSystem& system, const TaskSystemOptions& options,
                                            bool record_trace = false,
                                            const std::function<void(int, int)>& progress = {});

// The same simulation with the timeline of the first replication written into `timeline` as it runs (augur
// sim --trace): the rows first, then one span per service as it ends, the text task_system_timeline() gives
// for the recorded trace, with memory that does not grow with the services. `timeline` is called by the
// thread that runs the first replication, one call at a time; the caller calls timeline.finish().
[[nodiscard]] TaskSystemSimulation simulate(const tspp::TaskSystem& system, const TaskSystemOptions& options,
                                            TimelineWriter& timeline, const std::function<void(int, int)>& progress = {});

// The recorded trace as a timeline (augur sim --trace): one row per resource, one span per service named
// by its task, in the resource's category.
[[nodiscard]] Timeline task_system_timeline(const tspp::TaskSystem& system, const TaskSystemSimulation& result);

}  // namespace augur::sim
