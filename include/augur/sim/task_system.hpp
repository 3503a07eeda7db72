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
};

// A quantity over the replications: its mean, its standard deviation, and the half-width of the 95%
// confidence interval of the mean.
struct Statistic {
  double mean = 0.0;
  double deviation = 0.0;
  double half_width = 0.0;
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
};

struct TaskSystemSimulation {
  Statistic completion;
  std::vector<SimulatedTask> tasks;
  std::vector<SimulatedResource> resources;
  int replications = 0;
  std::uint64_t events = 0;
  std::vector<TraceInterval> trace;  // first replication, when asked for
};

// `progress(done, total)` is called after each replication when given.
[[nodiscard]] TaskSystemSimulation simulate(const tspp::TaskSystem& system, const TaskSystemOptions& options,
                                            bool record_trace = false,
                                            const std::function<void(int, int)>& progress = {});

// Student's t quantile t_{0.975, degrees} (an expansion accurate to 0.5% from 3 degrees on).
[[nodiscard]] double student_t_975(int degrees);

}  // namespace augur::sim
