#include "augur/selfanalysis_noise.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <utility>
#include <vector>

#include "core/table.hpp"

namespace augur::selfanalysis {
namespace {

double median_of_sorted(const std::vector<double>& sorted) {
  const std::size_t n = sorted.size();
  if (n == 0) return 0.0;
  return n % 2 == 1 ? sorted[n / 2] : 0.5 * (sorted[n / 2 - 1] + sorted[n / 2]);
}

// The largest k >= 1 with P(Binomial(n, 1/2) <= k - 1) <= 0.025; 1 when there is none (n < 6).
std::size_t order_statistic_rank(std::size_t n) {
  double pmf = std::pow(0.5, static_cast<double>(n));  // P(X = 0); 2^-256 is still a normal double
  double below = 0.0;                                  // P(X <= i - 1)
  std::size_t k = 1;
  for (std::size_t i = 0; i < n / 2; ++i) {
    below += pmf;  // now P(X <= i)
    if (below > 0.025) break;
    k = i + 1;  // P(X <= k - 1) = below
    pmf = pmf * static_cast<double>(n - i) / static_cast<double>(i + 1);
  }
  return std::min(k, (n + 1) / 2);
}

std::string percent(double fraction) { return core::format_value("%.0f%%", fraction * 100.0); }

long add_switches(long total, long value) { return value < 0 ? total : std::max(total, 0L) + value; }

// The processors busy beside the process over the window: the machine's busy seconds less the process's CPU
// seconds, per second of the window; never negative (the two clocks tick apart).
double load_beside(double busy_s, double process_cpu_s, double wall_s) {
  return std::max(0.0, (busy_s - std::max(process_cpu_s, 0.0)) / wall_s);
}
}  // namespace

double median_window(const WindowLog& windows) {
  // On the probes' path: a copy on the stack (at most max_kept_windows), no allocation.
  std::array<double, max_kept_windows> sorted{};
  const std::size_t n = std::min(windows.means.size(), max_kept_windows);
  std::copy_n(windows.means.begin(), n, sorted.begin());
  std::sort(sorted.begin(), sorted.begin() + static_cast<std::ptrdiff_t>(n));
  if (n == 0) return 0.0;
  return n % 2 == 1 ? sorted[n / 2] : 0.5 * (sorted[n / 2 - 1] + sorted[n / 2]);
}

WindowStats window_stats(std::vector<double> values) {
  WindowStats stats;
  stats.count = values.size();
  if (values.empty()) return stats;
  std::sort(values.begin(), values.end());
  stats.median = median_of_sorted(values);
  const std::size_t k = order_statistic_rank(values.size());
  stats.low = values[k - 1];
  stats.high = values[values.size() - k];
  if (values.size() >= 2 && stats.median > 0.0) {
    std::vector<double> deviations;
    deviations.reserve(values.size());
    for (double value : values) deviations.push_back(std::fabs(value - stats.median));
    std::sort(deviations.begin(), deviations.end());
    stats.spread = median_of_sorted(deviations) / stats.median;
  }
  return stats;
}

bool MachineContext::oversubscribed() const {
  if (!known || available_processors <= 0) return false;
  // Measured beside the run: the load average's excess was the program's own (its threads, its previous run).
  if (other_cpu_load >= 0.0 && other_cpu_load <= other_load_limit) return false;
  // Half a processor of margin: the program's own P threads count in the load at the end, and every system
  // runs short tasks, so a quiet machine used fully by the program reads slightly above P.
  return std::max(load_average_start, load_average_end) > static_cast<double>(available_processors) + 0.5;
}

bool MachineContext::quiet() const { return known && other_cpu_load >= 0.0 && other_cpu_load <= quiet_load_limit; }

double MachineContext::competing_load(int team) const {
  if (!known || other_cpu_load < 0.0 || available_processors <= 0 || team < 1) return -1.0;
  return other_cpu_load - std::max(0.0, static_cast<double>(available_processors - team));
}

bool MachineContext::competed(int team) const { return competing_load(team) > competing_load_limit; }

std::string MachineContext::competed_reason(int team) const {
  return "other processes used " + core::format_value("%.2f", other_cpu_load) + " processors beside the run (" +
         std::to_string(available_processors) + (available_processors == 1 ? " processor" : " processors") + ", a team of " +
         std::to_string(team) + "): they competed for the team's cores";
}

bool parse_cpu_times(const std::string& text, CpuTimes& times) {
  if (text.compare(0, 4, "cpu ") != 0) return false;
  unsigned long long field[8] = {};  // user nice system idle iowait irq softirq steal
  std::size_t at = 4;
  for (unsigned long long& value : field) {
    while (at < text.size() && text[at] == ' ') ++at;
    if (at >= text.size() || text[at] < '0' || text[at] > '9') return false;
    value = 0;
    for (; at < text.size() && text[at] >= '0' && text[at] <= '9'; ++at) {
      const auto digit = static_cast<unsigned long long>(text[at] - '0');
      if (value > (~0ULL - digit) / 10) return false;  // would overflow
      value = value * 10 + digit;
    }
  }
  times.busy = field[0] + field[1] + field[2] + field[5] + field[6];
  times.total = 0;
  for (const unsigned long long value : field) times.total += value;
  times.steal = field[7];
  return true;
}

double other_cpu_load(const CpuTimes& start, const CpuTimes& end, double ticks_per_second, double process_cpu_s, double wall_s) {
  if (!(wall_s >= min_cpu_window_s) || !(ticks_per_second > 0.0) || end.busy < start.busy || end.total < start.total) return -1.0;
  return load_beside(static_cast<double>(end.busy - start.busy) / ticks_per_second, process_cpu_s, wall_s);
}

bool parse_cgroup_cpu_usage(const std::string& text, unsigned long long& nanoseconds) {
  const auto number_at = [&](std::size_t at, unsigned long long scale) {
    std::size_t end = at;
    unsigned long long value = 0;
    while (end < text.size() && std::isdigit(static_cast<unsigned char>(text[end])) != 0 && end - at < 19)
      value = value * 10 + static_cast<unsigned long long>(text[end++] - '0');
    if (end == at || (end < text.size() && text[end] != '\n' && text[end] != ' ')) return false;
    nanoseconds = value * scale;
    return true;
  };
  if (!text.empty() && std::isdigit(static_cast<unsigned char>(text[0])) != 0) return number_at(0, 1);
  for (std::size_t line = 0; line < text.size();) {
    if (text.compare(line, 11, "usage_usec ") == 0) return number_at(line + 11, 1000);
    const std::size_t next = text.find('\n', line);
    if (next == std::string::npos) break;
    line = next + 1;
  }
  return false;
}

double other_cpu_load_precise(unsigned long long start_ns, unsigned long long end_ns, double process_cpu_s, double wall_s) {
  if (!(wall_s >= min_precise_cpu_window_s) || end_ns < start_ns) return -1.0;
  return load_beside(1e-9 * static_cast<double>(end_ns - start_ns), process_cpu_s, wall_s);
}

bool MachineContext::spinning() const { return wait_policy != "passive"; }

namespace {

// The windows' speedups in the order they were measured (the log is a ring beyond max_kept_windows), each against
// the final T(B): S_i = T(B) / T_i x AF(B), for the speedup interval (which sorts them) and the table rule.
std::vector<double> window_speedups_in_order(const Region& region, const WindowLog& log) {
  std::vector<double> speedups;
  const std::size_t kept = log.means.size();
  const std::size_t first = log.total > static_cast<long>(kept) && kept > 0 ? static_cast<std::size_t>(log.total) % kept : 0;
  for (std::size_t i = 0; i < kept; ++i) {
    const double mean = log.means[(first + i) % kept];
    if (mean > 0.0) speedups.push_back(region.baseline_time / mean * region.amdahl_factor());
  }
  return speedups;
}

}  // namespace

SpeedupInterval speedup_interval(const Region& region, int processors, const NoiseThresholds& thresholds) {
  SpeedupInterval interval;
  const ProcessorStats* stats = region.stats(processors);
  if (stats == nullptr || !region.baseline_done || processors == region.baseline_processors) return interval;
  const WindowLog& log = stats->windows_log;
  std::vector<double> speedups = window_speedups_in_order(region, log);
  for (std::size_t i = 0; i < log.switches.size(); ++i) {
    if (log.switches[i] >= thresholds.preempted_window) ++interval.preempted_windows;
    interval.involuntary_switches = add_switches(interval.involuntary_switches, log.switches[i]);
  }
  if (speedups.empty()) return interval;
  const WindowStats of_speedups = window_stats(std::move(speedups));
  const WindowStats baseline = window_stats(region.baseline_windows.means);
  interval.known = true;
  interval.windows = of_speedups.count;
  interval.median = of_speedups.median;
  interval.spread = window_stats(log.means).spread;
  // The baseline's uncertainty widens the interval: S is proportional to T(B).
  const bool widen = baseline.count >= 2 && baseline.median > 0.0;
  interval.low = of_speedups.low * (widen ? baseline.low / baseline.median : 1.0);
  interval.high = of_speedups.high * (widen ? baseline.high / baseline.median : 1.0);
  return interval;
}

namespace {

void judge_baseline(const Region& region, const NoiseThresholds& thresholds, NoiseVerdict& verdict) {
  const WindowLog& log = region.baseline_windows;
  verdict.baseline_windows = log.means.size();
  if (log.means.empty()) return;
  const double fastest = *std::min_element(log.means.begin(), log.means.end());
  const double slowest = *std::max_element(log.means.begin(), log.means.end());
  for (std::size_t i = 0; i < log.means.size(); ++i) {
    const bool slowed = log.means[i] > fastest * (1.0 + thresholds.slow_window);
    const bool preempted = log.switches[i] >= thresholds.preempted_window;
    verdict.slowed_baseline_windows += slowed ? 1 : 0;
    verdict.preempted_baseline_windows += preempted ? 1 : 0;
    verdict.disturbed_baseline_windows += slowed || preempted ? 1 : 0;
    verdict.involuntary_switches = add_switches(verdict.involuntary_switches, log.switches[i]);
  }
  if (log.means.size() >= 2 && region.baseline_time > 0.0) verdict.baseline_spread = (slowest - fastest) / region.baseline_time;
  const auto n = static_cast<double>(log.means.size());
  if (verdict.disturbed_baseline_windows > 0 &&
      static_cast<double>(verdict.disturbed_baseline_windows) > thresholds.disturbed_fraction * n) {
    std::string what = verdict.slowed_baseline_windows > 0 && verdict.preempted_baseline_windows > 0 ? "slowed or preempted"
                       : verdict.slowed_baseline_windows > 0                                        ? "slowed"
                                                                                                      : "preempted";
    verdict.reasons.push_back(std::to_string(verdict.disturbed_baseline_windows) + " of " +
                              std::to_string(log.means.size()) + " baseline windows " + what + " (more than " +
                              percent(thresholds.slow_window) + " above the fastest, or " +
                              std::to_string(thresholds.preempted_window) + " involuntary context switches or more)");
  }
}

void judge_iterations(const Region& region, const NoiseThresholds& thresholds, NoiseVerdict& verdict) {
  const ProcessorStats* busiest = nullptr;
  for (const ProcessorStats& stats : region.by_processors) {
    if (stats.processors < 1) continue;
    for (long switched : stats.windows_log.switches) verdict.involuntary_switches = add_switches(verdict.involuntary_switches, switched);
    if (busiest == nullptr || stats.windows_log.means.size() > busiest->windows_log.means.size()) busiest = &stats;
  }
  if (busiest == nullptr || busiest->windows_log.means.empty()) return;
  const WindowLog& log = busiest->windows_log;
  verdict.spread_processors = busiest->processors;
  verdict.measured_windows = static_cast<long>(log.means.size());
  for (long switched : log.switches) verdict.preempted_windows += switched >= thresholds.preempted_window ? 1 : 0;
  const std::string on = " on " + std::to_string(busiest->processors) + (busiest->processors == 1 ? " processor" : " processors");
  if (log.means.size() >= 3) {
    verdict.iteration_time_spread = window_stats(log.means).spread;
    if (verdict.iteration_time_spread > thresholds.spread) {
      verdict.reasons.push_back("window times" + on + " spread " + percent(verdict.iteration_time_spread) +
                                " (MAD/median, above " + percent(thresholds.spread) + ")");
    }
  }
  if (verdict.preempted_windows > 0 &&
      static_cast<double>(verdict.preempted_windows) > thresholds.disturbed_fraction * static_cast<double>(log.means.size())) {
    verdict.reasons.push_back(std::to_string(verdict.preempted_windows) + " of " + std::to_string(log.means.size()) +
                              " windows" + on + " preempted (" + std::to_string(thresholds.preempted_window) +
                              " involuntary context switches or more)");
  }
}

void judge_machine(const MachineContext& machine, int allocated, NoiseVerdict& verdict) {
  if (!machine.known) return;
  const std::string load = core::format_value("%.1f", std::max(machine.load_average_start, machine.load_average_end)) + " on " +
                           std::to_string(machine.available_processors) + " processors";
  if (machine.oversubscribed() && machine.spinning()) {
    verdict.meaningless = true;
    verdict.reasons.insert(verdict.reasons.begin(),
                           "OMP_WAIT_POLICY=" + (machine.wait_policy == "default" ? std::string("unset (libgomp spins)") : machine.wait_policy) +
                               " on an oversubscribed machine (load " + load +
                               "): spinning threads steal the cores the working ones need; rerun with "
                               "OMP_WAIT_POLICY=passive");
  } else if (machine.oversubscribed()) {
    verdict.reasons.push_back("the machine is oversubscribed (load " + load + ")");
  }
  if (machine.steal_fraction > 0.05) verdict.reasons.push_back("CPU steal " + percent(machine.steal_fraction) + " of the run");
  if (!machine.oversubscribed() && machine.competed(allocated)) verdict.reasons.push_back(machine.competed_reason(allocated));
}

// The table's S(P) keeps the thesis' history (Figure 4.7), S = w S_old + (1 - w) S_new: an exponentially weighted
// mean that leans on the last windows, each against the T(B) of its time. Its deviation, for windows of deviation
// sigma, is sigma sqrt((1 - w) / (1 + w)); farther from the windows' median than two of those (sigma: 1.4826 MAD, a
// robust deviation) and than `table_deviation`, the table's figure is not the run's. Which of its two causes:
// the same weighting over the windows against the final T(B) says whether the last windows differ; if it does not,
// the T(B)s the windows were measured against do.
void judge_table_speedup(const Region& region, const NoiseThresholds& thresholds, NoiseVerdict& verdict) {
  const int p = verdict.verdict_processors;
  const ProcessorStats* stats = p > 0 ? region.stats(p) : nullptr;
  const SpeedupInterval& interval = verdict.speedup;
  if (stats == nullptr || stats->state != SpeedupState::Calculated || interval.windows < 3 || interval.median <= 0.0) return;
  const double w = std::clamp(thresholds.history_weight, 0.0, 0.999);
  const double allowed = std::max(thresholds.table_deviation, 2.0 * std::sqrt((1.0 - w) / (1.0 + w)) * 1.4826 * interval.spread);
  const double table = region.speedup(p);
  const double off = table / interval.median - 1.0;
  if (std::fabs(off) <= allowed) return;
  double weighted = 0.0;
  bool started = false;
  for (const double speedup : window_speedups_in_order(region, stats->windows_log)) {
    weighted = started ? w * weighted + (1.0 - w) * speedup : speedup;
    started = true;
  }
  const bool last_windows = std::fabs(weighted / interval.median - 1.0) > allowed;
  verdict.table_outside = true;
  verdict.reasons.push_back("the table's S(" + std::to_string(p) + ") = " + core::format_value("%.2f", table) +
                            " (history-weighted: it leans on the last windows) is " + core::format_value("%.1f", std::fabs(off) * 100.0) +
                            (off < 0.0 ? "% below" : "% above") + " the windows' median " + core::format_value("%.2f", interval.median) +
                            " (more than " + core::format_value("%.1f", allowed * 100.0) + "%): " +
                            (last_windows ? "the last windows differ from the run's"
                                          : "its windows were measured against earlier T(B)s than the final one"));
}

}  // namespace

NoiseThresholds noise_thresholds(const Config& config) {
  NoiseThresholds thresholds = config.noise;
  thresholds.history_weight = config.history_weight;
  return thresholds;
}

NoiseVerdict judge_noise(const Region& region, const NoiseThresholds& thresholds, const MachineContext& machine, int allocated) {
  NoiseVerdict verdict;
  if (!region.baseline_done) return verdict;
  verdict.judged = true;
  judge_baseline(region, thresholds, verdict);
  judge_iterations(region, thresholds, verdict);
  judge_machine(machine, allocated, verdict);
  // The speedup the sentence quotes: P's, else the count with the most windows.
  for (int p : {allocated, verdict.spread_processors}) {
    const SpeedupInterval interval = speedup_interval(region, p, thresholds);
    if (interval.known) {
      verdict.verdict_processors = p;
      verdict.speedup = interval;
      break;
    }
  }
  judge_table_speedup(region, thresholds, verdict);
  verdict.disturbed = !verdict.reasons.empty();
  std::string speedup;
  if (verdict.verdict_processors > 0) {
    const SpeedupInterval& s = verdict.speedup;
    // The median of the windows' speedups (not the table's history-weighted S(P)) and the interval around it, not a
    // ±: the interval need not be symmetric.
    speedup = "; S(" + std::to_string(verdict.verdict_processors) + ") over the windows = " + core::format_value("%.2f", s.median) +
              " (median, 95% interval " + core::format_value("%.2f", s.low) + "-" + core::format_value("%.2f", s.high) +
              ", " + std::to_string(s.windows) + (s.windows == 1 ? " window)" : " windows)");
  }
  if (verdict.meaningless) {
    verdict.verdict = "measurement meaningless: " + verdict.reasons.front();
  } else if (verdict.disturbed) {
    verdict.verdict = "measurement disturbed: " + verdict.reasons.front() + speedup;
  } else {
    std::string facts = std::to_string(verdict.baseline_windows) +
                        (verdict.baseline_windows == 1 ? " baseline window" : " baseline windows");
    if (verdict.baseline_spread >= 0.0) facts += " within " + percent(verdict.baseline_spread);
    if (verdict.iteration_time_spread >= 0.0) facts += ", window times spread " + percent(verdict.iteration_time_spread);
    verdict.verdict = "measurement clean: " + facts + speedup;
  }
  return verdict;
}

}  // namespace augur::selfanalysis
