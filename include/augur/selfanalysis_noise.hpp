// The noise verdict on a self-analysis measurement: robust statistics of the windows the engine kept
// (median, spread, a 95% interval of S(p)), the disagreement of the baseline windows, the involuntary
// context switches counted per window, and the machine around the run. Pure: the machine context is
// filled by the runtime edges (src/runtime/machine_context.hpp). Method: docs/self-analysis.md,
// "The noise verdict".
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "augur/selfanalysis.hpp"

namespace augur::selfanalysis {

// Robust statistics of a set of values (window means, or window speedups).
struct WindowStats {
  std::size_t count = 0;
  double median = 0.0;
  double spread = 0.0;  // MAD / median (median absolute deviation); 0 for fewer than 2 values
  // A distribution-free 95% interval of the median: the order statistics x(k) and x(n+1-k) with k the
  // largest such that P(Binomial(n, 1/2) < k) <= 2.5%; the minimum and maximum when n < 6 (less than 95%).
  double low = 0.0;
  double high = 0.0;
};
[[nodiscard]] WindowStats window_stats(std::vector<double> values);

// The machine around the run; negative where unknown.
struct MachineContext {
  bool known = false;  // filled by a runtime edge (reports of other origins have none)
  double load_average_start = -1.0;  // /proc/loadavg, 1 minute, when the measurement began
  double load_average_end = -1.0;    // and when the report was written
  double steal_fraction = -1.0;      // CPU steal over the run, from /proc/stat (virtual machines)
  long involuntary_switches = -1;    // of the whole process (getrusage ru_nivcsw)
  std::string wait_policy;           // OMP_WAIT_POLICY lower-cased, or "default" when unset
  int available_processors = 0;
  // The processors other processes used over the run, on average (/proc/stat's busy time of all processors
  // less this process's CPU time, over the wall time; 0.5: half a processor); for a run shorter than
  // min_cpu_window_s, the CPU time of every task of the cgroup hierarchy's root instead (other_cpu_source
  // "cgroup", from min_precise_cpu_window_s); negative when unknown (a shorter run, or nothing readable).
  // Unlike the load average, a mean over the last minute that still holds the program's own previous run, it
  // says what ran beside this run.
  double other_cpu_load = -1.0;
  std::string other_cpu_source;  // "proc_stat" or "cgroup" where other_cpu_load is known, else empty
  // The wall seconds other_cpu_load was measured over (the run up to the report); negative when unknown (a
  // report written before 2026-11-27 05:45 UTC, which kept other_cpu_load only for runs of 0.5 s or more).
  double cpu_window_s = -1.0;
  // A load average (start or end) above the available processors + 0.5, unless other_cpu_load is known and
  // at most other_load_limit: then the load average is the program's own (its threads, its previous run).
  [[nodiscard]] bool oversubscribed() const;
  // other_cpu_load is known and at most quiet_load_limit: nothing else ran beside the run.
  [[nodiscard]] bool quiet() const;
  // What other processes used beyond the processors a team of `team` threads left free:
  // other_cpu_load - max(0, available_processors - team); negative when other_cpu_load or the processors are
  // unknown. Above competing_load_limit they competed with the team for its cores over the run.
  [[nodiscard]] double competing_load(int team) const;
  [[nodiscard]] bool competed(int team) const;
  // "other processes used 0.41 processors beside the run (2 processors, a team of 2): they competed for the
  // team's cores", for a verdict's reasons.
  [[nodiscard]] std::string competed_reason(int team) const;
  // The threads spin while they wait: OMP_WAIT_POLICY=active, or unset (libgomp spins before sleeping).
  [[nodiscard]] bool spinning() const;
};

// The limits on MachineContext::other_cpu_load (docs/self-analysis.md, "The noise verdict").
inline constexpr double other_load_limit = 0.5;   // more: another process held half a processor over the run
inline constexpr double quiet_load_limit = 0.1;   // at most: the machine was quiet beside the run
// More, beyond the processors the team left free: other processes competed with the team over the run
// (MachineContext::competed; a CPU-bound process from half-way on a machine the team fills reads 0.3-0.5).
inline constexpr double competing_load_limit = 0.25;
// /proc/stat counts in ticks of 10 ms, each of its five busy fields floored: up to 0.05 s off in the worst
// case (about 0.02 s in practice: only user and system move), 0.1 of a processor over a run of 0.5 s, 0.25 at
// 0.2 s. Shorter runs stay unknown. A quiet machine reads 0.00 (bench runs of 0.27 s, 2026-11-27), a
// competitor from half-way 0.3 or more: the limits 0.1 and 0.25 stand apart from the rounding. 0.5 s until
// 2026-11-27 05:45 UTC, which left the runs of 0.25-0.3 s of outer_race and adi_sweep to the old rules.
inline constexpr double min_cpu_window_s = 0.2;
// Runs shorter than min_cpu_window_s read the CPU time of every task under the root of the cgroup hierarchy the
// process sees, in nanoseconds (cgroup v1 `cpuacct.usage`, or v2 `cpu.stat`'s `usage_usec`): exact, where
// /proc/stat counts ticks. On a machine or a virtual machine the root holds every process; in a container only
// the container's, so the longer runs keep /proc/stat, which sees the whole machine. From 0.02 s (0.05 s until
// 2026-11-27 14:20 UTC): on the idle machine 200 windows of 0.02 s read 0.006 in the median, 0.011 at the 90th
// percentile, 0.14 at the 99th (kernel threads); a competitor reads 0.9-1.1 over the whole run.
inline constexpr double min_precise_cpu_window_s = 0.02;

// The times of the first line of /proc/stat ("cpu  user nice system idle iowait irq softirq steal ..."), in
// clock ticks: `busy` = user + nice + system + irq + softirq (guest time is inside user), `total` every field
// of the eight, `steal` the eighth. False when `text` does not begin with such a line (fewer than 8 numbers).
struct CpuTimes {
  unsigned long long busy = 0;
  unsigned long long total = 0;
  unsigned long long steal = 0;
};
[[nodiscard]] bool parse_cpu_times(const std::string& text, CpuTimes& times);
// The processors other processes used on average between two readings: (busy ticks / ticks per second − this
// process's CPU seconds) / wall seconds, at least 0; negative when the window is shorter than
// min_cpu_window_s, the readings go backwards or `ticks_per_second` is not positive.
[[nodiscard]] double other_cpu_load(const CpuTimes& start, const CpuTimes& end, double ticks_per_second, double process_cpu_s,
                                    double wall_s);
// The CPU time in nanoseconds of a cgroup file's text: a bare integer (v1 `cpuacct.usage`, nanoseconds) or the
// line `usage_usec N` of a v2 `cpu.stat` (microseconds); false when it holds neither.
[[nodiscard]] bool parse_cgroup_cpu_usage(const std::string& text, unsigned long long& nanoseconds);
// The processors other processes used between two such readings: (nanoseconds / 1e9 − this process's CPU
// seconds) / wall seconds, at least 0; negative when the window is shorter than min_precise_cpu_window_s or the
// readings go backwards.
[[nodiscard]] double other_cpu_load_precise(unsigned long long start_ns, unsigned long long end_ns, double process_cpu_s,
                                            double wall_s);

// S(p) from the windows: each window's speedup T(B) / T_i(p) x AF(B), their median and 95% interval,
// widened by the baseline's own interval (lo x T(B)lo / T(B), hi x T(B)hi / T(B)).
struct SpeedupInterval {
  bool known = false;  // at least one window on p and a baseline; never for p = B
  std::size_t windows = 0;
  double median = 0.0;
  double low = 0.0;
  double high = 0.0;
  double spread = 0.0;         // MAD / median of the window times on p
  long preempted_windows = 0;  // windows with NoiseThresholds::preempted_window switches or more
  long involuntary_switches = -1;  // in the windows kept; -1 when unknown
};
[[nodiscard]] SpeedupInterval speedup_interval(const Region& region, int processors, const NoiseThresholds& thresholds);

struct NoiseVerdict {
  bool judged = false;     // false when the baseline never completed (nothing to judge)
  bool disturbed = false;
  bool meaningless = false;  // spinning threads on an oversubscribed machine
  std::string verdict;     // one plain sentence
  std::vector<std::string> reasons;
  std::size_t baseline_windows = 0;
  long slowed_baseline_windows = 0;     // slower than the fastest by more than NoiseThresholds::slow_window
  long preempted_baseline_windows = 0;  // NoiseThresholds::preempted_window switches or more
  long disturbed_baseline_windows = 0;  // slowed or preempted
  double baseline_spread = -1.0;        // (max - min) / median of the baseline windows; -1 with fewer than 2
  int spread_processors = 0;            // the count with the most windows, whose spread is judged
  double iteration_time_spread = -1.0;  // MAD / median of its window times; -1 with fewer than 3 windows
  long measured_windows = 0;            // windows on that count
  long preempted_windows = 0;           // of them, preempted
  long involuntary_switches = -1;       // in all windows kept (baseline and measured); -1 when unknown
  int verdict_processors = 0;           // the count whose speedup the sentence quotes (0: none)
  SpeedupInterval speedup;              // of that count
  bool table_outside = false;  // the history-weighted S of that count is far from the windows' median (judge_noise)
};

// The run's thresholds: config.noise with the table's history weight (Config::history_weight) in it.
[[nodiscard]] NoiseThresholds noise_thresholds(const Config& config);

// The verdict on one region; `allocated` is P, whose speedup the sentence quotes when known.
[[nodiscard]] NoiseVerdict judge_noise(const Region& region, const NoiseThresholds& thresholds,
                                       const MachineContext& machine, int allocated);

}  // namespace augur::selfanalysis
