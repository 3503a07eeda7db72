// One replication of the task-system simulator (task_system_replication.cpp), private to sim/task_system:
// task_system.cpp combines the replications and writes their timeline.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "augur/sim/task_system.hpp"

namespace augur::sim::task_system_detail {

// Where the service intervals of a replication go, as they end.
using TraceSink = std::function<void(const TraceInterval&)>;

// What the combination needs of one replication, moved out of it (its engine holds closures on it).
struct Outcome {
  double completion = 0.0;
  std::uint64_t events = 0;
  std::vector<double> start, end, time_at, arrival_sum, arrival_count;
  std::vector<double> present_integral, busy_integral;  // per resource
};

// Replication `index` of the task system (its random streams depend on the seed and the index only), its
// service intervals handed to `trace` when given.
Outcome replicate(const tspp::TaskSystem& system, const TaskSystemOptions& options, int index, const TraceSink* trace);

}  // namespace augur::sim::task_system_detail
