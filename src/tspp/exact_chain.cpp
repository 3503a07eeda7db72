#include "exact_chain.hpp"

#include "structure_walk.hpp"

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

// A transition being built: the successor and the arrivals it makes (task, resource, customers found).
struct Arrival {
  int task;
  int resource;
  int found;
};

class Builder {
public:
  Builder(const TaskSystem& system, const PredictorOptions& options, std::size_t max_states)
      : system_(system), structure_(system),
        fcfs_(options.discipline == Discipline::FirstComeFirstServed), index_(chain_, max_states, "the exact method") {
    chain_.tasks = system.tasks.size();
    chain_.resources = system.resources.size();
    chain_.width = chain_.tasks * (fcfs_ ? 2 : 1);
    chain_.phases = make_phases(system, options);
    chain_.arrival_found.assign(chain_.tasks * chain_.resources, 0.0);
  }

  Chain build() {
    std::vector<std::uint16_t> state(chain_.width, not_started);
    std::vector<int> started;
    structure_.start(StructureWalk::root, started);
    arrivals_.clear();
    begin(state, started);
    index_.intern(state);
    chain_.reach[0] = 1.0;
    for (const Arrival& arrival : arrivals_) {
      chain_.arrival_found[static_cast<std::size_t>(arrival.task) * chain_.resources + static_cast<std::size_t>(arrival.resource)] +=
          arrival.found;
    }
    chain_.first.push_back(0);
    std::vector<std::uint16_t> current(chain_.width);
    for (std::size_t s = 0; s < chain_.exit_rate.size(); ++s) {
      std::copy_n(chain_.state(s), chain_.width, current.begin());
      expand(s, current);
    }
    return std::move(chain_);
  }

private:
  const TaskSystem& system_;
  StructureWalk structure_;
  bool fcfs_;
  Chain chain_;
  StateIndex index_;
  std::vector<Arrival> arrivals_;     // of the transition being built
  struct Successor {
    std::uint32_t target;
    double rate;
    std::size_t arrivals_begin, arrivals_end;
  };
  std::vector<Successor> successors_;
  std::vector<Arrival> successor_arrivals_;
  std::vector<int> counts_;             // customers at each resource in the state being expanded
  std::vector<std::uint16_t> next_;     // the successor being built

  [[nodiscard]] bool queues(int resource) const {
    return system_.resources[static_cast<std::size_t>(resource)].kind == Resource::Kind::Queuing;
  }
  [[nodiscard]] int servers(int resource) const { return system_.resources[static_cast<std::size_t>(resource)].servers; }
  [[nodiscard]] int resource_of(const std::vector<std::uint16_t>& state, std::size_t task) const {
    return chain_.phases[task][static_cast<std::size_t>(state[task] - 1)].resource;
  }
  [[nodiscard]] static bool active(std::uint16_t status) { return status != not_started && status != ended; }

  [[nodiscard]] int present(const std::vector<std::uint16_t>& state, int resource) const {
    int count = 0;
    for (std::size_t j = 0; j < chain_.tasks; ++j) count += active(state[j]) && resource_of(state, j) == resource ? 1 : 0;
    return count;
  }

  void arrive(std::vector<std::uint16_t>& state, std::size_t task) {
    const int resource = resource_of(state, task);
    const int found = present(state, resource) - 1;  // the task itself is already there
    arrivals_.push_back({static_cast<int>(task), resource, found});
    if (fcfs_) state[chain_.tasks + task] = queues(resource) ? static_cast<std::uint16_t>(found) : 0;
  }

  void leave(std::vector<std::uint16_t>& state, std::size_t task) {
    if (!fcfs_) return;
    const int resource = resource_of(state, task);
    const std::uint16_t place = state[chain_.tasks + task];
    if (queues(resource)) {
      for (std::size_t j = 0; j < chain_.tasks; ++j) {
        if (j != task && active(state[j]) && resource_of(state, j) == resource && state[chain_.tasks + j] > place) {
          --state[chain_.tasks + j];
        }
      }
    }
    state[chain_.tasks + task] = 0;
  }

  // Starts the tasks of `started` (and of those they start in turn, through tasks without demand).
  void begin(std::vector<std::uint16_t>& state, std::vector<int>& started) {
    for (std::size_t next = 0; next < started.size(); ++next) {
      const auto task = static_cast<std::size_t>(started[next]);
      if (chain_.phases[task].empty()) {
        state[task] = ended;
        structure_.after_end(static_cast<int>(task), [&state](int j) { return state[static_cast<std::size_t>(j)] == ended; }, started);
      } else {
        state[task] = 1;
        arrive(state, task);
      }
    }
  }

  // Ends the current phase of `task`.
  void advance(std::vector<std::uint16_t>& state, std::size_t task) {
    const auto& phases = chain_.phases[task];
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
    std::vector<int> started;
    structure_.after_end(static_cast<int>(task), [&state](int j) { return state[static_cast<std::size_t>(j)] == ended; }, started);
    begin(state, started);
  }

  // At a FCFS centre of several servers the order of the customers in service does not matter: they
  // take the first places in the order of their numbers, so that such states are one.
  void normalize(std::vector<std::uint16_t>& state) const {
    if (!fcfs_) return;
    for (std::size_t k = 0; k < chain_.resources; ++k) {
      const int resource = static_cast<int>(k);
      if (!queues(resource) || servers(resource) == 1) continue;
      std::uint16_t place = 0;
      for (std::size_t j = 0; j < chain_.tasks; ++j) {
        if (active(state[j]) && resource_of(state, j) == resource && state[chain_.tasks + j] < servers(resource)) {
          state[chain_.tasks + j] = place++;
        }
      }
    }
  }

  // The rate at which `task`'s current phase ends in `state`, with `counts` customers at each resource.
  [[nodiscard]] double service_rate(const std::vector<std::uint16_t>& state, std::size_t task, const std::vector<int>& counts) const {
    const Phase& phase = chain_.phases[task][static_cast<std::size_t>(state[task] - 1)];
    if (!queues(phase.resource)) return phase.rate;
    const int count = counts[static_cast<std::size_t>(phase.resource)];
    const int servers_here = servers(phase.resource);
    if (!fcfs_) return count <= servers_here ? phase.rate : phase.rate * servers_here / count;
    return state[chain_.tasks + task] < servers_here ? phase.rate : 0.0;
  }

  void expand(std::size_t s, const std::vector<std::uint16_t>& current) {
    successors_.clear();
    successor_arrivals_.clear();
    double total = 0.0;
    counts_.assign(chain_.resources, 0);
    for (std::size_t task = 0; task < chain_.tasks; ++task) {
      if (active(current[task])) ++counts_[static_cast<std::size_t>(resource_of(current, task))];
    }
    for (std::size_t task = 0; task < chain_.tasks; ++task) {
      if (!active(current[task])) continue;
      const double rate = service_rate(current, task, counts_);
      if (rate <= 0.0) continue;
      next_ = current;
      arrivals_.clear();
      advance(next_, task);
      normalize(next_);
      const std::size_t begin_arrivals = successor_arrivals_.size();
      successor_arrivals_.insert(successor_arrivals_.end(), arrivals_.begin(), arrivals_.end());
      successors_.push_back({index_.intern(next_), rate, begin_arrivals, successor_arrivals_.size()});
      total += rate;
    }
    chain_.exit_rate[s] = total;
    const double reach = chain_.reach[s];
    for (const Successor& successor : successors_) {
      const double probability = successor.rate / total;
      chain_.target.push_back(successor.target);
      chain_.probability.push_back(probability);
      chain_.reach[successor.target] += reach * probability;
      for (std::size_t a = successor.arrivals_begin; a < successor.arrivals_end; ++a) {
        const Arrival& arrival = successor_arrivals_[a];
        chain_.arrival_found[static_cast<std::size_t>(arrival.task) * chain_.resources + static_cast<std::size_t>(arrival.resource)] +=
            reach * probability * arrival.found;
      }
    }
    chain_.first.push_back(static_cast<std::uint32_t>(chain_.target.size()));
  }

};

}  // namespace

StateIndex::StateIndex(Chain& chain, std::size_t max_states, std::string method)
    : chain_(chain), max_states_(max_states), method_(std::move(method)), slots_(1024, empty_slot) {}

std::uint64_t StateIndex::hash(const std::uint16_t* words) const {
  std::uint64_t h = 0x9E3779B97F4A7C15ULL;
  for (std::size_t w = 0; w < chain_.width; ++w) {
    h = (h ^ words[w]) * 0x100000001B3ULL;
    h ^= h >> 29;
  }
  return h;
}

std::uint32_t StateIndex::intern(const std::vector<std::uint16_t>& state) {
  if (2 * (chain_.states() + 1) > slots_.size()) grow();
  const std::size_t mask = slots_.size() - 1;
  for (std::size_t slot = hash(state.data()) & mask;; slot = (slot + 1) & mask) {
    const std::uint32_t number = slots_[slot];
    if (number == empty_slot) {
      if (chain_.states() >= max_states_) {
        throw std::invalid_argument(method_ + " handles at most " + std::to_string(max_states_) +
                                    " states of the Markov chain, and this system has more (use another method)");
      }
      slots_[slot] = static_cast<std::uint32_t>(chain_.states());
      chain_.words.insert(chain_.words.end(), state.begin(), state.end());
      chain_.exit_rate.push_back(0.0);
      chain_.reach.push_back(0.0);
      return slots_[slot];
    }
    if (std::equal(state.begin(), state.end(), chain_.state(number))) return number;
  }
}

void StateIndex::grow() {
  slots_.assign(slots_.size() * 2, empty_slot);
  const std::size_t mask = slots_.size() - 1;
  for (std::size_t s = 0; s < chain_.states(); ++s) {
    std::size_t slot = hash(chain_.state(s)) & mask;
    while (slots_[slot] != empty_slot) slot = (slot + 1) & mask;
    slots_[slot] = static_cast<std::uint32_t>(s);
  }
}

Chain build_chain(const TaskSystem& system, const PredictorOptions& options, std::size_t max_states) {
  return Builder(system, options, max_states).build();
}

}  // namespace augur::tspp::exact
