// The transient predictor (docs/tspp.md, "The transient method"): its iteration on a grid of time, sized
// and refined, and its outputs. The model and the class: transient_model.hpp.
#include "transient.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <string>

#include "transient_model.hpp"

namespace augur::tspp::transient_model {

Moments moments_of(const std::vector<double>& mass, double step, double offset) {
  double total = 0.0;
  double first = 0.0;
  double second = 0.0;
  for (std::size_t n = 0; n < mass.size(); ++n) {
    if (mass[n] == 0.0) continue;
    const double t = (static_cast<double>(n) + 0.5) * step - offset;
    total += mass[n];
    first += mass[n] * t;
    second += mass[n] * t * t;
  }
  if (total <= 0.0) return {};
  const double mean = first / total;
  return {mean, std::max(0.0, second / total - mean * mean)};
}

Transient::Transient(const TaskSystem& system, const PredictorOptions& options)
    : system_(system), options_(options), quadrature_(make_quadrature()), resources_(system.resources.size()) {
  if (options.visits < 1 || options.stages < 1 || options.grid < 16) {
    throw std::invalid_argument("transient predictor: visits and stages must be at least 1 and the grid at least 16 bins");
  }
  tasks_.resize(system.tasks.size());
  for (std::size_t i = 0; i < system.tasks.size(); ++i) {
    TaskModel& task = tasks_[i];
    for (std::size_t k = 0; k < resources_; ++k) {
      if (system.tasks[i].demands[k] > 0.0) task.resources.push_back(static_cast<int>(k));
    }
    for (int visit = 0; visit < options.visits; ++visit) {
      for (std::size_t slot = 0; slot < task.resources.size(); ++slot) {
        const double demand = system.tasks[i].demands[static_cast<std::size_t>(task.resources[slot])];
        const double stage = demand / options.visits / options.stages;
        for (int s = 0; s < options.stages; ++s) task.phases.push_back({static_cast<int>(slot), 1.0 / stage});
      }
    }
  }
  root_ = flatten(system.structure);
  // Servers per resource: 0 for a delay centre or for a centre with a server for every task that uses it.
  servers_.assign(resources_, 0);
  for (std::size_t k = 0; k < resources_; ++k) {
    const Resource& resource = system.resources[k];
    if (resource.kind == Resource::Kind::Delay) continue;
    int users = 0;
    for (const auto& task : system.tasks) users += task.demands[k] > 0.0 ? 1 : 0;
    if (resource.servers < users) servers_[k] = resource.servers;
  }
  width_ = quadrature_.nodes.size() + 1;
  for (int servers : servers_) {
    if (servers > 1 && servers <= max_tracked_servers) width_ = std::max(width_, quadrature_.nodes.size() + 1 + static_cast<std::size_t>(servers - 1));
  }
  std::size_t offset = 0;
  for (FlatNode& node : nodes_) {
    node.scratch = offset;
    // A parallel node: its channel, count + 1 suffix products, and two working channels.
    offset += width_ * (node.kind == Node::Kind::Parallel ? node.children.size() + 4 : 1);
  }
  scratch_.assign(offset, 0.0);
}

Prediction Transient::run() {
  double horizon = initial_horizon();
  if (horizon <= 0.0) return zero_prediction();
  // Size the time axis on a coarse grid: grow it until (almost) every replication ends within it,
  // then fit it to the completion time's distribution (mean + 12 standard deviations). Then refine
  // the grid by halves to the one asked for, each solution starting from the previous one's rates.
  Prediction prediction;
  int bins = std::max(64, options_.grid / 8);
  for (int attempt = 0; attempt < 12; ++attempt) {
    if (solve(horizon, bins, options_.tolerance, prediction) <= 1e-6) break;
    horizon *= 2.0;
  }
  horizon = std::min(horizon, prediction.completion.mean + 12.0 * prediction.completion.deviation());
  while (true) {
    bins = std::min(options_.grid, bins * 2);
    for (int attempt = 0; attempt < 12; ++attempt) {
      if (solve(horizon, bins, options_.tolerance, prediction) <= 1e-6) break;
      horizon *= 2.0;
    }
    if (bins == options_.grid) break;
  }
  return prediction;
}

int Transient::flatten(const Node& node) {
  const int id = static_cast<int>(nodes_.size());
  nodes_.emplace_back();
  nodes_[static_cast<std::size_t>(id)].kind = node.kind;
  nodes_[static_cast<std::size_t>(id)].task = node.task;
  std::vector<char> uses(resources_, 0);
  if (node.kind == Node::Kind::Task) {
    for (int k : tasks_[static_cast<std::size_t>(node.task)].resources) uses[static_cast<std::size_t>(k)] = 1;
  }
  std::vector<int> children;
  for (const Node& child : node.children) {
    const int child_id = flatten(child);
    children.push_back(child_id);
    for (std::size_t k = 0; k < resources_; ++k) uses[k] = static_cast<char>(uses[k] | nodes_[static_cast<std::size_t>(child_id)].uses[k]);
  }
  nodes_[static_cast<std::size_t>(id)].children = std::move(children);
  nodes_[static_cast<std::size_t>(id)].uses = std::move(uses);
  return id;
}

// The longest chain of demands without contention plus the busiest centre's work: a scale for the
// completion time that the growth loop corrects.
double Transient::initial_horizon() const {
  double busiest = 0.0;
  for (std::size_t k = 0; k < resources_; ++k) {
    if (system_.resources[k].kind == Resource::Kind::Delay) continue;
    double work = 0.0;
    for (const auto& task : system_.tasks) work += task.demands[k];
    busiest = std::max(busiest, work / system_.resources[k].servers);
  }
  return 4.0 * (critical_path(root_) + busiest);
}

double Transient::critical_path(int v) const {
  const FlatNode& node = nodes_[static_cast<std::size_t>(v)];
  if (node.kind == Node::Kind::Task) {
    double sum = 0.0;
    for (double demand : system_.tasks[static_cast<std::size_t>(node.task)].demands) sum += demand;
    return sum;
  }
  double result = 0.0;
  for (int child : node.children) {
    const double length = critical_path(child);
    result = node.kind == Node::Kind::Serial ? result + length : std::max(result, length);
  }
  return result;
}

Prediction Transient::zero_prediction() const {
  Prediction prediction;
  prediction.iterations = 1;
  prediction.converged = true;
  prediction.tasks.resize(tasks_.size());
  for (auto& task : prediction.tasks) {
    task.residence_at.assign(resources_, 0.0);
    task.arrival_queue.assign(resources_, 0.0);
    task.queue_of_task.assign(resources_, 0.0);
  }
  prediction.resources.assign(resources_, {});
  return prediction;
}

// The iteration on one grid; returns the probability that the structure has not ended by the horizon.
double Transient::solve(double horizon, int bins, double tolerance, Prediction& prediction) {
  const double previous_step = step_;
  bins_ = bins;
  step_ = horizon / bins_;
  // The rates of the previous grid, if any, carried over to this one: the iteration starts there.
  for (TaskModel& task : tasks_) {
    if (task.fac_hi < task.fac_lo) continue;
    auto to_new = [&](int bin) { return static_cast<int>(std::floor(bin * previous_step / step_)); };
    const int low = std::clamp(to_new(task.fac_lo), 0, bins_ - 1);
    const int high = std::clamp(to_new(task.fac_hi + 1), low, bins_ - 1);
    auto resample = [&](std::vector<std::vector<double>>& arrays) {
      for (auto& values : arrays) {
        std::vector<double> fine(static_cast<std::size_t>(high - low + 1));
        for (int n = low; n <= high; ++n) {
          const int old_bin = std::clamp(static_cast<int>((n + 0.5) * step_ / previous_step), task.fac_lo, task.fac_hi);
          fine[static_cast<std::size_t>(n - low)] = values[static_cast<std::size_t>(old_bin - task.fac_lo)];
        }
        values = std::move(fine);
      }
    };
    resample(task.factor);
    resample(task.others);
    task.fac_lo = low;
    task.fac_hi = high;
  }
  double previous = -1.0;
  double unfinished = 0.0;
  prediction = Prediction{};
  for (int iteration = 1; iteration <= options_.max_iterations; ++iteration) {
    prediction.iterations = iteration;
    // Step 2: every task's start, phase and end distributions under the current service rates.
    std::vector<double> start(static_cast<std::size_t>(bins_), 0.0);
    start[0] = 1.0;
    const std::vector<double> end = march(root_, start, true);
    double ended = 0.0;
    for (double mass : end) ended += mass;
    unfinished = std::max(0.0, 1.0 - ended);
    prediction.completion = moments_of(end, step_, 0.5 * step_);
    const double completion = prediction.completion.mean;
    if (previous >= 0.0 && std::fabs(completion - previous) <= tolerance * std::max(previous, 1e-300)) {
      prediction.converged = true;
      break;
    }
    previous = completion;
    if (iteration == options_.max_iterations) break;
    // Step 1: the service rates that these distributions imply.
    update_field();
  }
  fill_outputs(prediction);
  return unfinished;
}

double Transient::residence_variance(std::size_t index) {
  const TaskModel& model = tasks_[index];
  if (model.phases.empty() || model.mass <= 0.0) return 0.0;
  const auto origin = static_cast<std::size_t>(std::clamp(std::floor(model.start.mean / step_), 0.0, static_cast<double>(bins_ - 1)));
  std::vector<double> impulse(static_cast<std::size_t>(bins_), 0.0);
  impulse[origin] = 1.0;
  const std::vector<double> ended = march_task(static_cast<int>(index), impulse, false);
  const double variance = moments_of(ended, step_, 0.0).variance;
  // Shorter than a bin, the grid cannot resolve the task (the march's variance is the bins' noise):
  // its stages' variance without contention.
  double length = 0.0;
  double stages = 0.0;
  for (const Phase& phase : model.phases) {
    length += 1.0 / phase.rate;
    stages += 1.0 / (phase.rate * phase.rate);
  }
  return length < step_ && variance < step_ * step_ ? stages : variance;
}

void Transient::fill_outputs(Prediction& prediction) {
  prediction.tasks.assign(tasks_.size(), {});
  prediction.resources.assign(resources_, {});
  const double completion = prediction.completion.mean;
  for (std::size_t i = 0; i < tasks_.size(); ++i) {
    const TaskModel& model = tasks_[i];
    TaskPrediction& task = prediction.tasks[i];
    task.start = model.start;
    task.end = model.end;
    task.residence_at.assign(resources_, 0.0);
    task.arrival_queue.assign(resources_, 0.0);
    task.queue_of_task.assign(resources_, 0.0);
    double residence = 0.0;
    for (std::size_t slot = 0; slot < model.resources.size(); ++slot) {
      const auto k = static_cast<std::size_t>(model.resources[slot]);
      double time = 0.0;
      double seen = 0.0;
      for (std::size_t at = 0; at < model.occupancy[slot].size(); ++at) {
        const double present = model.occupancy[slot][at];
        time += present;
        const int bin = model.occ_lo + static_cast<int>(at);
        if (model.fac_hi >= model.fac_lo && bin >= model.fac_lo && bin <= model.fac_hi) {
          seen += present * model.others[slot][static_cast<std::size_t>(bin - model.fac_lo)];
        }
      }
      task.residence_at[k] = model.mass > 0.0 ? model.time_at[slot] * step_ / model.mass : 0.0;
      task.arrival_queue[k] = time > 0.0 ? seen / time : 0.0;
      residence += task.residence_at[k];
    }
    for (std::size_t k = 0; k < resources_; ++k) task.queue_of_task[k] = residence > 0.0 ? task.residence_at[k] / residence : 0.0;
    // The residence time's mean is the time spent at the resources; its variance is that of the
    // task's duration when it starts at its mean start time.
    task.residence = {residence, residence_variance(i)};
    if (completion <= 0.0) continue;
    for (std::size_t k = 0; k < resources_; ++k) {
      const Resource& resource = system_.resources[k];
      const double servers = resource.kind == Resource::Kind::Delay ? 1.0 : resource.servers;
      prediction.resources[k].utilization += system_.tasks[i].demands[k] / (servers * completion);
      prediction.resources[k].queue_length += task.residence_at[k] / completion;
    }
  }
}

}  // namespace augur::tspp::transient_model

namespace augur::tspp {

double transient_phase_bins(const TaskSystem& system, const PredictorOptions& options) {
  double phases = 0.0;
  for (const Task& task : system.tasks) {
    for (double demand : task.demands) phases += demand > 0.0 ? 1.0 : 0.0;
  }
  return phases * std::max(options.visits, 1) * std::max(options.stages, 1) * std::max(options.grid, 1);
}

Prediction predict_transient(const TaskSystem& system, const PredictorOptions& options) {
  if (system.tasks.size() > max_transient_tasks) {
    throw std::invalid_argument("the transient method handles at most " + std::to_string(max_transient_tasks) +
                                " tasks (this system has " + std::to_string(system.tasks.size()) +
                                "); use the seed's method (--method mak-lundstrom)");
  }
  if (const double work = transient_phase_bins(system, options); work > max_transient_phase_bins) {
    char text[32];
    std::snprintf(text, sizeof text, "%.3g", work);
    throw std::invalid_argument("the transient method marches at most 5e7 phases x time bins (this system's tasks have " +
                                std::string(text) + " with -V, --stages and --grid); fewer visits, stages or bins, or another method");
  }
  return transient_model::Transient(system, options).run();
}

}  // namespace augur::tspp
