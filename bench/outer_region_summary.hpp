// The summary table of bench_outer_region (outer_region_accuracy.cpp), one row a program, and under it the
// tally of the goals (outer_region_goals.hpp).
#pragma once

#include <cstdio>
#include <string>
#include <vector>

#include "outer_region_goals.hpp"
#include "steadiness.hpp"

namespace augur::bench {

// One program's row: its figures as the table prints them, and as numbers for the goals.
struct Summary {
  std::string label, stability, one_run, traditional, error, estimate, latest, disturbed, idle_flags;
  std::string alone = "-";  // the median pace_estimate_error of the runs alone on 2 threads ("-": no pace printed)
  std::string alone_one = "-";  // the same on 1 thread: the control (a drift of the loop's own work shows on both)
  std::string reference_split;  // the median T(1)/T(2) of the second pairs against that of the first
  std::string idle_kinds;  // the idle flags' reasons by kind, "" when none
  GoalFigures goals;  // the same figures as numbers, for the tally of the goals
  MachineSteadiness steadiness;  // the machine's, measured before the program
};

inline void print_summary(const std::vector<Summary>& summaries) {
  std::printf("== summary\n%-22s %-34s %9s %9s %8s %9s %9s %9s %9s %9s %10s %10s\n", "program", "period stability", "S(2) run",
              "T(1)/T(2)", "error", "ref B/A", "estimate", "latest", "alone", "alone 1", "disturbed", "idle flag");
  for (const Summary& s : summaries) {
    std::printf("%-22s %-34s %9s %9s %8s %9s %9s %9s %9s %9s %10s %10s\n", s.label.c_str(), s.stability.c_str(),
                s.one_run.c_str(), s.traditional.c_str(), s.error.c_str(), s.reference_split.c_str(), s.estimate.c_str(),
                s.latest.c_str(), s.alone.c_str(), s.alone_one.c_str(), s.disturbed.c_str(), s.idle_flags.c_str());
  }
  for (const Summary& s : summaries)
    if (!s.idle_kinds.empty()) std::printf("idle flags of %s by reason: %s\n", s.label.c_str(), s.idle_kinds.c_str());
  std::vector<GoalFigures> goals;
  for (const Summary& s : summaries) goals.push_back(s.goals);
  std::printf("%s", goals_text(goals).c_str());
  std::vector<MachineSteadiness> machine;
  for (const Summary& s : summaries) machine.push_back(s.steadiness);
  std::printf("%s", steadiness_summary(machine).c_str());
}

}  // namespace augur::bench
