// The output of augur speedup (docs/speedup.md): the table, or JSON with --json. Pure printing.
#pragma once

#include <string>

#include "selfanalysis/speedup_experiment.hpp"
#include "speedup_command.hpp"

namespace augur::cli {

void print_speedup_json(const SpeedupOptions& options, const selfanalysis::ExperimentResult& result, int max_threads,
                        const std::string& wait_policy);
void print_speedup_table(const SpeedupOptions& options, const selfanalysis::ExperimentResult& result,
                         const std::string& wait_policy);

}  // namespace augur::cli
