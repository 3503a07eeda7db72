// The output of augur speedup (docs/speedup.md): the table, or JSON with --json. Pure printing.
#pragma once

#include <string>

#include "selfanalysis/speedup_experiment.hpp"
#include "selfanalysis/verdict.hpp"
#include "speedup_command.hpp"

namespace augur::cli {

// `outer`: the region is one outer parallel region (its length counts worksharing constructs, and its baseline
// is the team's threads one after the other, not a thread count). The plain verdict ends both.
void print_speedup_json(const SpeedupOptions& options, const selfanalysis::ExperimentResult& result, int max_threads,
                        const std::string& wait_policy, bool outer, const selfanalysis::Verdict& verdict);
// --csv: p,time_s,region_time_s,time_sa_s,ts,ts_min,ts_max,sa_n,sa_n_min,sa_n_max,sa_n_mean,sa_1,st,
// estimated_time_s,region_time_sa_s,overhead,judged_runs,disturbed_runs (--json's names; empty: not measured).
[[nodiscard]] std::string render_speedup_csv(const selfanalysis::ExperimentResult& result);
void print_speedup_table(const SpeedupOptions& options, const selfanalysis::ExperimentResult& result,
                         const std::string& wait_policy, bool outer, const selfanalysis::Verdict& verdict);

}  // namespace augur::cli
