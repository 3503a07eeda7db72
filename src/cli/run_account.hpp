// augur run's account of where a region's time went: iterations x T(P), and beyond T(P) an iteration what each
// kind of iteration took, adding up to the region's time (docs/self-analysis.md, "Where the region's time went").
// Guide: docs/run.md.
#pragma once

#include "augur/selfanalysis_report.hpp"

namespace augur::cli {

// An outer region (the report's time_account): the baseline steps, the tool's delay in the team's steps, the
// preempted and the slow steps left out, the steps not measured. Nothing when the report has no account.
void print_outer_account(const selfanalysis::ReportRegion& outer);

// A region of parallel loops on `processors` (the allocation): T(P) = AF(B) x T(B) / S(P), the table's; the
// iterations measured on each processor count (the points' measured_time_s) and the rest (discarded, and the
// time between iterations). Nothing when S(P) was not calculated or the report has no measured times.
void print_loops_account(const selfanalysis::ReportRegion& region, int processors);

}  // namespace augur::cli
