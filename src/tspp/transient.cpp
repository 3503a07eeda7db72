// The transient predictor (docs/tspp.md, "The transient method"). Notation as in the seed's method:
// tasks i, j; resources k with c_k servers; D_ik demands; the time axis cut into bins of width dt.
#include "transient.hpp"

#include "quadrature.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace augur::tspp {
namespace {

// Above this many servers the multi-server rate uses the mean number of others (no distribution).
constexpr int max_tracked_servers = 64;
// Mass below this is taken as none.
constexpr double negligible = 1e-13;
// A task at a resource with a smaller probability than this is not counted in the others' queues.
constexpr double present_threshold = 1e-9;

// One exponential stage of a task's work: at the resource of slot `slot`, mean demand 1 / rate.
struct Phase {
  int slot = 0;
  double rate = 0.0;
};

struct TaskModel {
  std::vector<int> resources;  // slot -> resource: the resources the task uses, in declaration order
  std::vector<Phase> phases;   // V cycles over the slots, each visit in S stages
  // Step 2's record: the probability of being at each slot's resource, per bin of [occ_lo, occ_hi].
  int occ_lo = 0;
  int occ_hi = -1;
  std::vector<std::vector<double>> occupancy;
  std::vector<double> time_at;  // per slot: the occupancy summed over every bin, the window's or not
  double mass = 0.0;  // probability that the task starts within the horizon
  Moments start, end;
  // Step 1's result over [fac_lo, fac_hi] (the nearest edge outside; nothing yet: 1): the service
  // rate factor per slot (the share of a server the task gets) and the mean number of others there.
  int fac_lo = 0;
  int fac_hi = -1;
  std::vector<std::vector<double>> factor;
  std::vector<std::vector<double>> others;
};

struct FlatNode {
  Node::Kind kind = Node::Kind::Task;
  int task = -1;
  std::vector<int> children;
  int occ_lo = 0, occ_hi = -1, fac_lo = 0, fac_hi = -1;
  std::vector<char> uses;  // per resource: a task of the subtree has a demand there
  std::size_t scratch = 0;  // offset of the node's working space in Transient::scratch_
  bool active = false;      // step 1: the subtree has someone at the resource at the current bin
};

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

class Transient {
public:
  Transient(const TaskSystem& system, const PredictorOptions& options)
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

  Prediction run() {
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

private:
  int flatten(const Node& node) {
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
  double initial_horizon() const {
    double busiest = 0.0;
    for (std::size_t k = 0; k < resources_; ++k) {
      if (system_.resources[k].kind == Resource::Kind::Delay) continue;
      double work = 0.0;
      for (const auto& task : system_.tasks) work += task.demands[k];
      busiest = std::max(busiest, work / system_.resources[k].servers);
    }
    return 4.0 * (critical_path(root_) + busiest);
  }

  double critical_path(int v) const {
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

  Prediction zero_prediction() const {
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
  double solve(double horizon, int bins, double tolerance, Prediction& prediction) {
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

  [[nodiscard]] double factor_at(const TaskModel& task, int slot, int bin) const {
    if (task.fac_hi < task.fac_lo) return 1.0;
    const int at = std::clamp(bin, task.fac_lo, task.fac_hi) - task.fac_lo;
    return task.factor[static_cast<std::size_t>(slot)][static_cast<std::size_t>(at)];
  }

  // ---- Step 2 ------------------------------------------------------------------------------
  // Mass flows are per bin, spread evenly over it. march() returns the mass that leaves the node
  // in each bin; with `record`, the tasks keep their distributions for step 1 and the outputs.
  std::vector<double> march(int v, const std::vector<double>& in, bool record) {
    const FlatNode& node = nodes_[static_cast<std::size_t>(v)];
    switch (node.kind) {
      case Node::Kind::Task: return march_task(node.task, in, record);
      case Node::Kind::Serial: {
        std::vector<double> flow = in;
        for (int child : node.children) flow = march(child, flow, record);
        return flow;
      }
      case Node::Kind::Parallel: return march_parallel(node, in, record);
    }
    return in;
  }

  std::vector<double> march_task(int index, const std::vector<double>& in, bool record) {
    TaskModel& task = tasks_[static_cast<std::size_t>(index)];
    const std::size_t bins = in.size();
    std::vector<double> out(bins, 0.0);
    std::size_t first = 0;
    while (first < bins && in[first] <= 0.0) ++first;
    std::size_t last_in = bins;
    while (last_in > first && in[last_in - 1] <= 0.0) --last_in;
    double total_in = 0.0;
    for (std::size_t n = first; n < last_in; ++n) total_in += in[n];
    std::vector<std::vector<double>> occupancy;
    if (record) occupancy.assign(task.resources.size(), std::vector<double>(bins, 0.0));
    std::size_t last = first;
    if (task.phases.empty()) {
      out = in;
      last = last_in == 0 ? 0 : last_in - 1;
    } else {
      std::vector<double> present(task.phases.size(), 0.0);
      for (std::size_t n = first; n < bins; ++n) {
        double flow = in[n];
        double inside = 0.0;
        for (std::size_t p = 0; p < task.phases.size(); ++p) {
          const Phase& phase = task.phases[p];
          const double x = phase.rate * factor_at(task, phase.slot, static_cast<int>(n)) * step_;
          // Over one bin: of the mass present at its start, e stays and `kept` is there on average;
          // of the mass arriving evenly during it, `stays` stays and `arrived` is there on average.
          double e, kept, arrived;
          if (x < 1e-6) {
            e = 1.0 - x;
            kept = 1.0 - 0.5 * x;
            arrived = 0.5 - x / 6.0;
          } else {
            e = std::exp(-x);
            kept = (1.0 - e) / x;
            arrived = (x - 1.0 + e) / (x * x);
          }
          const double now = present[p] * e + flow * kept;  // the arrivals that stay: flow (1 - e) / x
          if (record) occupancy[static_cast<std::size_t>(phase.slot)][n] += present[p] * kept + flow * arrived;
          const double leaving = present[p] + flow - now;
          present[p] = now;
          flow = leaving;
          inside += now;
        }
        out[n] = flow;
        last = n;
        if (n + 1 >= last_in && inside <= negligible * std::max(total_in, negligible)) break;
      }
    }
    if (record) {
      task.mass = total_in;
      task.start = moments_of(in, step_, 0.5 * step_);
      task.end = moments_of(out, step_, 0.5 * step_);
      // The window: the bins where the task is at a resource with a probability that matters.
      std::size_t low = first;
      std::size_t high = last;
      auto there = [&occupancy](std::size_t n) {
        double sum = 0.0;
        for (const auto& slot : occupancy) sum += slot[n];
        return sum;
      };
      while (low < high && there(low) < present_threshold) ++low;
      while (high > low && there(high) < present_threshold) --high;
      task.occ_lo = static_cast<int>(low);
      task.occ_hi = total_in > 0.0 && there(low) >= present_threshold ? static_cast<int>(high) : -1;
      // A task much shorter than a bin is present with less than the threshold in every bin: the
      // window drops it, but its time at each resource is the whole sum (issue 15, item 10).
      task.time_at.assign(task.resources.size(), 0.0);
      for (std::size_t slot = 0; slot < occupancy.size(); ++slot) {
        for (double present : occupancy[slot]) task.time_at[slot] += present;
      }
      task.occupancy.assign(task.resources.size(), {});
      for (std::size_t slot = 0; slot < task.resources.size(); ++slot) {
        if (task.occ_hi < task.occ_lo) continue;
        task.occupancy[slot].assign(occupancy[slot].begin() + task.occ_lo, occupancy[slot].begin() + task.occ_hi + 1);
      }
    }
    return out;
  }

  // A parallel group ends when its last child does. The children share the group's start, so the
  // maximum is taken over their durations from one start (the group's mean start bin), where they
  // are independent given the service rates, and the result is convolved with the start.
  std::vector<double> march_parallel(const FlatNode& node, const std::vector<double>& in, bool record) {
    const std::size_t bins = in.size();
    if (record) {
      for (int child : node.children) (void)march(child, in, true);
    }
    double total = 0.0;
    double weighted = 0.0;
    for (std::size_t n = 0; n < bins; ++n) {
      total += in[n];
      weighted += in[n] * static_cast<double>(n);
    }
    std::vector<double> out(bins, 0.0);
    if (total <= 0.0) return out;
    const auto origin = static_cast<std::size_t>(std::clamp(std::floor(weighted / total + 0.5), 0.0, static_cast<double>(bins - 1)));
    std::vector<double> impulse(bins, 0.0);
    impulse[origin] = 1.0;
    const std::size_t span = bins - origin;
    std::vector<double> both(span, 1.0);  // Pr(every child has ended within tau bins of the start)
    for (int child : node.children) {
      const std::vector<double> ended = march(child, impulse, false);
      double cumulative = 0.0;
      for (std::size_t tau = 0; tau < span; ++tau) {
        cumulative += ended[origin + tau];
        both[tau] *= std::min(cumulative, 1.0);
      }
    }
    std::vector<double> duration(span, 0.0);  // mass of the group's duration per bin
    std::size_t longest = 0;
    for (std::size_t tau = 0; tau < span; ++tau) {
      duration[tau] = std::max(0.0, both[tau] - (tau > 0 ? both[tau - 1] : 0.0));
      if (duration[tau] > negligible) longest = tau;
    }
    for (std::size_t m = 0; m < bins; ++m) {
      if (in[m] <= negligible * total) continue;
      const std::size_t limit = std::min(longest + 1, bins - m);
      for (std::size_t tau = 0; tau < limit; ++tau) out[m + tau] += in[m] * duration[tau];
    }
    return out;
  }

  // ---- Step 1 ------------------------------------------------------------------------------
  // At each bin and queuing centre k, the number N of other tasks at k that a task i meets is the sum
  // over the groups concurrent with i; its generating function E[x^N] is built over the structure:
  // a task j contributes 1 - pi_jk + pi_jk x; a serial group's children are never there together,
  // so it contributes 1 + sum (g_child - 1); a parallel group's children are taken as independent,
  // so it contributes the product. Then the share of a server that i gets is E[min(1, c / (1 + N))]:
  // for one server E[1 / (1 + N)] = integral over [0, 1] of E[x^N]; for c servers that, times c,
  // corrected on the first c - 1 probabilities Pr(N = n) (the low coefficients, carried exactly).
  void update_field() {
    // Windows: the bins where each subtree has someone (occupancy) and where its rates are kept.
    for (TaskModel& task : tasks_) {
      if (task.occ_hi < task.occ_lo) {
        task.fac_lo = 0;
        task.fac_hi = -1;
        continue;
      }
      const int margin = std::max(2, (task.occ_hi - task.occ_lo + 1) / 4);
      task.fac_lo = std::max(0, task.occ_lo - margin);
      task.fac_hi = std::min(bins_ - 1, task.occ_hi + margin);
      const auto length = static_cast<std::size_t>(task.fac_hi - task.fac_lo + 1);
      task.factor.assign(task.resources.size(), std::vector<double>(length, 1.0));
      task.others.assign(task.resources.size(), std::vector<double>(length, 0.0));
    }
    windows(root_);
    const FlatNode& root = nodes_[static_cast<std::size_t>(root_)];
    std::vector<double> identity(width_, 0.0);
    for (std::size_t k = 0; k < resources_; ++k) {
      if (servers_[k] == 0) continue;  // delay centre, or a server for everyone: no waiting
      resource_ = k;
      coefficients_ = servers_[k] > 1 && servers_[k] <= max_tracked_servers ? static_cast<std::size_t>(servers_[k] - 1) : 0;
      used_ = nodes_count() + 1 + coefficients_;
      std::fill(identity.begin(), identity.end(), 0.0);
      set_identity(identity.data());
      for (int n = root.fac_lo; n <= root.fac_hi; ++n) {
        bin_ = n;
        (void)up(root_);
        down(root_, identity.data());
      }
    }
  }

  void windows(int v) {
    FlatNode& node = nodes_[static_cast<std::size_t>(v)];
    if (node.kind == Node::Kind::Task) {
      const TaskModel& task = tasks_[static_cast<std::size_t>(node.task)];
      node.occ_lo = task.occ_lo;
      node.occ_hi = task.occ_hi;
      node.fac_lo = task.fac_lo;
      node.fac_hi = task.fac_hi;
      return;
    }
    node.occ_lo = node.fac_lo = bins_;
    node.occ_hi = node.fac_hi = -1;
    for (int child : node.children) {
      windows(child);
      const FlatNode& c = nodes_[static_cast<std::size_t>(child)];
      if (c.occ_hi >= c.occ_lo) {
        node.occ_lo = std::min(node.occ_lo, c.occ_lo);
        node.occ_hi = std::max(node.occ_hi, c.occ_hi);
      }
      if (c.fac_hi >= c.fac_lo) {
        node.fac_lo = std::min(node.fac_lo, c.fac_lo);
        node.fac_hi = std::max(node.fac_hi, c.fac_hi);
      }
    }
  }

  // A channel: the generating function at the quadrature nodes, the mean, the low coefficients.
  [[nodiscard]] std::size_t nodes_count() const { return quadrature_.nodes.size(); }
  void set_identity(double* channel) const {
    for (std::size_t q = 0; q < nodes_count(); ++q) channel[q] = 1.0;
    channel[nodes_count()] = 0.0;
    for (std::size_t c = 0; c < coefficients_; ++c) channel[nodes_count() + 1 + c] = c == 0 ? 1.0 : 0.0;
  }
  // a <- a x b (independent counts: products of generating functions)
  void multiply(double* a, const double* b) const {
    const std::size_t q_count = nodes_count();
    for (std::size_t q = 0; q < q_count; ++q) a[q] *= b[q];
    a[q_count] += b[q_count];
    double* low = a + q_count + 1;
    const double* other = b + q_count + 1;
    for (std::size_t c = coefficients_; c-- > 0;) {
      double sum = 0.0;
      for (std::size_t j = 0; j <= c; ++j) sum += low[j] * other[c - j];
      low[c] = sum;
    }
  }
  // a <- a + b - 1 (mutually exclusive presence: sums of generating functions)
  void add_exclusive(double* a, const double* b) const {
    const std::size_t q_count = nodes_count();
    for (std::size_t q = 0; q < q_count; ++q) a[q] += b[q] - 1.0;
    a[q_count] += b[q_count];
    for (std::size_t c = 0; c < coefficients_; ++c) a[q_count + 1 + c] += b[q_count + 1 + c] - (c == 0 ? 1.0 : 0.0);
  }

  double* channel_of(const FlatNode& node) { return scratch_.data() + node.scratch; }

  bool up(int v) {
    FlatNode& node = nodes_[static_cast<std::size_t>(v)];
    node.active = false;
    if (bin_ < node.occ_lo || bin_ > node.occ_hi || !node.uses[resource_]) return false;
    double* channel = channel_of(node);
    if (node.kind == Node::Kind::Task) {
      const TaskModel& task = tasks_[static_cast<std::size_t>(node.task)];
      const std::size_t slot = slot_of(task);
      const double present = std::min(1.0, task.occupancy[slot][static_cast<std::size_t>(bin_ - task.occ_lo)]);
      if (present < present_threshold) return false;
      for (std::size_t q = 0; q < nodes_count(); ++q) channel[q] = 1.0 - present + present * quadrature_.nodes[q];
      channel[nodes_count()] = present;
      for (std::size_t c = 0; c < coefficients_; ++c) channel[nodes_count() + 1 + c] = c == 0 ? 1.0 - present : c == 1 ? present : 0.0;
      node.active = true;
      return true;
    }
    for (int child : node.children) {
      if (!up(child)) continue;
      const double* from = channel_of(nodes_[static_cast<std::size_t>(child)]);
      if (!node.active) {
        std::copy(from, from + used_, channel);
        node.active = true;
      } else if (node.kind == Node::Kind::Serial) {
        add_exclusive(channel, from);
      } else {
        multiply(channel, from);
      }
    }
    return node.active;
  }

  // The task's slot of the current resource (it uses it: the callers check `uses`).
  [[nodiscard]] std::size_t slot_of(const TaskModel& task) const {
    return static_cast<std::size_t>(std::find(task.resources.begin(), task.resources.end(), static_cast<int>(resource_)) -
                                    task.resources.begin());
  }

  // `outside`: the channel of everyone concurrent with node v.
  void down(int v, const double* outside) {
    const FlatNode& node = nodes_[static_cast<std::size_t>(v)];
    if (bin_ < node.fac_lo || bin_ > node.fac_hi || !node.uses[resource_]) return;
    if (node.kind == Node::Kind::Task) {
      TaskModel& task = tasks_[static_cast<std::size_t>(node.task)];
      const std::size_t slot = slot_of(task);
      const auto at = static_cast<std::size_t>(bin_ - task.fac_lo);
      task.factor[slot][at] = service_share(outside);
      task.others[slot][at] = outside[nodes_count()];
      return;
    }
    if (node.kind == Node::Kind::Serial) {
      for (int child : node.children) down(child, outside);
      return;
    }
    // Parallel: a child meets everyone outside the group and its active siblings. suffix[j] is the
    // product of the channels of the active children after j; `before` of those before j.
    const std::size_t count = node.children.size();
    int active_children = 0;
    std::size_t the_active = 0;
    for (std::size_t j = 0; j < count; ++j) {
      if (nodes_[static_cast<std::size_t>(node.children[j])].active) {
        ++active_children;
        the_active = j;
      }
    }
    if (active_children == 0) {  // nobody in the group is there: each child meets only the outside
      for (int child : node.children) down(child, outside);
      return;
    }
    double* base = scratch_.data() + node.scratch + width_;  // count + 3 channels
    if (active_children == 1) {  // the active child meets the outside; the others meet it too
      double* meets = base;
      std::copy(outside, outside + used_, meets);
      multiply(meets, scratch_.data() + nodes_[static_cast<std::size_t>(node.children[the_active])].scratch);
      for (std::size_t j = 0; j < count; ++j) down(node.children[j], j == the_active ? outside : meets);
      return;
    }
    double* suffix = base;
    set_identity(suffix + count * width_);
    for (std::size_t j = count; j-- > 0;) {
      double* here = suffix + j * width_;
      std::copy(suffix + (j + 1) * width_, suffix + (j + 1) * width_ + used_, here);
      const FlatNode& child = nodes_[static_cast<std::size_t>(node.children[j])];
      if (child.active) multiply(here, scratch_.data() + child.scratch);
    }
    double* before = suffix + (count + 1) * width_;
    double* meets = before + width_;
    std::copy(outside, outside + used_, before);
    for (std::size_t j = 0; j < count; ++j) {
      const FlatNode& child = nodes_[static_cast<std::size_t>(node.children[j])];
      std::copy(before, before + used_, meets);
      multiply(meets, suffix + (j + 1) * width_);
      down(node.children[j], meets);
      if (child.active) multiply(before, scratch_.data() + child.scratch);
    }
  }

  // E[min(1, c / (1 + N))] from N's channel: the share of a server a task gets at resource_.
  [[nodiscard]] double service_share(const double* others) const {
    const double servers = servers_[resource_];
    double integral = 0.0;  // E[1 / (1 + N)]
    for (std::size_t q = 0; q < nodes_count(); ++q) integral += quadrature_.weights[q] * others[q];
    double share = 0.0;
    if (servers_[resource_] == 1) {
      share = integral;
    } else if (coefficients_ > 0) {
      share = servers * integral;
      for (std::size_t n = 0; n < coefficients_; ++n) {
        share -= others[nodes_count() + 1 + n] * (servers / (static_cast<double>(n) + 1.0) - 1.0);
      }
    } else {
      share = servers / (1.0 + others[nodes_count()]);
    }
    return std::clamp(share, 1e-9, 1.0);
  }

  [[nodiscard]] double residence_variance(std::size_t index) {
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

  // ---- Outputs -----------------------------------------------------------------------------
  void fill_outputs(Prediction& prediction) {
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

  const TaskSystem& system_;
  PredictorOptions options_;
  Quadrature quadrature_;
  std::size_t resources_;
  std::vector<TaskModel> tasks_;
  std::vector<FlatNode> nodes_;
  int root_ = 0;
  std::vector<int> servers_;
  std::size_t width_ = 0;
  std::vector<double> scratch_;
  int bins_ = 0;
  double step_ = 0.0;
  // Step 1's current bin, resource and number of tracked low coefficients.
  int bin_ = 0;
  std::size_t resource_ = 0;
  std::size_t coefficients_ = 0;
  std::size_t used_ = 0;  // the channel's width for the current resource
};

}  // namespace

double transient_phase_bins(const TaskSystem& system, const PredictorOptions& options) {
  double phases = 0.0;
  for (const Task& task : system.tasks) {
    for (double demand : task.demands) phases += demand > 0.0 ? 1.0 : 0.0;
  }
  return phases * std::max(options.visits, 1) * std::max(options.stages, 1) * std::max(options.grid, 1);
}

Prediction predict_transient(const TaskSystem& system, const PredictorOptions& options) { return Transient(system, options).run(); }

}  // namespace augur::tspp
