// The plain verdict (verdict.hpp; docs/self-analysis.md, "The plain verdict").
#include "selfanalysis/verdict.hpp"

#include <algorithm>
#include <cstddef>
#include <string>

#include "augur/core/stats.hpp"
#include "core/table.hpp"

namespace augur::selfanalysis {
namespace {

std::string percent(double fraction) { return core::format_value("%.0f%%", fraction * 100.0); }

std::string threads(int count) { return std::to_string(count) + (count == 1 ? " thread" : " threads"); }

std::string joined(const std::vector<std::string>& parts, const char* separator) {
  std::string text;
  for (const std::string& part : parts) text += (text.empty() ? "" : separator) + part;
  return text;
}

void add_once(std::vector<std::string>& list, const std::string& item) {
  if (std::find(list.begin(), list.end(), item) == list.end()) list.push_back(item);
}

// Line 1: the efficiency (and, when B = P, what S(P) is).
void judge_efficiency(const VerdictInput& input, Verdict& verdict) {
  const int p = input.processors;
  const std::string s = input.speedup_name + "(" + std::to_string(p) + ")";
  if (p == 1) {  // S(1) = 1 by definition: nothing to judge
    verdict.lines.push_back("parallel efficiency on 1 thread: none to judge (S(1) = 1; run on more threads to measure one)");
  } else if (input.speedup >= 0.0 && p > 0 && input.baseline == p) {
    verdict.amdahl_factor_only = true;
    verdict.efficiency = input.speedup / p;
    verdict.efficiency_source = "amdahl";
    verdict.lines.push_back(s + " = " + core::format_value("%.3f", input.speedup) + " is Amdahl's Factor AF(" + std::to_string(p) +
                            ") computed from f, not a measured speedup (the baseline is P = " + threads(p) +
                            "; a smaller --baseline measures one)");
    verdict.lines.push_back("parallel efficiency on " + threads(p) + ": " + core::format_value("%.2f", verdict.efficiency) +
                            " by Amdahl's law (AF(" + std::to_string(p) + ") / " + std::to_string(p) + "), not measured");
  } else if (input.efficiency >= 0.0 && p > 0) {
    verdict.efficiency = input.efficiency;
    verdict.efficiency_source = "measured";
    verdict.lines.push_back("parallel efficiency on " + threads(p) + ": " + core::format_value("%.2f", input.efficiency) +
                            " (measured in the run)");
  } else if (input.speedup >= 0.0 && p > 0) {
    verdict.efficiency = input.speedup / p;
    verdict.efficiency_source = "measured";
    verdict.lines.push_back("parallel efficiency on " + threads(p) + ": " + core::format_value("%.2f", verdict.efficiency) + " = " + s +
                            " / " + std::to_string(p) + " = " + core::format_value("%.3f", input.speedup) + " / " + std::to_string(p));
    // The noise verdict found the table's S(P) far from the windows' median: the line gives the median's too.
    if (input.window_median > 0.0)
      verdict.lines.back() += " (the table's " + s + "; over the windows " + core::format_value("%.3f", input.window_median) + " / " +
                              std::to_string(p) + " = " + core::format_value("%.2f", input.window_median / p) + ")";
  } else {
    verdict.lines.push_back(p > 0 ? "parallel efficiency on " + threads(p) + ": unknown (" + s + " was not calculated)"
                                  : std::string("parallel efficiency: unknown (no speedup was calculated)"));
  }
}

// Line 2: f and the Amdahl limit.
void judge_fraction(const VerdictInput& input, Verdict& verdict) {
  const double f = input.sequential_fraction;
  const std::string source = input.fraction_from_speedup ? " (Karp-Flatt, from " + input.speedup_name + "(" +
                                                               std::to_string(input.processors) + "))"
                                                         : "";
  if (f < 0.0) {
    const std::string slower = input.speedup > 0.0 && input.speedup < 1.0 && input.processors >= 2
                                   ? " (" + input.speedup_name + "(" + std::to_string(input.processors) + ") = " +
                                         core::format_value("%.3f", input.speedup) +
                                         " < 1: the threads slow the program down, which no sequential fraction explains)"
                                   : "";
    verdict.lines.push_back("sequential fraction f: unknown" + slower + ", so no Amdahl limit");
    return;
  }
  verdict.sequential_fraction = f;
  if (f == 0.0) {
    verdict.lines.push_back("sequential fraction f = " + core::format_fraction(f) + source + ": no Amdahl limit");
    return;
  }
  verdict.amdahl_limit = 1.0 / f;
  // A measured f (the time one thread works alone) bounds the speedup; below S(P) = 1 something else bounds it first.
  const bool slower = input.speedup > 0.0 && input.speedup < 1.0 && input.processors >= 2;
  verdict.lines.push_back("sequential fraction f = " + core::format_fraction(f) + source + ": Amdahl limit 1/f = " +
                          core::format_value("%.1f", verdict.amdahl_limit) +
                          (slower ? " from the sequential part alone; but " + input.speedup_name + "(" + std::to_string(input.processors) +
                                        ") = " + core::format_value("%.3f", input.speedup) +
                                        " < 1: the threads slow the program down, which the sequential part does not explain"
                                  : ", the speedup no thread count exceeds"));
}

// The reasons of the machine snapshot and of the repetitions (the noise verdict's are the caller's).
void judge_machine(const VerdictInput& input, Verdict& verdict, bool& meaningless) {
  const MachineContext& machine = input.machine;
  if (machine.known && !input.machine_in_reasons) {
    const std::string load = core::format_value("%.1f", std::max(machine.load_average_start, machine.load_average_end)) + " on " +
                             std::to_string(machine.available_processors) + " processors";
    if (machine.oversubscribed() && machine.spinning()) {
      meaningless = true;
      verdict.reasons.push_back("the threads spin while they wait (OMP_WAIT_POLICY=" +
                                (machine.wait_policy == "default" ? std::string("unset") : machine.wait_policy) +
                                ") on an oversubscribed machine (load " + load + ")");
    } else if (machine.oversubscribed()) {
      verdict.reasons.push_back("the machine is oversubscribed (load " + load + ")");
    }
    if (machine.steal_fraction > steal_limit) verdict.reasons.push_back("CPU steal " + percent(machine.steal_fraction) + " of the run");
  }
  if (input.repetitions >= 2 && input.repetition_spread > repetition_spread_limit) {
    verdict.reasons.push_back("the " + std::to_string(input.repetitions) + " repetitions of " + input.speedup_name + "(" +
                              std::to_string(input.processors) + ") spread " + percent(input.repetition_spread) +
                              " (max - min over the median, above " + percent(repetition_spread_limit) + ")");
  }
}

// What to do, from the facts behind the reasons.
void give_advice(const VerdictInput& input, bool meaningless, Verdict& verdict) {
  const MachineContext& machine = input.machine;
  const bool oversubscribed = machine.known && machine.oversubscribed();
  if (meaningless || (oversubscribed && machine.spinning())) add_once(verdict.advice, "set OMP_WAIT_POLICY=passive");
  if (oversubscribed || input.competed) add_once(verdict.advice, "rerun on an idle machine");
  if (machine.known && machine.steal_fraction > steal_limit)
    add_once(verdict.advice, "rerun on a host without CPU steal (dedicated or bare metal)");
  if (input.preempted_windows > 0) add_once(verdict.advice, "pin threads (OMP_PROC_BIND=true OMP_PLACES=cores)");
  if (input.window_spread > NoiseThresholds{}.spread || input.imprecise) add_once(verdict.advice, "use more iterations");
  if (input.table_outside) {
    const std::string s = "S(" + std::to_string(input.processors) + ")";
    add_once(verdict.advice, "read " + s + " over the windows (their median), not the table's " + s);
  }
  if (input.repetitions >= 2 && input.repetition_spread > repetition_spread_limit)
    add_once(verdict.advice, "use more repetitions (--repeat)");
  if (verdict.advice.empty()) add_once(verdict.advice, "rerun on an idle machine");
}

// Line 3 when nothing disturbed the measurement: the facts it rests on.
std::string clean_line(const VerdictInput& input) {
  std::vector<std::string> facts;
  if (input.machine.known) {
    facts.push_back("load " + core::format_value("%.1f", std::max(input.machine.load_average_start, input.machine.load_average_end)) +
                    " on " + std::to_string(input.machine.available_processors) + " processors");
  }
  if (input.window_spread >= 0.0) facts.push_back("window times spread " + percent(input.window_spread));
  if (input.repetitions >= 2 && input.repetition_spread >= 0.0)
    facts.push_back(std::to_string(input.repetitions) + " repetitions within " + percent(input.repetition_spread));
  return "measurement clean" + (facts.empty() ? std::string() : ": " + joined(facts, ", "));
}

}  // namespace

Verdict judge_verdict(const VerdictInput& input) {
  Verdict verdict;
  judge_efficiency(input, verdict);
  judge_fraction(input, verdict);
  bool meaningless = input.judged && input.meaningless;
  if (input.judged) verdict.reasons = input.noise_reasons;
  const std::size_t given = verdict.reasons.size();
  judge_machine(input, verdict, meaningless);
  // What the noise verdict's sentence leaves out: its reasons after the first (the sentence quotes one), and ours.
  const std::size_t quoted = input.sentence_has_all_reasons ? given : given > 0 ? 1 : 0;
  const std::vector<std::string> own(verdict.reasons.begin() + static_cast<std::ptrdiff_t>(quoted), verdict.reasons.end());
  verdict.noisy = meaningless || !verdict.reasons.empty();
  if (input.judged && !input.noise_verdict.empty()) {
    // The noise verdict's own sentence, with its interval of S.
    verdict.lines.push_back(input.noise_verdict + (own.empty() ? "" : "; also " + joined(own, "; ")));
  } else if (verdict.noisy) {
    verdict.lines.push_back(std::string(meaningless ? "measurement meaningless: " : "measurement noisy: ") +
                            joined(verdict.reasons, "; "));
  } else if (input.judged || input.machine.known || input.repetition_spread >= 0.0) {
    verdict.lines.push_back(clean_line(input));
  } else {
    verdict.lines.push_back("noise: not judged (no noise verdict and no machine snapshot)");
  }
  if (verdict.noisy) give_advice(input, meaningless, verdict);
  verdict.lines.push_back("what to do: " + (verdict.noisy ? joined(verdict.advice, "; ") : std::string("nothing about the measurement")));
  return verdict;
}

VerdictInput verdict_input(const Region& region, const NoiseVerdict& noise, const MachineContext& machine, int allocated) {
  VerdictInput input;
  input.processors = allocated;
  input.baseline = region.baseline_done ? region.baseline_processors : 0;
  const ProcessorStats* stats = region.stats(allocated);
  if (stats != nullptr && stats->state == SpeedupState::Calculated) input.speedup = region.speedup(allocated);
  input.sequential_fraction = region.sequential_fraction();
  input.judged = noise.judged;
  input.meaningless = noise.meaningless;
  input.noise_verdict = noise.verdict;
  if (noise.disturbed) input.noise_reasons = noise.reasons;
  input.machine_in_reasons = machine.known;  // judge_noise judged the same machine
  input.preempted_windows = noise.preempted_windows + noise.preempted_baseline_windows;
  input.window_spread = noise.iteration_time_spread;
  input.table_outside = noise.table_outside;
  if (noise.table_outside && noise.verdict_processors == allocated) input.window_median = noise.speedup.median;
  input.machine = machine;
  return input;
}

namespace {

// What an outer region's reasons (TeamSummary, joined in its sentence) tell the advice: the run did not fix S(P)
// (TeamPolicy::imprecise_limit), other processes competed for the team's cores (MachineContext::competed_reason).
void note_team_reasons(const std::string& text, VerdictInput& input) {
  input.imprecise = input.imprecise || text.find("the run does not fix") != std::string::npos;
  input.competed = input.competed || text.find("competed for the team's cores") != std::string::npos;
  input.table_outside = input.table_outside || text.rfind("the table's S(", 0) == 0;
}

}  // namespace

VerdictInput verdict_input(const ReportRegion& region, const Report& report) {
  VerdictInput input;
  const bool outer = region.kind == "outer";
  input.processors = outer ? region.team : report.allocated_processors;
  input.baseline = outer ? 0 : region.baseline;  // an outer region's T(1) is the team's threads one after the other
  if (const ReportPoint* point = region.point(input.processors); point != nullptr && point->calculated) input.speedup = point->speedup;
  if (outer && region.parallel_efficiency > 0.0) input.efficiency = region.parallel_efficiency;
  input.sequential_fraction = region.sequential_fraction;
  const ReportNoise& noise = region.noise;
  input.judged = noise.present;
  input.meaningless = noise.meaningless;
  input.noise_verdict = noise.verdict;
  if (noise.disturbed) input.noise_reasons = noise.reasons;
  input.machine_in_reasons = report.machine.known;
  input.sentence_has_all_reasons = outer;  // TeamSummary::verdict joins them all
  // The report keeps the reasons' sentences, not the count of preempted windows: a reason that names them.
  for (const std::string& reason : input.noise_reasons) {
    input.preempted_windows += reason.find("preempted") != std::string::npos ? 1 : 0;
    note_team_reasons(reason, input);
  }
  input.window_spread = noise.iteration_time_spread;
  if (const ReportPoint* point = region.point(input.processors); input.table_outside && point != nullptr && point->median_speedup > 0.0)
    input.window_median = point->median_speedup;
  input.machine = report.machine;
  return input;
}

VerdictInput verdict_input(const ExperimentResult& result, int repeat, const MachineContext& machine) {
  VerdictInput input;
  input.speedup_name = "TS";
  input.machine = machine;
  int judged = 0;
  int disturbed = 0;
  for (const ExperimentPoint& point : result.points) {
    judged += point.judged_runs;
    disturbed += point.disturbed_runs;
    for (const std::string& verdict : point.verdicts) {
      input.preempted_windows += verdict.rfind("measurement disturbed", 0) == 0 && verdict.find("preempted") != std::string::npos;
      input.meaningless = input.meaningless || verdict.rfind("measurement meaningless", 0) == 0;
      if (verdict.rfind("measurement disturbed", 0) == 0) note_team_reasons(verdict, input);
    }
    if (point.processors < 2 || !(point.traditional > 0.0)) continue;  // NaN when not measured
    input.processors = point.processors;
    input.speedup = point.traditional;
    input.repetitions = repeat;
    input.repetition_spread = repeat >= 2 ? (point.traditional_max - point.traditional_min) / point.traditional : -1.0;
  }
  input.sequential_fraction = core::karp_flatt_fraction(input.speedup, input.processors);
  input.fraction_from_speedup = input.sequential_fraction >= 0.0;
  input.judged = judged > 0;
  if (disturbed > 0) {
    input.noise_reasons.push_back(std::to_string(disturbed) + " of " + std::to_string(judged) +
                                  " analyzed runs disturbed (their noise verdicts: --json, points[].verdicts)");
  }
  return input;
}

std::string verdict_text(const Verdict& verdict, const std::string& prefix) {
  std::string text;
  for (const std::string& line : verdict.lines) text += prefix + line + "\n";
  return text;
}

nlohmann::ordered_json verdict_json(const Verdict& verdict) {
  const auto number = [](double value) { return value >= 0.0 ? nlohmann::ordered_json(value) : nlohmann::ordered_json(nullptr); };
  nlohmann::ordered_json json;
  json["efficiency"] = number(verdict.efficiency);
  json["efficiency_source"] = verdict.efficiency_source.empty() ? nlohmann::ordered_json(nullptr)
                                                                : nlohmann::ordered_json(verdict.efficiency_source);
  json["amdahl_factor_only"] = verdict.amdahl_factor_only;
  json["f"] = number(verdict.sequential_fraction);
  json["amdahl_limit"] = number(verdict.amdahl_limit);
  json["noisy"] = verdict.noisy;
  json["reasons"] = verdict.reasons;
  json["advice"] = verdict.advice;
  json["lines"] = verdict.lines;
  return json;
}

}  // namespace augur::selfanalysis
