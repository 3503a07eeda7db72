// The workload simulation on the discrete-event engine: decisions every quantum, completions in between.
#include "manager/simulate.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <numbers>
#include <random>
#include <stdexcept>

#include "augur/sim/engine.hpp"
#include "manager/history.hpp"

namespace augur::manager {

namespace {

struct JobState {
  const WorkloadJob* job = nullptr;
  double remaining = 0.0;       // work left, seconds on one processor
  int allocation = 0;
  double allocated_since = 0.0;  // when the current allocation began
  double last_update = 0.0;
  bool started = false;
  bool finished = false;
  int baseline = 0;              // B, once it first had processors (SimulationOptions::self_analysis)
  double measuring_from = -1.0;  // when its baseline ends (-1: not begun): no speedup before
  bool preempted = false;        // its processors were all taken since the last decision
  PolicyMemory memory;
  std::map<int, double> measured;  // the speedups it has calculated (PC), by P
  std::uint64_t generation = 0;    // a completion event of an older decision is void
  JobOutcome outcome;
};

constexpr long max_decisions = 10'000'000;

class Simulation {
public:
  Simulation(const Workload& workload, const SimulationOptions& options) : options_(options), generator_(options.seed) {
    options_.policy.quantum = options.quantum;  // the rollout holds its candidates for one quantum
    for (const WorkloadJob& job : workload.jobs) {
      JobState state;
      state.job = &job;
      state.remaining = job.work;
      state.outcome.name = job.name;
      state.outcome.arrival = job.arrival;
      state.outcome.work = job.work;
      jobs_.push_back(std::move(state));
    }
  }

  SimulationResult run() {
    if (jobs_.empty()) return summarize();
    schedule_tick_at(next_tick_at_or_after(jobs_.front().job->arrival));
    engine_.run();
    return summarize();
  }

private:
  // Tick k is at k x quantum (no drift from adding quanta up).
  double next_tick_at_or_after(double time) const {
    const double ticks = std::ceil(time / options_.quantum - 1e-9);
    return std::max(ticks, 0.0) * options_.quantum;
  }

  void schedule_tick_at(double time) { engine_.schedule(std::max(time - engine_.now(), 0.0), [this] { tick(); }); }

  // The rate a job with `processors` does its work at from the time `from` on (to the next decision): S(P),
  // or with the self-analysis S(B) during its baseline and a share of re-measurements on B after it.
  double rate(const JobState& state, int processors, double from) const {
    const double speedup = state.job->curve.at(processors);
    if (!options_.self_analysis || processors <= 0) return speedup;
    const int baseline = std::max(1, std::min(state.baseline, processors));
    if (state.measuring_from < 0.0 || from < state.measuring_from - 1e-9) return state.job->curve.at(baseline);
    if (baseline >= processors) return speedup;
    return (1.0 - baseline_share) * speedup + baseline_share * state.job->curve.at(baseline);
  }

  // Since when the job has run on its allocation and measured (after its baseline, with the self-analysis).
  double measured_since(const JobState& state) const {
    if (!options_.self_analysis) return state.allocated_since;
    return state.measuring_from < 0.0 ? engine_.now() : std::max(state.allocated_since, state.measuring_from);
  }

  void advance(JobState& state, double now) {
    const double elapsed = now - state.last_update;
    if (state.allocation > 0 && elapsed > 0.0) {
      state.remaining -= rate(state, state.allocation, state.last_update) * elapsed;
      state.outcome.processor_seconds += state.allocation * elapsed;
    }
    state.last_update = now;
  }

  void complete(JobState& state, double now) {
    advance(state, now);
    state.remaining = 0.0;
    state.finished = true;
    state.outcome.finish = now;
    if (options_.history) histories_.record_finished(program_of_job(state.job->name), state.job->work);
    if (state.allocation != 0) state.outcome.allocations.emplace_back(now, 0);
    state.allocation = 0;
  }

  // exp(noise x z), z standard normal by Box-Muller on uniforms from the generator's top 53 bits (the same
  // numbers on every standard library); 1 without noise.
  double measurement_noise() {
    if (options_.speedup_noise == 0.0) return 1.0;
    const auto uniform = [this] { return (static_cast<double>(generator_() >> 11) + 0.5) * 0x1.0p-53; };
    const double radius = std::sqrt(-2.0 * std::log(uniform()));
    const double z = radius * std::cos(2.0 * std::numbers::pi * uniform());
    return std::exp(options_.speedup_noise * z);
  }

  ApplicationReport report_of(std::size_t index, const JobState& state) const {
    ApplicationReport report;
    report.id = index;
    report.name = state.job->name;
    report.program = program_of_job(state.job->name);
    report.max_processors = state.job->max_processors;
    report.allocation = state.allocation;
    report.memory = state.memory;
    for (const auto& [processors, speedup] : state.measured) {
      report.speedups.push_back({processors, speedup, SpeedupState::calculated});
    }
    const auto known = state.measured.find(state.allocation);
    if (known != state.measured.end()) report.predicted_time = state.remaining / known->second;
    if (options_.oracle) {
      const int cpus = options_.policy.cpus;
      const int usable = state.job->max_processors > 0 ? std::min(state.job->max_processors, cpus) : cpus;
      report.speedups.clear();
      for (int processors = 2; processors <= usable; ++processors) {
        report.speedups.push_back({processors, state.job->curve.at(processors), SpeedupState::calculated});
      }
      report.predicted_time = state.allocation > 0 ? state.remaining / state.job->curve.at(state.allocation) : 0.0;
      report.memory.work_left = state.remaining;
    }
    return report;
  }

  void tick() {
    const double now = engine_.now();
    std::vector<std::size_t> present;
    std::vector<ApplicationReport> reports;
    for (std::size_t index = 0; index < jobs_.size(); ++index) {
      JobState& state = jobs_[index];
      if (state.finished || state.job->arrival > now + 1e-9) continue;
      advance(state, now);
      if (state.remaining <= 1e-12 * state.job->work) {
        complete(state, now);
        continue;
      }
      // A whole quantum on the same allocation: the job has calculated its speedup there; a new value is
      // kept with the old as the self-analysis does (seed 000: 0.6 x old + 0.4 x new), which only matters
      // with noise.
      if (state.allocation > 0 && measured_since(state) <= now - options_.quantum + 1e-9) {
        const double value = state.job->curve.at(state.allocation) * measurement_noise();
        const auto [entry, first] = state.measured.try_emplace(state.allocation, value);
        if (!first && options_.speedup_noise > 0.0) entry->second = 0.6 * entry->second + 0.4 * value;
      }
      present.push_back(index);
      reports.push_back(report_of(index, state));
      if (options_.self_analysis && state.measuring_from >= 0.0 && state.measuring_from <= now + 1e-9) {
        reports.back().reference_time = 1.0 / state.job->curve.at(std::max(1, state.baseline));
      }
      reports.back().preempted = state.preempted;
      reports.back().arrival = state.job->arrival;
      state.preempted = false;
    }
    // What a real manager knows of time: now, the first arrival and how many have arrived (the jobs are in
    // order of arrival).
    options_.policy.clock = {now, jobs_.front().job->arrival, arrived_by(now)};
    if (options_.history) {  // what the running jobs have calculated, then the history as it stands
      for (const ApplicationReport& report : reports) histories_.record_speedups(report.program, report.speedups);
      options_.policy.history = histories_.programs();
    }
    if (!present.empty()) apply(present, decide(options_.policy, reports), now);
    schedule_next(now, present);
  }

  long arrived_by(double now) const {
    long count = 0;
    for (const JobState& state : jobs_) count += state.job->arrival <= now + 1e-9 ? 1 : 0;
    return count;
  }

  void apply(const std::vector<std::size_t>& present, const std::vector<Allocation>& allocations, double now) {
    if (++decisions_ > max_decisions) {
      throw std::runtime_error("more than 10^7 decisions: the workload is too long for the quantum (a longer --quantum)");
    }
    int total = 0;
    for (std::size_t position = 0; position < present.size(); ++position) {
      JobState& state = jobs_[present[position]];
      const int processors = allocations[position].processors;
      total += processors;
      state.memory = allocations[position].memory;
      if (processors != state.allocation) {
        state.preempted = state.preempted || (options_.self_analysis && processors == 0);
        state.allocation = processors;
        state.allocated_since = now;
        state.outcome.allocations.emplace_back(now, processors);
      }
      if (processors > 0 && !state.started) {
        state.started = true;
        state.outcome.start = now;
      }
      ++state.generation;
      if (processors == 0) continue;
      if (options_.self_analysis && state.measuring_from < 0.0) {  // its baseline: this quantum on B
        state.baseline = std::clamp(processors / 2, 1, simulated_baseline_limit);
        state.measuring_from = now + options_.quantum;
      }
      const double to_finish = state.remaining / rate(state, processors, now);
      if (to_finish <= options_.quantum + 1e-9) {
        const std::size_t index = present[position];
        const std::uint64_t generation = state.generation;
        engine_.schedule(to_finish, [this, index, generation] {
          JobState& job = jobs_[index];
          if (!job.finished && job.generation == generation) complete(job, engine_.now());
        });
      }
    }
    idle_decisions_ = total == 0 ? idle_decisions_ + 1 : 0;
    if (idle_decisions_ > 1000000) throw std::runtime_error("no job has had a processor for a million quanta");
  }

  void schedule_next(double now, const std::vector<std::size_t>& present) {
    double next_arrival = -1.0;
    bool unfinished = false;
    for (const JobState& state : jobs_) {
      if (state.finished) continue;
      unfinished = true;
      if (state.job->arrival > now + 1e-9 && (next_arrival < 0.0 || state.job->arrival < next_arrival)) {
        next_arrival = state.job->arrival;
      }
    }
    if (!unfinished) return;
    const double following = next_tick_at_or_after(now + options_.quantum * 0.5);
    schedule_tick_at(present.empty() ? std::max(following, next_tick_at_or_after(next_arrival)) : following);
  }

  SimulationResult summarize() {
    SimulationResult result;
    result.policy = std::string(policy_name(options_.policy.policy));
    result.cpus = options_.policy.cpus;
    result.quantum = options_.quantum;
    result.decisions = decisions_;
    double first_arrival = 0.0;
    double last_finish = 0.0;
    double processor_seconds = 0.0;
    for (std::size_t index = 0; index < jobs_.size(); ++index) {
      JobOutcome outcome = jobs_[index].outcome;
      outcome.response_time = outcome.finish - outcome.arrival;
      outcome.efficiency = outcome.processor_seconds > 0.0 ? outcome.work / outcome.processor_seconds : 0.0;
      first_arrival = index == 0 ? outcome.arrival : std::min(first_arrival, outcome.arrival);
      last_finish = std::max(last_finish, outcome.finish);
      processor_seconds += outcome.processor_seconds;
      result.mean_response_time += outcome.response_time;
      result.mean_efficiency += outcome.efficiency;
      result.jobs.push_back(std::move(outcome));
    }
    if (!result.jobs.empty()) {
      result.mean_response_time /= static_cast<double>(result.jobs.size());
      result.mean_efficiency /= static_cast<double>(result.jobs.size());
      result.makespan = last_finish - first_arrival;
      if (result.makespan > 0.0) result.utilization = processor_seconds / (result.cpus * result.makespan);
    }
    return result;
  }

  SimulationOptions options_;
  std::mt19937_64 generator_;
  sim::Engine engine_;
  std::vector<JobState> jobs_;
  long decisions_ = 0;
  long idle_decisions_ = 0;
  ProgramHistories histories_;
};

}  // namespace

SimulationResult simulate(const Workload& workload, const SimulationOptions& options) {
  if (const auto problem = validate_parameters(options.policy)) throw std::invalid_argument(*problem);
  if (!(options.quantum > 0.0) || !std::isfinite(options.quantum)) throw std::invalid_argument("quantum must be above 0");
  if (!(options.speedup_noise >= 0.0 && options.speedup_noise <= 1.0)) throw std::invalid_argument("noise must be in [0, 1]");
  // A job runs at least work / (its best speedup on the machine) and the policy decides every quantum while
  // it runs: past max_decisions, refused before the run instead of after 10^7 decisions.
  for (const WorkloadJob& job : workload.jobs) {
    const int usable = job.max_processors > 0 ? std::min(job.max_processors, options.policy.cpus) : options.policy.cpus;
    double best = 1.0;
    for (int processors = 1; processors <= usable; ++processors) best = std::max(best, job.curve.at(processors));
    if (job.work / best / options.quantum > static_cast<double>(max_decisions)) {
      throw std::runtime_error("more than 10^7 decisions: the workload is too long for the quantum (a longer --quantum): " + job.name +
                               " alone runs longer than 10^7 quanta");
    }
  }
  Simulation simulation(workload, options);
  return simulation.run();
}

}  // namespace augur::manager
