// The one-run analysis of one outer parallel region. See team.hpp and docs/self-analysis.md.
#include "selfanalysis/team.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

#include "augur/core/stats.hpp"
#include "core/table.hpp"

namespace augur::selfanalysis {

TeamAnalysis::TeamAnalysis(int max_threads) : thread_work_(static_cast<std::size_t>(std::max(max_threads, 1)), 0.0) {
  steps_.reserve(max_steps);
}

void TeamAnalysis::reset_current() {
  current_ = TeamStep{};
  current_complete_ = true;
  current_mixed_team_ = false;
  std::fill(thread_work_.begin(), thread_work_.end(), 0.0);
}

void TeamAnalysis::episode(bool serial, const double* work, int threads, const double* spin) {
  if (threads < 1 || threads > max_threads()) {
    current_complete_ = false;
    return;
  }
  if (team_ == 0) team_ = threads;
  if (threads != team_) current_mixed_team_ = true;
  double sum = 0.0;
  double largest = 0.0;
  for (int thread = 0; thread < threads; ++thread) {
    const double value = work[thread];
    if (!(value >= 0.0) || !std::isfinite(value)) {
      current_complete_ = false;
      continue;
    }
    sum += value;
    if (spin != nullptr && spin[thread] > 0.0) current_.spin += spin[thread];
    largest = std::max(largest, value);
    thread_work_[static_cast<std::size_t>(thread)] += value;
  }
  // A `single` without nowait is followed by its barrier, and then one thread did the work. The edges cannot
  // see `nowait`: after a `single nowait` the flag marks the next barrier's episode, a worksharing loop where
  // every thread works. So an episode is serial only when the other threads together did at most a quarter of
  // what the busiest did; its work counts whole (the others' bits of replicated code included).
  if (serial && sum - largest <= 0.25 * largest) {
    current_.serial += sum;
  } else {
    current_.parallel_work += sum;
    current_.parallel_max += largest;
  }
  ++current_.episodes;
}

void TeamAnalysis::end_step(double elapsed, long switches, bool baseline, double tool_delay, double cpu_shortfall, bool one_cpu) {
  const bool usable = current_complete_ && !current_mixed_team_ && current_.episodes > 0 && elapsed > 0.0 &&
                      std::isfinite(elapsed) && steps_.size() < static_cast<std::size_t>(max_steps);
  if (usable) {
    current_.elapsed = elapsed;
    current_.tool_delay = std::isfinite(tool_delay) && tool_delay > 0.0 ? tool_delay : 0.0;
    current_.switches = std::max(switches, 0L);
    current_.cpu_shortfall = std::isfinite(cpu_shortfall) ? cpu_shortfall : -1.0;
    current_.one_cpu = one_cpu;
    current_.baseline = baseline;
    for (int thread = 0; thread < team_; ++thread) {
      const double work = thread_work_[static_cast<std::size_t>(thread)];
      current_.thread_sum += work;
      current_.thread_max = std::max(current_.thread_max, work);
    }
    steps_.push_back(current_);
  } else {
    ++dropped_;
  }
  reset_current();
}

void TeamAnalysis::drop_step() { reset_current(); }

namespace {

// core::median, 0 for no value.
double median_of(std::vector<double> values) { return values.empty() ? 0.0 : core::median(std::move(values)); }

// 1.4826 x the median absolute deviation of `values` from `center` (the standard deviation of normal data).
double scaled_mad(const std::vector<double>& values, double center) {
  std::vector<double> deviations;
  deviations.reserve(values.size());
  for (const double value : values) deviations.push_back(std::fabs(value - center));
  return 1.4826 * median_of(std::move(deviations));
}

// The value below which `share` of the sorted values lie (linear interpolation).
double percentile(const std::vector<double>& sorted, double share) {
  if (sorted.empty()) return 0.0;
  const double position = share * static_cast<double>(sorted.size() - 1);
  const auto below = static_cast<std::size_t>(std::floor(position));
  const std::size_t above = std::min(below + 1, sorted.size() - 1);
  return sorted[below] + (sorted[above] - sorted[below]) * (position - static_cast<double>(below));
}

// How far from `center` a value may be and not be an outlier: 3 scaled MADs, at least `floor`
// (TeamPolicy::outlier_floor: the program's own slow steps are kept).
double outlier_limit(const std::vector<double>& values, double center, double floor) {
  return std::max(3.0 * scaled_mad(values, center), floor);
}

// The mean of the values within outlier_limit of their median; 0 for no value.
double typical_mean(const std::vector<double>& values, double floor) {
  if (values.empty()) return 0.0;
  const double center = median_of(values);
  const double limit = outlier_limit(values, center, floor);
  double sum = 0.0;
  long count = 0;
  for (const double value : values) {
    if (std::fabs(value - center) > limit) continue;
    sum += value;
    ++count;
  }
  return count > 0 ? sum / static_cast<double>(count) : center;
}

std::string steps_text(long count) { return std::to_string(count) + (count == 1 ? " usable step" : " usable steps"); }

// part > fraction x whole, a sum of the same times added in another order counting as equal (2 of 10 equal
// steps are 20% of the time, not 20.000000000000004%).
bool more_than(double part, double whole, double fraction) { return part > fraction * whole * (1.0 + 1e-9); }

}  // namespace

TeamSummary summarize(const TeamAnalysis& analysis, const TeamPolicy& policy) {
  TeamSummary summary;
  summary.team = analysis.team();
  summary.min_steps = policy.min_steps;
  summary.quiet_machine = policy.quiet_machine;
  summary.other_cpu_load = policy.other_cpu_load;
  std::vector<double> all_times;
  std::vector<double> clean_times;
  std::vector<long> baseline_index;  // the baseline steps, and those of them not preempted
  std::vector<long> clean_baseline_index;
  std::vector<long> used_index;
  double measured_time = 0.0;
  double preempted_time = 0.0;
  // The team's own switches: on one CPU; on a quiet machine, every switched step without foreign time (a spread
  // step's is then left out of the figures as a preempted one is, but is not another process's doing).
  const auto own_switches = [&policy](const TeamStep& step) {
    return policy.quiet_machine && policy.switched(step) && !policy.foreign_time(step);
  };
  for (long index = 0; index < analysis.steps(); ++index) {
    const TeamStep& step = analysis.step(index);
    if (step.baseline) {
      ++summary.baseline_steps;
      // The work added up, each thread alone on the machine: the hand-overs between the threads are not in it.
      baseline_index.push_back(index);
      if (!policy.preempted(step)) clean_baseline_index.push_back(index);
      continue;
    }
    ++summary.steps;
    all_times.push_back(step.program_time());
    summary.switches += step.switches;
    const bool own = own_switches(step);
    if (policy.switched_in_team(step) || own) ++summary.steps_switched_in_team;
    measured_time += step.elapsed;
    if (!policy.preempted(step)) {
      clean_times.push_back(step.program_time());
    } else if (!own) {
      ++summary.steps_preempted;
      preempted_time += step.elapsed;
    }
  }
  if (summary.steps == 0) {
    summary.reasons.push_back("no time step was measured");
    summary.disturbed = false;
    return summary;
  }
  summary.step_time_median = median_of(all_times);
  const double scale = scaled_mad(all_times, summary.step_time_median);
  summary.spread = summary.step_time_median > 0.0 ? scale / summary.step_time_median : 0.0;

  // The steps the figures come from: not preempted (when enough are not), and within 3 scaled MADs of the
  // median of those or within the policy's floor (a slow step of the program's own is its time).
  const bool use_clean = static_cast<int>(clean_times.size()) >= policy.min_steps;
  const double center = median_of(use_clean ? clean_times : all_times);
  const double limit = outlier_limit(use_clean ? clean_times : all_times, center, policy.outlier_floor);
  double elapsed = 0.0;
  double one_thread = 0.0;
  double spin = 0.0;
  double serial = 0.0;
  double parallel_max = 0.0;
  double thread_sum = 0.0;
  double thread_max = 0.0;
  std::vector<double> step_speedups;
  for (long index = 0; index < analysis.steps(); ++index) {
    const TeamStep& step = analysis.step(index);
    if (step.baseline || (use_clean && policy.preempted(step))) continue;
    if (limit > 0.0 && std::fabs(step.program_time() - center) > limit) continue;
    ++summary.steps_used;
    used_index.push_back(index);
    elapsed += step.program_time();
    one_thread += step.one_thread();
    spin += step.spin;
    serial += step.serial;
    parallel_max += step.parallel_max;
    thread_sum += step.thread_sum;
    thread_max += step.thread_max;
    step_speedups.push_back(step.program_time());
  }
  // T(1): the median of the baseline steps (the undisturbed ones when there are enough), else the work added up.
  const bool clean_baseline = static_cast<int>(clean_baseline_index.size()) >= policy.min_baseline_steps;
  summary.baseline_measured = clean_baseline || static_cast<int>(baseline_index.size()) >= policy.min_baseline_steps;
  const std::vector<long>& windows = clean_baseline ? clean_baseline_index : baseline_index;
  summary.enough = summary.steps_used >= policy.min_steps && summary.team > 0 && elapsed > 0.0 && one_thread > 0.0;
  if (summary.steps_used > 0) {
    const auto used = static_cast<double>(summary.steps_used);
    summary.step_time = elapsed / used;
    summary.work_one_thread = one_thread / used;
    summary.spin = spin / used;
    std::vector<double> baseline_times;
    for (const long index : windows) baseline_times.push_back(analysis.step(index).one_thread());
    summary.one_thread = summary.baseline_measured ? median_of(std::move(baseline_times)) : summary.work_one_thread;
    // On one thread T(1) is measured: the step itself (S(1) = 1); the work added up stays beside it.
    if (summary.team == 1) summary.one_thread = summary.step_time;
    summary.serial = serial / used;
    summary.parallel_max = parallel_max / used;
    summary.overhead = std::max(0.0, summary.step_time - summary.serial - summary.parallel_max);
    summary.f = one_thread > 0.0 ? serial / one_thread : -1.0;
    summary.load_balance = thread_max > 0.0 ? thread_sum / (summary.team * thread_max) : 0.0;
    summary.communication = elapsed > 0.0 ? thread_max / elapsed : 0.0;
    summary.speedup = summary.step_time > 0.0 ? summary.one_thread / summary.step_time : 0.0;
    for (double& value : step_speedups) value = summary.one_thread / value;  // the steps' own T(1)/T(P)
    std::sort(step_speedups.begin(), step_speedups.end());
    summary.speedup_low = percentile(step_speedups, 0.1);
    summary.speedup_high = percentile(step_speedups, 0.9);
    if (summary.enough && summary.team > 1) {  // one thread: S(1) = 1, no speedup to be precise about
      summary.precision = speedup_precision(analysis, used_index, summary.baseline_measured ? windows : std::vector<long>{},
                                            policy.precision_block);
    }
  }
  // Every measured step's wall time by kind, used_index in ascending order.
  auto next_used = used_index.begin();
  for (long index = 0; index < analysis.steps(); ++index) {
    const TeamStep& step = analysis.step(index);
    const bool used = next_used != used_index.end() && *next_used == index;
    if (used) ++next_used;
    TeamTimeAccount& account = summary.account;
    if (used) account.used_tool_delay += step.elapsed - step.program_time();
    StepsTime& kind = step.baseline ? account.baseline
                      : used        ? account.used
                      : policy.preempted(step) && !own_switches(step) ? account.preempted
                                                                      : account.left_out;
    kind.add(step.elapsed);
  }
  summary.preempted_time_share = measured_time > 0.0 ? preempted_time / measured_time : 0.0;
  const bool preempted = static_cast<double>(summary.steps_preempted) > policy.disturbed_fraction * static_cast<double>(summary.steps) ||
                         more_than(preempted_time, measured_time, policy.disturbed_fraction);
  if (preempted) {
    summary.reasons.push_back(std::to_string(summary.steps_preempted) + " of " + std::to_string(summary.steps) + " steps preempted, " +
                              core::format_value("%.0f", summary.preempted_time_share * 100.0) +
                              "% of the measured time (another process took the team's cores: involuntary context switches, or on one "
                              "core CPU time short of the wall time)");
    if (summary.steps_switched_in_team > 0 && !policy.quiet_machine)
      summary.reasons.back() += ", " + std::to_string(summary.steps_switched_in_team) +
                                " of them on one core, where the switches may be the team's own: spread the threads "
                                "(OMP_PROC_BIND=true OMP_PLACES=cores) to tell";
  }
  const bool scatter = summary.spread > policy.spread_limit;
  if (scatter) {
    summary.reasons.push_back("the step times scatter (relative spread " + core::format_value("%.2f", summary.spread) + " > " +
                              core::format_value("%.2f", policy.spread_limit) + ")");
    if (policy.quiet_machine)
      summary.reasons.back() += " with no other process beside the run (other processes used " +
                                core::format_value("%.2f", std::max(policy.other_cpu_load, 0.0)) +
                                " processors): the program's own variation, not a disturbance";
  }
  const bool competed = !policy.competed_reason.empty();
  if (competed) summary.reasons.push_back(policy.competed_reason);
  // A baseline that disagrees with a re-measured one (or blocks of team steps that do): the run's own evidence
  // does not fix S(P) within imprecise_limit (two standard errors; docs/self-analysis.md, "The precision of the
  // speedup").
  const double error = summary.speedup_error();
  const bool imprecise = error >= 0.0 && error > policy.imprecise_limit * summary.speedup;
  if (imprecise) summary.reasons.push_back(imprecise_reason(summary, policy.imprecise_limit));
  if (!summary.enough) {
    summary.reasons.push_back("only " + steps_text(summary.steps_used) + " (at least " +
                              std::to_string(policy.min_steps) + " are needed for a speedup)");
  }
  summary.disturbed = !summary.reasons.empty() && (preempted || competed || imprecise || (scatter && !policy.quiet_machine));
  return summary;
}

double TeamSummary::predicted_time(int threads) const {
  if (!enough || threads < 1) return 0.0;
  if (threads == 1) return one_thread;
  if (threads == team) return step_time;
  const double at_team = serial + parallel_max + overhead;
  if (at_team <= 0.0) return 0.0;
  return step_time * (serial + parallel_max * static_cast<double>(team) / static_cast<double>(threads) + overhead) / at_team;
}

double TeamSummary::predicted_speedup(int threads) const {
  const double time = predicted_time(threads);
  return time > 0.0 ? one_thread / time : 0.0;
}

double TeamSummary::amdahl_factor(int threads) const {
  if (threads <= 1 || f < 0.0) return 1.0;
  return 1.0 / (f + (1.0 - f) / static_cast<double>(threads));
}

bool TeamPolicy::switched(const TeamStep& step) const {
  const double allowed = switch_interval > 0.0 ? std::floor(step.elapsed / switch_interval) : 0.0;
  return static_cast<double>(step.switches) > allowed;
}

bool TeamPolicy::foreign_time(const TeamStep& step) const {
  return step.one_cpu && step.cpu_shortfall > std::max(foreign_floor, foreign_share * step.elapsed);
}

bool TeamPolicy::switched_in_team(const TeamStep& step) const {
  return switched(step) && step.one_cpu && step.cpu_shortfall >= 0.0 && !foreign_time(step);
}

bool TeamPolicy::preempted(const TeamStep& step) const {
  return foreign_time(step) || (switched(step) && !((step.baseline || quiet_machine) && switched_in_team(step)));
}

double estimate_time(const TeamAnalysis& analysis, double consumed, long remaining, double baseline_share, const TeamPolicy& policy) {
  return estimate_time_from(analysis, -1, consumed, remaining, baseline_share, policy);
}

double estimate_time_from(const TeamAnalysis& analysis, long steps, double consumed, long remaining, double baseline_share,
                          const TeamPolicy& policy) {
  if (remaining < 0) return -1.0;
  const long count = steps < 0 ? analysis.steps() : std::min(steps, analysis.steps());
  std::vector<double> parallel;
  std::vector<double> baseline;
  for (long index = 0; index < count; ++index) {
    const TeamStep& step = analysis.step(index);
    (step.baseline ? baseline : parallel).push_back(step.elapsed);
  }
  if (parallel.empty() || (baseline_share > 0.0 && baseline.empty())) return -1.0;
  const double per_step = (1.0 - baseline_share) * typical_mean(parallel, policy.outlier_floor) +
                          (baseline_share > 0.0 ? baseline_share * typical_mean(baseline, policy.outlier_floor) : 0.0);
  return consumed + static_cast<double>(remaining) * per_step;
}

void LoopPace::mark(double now, long iterations, const TeamAnalysis& analysis, const TeamPolicy& policy) {
  const long steps = analysis.steps();
  if (last_time_ >= 0.0 && iterations > last_iterations_ && now > last_time_) {
    long measured = 0;
    long preempted = 0;
    double measured_time = 0.0;
    double preempted_time = 0.0;
    for (long index = std::min(last_step_, steps); index < steps; ++index) {
      ++measured;
      measured_time += analysis.step(index).elapsed;
      if (!policy.preempted(analysis.step(index))) continue;
      ++preempted;
      preempted_time += analysis.step(index).elapsed;
    }
    // The stretch's wall time against what its steps would take at the mean of the measured ones: much more
    // means time outside the measured steps (the tool's own work when it found the period, a stop).
    const double expected = measured > 0 ? measured_time / static_cast<double>(measured) * static_cast<double>(iterations - last_iterations_) : 0.0;
    const bool disturbed = measured == 0 || static_cast<double>(preempted) > policy.disturbed_fraction * static_cast<double>(measured) ||
                           more_than(preempted_time, measured_time, policy.disturbed_fraction) ||
                           now - last_time_ > policy.pace_excess * expected;
    if (disturbed) {
      clean_seconds_ = 0.0;
      clean_iterations_ = 0;
      clean_paces_.reset();
    } else {
      clean_seconds_ += now - last_time_;
      clean_iterations_ += iterations - last_iterations_;
      clean_paces_.add((now - last_time_) / static_cast<double>(iterations - last_iterations_));
    }
  }
  last_time_ = now;
  last_iterations_ = iterations;
  last_step_ = steps;
}

double LoopPace::seconds_per_step() const {
  return clean_iterations_ > 0 ? clean_seconds_ / static_cast<double>(clean_iterations_) : -1.0;
}

}  // namespace augur::selfanalysis
