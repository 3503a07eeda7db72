// The allocations of a simulation as a Chrome trace-event timeline (Perfetto): one row per job, one span per
// allocation it held, named by its processors.
#include "manager/simulate.hpp"

namespace augur::manager {

sim::Timeline allocation_timeline(const SimulationResult& result) {
  sim::Timeline timeline;
  for (std::size_t index = 0; index < result.jobs.size(); ++index) {
    const JobOutcome& job = result.jobs[index];
    const int row = static_cast<int>(index) + 1;
    timeline.name_row(row, job.name);
    if (job.start > job.arrival) timeline.span(row, "waits", "wait", job.arrival, job.start);
    for (std::size_t change = 0; change + 1 < job.allocations.size(); ++change) {
      const auto& [start, processors] = job.allocations[change];
      const double end = job.allocations[change + 1].first;
      if (end > start) {
        timeline.span(row, processors > 0 ? std::to_string(processors) + " processors" : "waits", processors > 0 ? "run" : "wait",
                      start, end);
      }
    }
  }
  return timeline;
}

}  // namespace augur::manager
