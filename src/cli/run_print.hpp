// augur run's printing: the names of the loops (addr2line) and the report of a run, for iterative
// parallel regions and for one outer region with its second-run speedup. Guide: docs/run.md.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "augur/selfanalysis_report.hpp"
#include "core/process.hpp"
#include "interpose/run_result.hpp"
#include "run_command.hpp"

namespace augur::cli {

// Names (and source lines when the program has debug information) of the loops, with addr2line; adds
// "name" and "source" to each loop of the interposition file `info` (and to the outer region and the
// constructs of its worksharing period).
void resolve_names(nlohmann::json& info);

// A loop's or construct's name in the interposition file (resolved by resolve_names), with its source line, for
// the tables: a name longer than 60 characters (a demangled C++ one) cut with "...", the path normalised and
// relative to the current folder when under it; "line N" alone when the file is `same_file` (the region's).
// The interposition file and --json keep both whole.
[[nodiscard]] std::string loop_name(const nlohmann::json& loop, const std::string& same_file = "");

// A name for the printed lines: longer than 60 characters (a demangled C++ one), cut with "...".
[[nodiscard]] std::string short_name(std::string name);

// The file of a loop's source ("path:line" -> "path"), "" when it has none.
[[nodiscard]] std::string source_file(const nlohmann::json& loop);

// "12.3 us", "4.567 ms", "1.234 s".
[[nodiscard]] std::string format_seconds(double seconds);

// The table's T(p) of a parallel-for region's point, AF(B) x T(B) / S(p): the time per iteration the speedup
// (history-weighted) stands for; 0 when the point has no speedup.
[[nodiscard]] double table_iteration_time(const selfanalysis::ReportRegion& region, const selfanalysis::ReportPoint& point);

// The iterative parallel regions the detector found, the main one's speedups and estimate.
void print_report(const selfanalysis::Report& report, const nlohmann::json& info, const core::ProcessResult& child,
                  const RunOptions& options);

// One outer parallel region: the period found in its worksharing constructs (`found`, the file's
// `worksharing` with names resolved; `period`, the same read by interpose::parse_run_info) and the speedup
// of the second run, when one was tried.
// One outer parallel region: its period, the one-run analysis (the report's region of kind "outer"), and the
// check of --check-run.
void print_worksharing(const interpose::RunInfo& run, const nlohmann::json& found, const core::ProcessResult& child,
                       const selfanalysis::Report& report, const std::optional<interpose::SecondRunResult>& second,
                       const RunOptions& options);

// Writes what the second run gave into the interposition file's `worksharing` (for --json): `baseline_run`,
// `speedup` and `speedup_note` when the program ran a second time.
void record_second_run(nlohmann::json& found, const interpose::SecondRunResult& second);

}  // namespace augur::cli
