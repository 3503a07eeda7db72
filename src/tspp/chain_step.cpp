#include "chain_step.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace augur::tspp::exact {
namespace {

// The phases of each task: V visit cycles over its resources in declaration order, S phases per visit,
// each of mean demand / (V S), as the simulator's visits.
std::vector<std::vector<Phase>> make_phases(const TaskSystem& system, const PredictorOptions& options) {
  std::vector<std::vector<Phase>> phases(system.tasks.size());
  const int visits = std::max(options.visits, 1);
  const int stages = std::max(options.stages, 1);
  for (std::size_t i = 0; i < system.tasks.size(); ++i) {
    const auto& demands = system.tasks[i].demands;
    std::size_t count = 0;
    for (double demand : demands) count += demand > 0.0 ? 1 : 0;
    if (count * static_cast<std::size_t>(visits) * static_cast<std::size_t>(stages) >= ended - 1) {
      throw std::invalid_argument("the exact method handles at most 65000 phases per task (task '" + system.tasks[i].name +
                                  "' has visits x resources x stages = " +
                                  std::to_string(count * static_cast<std::size_t>(visits * stages)) + ")");
    }
    for (int cycle = 0; cycle < visits; ++cycle) {
      for (std::size_t k = 0; k < demands.size(); ++k) {
        if (demands[k] <= 0.0) continue;
        const double rate = static_cast<double>(visits) * stages / demands[k];
        for (int stage = 0; stage < stages; ++stage) phases[i].push_back({static_cast<int>(k), rate, stage == 0});
      }
    }
  }
  return phases;
}

}  // namespace

Stepper::Stepper(const TaskSystem& system, const PredictorOptions& options)
    : system_(system), structure_(system), fcfs_(options.discipline == Discipline::FirstComeFirstServed),
      tasks_(system.tasks.size()), resources_(system.resources.size()), width_(tasks_ * (fcfs_ ? 2 : 1)),
      phases_(make_phases(system, options)) {}

void Stepper::start(std::vector<std::uint16_t>& state, std::vector<Arrival>& arrivals) {
  state.assign(width_, not_started);
  started_.clear();
  structure_.start(StructureWalk::root, started_);
  arrivals_.clear();
  begin(state, started_);
  arrivals = arrivals_;
}

double Stepper::exit_rate(const std::vector<std::uint16_t>& current) {
  count_customers(current);
  double total = 0.0;
  for (std::size_t task = 0; task < tasks_; ++task) {
    if (active(current[task])) total += service_rate(current, task);
  }
  return total;
}

bool Stepper::queues(int resource) const {
  return system_.resources[static_cast<std::size_t>(resource)].kind == Resource::Kind::Queuing;
}

int Stepper::servers(int resource) const { return system_.resources[static_cast<std::size_t>(resource)].servers; }

int Stepper::present(const std::vector<std::uint16_t>& state, int resource) const {
  int count = 0;
  for (std::size_t j = 0; j < tasks_; ++j) count += active(state[j]) && resource_of(state.data(), j) == resource ? 1 : 0;
  return count;
}

void Stepper::count_customers(const std::vector<std::uint16_t>& state) {
  counts_.assign(resources_, 0);
  for (std::size_t task = 0; task < tasks_; ++task) {
    if (active(state[task])) ++counts_[static_cast<std::size_t>(resource_of(state.data(), task))];
  }
}

void Stepper::arrive(std::vector<std::uint16_t>& state, std::size_t task) {
  const int resource = resource_of(state.data(), task);
  const int found = present(state, resource) - 1;  // the task itself is already there
  arrivals_.push_back({static_cast<int>(task), resource, found});
  if (fcfs_) state[tasks_ + task] = queues(resource) ? static_cast<std::uint16_t>(found) : 0;
}

void Stepper::leave(std::vector<std::uint16_t>& state, std::size_t task) {
  if (!fcfs_) return;
  const int resource = resource_of(state.data(), task);
  const std::uint16_t place = state[tasks_ + task];
  if (queues(resource)) {
    for (std::size_t j = 0; j < tasks_; ++j) {
      if (j != task && active(state[j]) && resource_of(state.data(), j) == resource && state[tasks_ + j] > place) {
        --state[tasks_ + j];
      }
    }
  }
  state[tasks_ + task] = 0;
}

// Starts the tasks of `started` (and of those they start in turn, through tasks without demand).
void Stepper::begin(std::vector<std::uint16_t>& state, std::vector<int>& started) {
  for (std::size_t next = 0; next < started.size(); ++next) {
    const auto task = static_cast<std::size_t>(started[next]);
    if (phases_[task].empty()) {
      state[task] = ended;
      structure_.after_end(static_cast<int>(task), [&state](int j) { return state[static_cast<std::size_t>(j)] == ended; }, started);
    } else {
      state[task] = 1;
      arrive(state, task);
    }
  }
}

// Ends the current phase of `task`.
void Stepper::advance(std::vector<std::uint16_t>& state, std::size_t task) {
  const auto& phases = phases_[task];
  const std::size_t next = state[task];  // the index of the next phase
  if (next < phases.size() && !phases[next].arrives) {
    ++state[task];
    return;
  }
  leave(state, task);
  if (next < phases.size()) {
    ++state[task];
    arrive(state, task);
    return;
  }
  state[task] = ended;
  started_.clear();
  structure_.after_end(static_cast<int>(task), [&state](int j) { return state[static_cast<std::size_t>(j)] == ended; }, started_);
  begin(state, started_);
}

// At a FCFS centre of several servers the order of the customers in service does not matter: they
// take the first places in the order of their numbers, so that such states are one.
void Stepper::normalize(std::vector<std::uint16_t>& state) const {
  if (!fcfs_) return;
  for (std::size_t k = 0; k < resources_; ++k) {
    const int resource = static_cast<int>(k);
    if (!queues(resource) || servers(resource) == 1) continue;
    std::uint16_t place = 0;
    for (std::size_t j = 0; j < tasks_; ++j) {
      if (active(state[j]) && resource_of(state.data(), j) == resource && state[tasks_ + j] < servers(resource)) {
        state[tasks_ + j] = place++;
      }
    }
  }
}

// The rate at which `task`'s current phase ends in `state`, with counts_ customers at each resource.
double Stepper::service_rate(const std::vector<std::uint16_t>& state, std::size_t task) const {
  const Phase& phase = phases_[task][static_cast<std::size_t>(state[task] - 1)];
  if (!queues(phase.resource)) return phase.rate;
  const int count = counts_[static_cast<std::size_t>(phase.resource)];
  const int servers_here = servers(phase.resource);
  if (!fcfs_) return count <= servers_here ? phase.rate : phase.rate * servers_here / count;
  return state[tasks_ + task] < servers_here ? phase.rate : 0.0;
}

}  // namespace augur::tspp::exact
