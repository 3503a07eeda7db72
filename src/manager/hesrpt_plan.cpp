// hesrpt-plan, augur's own policy: the allocation that minimises the sum of the response times of the
// applications present (heSRPT, Berg, Vesilo and Harchol-Balter 2020, which solves it in closed form for a
// batch with one speedup function p^a shared by every job), here for each application's own measured curve
// and with arrivals expected. For a fixed order of completion the optimum keeps, between two completions,
// the allocation that maximises sum_j mu_j S_j(P_j), with one weight mu_j per application: the increase of
// the sum of response times per one-processor second of its work. The weights follow from a plan: hand the
// processors out by mu x gain, run the plan forward to each completion, then, from the last completion
// back, mu_j S_j(P_j) over the applications alive in an interval sums to their number, which gives the
// weight of the one that completes at its end. Arrivals: by Little's law about as many applications are
// present later as now, the newcomers taking the place of those that completed, so the plan gives the k of
// the n present still alive in an interval C (k/n)^0.5 processors, not the whole machine (with 1 instead of
// 0.5, an equal share for ever; 0, heSRPT's batch). Ten rounds of plan and weights (each new weight averaged
// with the last), then the processors of this quantum by mu^0.75 x gain: the later intervals of the plan
// never come as planned, and the exponent tempers its preference for the shortest (docs/manager.md,
// "hesrpt-plan"). S is what the application measured (MeasuredCurve), W its work left
// (cpus_prediction_time x S). Docs: manager.md.
#include <algorithm>
#include <cmath>
#include <queue>

#include "hesrpt_plan.hpp"

#include "manager/history.hpp"
#include "policies.hpp"

namespace augur::manager {

namespace {

constexpr int plan_rounds = 10;
constexpr double knee_gain = 0.5;  // the first weights: rank / S at the knee, the last P gaining this much

}  // namespace

// The processors the plan gives the `alive` of the `present` applications: C (alive / present)^exponent (the
// others go to the applications expected to arrive meanwhile), at least one each while the machine has them.
int planned_machine(int cpus, std::size_t alive, std::size_t present, double exponent) {
  const double share = std::pow(static_cast<double>(alive) / static_cast<double>(present), exponent);
  const int machine = static_cast<int>(std::lround(cpus * share));
  return std::min(cpus, std::max(machine, static_cast<int>(std::min<std::size_t>(alive, static_cast<std::size_t>(cpus)))));
}

// Hands out `free_processors` one at a time to the largest mu x (S(P+1) - S(P)) (the earliest on a tie),
// each application up to its limit and, past its first processor, only on a gain above `minimum_gain` (a gain
// no first processor reaches would leave the machine idle forever).
void hand_out(const Planned& plan, const std::vector<double>& mu, std::vector<int>& processors, int free_processors,
              const std::vector<char>& present, double minimum_gain) {
  using Entry = std::pair<double, std::size_t>;
  const auto lower = [](const Entry& a, const Entry& b) { return a.first < b.first || (a.first == b.first && a.second > b.second); };
  std::priority_queue<Entry, std::vector<Entry>, decltype(lower)> queue(lower);
  const auto push = [&](std::size_t index) {
    const int now = processors[index];
    if (now >= plan.limits[index]) return;
    const double gain = plan.curves[index].at(now + 1) - plan.curves[index].at(now);
    if (now == 0 || gain > minimum_gain) queue.emplace(gain * mu[index], index);  // a first one whatever the gain
  };
  for (std::size_t index = 0; index < processors.size(); ++index) {
    if (present[index]) push(index);
  }
  while (free_processors > 0 && !queue.empty()) {
    const std::size_t index = queue.top().second;
    queue.pop();
    ++processors[index];
    --free_processors;
    push(index);
  }
}

std::vector<int> interval_allocation(const Planned& plan, const std::vector<double>& weights, const std::vector<char>& alive,
                                     std::size_t alive_count, int cpus, double exponent) {
  const std::size_t count = alive.size();
  std::vector<std::size_t> order;
  for (std::size_t index = 0; index < count; ++index) {
    if (alive[index]) order.push_back(index);
  }
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return weights[a] > weights[b]; });
  std::vector<int> processors(count, 0);
  int free_processors = planned_machine(cpus, alive_count, count, exponent);
  for (const std::size_t index : order) {
    if (free_processors == 0) break;
    processors[index] = 1;
    --free_processors;
  }
  std::vector<char> running(count, 0);
  for (std::size_t index = 0; index < count; ++index) running[index] = processors[index] > 0;
  hand_out(plan, weights, processors, free_processors, running, 0.0);
  return processors;
}

namespace {

// One interval of the plan: who is alive, the processors of each, and who completes at its end.
struct Interval {
  std::vector<std::size_t> alive;
  std::vector<int> processors;
  std::size_t completing = 0;
};

// The plan forward under the weights `mu`: the planned machine (planned_machine: its share left by the
// applications expected to arrive), one processor to every application alive (the highest weights first),
// the rest by mu x gain; the interval ends when the first alive application completes.
std::vector<Interval> plan_forward(const Planned& plan, const std::vector<double>& mu, int cpus) {
  const std::size_t count = plan.work.size();
  std::vector<char> alive(count, 1);
  std::vector<double> left = plan.work;
  std::vector<Interval> intervals;
  for (std::size_t round = 0; round < count; ++round) {
    std::vector<std::size_t> order;
    for (std::size_t index = 0; index < count; ++index) {
      if (alive[index]) order.push_back(index);
    }
    const std::vector<int> processors = interval_allocation(plan, mu, alive, order.size(), cpus, arrivals_exponent);
    double first = 0.0;
    std::size_t completing = count;
    for (const std::size_t index : order) {
      if (processors[index] == 0) continue;
      const double time = left[index] / plan.curves[index].at(processors[index]);
      if (completing == count || time < first || (time == first && index < completing)) {
        first = time;
        completing = index;
      }
    }
    if (completing == count) break;
    for (const std::size_t index : order) {
      // Two completing at once leave rounding behind: never below 0 (a negative time would add work back).
      if (processors[index] > 0) left[index] = std::max(0.0, left[index] - plan.curves[index].at(processors[index]) * first);
    }
    alive[completing] = 0;
    intervals.push_back({std::move(order), std::move(processors), completing});
  }
  return intervals;
}

// The weights from the plan, from its last interval back: sum over the alive of mu_j S_j(P_j) = their number.
std::vector<double> weights_backward(const Planned& plan, const std::vector<Interval>& intervals, std::vector<double> mu) {
  std::vector<double> next(mu.size(), 0.0);
  for (auto interval = intervals.rbegin(); interval != intervals.rend(); ++interval) {
    double others = 0.0;
    for (const std::size_t index : interval->alive) {
      if (index != interval->completing && interval->processors[index] > 0) {
        others += next[index] * plan.curves[index].at(interval->processors[index]);
      }
    }
    const std::size_t completing = interval->completing;
    const double rate = plan.curves[completing].at(interval->processors[completing]);
    next[completing] = std::max((static_cast<double>(interval->alive.size()) - others) / rate, 1e-9);
  }
  for (std::size_t index = 0; index < mu.size(); ++index) mu[index] = next[index] > 0.0 ? next[index] : mu[index];
  return mu;
}

}  // namespace

// The curves, limits and work of the applications as the plan reads them.
Planned planned(const PolicyParameters& parameters, std::span<const ApplicationReport> reports) {
  Planned plan;
  double known = 0.0;
  int known_count = 0;
  for (const ApplicationReport& report : reports) {
    plan.curves.emplace_back(report);
    const int request = report.max_processors > 0 ? std::min(report.max_processors, parameters.cpus) : parameters.cpus;
    plan.limits.push_back(std::min(request, plan.curves.back().largest_measured() + parameters.step));
    plan.work.push_back(work_left(report));
    if (plan.work.back() > 0.0) {
      known += plan.work.back();
      ++known_count;
    }
  }
  for (double& each : plan.work) {
    if (each <= 0.0) each = known_count > 0 ? known / known_count : 1.0;
  }
  return plan;
}

// Ten rounds of plan and weights from the first weights: the rank in work left over the speedup at the knee.
std::vector<double> plan_weights(const Planned& plan, const std::vector<double>& left, int cpus) {
  const std::size_t count = left.size();
  const std::vector<double> rank = rank_weights(left);
  std::vector<double> mu(count, 0.0);
  for (std::size_t index = 0; index < count; ++index) {
    int knee = 1;
    while (knee < plan.limits[index] && plan.curves[index].at(knee + 1) - plan.curves[index].at(knee) >= knee_gain) ++knee;
    mu[index] = rank[index] / plan.curves[index].at(knee);
  }
  for (int round = 0; round < plan_rounds; ++round) {
    const std::vector<double> next = weights_backward(plan, plan_forward(plan, mu, cpus), mu);
    for (std::size_t index = 0; index < count; ++index) mu[index] = round == 0 ? next[index] : 0.5 * (mu[index] + next[index]);
  }
  return mu;
}

std::vector<int> this_quantum(const PolicyParameters& parameters, std::span<const ApplicationReport> reports, const Planned& plan,
                              const std::vector<double>& weights) {
  // A running application is never stopped: one processor each first, the earliest if the machine shrank.
  std::vector<int> processors(reports.size(), 0);
  const int free_processors = one_each_running(reports, processors, parameters.cpus);
  hand_out(plan, weights, processors, free_processors, std::vector<char>(reports.size(), 1), parameters.minimum_gain);
  return processors;
}

HesrptDecision hesrpt_decision(const PolicyParameters& parameters, std::span<const ApplicationReport> given) {
  // With a history, each application as its prior completes it (history.hpp): the plan reads the result.
  std::vector<ApplicationReport> completed;
  std::vector<char> prior(given.size(), 0);
  if (!parameters.history.empty()) {
    for (std::size_t index = 0; index < given.size(); ++index) {
      completed.push_back(with_prior(given[index], parameters.history, parameters.history_prior));
      prior[index] = completed.back().speedups.size() != given[index].speedups.size() ||
                     completed.back().memory.work_left != given[index].memory.work_left;
    }
  }
  const std::span<const ApplicationReport> reports = parameters.history.empty() ? given : std::span<const ApplicationReport>(completed);
  HesrptDecision decision{planned(parameters, reports), {}, {}, {}, {}, std::move(prior)};
  for (const ApplicationReport& report : reports) decision.left.push_back(work_left(report));
  decision.mu = plan_weights(decision.plan, decision.left, parameters.cpus);
  for (const double weight : decision.mu) decision.tempered.push_back(std::pow(weight, weight_exponent));
  decision.processors = this_quantum(parameters, reports, decision.plan, decision.tempered);
  return decision;
}

std::vector<Allocation> decide_hesrpt_plan(const PolicyParameters& parameters, std::span<const ApplicationReport> reports) {
  const std::size_t count = reports.size();
  const HesrptDecision decision = hesrpt_decision(parameters, reports);
  const Planned& plan = decision.plan;
  const std::vector<double>& left = decision.left;
  const std::vector<double>& mu = decision.mu;
  const std::vector<int>& processors = decision.processors;
  std::vector<Allocation> allocations;
  for (std::size_t index = 0; index < count; ++index) {
    const ApplicationReport& report = reports[index];
    std::string reason = processors[index] == 0
                             ? "waits: every processor gains more elsewhere"
                             : "predicted speedup " + number_text("%.2f", plan.curves[index].at(processors[index])) + " with " +
                                   std::to_string(processors[index]) + ", " +
                                   (left[index] > 0.0 ? number_text("%.0f", left[index]) + " s of work left" : "its work unknown yet") +
                                   ", weight " + number_text("%.3g", mu[index]) + (decision.prior[index] ? ", with its program's history" : "");
    Allocation allocation = next_allocation(report, processors[index], report.memory.phase, std::move(reason));
    allocation.memory.work_left = left[index];
    allocations.push_back(std::move(allocation));
  }
  return allocations;
}

}  // namespace augur::manager
