// augur run's launching of the program: which OpenMP runtime it loads, the environment that puts it under
// the interposition library, and the second run of a program with one outer parallel region.
// Guide: docs/run.md.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "interpose/run_result.hpp"
#include "interposition.hpp"
#include "run_command.hpp"

namespace augur::cli {

using Environment = std::vector<std::pair<std::string, std::string>>;

// The variables that run `program` under the interposition library `tool`, writing the report to
// `report_path` and the interposition file to `info_path`, with the options given.
[[nodiscard]] Environment program_environment(const RunOptions& options, const Interposition& tool,
                                              const std::string& report_path, const std::string& info_path);

// What augur run says before the run about the options it will not follow as given: a fixed --baseline above
// the threads given (-p, or OMP_NUM_THREADS) becomes the thread count. Empty when there is nothing to say.
[[nodiscard]] std::string baseline_clamp_note(const RunOptions& options);

// One outer parallel region: runs the program (`argv`, `environment` of the first run) a second time on
// the baseline's thread count, in `scratch`, and combines the two runs. None when no second run is wanted
// (--one-run, no other thread count, no time per iteration in the first run).
[[nodiscard]] std::optional<interpose::SecondRunResult> measure_second_run(
    const RunOptions& options, const interpose::WorksharingPeriod& first, int first_exit_code,
    const std::vector<std::string>& argv, const Environment& environment, const std::filesystem::path& scratch);

}  // namespace augur::cli
