#include "pruned.hpp"

#include <algorithm>
#include <cstdint>
#include <cmath>
#include <functional>
#include <stdexcept>
#include <string>
#include <utility>
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
  std::vector<double> scale_;   // of each state of the next level: 1, or c / w where it was sampled
  std::vector<double> sorted_;
  std::vector<std::pair<std::uint64_t, std::size_t>> shuffled_;  // the sampled candidates: hash, number
  std::uint64_t level_ = 0;

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

  // The next level: where the candidates are more than the beam K, those of probability at least c are kept
  // and the others thinned by systematic sampling, each kept with probability w / c and then weighted c / w:
  // c such that sum min(1, w / c) = K. The mass is kept, and every sum the level gives is unchanged on
  // average. The sampling goes through the candidates in the order of a hash of their words and the level
  // (a fixed pseudo-random order: in the order met, the stride would pick the successors of one task).
  void select() {
    next_.clear();
    scale_.clear();
    ++level_;
    const std::size_t count = candidates_.size();
    if (count <= beam_) {
      for (std::size_t c = 0; c < count; ++c) (void)next_.intern(candidates_.state(c));
      scale_.assign(count, 1.0);
      states_ += count;
      return;
    }
    const double threshold = sampling_threshold();
    shuffled_.clear();
    for (std::size_t c = 0; c < count; ++c) {
      const double weight = candidates_.values(c)[0];
      if (weight >= threshold) {
        (void)next_.intern(candidates_.state(c));
        scale_.push_back(1.0);
      } else {
        shuffled_.emplace_back(exact::hash_state(candidates_.state(c), stepper_.width()) ^ (level_ * 0x9E3779B97F4A7C15ULL), c);
      }
    }
    std::sort(shuffled_.begin(), shuffled_.end());
    const double offset = 0.5 + 0.6180339887498949 * static_cast<double>(level_);  // a new offset in [0, 1) at each level
    double accumulated = offset - std::floor(offset);
    for (const auto& [key, c] : shuffled_) {
      const double weight = candidates_.values(c)[0];
      const double before = std::floor(accumulated);
      accumulated += weight / threshold;
      if (std::floor(accumulated) > before) {
        (void)next_.intern(candidates_.state(c));
        scale_.push_back(threshold / weight);
      } else {
        dropped_ += weight;
      }
    }
    states_ += next_.size();
  }

  // c with sum over the candidates of min(1, w / c) = K (the candidates more than K).
  double sampling_threshold() {
    sorted_.resize(candidates_.size());
    for (std::size_t c = 0; c < sorted_.size(); ++c) sorted_[c] = candidates_.values(c)[0];
    std::sort(sorted_.begin(), sorted_.end(), std::greater<>());
    double tail = 0.0;
    for (double weight : sorted_) tail += weight;
    for (std::size_t large = 0; large < beam_; ++large) {
      const double threshold = tail / static_cast<double>(beam_ - large);
      if (sorted_[large] < threshold) return threshold;
      tail -= sorted_[large];
    }
    return sorted_[beam_ - 1];
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

// The sampled states' numbers weighted c / w, then the level's probabilities to 1 (rounding only).
void Pass::renormalize() {
  const std::size_t values = first_task_value + 3 * tasks_;
  double kept = 0.0;
  for (std::size_t t = 0; t < next_.size(); ++t) {
    double* numbers = next_.values(t);
    for (std::size_t v = 0; v < values; ++v) numbers[v] *= scale_[t];
    kept += numbers[0];
  }
  if (next_.size() == 0 || kept <= 0.0) return;
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
  // The next level's candidates: up to the beam x the tasks (the successors of a state), each of a word per
  // task (two under FCFS): within max_pruned_words, the default beam cut to fit, a beam asked refused past it.
  const std::size_t tasks = std::max<std::size_t>(1, system.tasks.size());
  const std::size_t width = tasks * (options.discipline == Discipline::FirstComeFirstServed ? 2 : 1);
  const std::size_t fits = max_pruned_words / (tasks * width);
  PredictorOptions within = options;
  if (options.beam == 0) within.beam = std::min(default_pruned_beam, fits);
  if (within.beam == 0 || within.beam > fits) {
    throw std::invalid_argument("the pruned method keeps at most " + std::to_string(max_pruned_words) +
                                " words of candidate states (beam x tasks x words per state): with " + std::to_string(system.tasks.size()) +
                                " tasks the beam is at most " + std::to_string(fits));
  }
  return Pass(system, within).run(std::max(options.visits, 1));
}

}  // namespace augur::tspp
