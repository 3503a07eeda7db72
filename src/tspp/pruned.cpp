#include "pruned.hpp"

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <stdexcept>
#include <string>
#include <vector>

#include "chain_step.hpp"
#include "exact_chain.hpp"
#include "pruned_level.hpp"

namespace augur::tspp {
namespace {

using exact::Arrival;
using exact::Stepper;
using pruned::Level;

// Sums over the events of one kind (a task's start or end, the completion): Pr, Pr x time, Pr x time².
struct EventSums {
  double mass = 0.0;
  double first = 0.0;
  double second = 0.0;
  void add(double weight, double time, double time2) {
    mass += weight;
    first += weight * time;
    second += weight * time2;
  }
  [[nodiscard]] Moments moments() const {
    if (mass <= 0.0) return {};
    const double mean = first / mass;
    return {mean, std::max(0.0, second / mass - mean * mean)};
  }
};

// A level's numbers per state: π(s), π E[T], π E[T²] (T the arrival time at s), then per task i
// π E[S_i], π E[S_i²], π E[T S_i] (S_i its start time; kept while it is active).
constexpr std::size_t first_task_value = 3;

class Pass {
public:
  Pass(const TaskSystem& system, const PredictorOptions& options)
      : system_(system), stepper_(system, options), beam_(options.beam > 0 ? options.beam : default_pruned_beam),
        tasks_(stepper_.tasks()), resources_(stepper_.resources()), current_(stepper_.width(), first_task_value + 3 * tasks_),
        next_(stepper_.width(), first_task_value + 3 * tasks_), candidates_(stepper_.width(), 1),
        residence_(tasks_ * resources_, 0.0), arrival_found_(tasks_ * resources_, 0.0), starts_(tasks_), ends_(tasks_),
        stays_(tasks_) {}

  Prediction run(int visits) {
    start();
    while (current_.size() > 0) {
      weigh();
      select();
      carry();
      std::swap(current_, next_);
    }
    Prediction prediction;
    prediction.states = states_;
    prediction.dropped = dropped_;
    prediction.converged = true;
    prediction.completion = completion_.moments();
    prediction.tasks.resize(tasks_);
    for (std::size_t i = 0; i < tasks_; ++i) {
      prediction.tasks[i].start = starts_[i].moments();
      prediction.tasks[i].end = ends_[i].moments();
      prediction.tasks[i].residence = stays_[i].moments();
    }
    exact::fill_outputs(system_, residence_, arrival_found_, visits, prediction);
    return prediction;
  }

private:
  const TaskSystem& system_;
  Stepper stepper_;
  std::size_t beam_;
  std::size_t tasks_, resources_;
  Level current_, next_, candidates_;
  std::vector<double> residence_, arrival_found_;
  std::vector<EventSums> starts_, ends_, stays_;
  EventSums completion_;
  std::uint64_t states_ = 0;
  double dropped_ = 0.0;
  std::vector<std::uint16_t> state_;
  std::vector<Arrival> arrivals_;
  std::vector<std::uint32_t> order_;

  void start() {
    stepper_.start(state_, arrivals_);
    current_.values(current_.intern(state_.data()))[0] = 1.0;
    states_ = 1;
    for (const Arrival& arrival : arrivals_) {
      arrival_found_[static_cast<std::size_t>(arrival.task) * resources_ + static_cast<std::size_t>(arrival.resource)] += arrival.found;
    }
    for (std::size_t i = 0; i < tasks_; ++i) {
      if (state_[i] != exact::not_started) starts_[i].add(1.0, 0.0, 0.0);
      if (state_[i] == exact::ended) {
        ends_[i].add(1.0, 0.0, 0.0);
        stays_[i].add(1.0, 0.0, 0.0);
      }
    }
  }

  void load(std::size_t s) { state_.assign(current_.state(s), current_.state(s) + stepper_.width()); }

  // The probabilities of the successors of the current level, every one.
  void weigh() {
    candidates_.clear();
    for (std::size_t s = 0; s < current_.size(); ++s) {
      load(s);
      const double reach = current_.values(s)[0];
      const double q = stepper_.exit_rate(state_);
      if (q <= 0.0) continue;
      (void)stepper_.successors(state_, [this, reach, q](const std::vector<std::uint16_t>& next, double rate, const std::vector<Arrival>&) {
        candidates_.values(candidates_.intern(next.data()))[0] += reach * rate / q;
      });
    }
  }

  // The next level: the `beam_` most probable candidates (ties: the first met), in the order met.
  void select() {
    next_.clear();
    order_.resize(candidates_.size());
    std::iota(order_.begin(), order_.end(), 0U);
    if (order_.size() > beam_) {
      const auto more_probable = [this](std::uint32_t a, std::uint32_t b) {
        const double pa = candidates_.values(a)[0];
        const double pb = candidates_.values(b)[0];
        return pa > pb || (pa == pb && a < b);
      };
      std::nth_element(order_.begin(), order_.begin() + static_cast<std::ptrdiff_t>(beam_), order_.end(), more_probable);
      for (auto c = order_.begin() + static_cast<std::ptrdiff_t>(beam_); c != order_.end(); ++c) dropped_ += candidates_.values(*c)[0];
      order_.resize(beam_);
      std::sort(order_.begin(), order_.end());
    }
    for (std::uint32_t c : order_) (void)next_.intern(candidates_.state(c));
    states_ += next_.size();
  }

  void carry();
  void carry_transition(const double* from, double reach, double q, const std::vector<std::uint16_t>& next, double probability);
  void renormalize();
};

// The moments of the next level and the sums of the events, from the current level's states.
void Pass::carry() {
  for (std::size_t s = 0; s < current_.size(); ++s) {
    load(s);
    const double* from = current_.values(s);
    const double reach = from[0];
    const double q = stepper_.exit_rate(state_);
    if (q <= 0.0) {  // the final state
      completion_.add(reach, from[1] / reach, from[2] / reach);
      continue;
    }
    for (std::size_t i = 0; i < tasks_; ++i) {
      if (Stepper::active(state_[i])) residence_[i * resources_ + static_cast<std::size_t>(stepper_.resource_of(state_.data(), i))] += reach / q;
    }
    (void)stepper_.successors(state_, [this, from, reach, q](const std::vector<std::uint16_t>& next, double rate, const std::vector<Arrival>& arrivals) {
      const double probability = rate / q;
      for (const Arrival& arrival : arrivals) {
        arrival_found_[static_cast<std::size_t>(arrival.task) * resources_ + static_cast<std::size_t>(arrival.resource)] +=
            reach * probability * arrival.found;
      }
      carry_transition(from, reach, q, next, probability);
    });
  }
  renormalize();
}

// One transition s -> t of probability P: D = T + h the time it happens (h ~ Exp(q) the time in s),
//   E[D] = E[T] + 1/q,  E[D²] = E[T²] + 2 E[T]/q + 2/q²,  E[D S_i] = E[T S_i] + E[S_i]/q;
// the tasks that start at D, those that end (residence D - S_i), and t's moments if t is kept.
void Pass::carry_transition(const double* from, double reach, double q, const std::vector<std::uint16_t>& next, double probability) {
  const double weight = reach * probability;
  const double t1 = from[1] / reach;
  const double t2 = from[2] / reach;
  const double d1 = t1 + 1.0 / q;
  const double d2 = t2 + 2.0 * t1 / q + 2.0 / (q * q);
  const std::uint32_t target = next_.find(next.data());
  double* to = target == Level::absent ? nullptr : next_.values(target);
  if (to != nullptr) {
    to[0] += weight;
    to[1] += weight * d1;
    to[2] += weight * d2;
  }
  for (std::size_t i = 0; i < tasks_; ++i) {
    const std::uint16_t was = state_[i];
    const std::uint16_t now = next[i];
    const bool was_active = Stepper::active(was);
    if (!was_active && was == now) continue;  // not started or ended, as before
    const double* start = from + first_task_value + 3 * i;
    const double s1 = start[0] / reach;
    const double s2 = start[1] / reach;
    const double ds = start[2] / reach + s1 / q;
    if (was == exact::not_started) starts_[i].add(weight, d1, d2);
    if (now == exact::ended) {
      ends_[i].add(weight, d1, d2);
      if (was_active) {
        stays_[i].add(weight, d1 - s1, d2 - 2.0 * ds + s2);
      } else {
        stays_[i].add(weight, 0.0, 0.0);  // a task without demand
      }
    } else if (to != nullptr) {
      double* carried = to + first_task_value + 3 * i;
      carried[0] += weight * (was_active ? s1 : d1);
      carried[1] += weight * (was_active ? s2 : d2);
      carried[2] += weight * (was_active ? ds : d2);
    }
  }
}

// The next level's probabilities to 1 (with every number weighted by them); the rest is dropped.
void Pass::renormalize() {
  double kept = 0.0;
  for (std::size_t t = 0; t < next_.size(); ++t) kept += next_.values(t)[0];
  if (next_.size() == 0 || kept <= 0.0) return;
  const std::size_t values = first_task_value + 3 * tasks_;
  for (std::size_t t = 0; t < next_.size(); ++t) {
    double* numbers = next_.values(t);
    for (std::size_t v = 0; v < values; ++v) numbers[v] /= kept;
  }
}

}  // namespace

Prediction predict_pruned(const TaskSystem& system, const PredictorOptions& options) {
  if (options.beam > max_pruned_beam) {
    throw std::invalid_argument("the pruned method keeps at most " + std::to_string(max_pruned_beam) + " states per level (beam " +
                                std::to_string(options.beam) + " asked)");
  }
  return Pass(system, options).run(std::max(options.visits, 1));
}

}  // namespace augur::tspp
