// The one-run analysis of a program whose time loop runs inside ONE parallel region (docs/self-analysis.md,
// "One outer parallel region, in one run"). A team keeps its size for the whole region, so no iteration can
// run on the baseline's B threads; instead every thread's time is split, between two barriers, into work
// (from leaving one barrier to arriving at the next) and waiting (inside the barrier). From the work of each
// thread in each barrier episode of a time step this engine derives what one thread would have needed (the
// sum of the work of a worksharing construct, the executing thread's work of a `single`), the sequential
// fraction f, the load balance and communication efficiency of the POP methodology, the speedup on the team
// and a prediction of the step time and speedup on other thread counts.
//
// Pure: no clock, no I/O; the edges (libaugur_preload, libaugur_ompt) pass the times in. Allocates only at
// construction and in summarize().
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "selfanalysis/team_precision.hpp"

namespace augur::selfanalysis {

// What one time step (an iteration of the period found in the worksharing constructs) measured.
struct TeamStep {
  double elapsed = 0.0;        // wall time of the step on the team's master thread, seconds
  double tool_delay = 0.0;     // how much of it the tool's own time on the master added (the edge's estimate)
  double serial = 0.0;         // sum over serial episodes (a `single`: one thread worked) of the work
  double parallel_work = 0.0;  // sum over the other episodes of the work of every thread
  double parallel_max = 0.0;   // sum over the other episodes of the largest work of one thread
  double thread_sum = 0.0;     // sum over threads of each thread's work in the step
  double thread_max = 0.0;     // the largest work of one thread in the step
  int episodes = 0;            // barrier episodes in the step
  double spin = 0.0;           // the threads' spins on flags (seen through flushes), taken out of their work
  long switches = 0;           // involuntary context switches of the process during the step
  // The wall time of the step less the process's CPU time in it, seconds (negative: not read): on one CPU, the
  // time another process (or idleness) took from the team.
  double cpu_shortfall = -1.0;
  bool one_cpu = false;        // the team needed one CPU: its threads on one core, or taking turns (baseline)
  bool baseline = false;       // a baseline step: the team's threads ran one after the other (on one processor at a time)
  // What one thread would need for the step: its serial part plus all the work of the worksharing constructs.
  [[nodiscard]] double one_thread() const { return serial + parallel_work; }
  // The step's time without the tool: the wall time less the tool's delay (never below half the wall time).
  [[nodiscard]] double program_time() const { return tool_delay > 0.0 && tool_delay < 0.5 * elapsed ? elapsed - tool_delay : elapsed; }
};

class TeamAnalysis {
public:
  static constexpr int max_steps = 16384;  // steps kept (the first ones measured)

  // `max_threads`: the largest team the accumulators are sized for (a larger team is not analysed).
  explicit TeamAnalysis(int max_threads);

  // One barrier episode of the team, from the master after the barrier: `work[t]` the time thread t worked
  // since it left the previous barrier (negative: unknown, e.g. its first barrier in the region); `serial`
  // when the episode ended a `single`. An episode with an unknown work makes its step incomplete.
  void episode(bool serial, const double* work, int threads, const double* spin = nullptr);
  // The episodes since the last step boundary form a measured step of `elapsed` seconds, with `switches`
  // involuntary context switches; `baseline` when the threads ran one after the other; `tool_delay`: how
  // much of `elapsed` the tool's own time added on the critical path; `cpu_shortfall` and `one_cpu` as in
  // TeamStep. A step with an incomplete episode or another team size is dropped.
  void end_step(double elapsed, long switches, bool baseline = false, double tool_delay = 0.0, double cpu_shortfall = -1.0,
                bool one_cpu = false);
  // The episodes since the last boundary belong to no measured step (the period's first start, a break).
  void drop_step();

  [[nodiscard]] int team() const { return team_; }  // 0 until the first episode
  [[nodiscard]] long steps() const { return static_cast<long>(steps_.size()); }
  [[nodiscard]] const TeamStep& step(long index) const { return steps_[static_cast<std::size_t>(index)]; }
  [[nodiscard]] long dropped_steps() const { return dropped_; }
  [[nodiscard]] int max_threads() const { return static_cast<int>(thread_work_.size()); }

private:
  void reset_current();

  int team_ = 0;
  TeamStep current_{};
  bool current_complete_ = true;
  bool current_mixed_team_ = false;
  std::vector<double> thread_work_;  // per thread, the work in the current step
  std::vector<TeamStep> steps_;
  long dropped_ = 0;
};

// The analysis's thresholds (docs/self-analysis.md states and justifies them).
struct TeamPolicy {
  int min_steps = 5;                  // no speedup from fewer measured steps
  int min_baseline_steps = 3;         // fewer baseline steps: T(1) is the work added up
  // More preempted steps than this, or a larger share of the measured time in preempted steps (a competitor's
  // time slices of milliseconds fall into few short steps): the measurement is disturbed.
  double disturbed_fraction = 0.2;
  double spread_limit = 0.25;         // a larger relative spread of the step times: disturbed
  double pace_excess = 1.25;          // a stretch of the loop's pace longer than this times its measured steps: disturbed
  // A step was preempted when it had more involuntary context switches than one per this many seconds of
  // its time, rounded down (so any for a step shorter than that): an idle machine's own kernel threads
  // take a core for microseconds now and then, a competing process at every time slice (a few ms).
  double switch_interval = 0.01;
  // A team on one CPU (TeamStep::one_cpu; docs/self-analysis.md, "The verdict"): its process CPU time falls
  // short of the step's wall time by what another process took from that CPU (or idleness, which a team that
  // never blocks does not have). More than this share of the step, and this floor (seconds): preempted, with
  // or without an involuntary switch (a thread woken at a barrier while the competitor runs waits without one).
  // Not more: its switches were between the team's own threads (on one core, a thread woken at a barrier
  // preempts the one that woke it).
  double foreign_share = 0.1;
  double foreign_floor = 5e-6;
  // More involuntary switches than an idle machine explains (switch_interval).
  [[nodiscard]] bool switched(const TeamStep& step) const;
  // On one CPU, which another process took for longer than foreign_share of the step.
  [[nodiscard]] bool foreign_time(const TeamStep& step) const;
  // Switched, and only between the team's own threads on its one CPU.
  [[nodiscard]] bool switched_in_team(const TeamStep& step) const;
  // A step is an outlier, left out of T(P) and the estimates, when its time is further from the median than 3
  // scaled MADs and than this many seconds: another process's time slice costs a step milliseconds, while the
  // program's own slow steps (a thread woken on a halted core: ~90 us on a virtual machine) are its time.
  double outlier_floor = 5e-4;
  // Another process took a core the team was on: foreign time on one CPU, or switches, unless the step is a
  // baseline step whose switches were the team's own. A parallel step whose team was packed on one core counts
  // its switches as preemption still: the team may be packed because another process holds the other core
  // (bench_outer_region's disturbance check, 2026-11-26 23:01 UTC: exempting them missed a competitor in 28
  // of 90 runs).
  [[nodiscard]] bool preempted(const TeamStep& step) const;
  // Nothing else ran beside the run (MachineContext::quiet, known only at its end: the report's verdict, not
  // the pace of the estimate). Then no other process can have packed or preempted the team: a parallel step on
  // one CPU whose switches were the team's own (switched_in_team) is not preempted; a spread step that switched
  // without foreign time stays out of the figures (preempted() says so: a moment when the scheduler put both
  // threads on one core, as NPB LU's flag-spinning threads show: 25% of its steps switched with other processes at
  // 0.00 processors, bench_outer_region 2026-11-27 05:42 UTC) but summarize() does not count it as preempted
  // nor as a disturbance; and step times that scatter are
  // the program's own variation (its threads' placement, a core woken from a halt), a reason that does not
  // make the measurement disturbed (docs/self-analysis.md, "The verdict", 2026-11-27).
  bool quiet_machine = false;
  double other_cpu_load = -1.0;  // MachineContext::other_cpu_load, for the verdict's sentence
  // Not empty: other processes competed with the team over the run (MachineContext::competed_reason), a
  // reason that makes the measurement disturbed whatever the steps say (a competitor that preempted too few
  // of the steps to pass disturbed_fraction still moved T(P); bench_outer_region, 2026-11-27 02:35 UTC).
  std::string competed_reason;
  // The first estimate from the steps' means (DeferredEstimate) waits for this many team steps (a third of a
  // shorter loop's, at least min_steps), until their mean time's standard error is at most first_estimate_error of
  // it, or half the loop went by (first_estimate_ready; docs/self-analysis.md, "The first estimate from more steps").
  int first_estimate_steps = 20;
  double first_estimate_error = 0.025;
  // The precision of S(P) (SpeedupPrecision): with fewer than 3 stretches between windows, blocks of this many
  // used steps instead. Two standard errors above imprecise_limit of S(P): the run did not fix it, disturbed.
  int precision_block = 20;
  double imprecise_limit = 0.15;
};

// Steps of one kind and their wall time (the tool's delay in it), seconds.
struct StepsTime {
  long steps = 0;
  double seconds = 0.0;
  void add(double elapsed) {
    ++steps;
    seconds += elapsed;
  }
};

// Where the measured steps' wall time went (docs/self-analysis.md, "Where the region's time went"): each measured
// step in one of four kinds. With the region's time and iterations it accounts for the gap between
// iterations x T(P) and the region's time (team_report.cpp adds the steps not measured).
struct TeamTimeAccount {
  StepsTime used;              // the steps T(P) comes from
  double used_tool_delay = 0.0;  // the tool's delay in them (T(P) is their mean time without it)
  StepsTime baseline;          // baseline steps: the team's threads one after the other
  StepsTime preempted;         // left out: another process preempted them
  StepsTime left_out;          // left out otherwise: slower than the outlier limit, or the team's own switches
};

// What the steps say, summarised.
struct TeamSummary {
  int team = 0;
  long steps = 0;           // measured steps
  long steps_used = 0;      // steps the figures come from: undisturbed, not outliers
  long steps_preempted = 0; // steps another process preempted (TeamPolicy::preempted)
  // Steps on one CPU whose switches may have been the team's own (preempted unless baseline steps); on a quiet
  // machine, every switched step without foreign time (not preempted: nothing else ran to preempt it).
  long steps_switched_in_team = 0;
  double preempted_time_share = 0.0;  // the preempted steps' share of the measured steps' wall time
  long switches = 0;        // involuntary context switches in all measured steps
  int min_steps = 0;        // the policy's minimum
  bool enough = false;      // steps_used >= min_steps: the figures below are valid
  double step_time = 0.0;   // T(P): mean time of the used steps without the tool's delay, seconds
  double step_time_median = 0.0;  // median time of all measured steps
  double spread = 0.0;      // relative spread of the step times: 1.4826 MAD / median
  long baseline_steps = 0;  // baseline steps measured (threads one after the other)
  bool baseline_measured = false;  // T(1) is the median of the baseline steps (else the work added up)
  double one_thread = 0.0;  // T(1): the median of the baseline steps' work added up, or of the other steps' work; team 1: step_time
  double work_one_thread = 0.0;  // T(1) from the work of the used steps added up (the mean per step)
  double spin = 0.0;             // the mean TeamStep::spin of the used steps
  double serial = 0.0;      // mean serial time per step
  double parallel_max = 0.0;  // mean per step of the sum of the largest work per episode
  double overhead = 0.0;    // T(P) - serial - parallel_max, at least 0: barriers and unaccounted time
  double f = -1.0;          // sequential fraction serial / T(1)
  double load_balance = 0.0;   // POP: mean over threads of the work / the largest work
  double communication = 0.0;  // POP: the largest work / the step time
  double speedup = 0.0;        // S(P) = T(1) / T(P)
  double speedup_low = 0.0;    // 10th and 90th percentiles of the steps' own T(1)/T(P)
  double speedup_high = 0.0;
  SpeedupPrecision precision;  // of S(P): the run's own evidence of how far it may be off
  bool quiet_machine = false;  // TeamPolicy::quiet_machine: switched_in_team steps were not preempted
  double other_cpu_load = -1.0;  // TeamPolicy::other_cpu_load
  TeamTimeAccount account;       // every measured step's wall time, by kind
  bool disturbed = false;
  bool meaningless = false;          // set by the edge: spinning threads on an oversubscribed machine
  std::vector<std::string> reasons;  // why disturbed (empty: clean)

  // P x parallel efficiency = speedup; the efficiency itself.
  [[nodiscard]] double parallel_efficiency() const { return team > 0 ? speedup / team : 0.0; }
  // Two standard errors of S(P) (about 95% for a normal error): speedup x 2 x precision.relative_error; negative
  // when unknown.
  [[nodiscard]] double speedup_error() const {
    return enough && precision.relative_error >= 0.0 ? 2.0 * speedup * precision.relative_error : -1.0;
  }
  // The predicted step time on q threads: T(1) for q = 1, T(P) for q = team, else T(P) scaled by the work
  // profile: T(P) x (serial + parallel_max x team / q + overhead) / (serial + parallel_max + overhead).
  // 0 when not enough.
  [[nodiscard]] double predicted_time(int threads) const;
  [[nodiscard]] double predicted_speedup(int threads) const;
  // AF(q) = 1 / (f + (1 - f) / q).
  [[nodiscard]] double amdahl_factor(int threads) const;
  // "measurement clean: ...", "measurement disturbed: ..." or "measurement meaningless: ...", one sentence.
  [[nodiscard]] std::string verdict() const;
};

[[nodiscard]] TeamSummary summarize(const TeamAnalysis& analysis, const TeamPolicy& policy = {});

// The estimate of a time loop's execution time: `consumed` seconds so far and `remaining` steps, of which a
// share `baseline_share` will be baseline steps: the means of the baseline and the other steps measured so
// far, outliers left out as in T(P) (TeamPolicy::outlier_floor); negative when either is missing or `remaining`
// is negative.
[[nodiscard]] double estimate_time(const TeamAnalysis& analysis, double consumed, long remaining, double baseline_share,
                                   const TeamPolicy& policy = {});
// The same from the analysis' first `steps` steps only (all of them when `steps` is negative or more).
[[nodiscard]] double estimate_time_from(const TeamAnalysis& analysis, long steps, double consumed, long remaining,
                                        double baseline_share, const TeamPolicy& policy = {});

// What the estimate from the means of the steps (estimate_time) needs, taken at a step boundary, its arithmetic
// left for later: it sorts every step measured so far (their median and deviation), O(n log n) with
// allocations, about 60 us at 3,000 steps, which the master thread would otherwise do between two barriers of
// its team while the other threads wait (docs/self-analysis.md, "The tool's time on the master"). The same
// steps give the same number whenever it is computed: LoopEstimates::resolve computes it after the loop.
struct DeferredEstimate {
  long steps = -1;  // from the analysis' first `steps` steps; negative: no estimate (the evidence does not suffice)
  double consumed = 0.0;
  long remaining = 0;
  double baseline_share = 0.0;
};

// Running sums of step times (the edge adds each step on the team once: O(1) per step), for the evidence the
// first estimate from the means waits for (first_estimate_ready).
class StepTimeSums {
public:
  void add(double seconds) {
    ++count_;
    sum_ += seconds;
    squares_ += seconds * seconds;
  }
  void reset() { *this = StepTimeSums{}; }
  [[nodiscard]] long count() const { return count_; }
  [[nodiscard]] double mean() const { return count_ > 0 ? sum_ / static_cast<double>(count_) : 0.0; }
  // The standard error of the mean over the mean (s / sqrt(n) / mean, s the sample deviation); infinite below
  // two steps or for a mean that is not positive.
  [[nodiscard]] double relative_standard_error() const;

private:
  long count_ = 0;
  double sum_ = 0.0;
  double squares_ = 0.0;
};

// Whether the steps on the team measured so far (`parallel`) suffice for the first estimate from the means of a
// loop of `expected` steps, `iterations` begun (TeamPolicy::first_estimate_steps and first_estimate_error).
[[nodiscard]] bool first_estimate_ready(const StepTimeSums& parallel, long iterations, long expected, const TeamPolicy& policy = {});

// The pace of a time loop, for the estimate of its execution time (docs/self-analysis.md, "The estimate of the
// execution time"): marks at the start of each baseline window (every `every` steps when there are no windows),
// so that a stretch from one mark to the next holds the same mix of team, transition and baseline steps as the
// rest of the run, and its wall time per step is the loop's pace, the tool's own time included. A stretch is
// disturbed when more than policy.disturbed_fraction of its measured steps were preempted (the start of a run
// where the runtime's threads still share a core, a competing process), or when its wall time is more than
// policy.pace_excess times what its steps take at the mean of its measured ones (time outside the measured
// steps: the tool's own work when it found the period); the pace is that of the consecutive undisturbed
// stretches since the last disturbed one, and its precision the standard error of their paces' mean.
class LoopPace {
public:
  // A mark at `now`, when `iterations` steps of the loop have begun and `analysis` holds the steps measured so
  // far (the steps measured since the previous mark belong to the stretch that ends here).
  void mark(double now, long iterations, const TeamAnalysis& analysis, const TeamPolicy& policy);
  void reset() { *this = LoopPace{}; }
  [[nodiscard]] bool marked() const { return last_time_ >= 0.0; }
  [[nodiscard]] long last_iterations() const { return last_iterations_; }
  [[nodiscard]] int clean_stretches() const { return static_cast<int>(clean_paces_.count()); }
  [[nodiscard]] long clean_iterations() const { return clean_iterations_; }
  // Seconds per step over the clean stretches; negative when there is none.
  [[nodiscard]] double seconds_per_step() const;
  // The standard error of the mean of the clean stretches' paces (each stretch's seconds per step) over that
  // mean; infinite below two stretches.
  [[nodiscard]] double relative_error() const { return clean_paces_.relative_standard_error(); }

private:
  double last_time_ = -1.0;
  long last_iterations_ = 0;
  long last_step_ = 0;  // analysis.steps() at the last mark
  double clean_seconds_ = 0.0;
  long clean_iterations_ = 0;
  StepTimeSums clean_paces_;  // the clean stretches' seconds per step
};

// An estimate of a time loop's execution time and when it was made.
struct TimeEstimate {
  double seconds = -1.0;  // negative: none made
  long at_iteration = 0;  // the loop's iterations begun when it was made
  [[nodiscard]] bool made() const { return seconds >= 0.0; }
};

// The estimate from the loop's pace (LoopPace) for a loop of `expected` steps, `iterations` begun, `consumed`
// seconds into it: consumed + (expected - iterations) x pace, once the pace has `least` (TeamPolicy::min_steps)
// undisturbed stretches whose paces' mean is known within `precision` (its standard error over it:
// TeamPolicy::first_estimate_error), or, when `quarter` (a quarter of the loop went by), one undisturbed
// stretch; negative when it has neither, or when `iterations` > `expected`.
[[nodiscard]] double pace_estimate(const LoopPace& pace, double consumed, long iterations, long expected, bool quarter,
                                   double precision = TeamPolicy{}.first_estimate_error, int least = TeamPolicy{}.min_steps);

// The estimates of a time loop's execution time (docs/self-analysis.md, "The estimate of the execution time"):
// the first once the evidence suffices, then a new one at every mark of the pace (the start of each baseline
// window), so that later steps correct it; the first and the latest are kept.
class LoopEstimates {
public:
  // At a step boundary of the loop of `expected` steps (positive), `iterations` begun, `consumed` seconds into
  // it, `mark` when the pace was marked at this boundary: before the first estimate, at every boundary; after
  // it, at the marks only. The pace's estimate, or else `fallback()` (the medians' estimate, negative when the
  // evidence does not suffice), asked only when the pace gives none.
  // The fallback may also answer a DeferredEstimate: the estimate is then made at this boundary and computed by
  // resolve().
  template <class Fallback>
  void at_boundary(const LoopPace& pace, double consumed, long iterations, long expected, bool mark, Fallback&& fallback) {
    if (expected <= 0 || (first_made() && !mark)) return;
    const double seconds = pace_estimate(pace, consumed, iterations, expected, iterations * 4 >= expected);
    if (seconds >= 0.0) {
      record(seconds, iterations);
      return;
    }
    const auto answer = fallback();
    if constexpr (std::is_same_v<std::decay_t<decltype(answer)>, DeferredEstimate>) {
      defer(answer, iterations);
    } else if (answer >= 0.0) {
      record(answer, iterations);
    }
  }
  // An estimate made at `iterations`: the first if none was, and the latest.
  void record(double seconds, long iterations);
  // An estimate made at `iterations` whose seconds resolve() computes (nothing when `estimate.steps` < 0).
  void defer(const DeferredEstimate& estimate, long iterations);
  // Computes the deferred estimates from `analysis` (the steps they were made from are still its first ones).
  // Until then a deferred estimate is not made() in first() and latest().
  void resolve(const TeamAnalysis& analysis, const TeamPolicy& policy = {});
  void reset() { *this = LoopEstimates{}; }
  [[nodiscard]] const TimeEstimate& first() const { return first_; }
  [[nodiscard]] const TimeEstimate& latest() const { return latest_; }
  [[nodiscard]] int count() const { return count_; }  // estimates made, deferred ones included
  [[nodiscard]] bool first_made() const { return first_.made() || first_deferred_.steps >= 0; }

private:
  TimeEstimate first_;
  TimeEstimate latest_;
  DeferredEstimate first_deferred_;   // first_'s inputs while it waits for resolve()
  DeferredEstimate latest_deferred_;  // latest_'s
  int count_ = 0;
};

}  // namespace augur::selfanalysis
