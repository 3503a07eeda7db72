// The edges of the one-run analysis of one outer parallel region, shared by libaugur_preload and
// libaugur_ompt (session.hpp: outer_begin ... outer_depart): the time steps and the baseline windows, the
// threads' stamps, the tool's own time and delay. Method: docs/self-analysis.md, "One outer parallel region,
// in one run".
#include <sys/resource.h>

#include <algorithm>
#include <cstdint>

#include "interpose/session.hpp"

namespace augur::interpose {

namespace {

// Baseline steps on or off from the next barrier on (and the team on the master's core, or back where it was).
void serialize(OuterRegion& outer, bool on, int team) {
  // Off and staying off with nothing bound, at most step boundaries: no atomic exchange on the line every thread
  // of the team reads at its barriers.
  if (!on && !outer.recorder.serializing() && !outer.binding.bound()) {
    outer.bound_now = false;
    return;
  }
  outer.recorder.set_serialize(on);
  if (on && outer.recorder.serializing()) {
    outer.binding.bind(outer.recorder, team);
    // Stopped between the two (a thread that gave up before bind() published its mask could not let itself go).
    if (outer.recorder.failed()) outer.binding.release();
  } else {
    outer.binding.release();
  }
  outer.bound_now = outer.binding.bound();
}

long involuntary_switches() {
  rusage usage{};
  return ::getrusage(RUSAGE_SELF, &usage) == 0 ? usage.ru_nivcsw : 0;
}

// The process's CPU time (all its threads), seconds: with the wall time of a step, what another process took
// from a team on one CPU (TeamPolicy::foreign_time).
double process_cpu_time() { return runtime::read_clock(CLOCK_PROCESS_CPUTIME_ID); }

// The share of baseline time in the `remaining` steps of the loop, from the windows' schedule: a window is one
// partly serialized step, window_steps baseline steps and another partly serialized step (the two count as one
// baseline and one team step), every window_every steps on the team (-1: the first window only).
double remaining_baseline_share(const OuterRegion& outer, long remaining) {
  if (remaining <= 0) return 0.0;
  const long ws = outer.window_steps;
  const long window = ws + 2;
  double baseline = 0.0;
  long left = remaining;
  if (outer.window_left > 0 || outer.running == StepKind::Baseline) {  // in a window: the rest of it
    const long rest = std::min<long>(left, outer.window_left + 2);
    baseline += static_cast<double>(std::min<long>(rest, outer.window_left + 1));
    left -= rest;
  }
  if (outer.window_every > 0 && left > 0) {
    const long team_first = std::max<long>(0, outer.window_every - outer.since_window);
    if (left > team_first) {
      const long after = left - team_first;
      const long cycle = window + outer.window_every;
      baseline += static_cast<double>((after / cycle) * (ws + 1) + std::min<long>(after % cycle, ws + 1));
    }
  }
  return baseline / static_cast<double>(remaining);
}

// The steps of each kind the analysis kept, counted from where the last call stopped (not every step again).
void count_kinds(OuterRegion& outer) {
  const long steps = outer.analysis.steps();
  if (outer.kinds_counted > steps) {
    outer.kinds_counted = outer.parallel_kept = outer.baseline_kept = 0;
    outer.parallel_times.reset();
  }
  for (; outer.kinds_counted < steps; ++outer.kinds_counted) {
    const selfanalysis::TeamStep& step = outer.analysis.step(outer.kinds_counted);
    ++(step.baseline ? outer.baseline_kept : outer.parallel_kept);
    if (!step.baseline) outer.parallel_times.add(step.elapsed);
  }
}

// The estimate from the means of the steps measured so far (docs/self-analysis.md, "The estimate of the
// execution time"), when a quarter of the loop went by without an undisturbed stretch of its pace: once the
// first baseline window and enough steps on the team were measured; none before. Its arithmetic is deferred to
// the report (selfanalysis::DeferredEstimate: a sort of every step, not for the master between two barriers).
selfanalysis::DeferredEstimate medians_estimate(const Session& session, OuterRegion& outer, double now, long iterations) {
  const long remaining = session.expected_iterations - iterations;
  if (iterations * 4 < session.expected_iterations || remaining < 0) return {};
  count_kinds(outer);
  const long baseline = outer.baseline_kept;
  const bool windows = outer.windows && !outer.recorder.failed() && outer.analysis.team() > 1;
  // Enough evidence: 20 steps on the team (a third of a short loop's) whose mean is known within 2.5%, or as
  // many once half the loop went by (selfanalysis::first_estimate_ready), and the first baseline window.
  if (!selfanalysis::first_estimate_ready(outer.parallel_times, iterations, session.expected_iterations) ||
      (windows && baseline < outer.window_steps))
    return {};
  const double share = windows ? remaining_baseline_share(outer, remaining) : 0.0;
  return selfanalysis::DeferredEstimate{outer.analysis.steps(), now - outer.entered_at, remaining, share};
}

// The estimates of the region's execution time at a step boundary, `mark` at the start of a baseline window:
// the first from the loop's pace over two undisturbed stretches between windows (one once a quarter of the
// loop went by), or from the medians when a quarter went by without any; then re-made at every mark, so that
// later steps correct it.
void estimate(const Session& session, OuterRegion& outer, double now, bool mark) {
  if (session.expected_iterations <= 0) return;
  const long iterations = session.worksharing->periods().iterations();
  if (mark) outer.pace.mark(now, iterations, outer.analysis, selfanalysis::TeamPolicy{});
  outer.estimates.at_boundary(outer.pace, now - outer.entered_at, iterations, session.expected_iterations, mark,
                              [&] { return medians_estimate(session, outer, now, iterations); });
}

// Whether this step boundary marks a stretch of the loop's pace: the start of a baseline window, or every
// `window_every` (20 when none) steps when no windows run.
bool pace_mark(const Session& session, OuterRegion& outer, int team) {
  const bool started = outer.window_started;
  outer.window_started = false;
  const bool windows = outer.windows && outer.window_every > 0 && team > 1 && !outer.recorder.failed();
  if (windows) return started;
  const long every = outer.window_every > 0 ? outer.window_every : 20;
  return !outer.pace.marked() || session.worksharing->periods().iterations() - outer.pace.last_iterations() >= every;
}

// At a step boundary (the master, before the barrier): the kind of the step that ends, and of the next one, with
// the threads serialized or not from the barrier on.
void next_step(OuterRegion& outer, StepMark mark, int team) {
  outer.pending = mark;
  outer.ended_bound = outer.bound_now;
  outer.ended = mark == StepMark::Timed ? outer.running : StepKind::Dropped;
  const bool baseline_running = outer.running == StepKind::Baseline || (outer.running == StepKind::Dropped && outer.window_left > 0);
  if (baseline_running && outer.window_left > 0 && !outer.recorder.failed()) {
    --outer.window_left;
    outer.running = StepKind::Baseline;
    serialize(outer, true, team);
    return;
  }
  if (baseline_running) {  // the window is over: the next step still has a serialized part
    outer.window_left = 0;
    outer.running = StepKind::Dropped;
    outer.since_window = 0;
    serialize(outer, false, team);
    return;
  }
  if (outer.running == StepKind::Parallel) ++outer.since_window;
  const bool first = outer.analysis.steps() == 0 || (outer.window_every > 0 && outer.since_window >= outer.window_every);
  if (outer.windows && team > 1 && mark == StepMark::Timed && first && !outer.recorder.failed()) {
    outer.window_left = outer.window_steps;  // the first step of the window is dropped, then window_steps
    outer.running = StepKind::Dropped;
    outer.window_started = true;
    serialize(outer, true, team);
    return;
  }
  outer.running = StepKind::Parallel;
  serialize(outer, false, team);
}

}  // namespace

void outer_begin(Session& session, std::uint64_t region, double now) {
  OuterRegion* outer = session.outer.get();
  if (outer == nullptr) return;
  outer->recorder.begin_region();
  outer->analysis.drop_step();
  outer->serial_next = false;
  outer->pending = StepMark::None;
  outer->running = StepKind::Dropped;
  outer->window_left = 0;
  serialize(*outer, false, 0);
  outer->entered_at = now;
  outer->pace.reset();
  outer->window_started = false;
  outer->boundary_wall = -1.0;
  // Its steps add up over the entries, its time (`elapsed`) is the last entry's: no account of it.
  const WorksharingPeriods* periods = session.worksharing != nullptr ? &session.worksharing->periods() : nullptr;
  if (periods != nullptr && periods->found() && periods->pattern().region == region) outer->entered_again = true;
  outer->region = region;
  outer->measuring.store(true, std::memory_order_release);
}

void outer_end(Session& session, double now) {
  OuterRegion* outer = session.outer.get();
  if (outer == nullptr) return;
  outer->measuring.store(false, std::memory_order_release);
  serialize(*outer, false, 0);  // a window the region's end cut short
  if (outer->traced_steps && session.trace != nullptr) session.trace->phase(nullptr, now);
  outer->traced_steps = false;
  const WorksharingPeriods& periods = session.worksharing->periods();
  if (periods.found() && periods.pattern().region == outer->region) outer->elapsed = now - outer->entered_at;
}


namespace {

// The time this thread spent in the tool since it last left a barrier, outside the stamps (a sample taken
// inside an episode, on the master): not the program's work, taken out of it as the dispatcher's time is.
thread_local double tool_seconds = 0.0;
// The master's time in outer_sample since it last left a barrier (its delay at the next one, tool_delay).
thread_local double sample_seconds = 0.0;

// How much later the barrier just passed let the team go because of the tool's time on the master (the
// master, after it, with `sample_seconds` not yet reset): the master went into the runtime's barrier at e
// (after its arrival stamp and its last sample), and without the tool would have at v = e - (its
// bookkeeping after the previous barrier + its samples since); the others' latest arrival is a. The barrier
// opened at max(e, a) instead of max(v, a); a later opening shifts every thread's next episode alike, so
// the step's delay is the sum over its barriers.
double tool_delay(const OuterRegion& outer, int team) {
  const double latest = outer.recorder.latest_other_arrival(team);
  if (latest < 0.0) return 0.0;
  const double entered = std::max(outer.master_arrival, outer.last_sample_end);
  const double without = entered - outer.bookkeeping - sample_seconds;
  return std::max(0.0, std::max(entered, latest) - std::max(without, latest));
}

// The master, after a barrier and its bookkeeping: its stints in the tool at that barrier into the report's
// tool_time, for the barriers inside and at the end of steps on the team only (not those of baseline windows, nor
// their edges, where the master binds and releases the team: system calls).
void count_tool_time(OuterRegion& outer, bool boundary) {
  if (outer.running != StepKind::Parallel || (boundary && outer.ended != StepKind::Parallel)) return;
  selfanalysis::ToolTime& tool = outer.tool;
  ++tool.barriers;
  tool.arrival_seconds += sample_seconds;
  tool.bookkeeping_seconds += outer.bookkeeping;
  if (boundary) {
    ++tool.boundaries;
    tool.boundary_seconds += outer.bookkeeping;
  }
}

// The cores the team's threads last left a barrier on, into outer.cpus: all known and the same (one core).
bool read_cpus(OuterRegion& outer, int threads) {
  bool one = threads > 0;
  for (int thread = 0; thread < threads; ++thread) {
    const int cpu = outer.recorder.cpu(thread);
    outer.cpus[static_cast<std::size_t>(thread)] = cpu;
    one = one && cpu >= 0 && cpu == outer.cpus[0];
  }
  return one;
}

}  // namespace

// The phase track of the timeline (run_timeline.hpp) for the step that begins: on the team, a baseline step
// (its threads one after the other), or a dropped one (the first of a window, the one after it).
const char* step_phase(StepKind kind) {
  switch (kind) {
    case StepKind::Parallel:
      return "allocated";
    case StepKind::Baseline:
      return "baseline";
    case StepKind::Dropped:
      break;
  }
  return "dropped step";
}

void outer_sample(Session& session, std::uint64_t site, ConstructEnd kind, int team, double now) {
  const StepMark mark = session.worksharing->sample(site, kind, team, now);
  if (session.outer != nullptr && mark != StepMark::None) {
    next_step(*session.outer, mark, team);
    if (session.trace != nullptr) {
      session.trace->phase(step_phase(session.outer->running), now);
      session.outer->traced_steps = true;
    }
  }
  if (session.outer == nullptr) return;
  session.outer->recorder.master_tool_begin(now);  // an arrival stamp just before stands (gomp_wrappers.cpp)
  const double end = runtime::read_clock(CLOCK_MONOTONIC);
  session.outer->recorder.master_tool_end(end);
  const double spent = std::max(0.0, end - now);
  tool_seconds += spent;
  sample_seconds += spent;
  session.outer->last_sample_end = end;
}

void outer_single(Session& session) {
  if (session.outer != nullptr) session.outer->serial_next = true;
}

void outer_arrive(Session& session, int thread, double now, double overhead, bool sample_follows, double spin) {
  if (session.outer != nullptr && session.outer->measuring.load(std::memory_order_acquire)) {
    TeamRecorder& recorder = session.outer->recorder;
    // The master is in the tool from its arrival stamp until it goes into the runtime's barrier (after the
    // sample that follows, when one does): a thread waiting for it sees it arrived only then.
    if (thread == 0) recorder.master_tool_begin(now);
    recorder.arrive(thread, now, overhead + tool_seconds, spin);
    if (thread == 0) session.outer->master_arrival = now;
    if (thread == 0 && !sample_follows) recorder.master_tool_end(runtime::read_clock(CLOCK_MONOTONIC));
    if (thread > 0) recorder.wait_for_master(thread, now);
  }
  tool_seconds = 0.0;
}

bool outer_serializing(const Session& session) { return session.outer != nullptr && session.outer->recorder.serializing(); }

void outer_depart(Session& session, int thread, bool master, int team, double now) {
  OuterRegion* outer = session.outer.get();
  if (outer == nullptr || !outer->measuring.load(std::memory_order_acquire)) return;
  if (!master && outer->recorder.serializing()) {
    outer->recorder.wait_turn(thread);
    now = runtime::read_clock(CLOCK_MONOTONIC);
  }
  tool_seconds = 0.0;
  if (!master) {
    outer->recorder.depart(thread, now);
    return;
  }
  // The master's work starts after its bookkeeping of the episode and the step (below), a stint in the tool.
  outer->recorder.master_left_barrier(now);
  struct DepartAfter {
    OuterRegion& outer;
    int thread;
    double left;
    bool boundary;
    ~DepartAfter() {
      const double now = runtime::read_clock(CLOCK_MONOTONIC);
      outer.recorder.depart(thread, now);
      outer.bookkeeping = std::max(0.0, now - left);
      outer.recorder.master_tool_end(now);
      count_tool_time(outer, boundary);
      sample_seconds = 0.0;
    }
  } depart_after{*outer, thread, now, outer->pending != StepMark::None};
  const int threads = std::min(team, static_cast<int>(outer->work.size()));
  if (outer->recorder.episode(threads, outer->work.data(), outer->spin.data())) {
    outer->analysis.episode(outer->serial_next, outer->work.data(), team, outer->spin.data());
    outer->step_delay += tool_delay(*outer, threads);
  }
  outer->serial_next = false;
  if (outer->pending == StepMark::None) return;
  const long switches = involuntary_switches();
  const double cpu_time = process_cpu_time();
  const double wall = runtime::read_clock(CLOCK_MONOTONIC);
  if (outer->pending == StepMark::Timed && outer->ended != StepKind::Dropped) {
    const WorksharingPeriods& periods = session.worksharing->periods();
    const double elapsed = periods.last_time();
    const long kept = outer->analysis.steps();
    const bool baseline = outer->ended == StepKind::Baseline;
    const bool one_cpu = baseline ? outer->ended_bound : read_cpus(*outer, threads);  // a bound baseline step: the master's core
    const double shortfall = outer->boundary_wall >= 0.0 ? std::max(0.0, (wall - outer->boundary_wall) - (cpu_time - outer->boundary_cpu)) : -1.0;
    outer->analysis.end_step(elapsed, switches - outer->switches, baseline, outer->step_delay, shortfall, one_cpu);
    if (outer->ended == StepKind::Parallel && threads == team && outer->analysis.steps() > kept) outer->placement.count(outer->cpus.data(), threads);
    outer->recorder.set_wait_limit(std::min(0.5, std::max(0.01, 20.0 * elapsed)));
  } else {
    outer->analysis.drop_step();
  }
  if (outer->pending == StepMark::Timed) estimate(session, *outer, now, pace_mark(session, *outer, team));
  outer->step_delay = 0.0;
  outer->switches = switches;
  outer->boundary_cpu = cpu_time;
  outer->boundary_wall = wall;
  outer->pending = StepMark::None;
}

}  // namespace augur::interpose
