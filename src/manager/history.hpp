// What the manager learns of a program from its jobs (issue 20, docs/manager.md, "history"): a batch
// scheduler predicts a job from the same program's previous jobs (Tsafrir, Etsion and Feitelson 2007: the
// mean run time of the last two); the manager keeps, per program, the speedups its jobs calculated and the
// work (one-processor seconds) of its last finished jobs. A new job of a known program starts with them as
// its prior, replaced by its own measurements as they come. Pure: the caller (the simulation, the real
// manager) keeps a ProgramHistories and passes its programs() to decide() in PolicyParameters::history.
#pragma once

#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "manager/policy.hpp"

namespace augur::manager {

// The prior's work: the mean of the works of this many last finished jobs of the program (Tsafrir et al.'s
// two; chosen on the training seeds, docs/manager.md).
inline constexpr std::size_t history_jobs = 2;

// A job's program: its name without a copy suffix ".k" (k digits), as a workload's repeat= and poisson=
// streams name their copies ("swim.3" -> "swim"); the name itself when it has none.
[[nodiscard]] std::string program_of_job(std::string_view name);

// The history of the programs, kept by the caller between decisions.
class ProgramHistories {
public:
  // The speedups a job of `program` calculated (its report's PC entries): each replaces the program's
  // S(P) at its P (the latest measurement wins).
  void record_speedups(const std::string& program, std::span<const SpeedupEntry> speedups);
  // A finished job of `program` and its work in one-processor seconds (> 0; others are ignored).
  void record_finished(const std::string& program, double work);
  // One entry per program seen, in the order of their names; the view handed to decide().
  [[nodiscard]] std::span<const ProgramHistory> programs() const { return programs_; }

private:
  ProgramHistory& entry(const std::string& program);
  std::vector<ProgramHistory> programs_;
};

// The history of `report`'s program in `history`, if any (report.program empty: none).
[[nodiscard]] const ProgramHistory* history_of(std::span<const ProgramHistory> history, const ApplicationReport& report);

// The prior's work of a program: the mean of its last history_jobs finished jobs' works; nothing before
// one has finished.
[[nodiscard]] std::optional<double> prior_work(const ProgramHistory& history);

// `report` as the policies that read the history see it: each S(P) its program's jobs calculated that it has
// not calculated itself added as calculated (its own measurement replaces the prior's at its P), and, with
// HistoryPrior::curve_and_work, while it has predicted no work left of its own (no predicted_time at a
// calculated allocation, no work_left in its memory), its memory's work_left the prior's work. Unchanged
// when its program has no history.
[[nodiscard]] ApplicationReport with_prior(const ApplicationReport& report, std::span<const ProgramHistory> history,
                                           HistoryPrior prior = HistoryPrior::curve);

}  // namespace augur::manager
