// rollout, augur's own policy: hesrpt-plan improved by one step of rollout (policy improvement, Bertsekas).
// At each decision a few candidate allocations (hesrpt-plan's own, and it with one or two processors moved
// from one of the three applications whose last processor gains least, weighed by the plan, to one of the three
// whose next gains most: at most 19) are each held
// for one quantum and then run to the end of every application present under the base rule, hesrpt-plan's
// hand-out by mu^0.75 x gain on a shrinking machine (C (k/n)^0.75 with k of the n present alive: the room the
// arrivals expected meanwhile take), on what the policy knows: the measured curves, how far each may grow
// and the work left, as hesrpt-plan reads them. The candidate with the least sum of (remaining) response
// times of the applications present wins; hesrpt-plan's own on a tie. No memory between decisions beyond
// hesrpt-plan's (the work each last predicted). rollout-wide: the same rollout over hesrpt-plan's own and
// every one-processor move from one of the eight cheapest donors to one of the eight best takers (at most
// 65 candidates; no move of two). Docs: manager.md, "rollout".
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <string>
#include <vector>

#include "hesrpt_plan.hpp"
#include "policies.hpp"

namespace augur::manager {

namespace {

// The neighbourhood of hesrpt-plan's allocation the candidates come from: rollout moves one or two processors
// from the 3 cheapest donors to the 3 best takers; rollout-wide one processor from the 8 cheapest to the 8
// best (chosen on seeds 1-5 and 16-25: docs/manager.md, "rollout-wide").
struct Neighbourhood {
  std::size_t between;
  std::vector<int> amounts;
};
Neighbourhood neighbourhood_of(PolicyKind policy) {
  if (policy == PolicyKind::rollout_wide) return {8, {1}};
  return {3, {1, 2}};
}
constexpr double relative_tie = 1e-12;    // a candidate must beat hesrpt-plan's by more than this share
// The rollout's machine with k of the n present alive: C (k/n)^0.75, a little more of it to the present
// than hesrpt-plan's plan leaves them ((k/n)^0.5): chosen on seeds 1-5 and 16-25 (docs/manager.md, "rollout").
constexpr double rollout_arrivals_exponent = 0.75;

// The rollout's future: the applications present, then (rollout-arrivals) the newcomers expected, each
// from its arrival (seconds from now; 0 for the present), and the machine the base rule hands out.
struct Future {
  Planned plan;                 // the present, then the newcomers
  std::vector<double> weights;  // mu^0.75 of the present; the newcomers' the mean of theirs
  std::vector<double> arrival;  // seconds from now
  std::size_t present = 0;
  double rate = 0.0;  // the arrivals expected per second (0: none, the shrinking machine)
  double exponent = rollout_arrivals_exponent;  // the machine C (k/n)^exponent; 0: the whole machine
};

// rollout's future: the present only, on the shrinking machine.
Future present_only(const Planned& plan, const std::vector<double>& weights) {
  return {plan, weights, std::vector<double>(plan.work.size(), 0.0), plan.work.size(), 0.0, rollout_arrivals_exponent};
}

// The arrival rate seen so far: the arrivals after the first over the time since it (0: fewer than two seen).
double arrival_rate(const DecisionClock& clock) {
  const double elapsed = clock.now - clock.first_arrival;
  if (clock.arrivals < 2 || !(elapsed > 0.0)) return 0.0;
  return static_cast<double>(clock.arrivals - 1) / elapsed;
}

// rollout-arrivals' future: as many newcomers as are present (by Little's law about as many arrive while
// the present run), evenly at the rate seen, the i-th at (i + 1) / rate, each with the mean work and the
// mean weight of the present and the curve and limit of the i-th present (the mix seen so far), on the
// whole machine; the present only, on the shrinking machine, before two arrivals.
Future with_arrivals(const PolicyParameters& parameters, const Planned& plan, const std::vector<double>& weights) {
  Future future = present_only(plan, weights);
  const double rate = arrival_rate(parameters.clock);
  const std::size_t count = plan.work.size();
  if (rate <= 0.0 || count == 0) return future;
  double work = 0.0;
  double weight = 0.0;
  for (std::size_t index = 0; index < count; ++index) {
    work += plan.work[index] / static_cast<double>(count);
    weight += weights[index] / static_cast<double>(count);
  }
  for (std::size_t index = 0; index < count; ++index) {
    future.plan.curves.push_back(plan.curves[index]);
    future.plan.limits.push_back(plan.limits[index]);
    future.plan.work.push_back(work);
    future.weights.push_back(weight);
    future.arrival.push_back(static_cast<double>(index + 1) / rate);
  }
  future.rate = rate;
  future.exponent = 0.0;
  return future;
}

// The sum of the completion times, from now, of the applications present when `first` is held for one
// quantum and the base rule runs after it (base_allocation, re-decided at every completion and arrival),
// the newcomers taking their share from their arrival on.
double rollout_cost(const Future& future, const std::vector<int>& first, int cpus, double quantum) {
  const Planned& plan = future.plan;
  const std::size_t count = plan.work.size();
  std::vector<double> left = plan.work;
  std::vector<char> alive(count, 0);
  std::size_t remaining = future.present;
  double total = 0.0;
  for (std::size_t index = 0; index < future.present; ++index) {
    alive[index] = 1;
    if (first[index] <= 0) continue;
    const double rate = plan.curves[index].at(first[index]);
    if (left[index] <= rate * quantum) {
      total += left[index] / rate;
      alive[index] = 0;
      --remaining;
    } else {
      left[index] -= rate * quantum;
    }
  }
  double now = quantum;
  std::size_t arrived = future.present;
  while (remaining > 0) {
    while (arrived < count && future.arrival[arrived] <= now * (1.0 + 1e-12)) alive[arrived++] = 1;
    std::size_t alive_count = 0;
    for (const char each : alive) alive_count += each != 0 ? 1 : 0;
    const std::vector<int> processors = interval_allocation(plan, future.weights, alive, alive_count, cpus, future.exponent);
    double step = arrived < count ? future.arrival[arrived] - now : -1.0;
    for (std::size_t index = 0; index < count; ++index) {
      if (!alive[index] || processors[index] == 0) continue;
      const double time = left[index] / plan.curves[index].at(processors[index]);
      if (step < 0.0 || time < step) step = time;
    }
    if (step < 0.0) break;  // nobody runs: cannot happen with cpus >= 1
    now += step;
    for (std::size_t index = 0; index < count; ++index) {
      if (!alive[index] || processors[index] == 0) continue;
      const double rate = plan.curves[index].at(processors[index]);
      // The first to complete, and any completing within a rounding of it, complete now.
      if (left[index] <= rate * step * (1.0 + 1e-12)) {
        alive[index] = 0;
        if (index < future.present) {
          total += now;
          --remaining;
        }
      } else {
        left[index] -= rate * step;
      }
    }
  }
  return total;
}

struct Candidate {
  std::vector<int> processors;
  std::string name;
};

// hesrpt-plan's allocation with `amount` processors moved from `from` to `to`, when both can.
void add_move(std::vector<Candidate>& candidates, std::span<const ApplicationReport> reports, const std::vector<int>& base, const Planned& plan,
              std::size_t from, std::size_t to, int amount) {
  if (from == to || base[from] - amount < 1 || base[to] + amount > plan.limits[to]) return;
  std::vector<int> moved = base;
  moved[from] -= amount;
  moved[to] += amount;
  candidates.push_back({std::move(moved), "hesrpt-plan's with " + std::to_string(amount) + " moved from " + reports[from].name + " to " + reports[to].name});
}

// hesrpt-plan's allocation, then it with the neighbourhood's amounts moved from a donor to a taker: the
// donors whose last processor gains the least, the takers whose next gains the most (gains weighed by mu^0.75).
std::vector<Candidate> candidates_of(std::span<const ApplicationReport> reports, const Planned& plan, const std::vector<double>& tempered,
                                     const std::vector<int>& base, const Neighbourhood& neighbourhood) {
  std::vector<Candidate> candidates{{base, "hesrpt-plan's"}};
  // The donors whose last processor gains the least (weighed), the takers whose next gains the most.
  const auto gain = [&](std::size_t index, int processors) { return tempered[index] * (plan.curves[index].at(processors + 1) - plan.curves[index].at(processors)); };
  std::vector<std::size_t> donors;
  std::vector<std::size_t> takers;
  for (std::size_t index = 0; index < reports.size(); ++index) {
    if (base[index] > 1) donors.push_back(index);  // a donor keeps one processor at least
    if (base[index] < plan.limits[index]) takers.push_back(index);
  }
  std::stable_sort(donors.begin(), donors.end(), [&](std::size_t a, std::size_t b) { return gain(a, base[a] - 1) < gain(b, base[b] - 1); });
  std::stable_sort(takers.begin(), takers.end(), [&](std::size_t a, std::size_t b) { return gain(a, base[a]) > gain(b, base[b]); });
  for (std::size_t d = 0; d < std::min(neighbourhood.between, donors.size()); ++d) {
    for (std::size_t t = 0; t < std::min(neighbourhood.between, takers.size()); ++t) {
      for (const int amount : neighbourhood.amounts) add_move(candidates, reports, base, plan, donors[d], takers[t], amount);
    }
  }
  return candidates;
}

}  // namespace

std::vector<Allocation> decide_rollout(const PolicyParameters& parameters, std::span<const ApplicationReport> reports) {
  const HesrptDecision decision = hesrpt_decision(parameters, reports);
  const Planned& plan = decision.plan;
  const std::vector<double>& tempered = decision.tempered;
  const std::vector<int>& base = decision.processors;
  const std::vector<Candidate> candidates = candidates_of(reports, plan, tempered, base, neighbourhood_of(parameters.policy));
  const Future future = parameters.policy == PolicyKind::rollout_arrivals ? with_arrivals(parameters, plan, tempered) : present_only(plan, tempered);
  std::size_t best = 0;
  double best_cost = rollout_cost(future, base, parameters.cpus, parameters.quantum);
  const double base_cost = best_cost;
  for (std::size_t index = 1; index < candidates.size(); ++index) {
    const double cost = rollout_cost(future, candidates[index].processors, parameters.cpus, parameters.quantum);
    if (cost < best_cost - relative_tie * base_cost) {
      best_cost = cost;
      best = index;
    }
  }
  const std::string name = parameters.policy == PolicyKind::rollout_wide ? "rollout-wide" : "rollout";
  const std::string model = future.rate > 0.0 ? name + ", an arrival expected every " + number_text("%.1f", 1.0 / future.rate) + " s: " : name + ": ";
  const std::string why = model + candidates[best].name + " (of " + std::to_string(candidates.size()) + " candidates), sum of responses " +
                          number_text("%.1f", best_cost) + " s (hesrpt-plan's " + number_text("%.1f", base_cost) + " s)";
  std::vector<Allocation> allocations;
  for (std::size_t index = 0; index < reports.size(); ++index) {
    const int processors = candidates[best].processors[index];
    std::string reason = processors == 0 ? "waits; " + why : "speedup " + number_text("%.2f", plan.curves[index].at(processors)) + " with " +
                                                                 std::to_string(processors) + "; " + why;
    Allocation allocation = next_allocation(reports[index], processors, reports[index].memory.phase, std::move(reason));
    allocation.memory.work_left = decision.left[index];
    allocations.push_back(std::move(allocation));
  }
  return allocations;
}

}  // namespace augur::manager
