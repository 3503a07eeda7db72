// augur run's words for one outer parallel region: its period's constructs and the estimates of its time.
// Guide: docs/run.md.
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>

#include "augur/selfanalysis_report.hpp"

namespace augur::cli {

// The constructs of one iteration (the interposition file's `worksharing`, names resolved), named: runs of the
// same construct as one "name kind x N", the first `shown` of these; a longer period is cut, with the count of
// the constructs left out (of the period's `length`, which may exceed the constructs the file lists).
[[nodiscard]] std::string construct_list(const nlohmann::json& found, std::size_t shown);

// The first and the latest estimate of an outer region's execution time, the share of the run each came at and
// its error against the region's actual time, one line.
void print_outer_estimates(const selfanalysis::ReportRegion& outer);

// Where the team ran (the report's `placement`): the share of its measured steps with every thread on one core,
// and what that means for the speedup read (a packed team measures one core's speedup). Nothing on one thread or
// when the report has no count.
void print_placement(const selfanalysis::ReportRegion& outer);

}  // namespace augur::cli
