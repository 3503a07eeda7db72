// The precision of the one-run S(P) of an outer region (team.hpp; docs/self-analysis.md, "The precision of the
// speedup"). Declared apart so that team.hpp stays readable; defined in team_precision.cpp.
#pragma once

#include <string>
#include <vector>

namespace augur::selfanalysis {

class TeamAnalysis;
struct TeamSummary;

// How precisely one run measured S(P) (docs/self-analysis.md, "The precision of the speedup"). The machine's
// speed moves in phases longer than a step (on the test machine ~100 ms; steps next to each other are alike),
// so the unit of evidence is a baseline window (the median of its steps' T(1)) and a block of team steps (a
// stretch between two windows: the mean of its steps' time), not a step. Relative standard errors, negative
// when unknown (fewer than 3 windows or 3 blocks):
//   e1 = sd(window medians) / mean / sqrt(k),  eP = sd(block means) / mean / sqrt(m),  e = sqrt(e1^2 + eP^2);
// when T(1) is the work added up on the team (no windows), e is that of the blocks' own T(1)/T(P) ratios.
struct SpeedupPrecision {
  int windows = 0;                // baseline windows behind T(1)
  int blocks = 0;                 // blocks of team steps behind T(P)
  double window_low = 0.0;        // the lowest and highest window's T(1) a step (seconds; 0 without windows)
  double window_high = 0.0;
  double one_thread_error = -1.0; // e1
  double step_time_error = -1.0;  // eP
  double relative_error = -1.0;   // e: of S(P)
};

// From the steps summarize() used: `used` the team steps of T(P), `baseline` those of T(1) (empty: T(1) is the
// work added up), step indices of `analysis` in increasing order.
[[nodiscard]] SpeedupPrecision speedup_precision(const TeamAnalysis& analysis, const std::vector<long>& used,
                                                 const std::vector<long>& baseline, int block_steps);

// The reason of a measurement whose S(P) the run did not fix within `limit` (TeamPolicy::imprecise_limit): its ±
// and the windows and blocks behind it.
[[nodiscard]] std::string imprecise_reason(const TeamSummary& summary, double limit);

}  // namespace augur::selfanalysis
