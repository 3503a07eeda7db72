// augur speedup on an unmodified OpenMP program (docs/speedup.md, "Unmodified programs"): the choice of
// the instrumentation, region ids that stay the same from run to run, and the kind of a report's region.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

#include "augur/selfanalysis_report.hpp"
#include "interposition.hpp"
#include "speedup_command.hpp"

namespace augur::cli {

// The instrumentation of `program`: none to add (linked with libaugur, or not an OpenMP program: it must
// write its report itself), or in `tool` the interposition library of its OpenMP runtime. `note` says
// which ("instrumentation: ..."). 0, or the exit status after saying why the program cannot be measured.
int choose_instrumentation(const std::string& program, std::optional<Interposition>& tool, std::string& note);

// Under the dynamic instrumentation a region's id is the address of its first loop (of its parallel region
// for a region of kind outer), which address-space randomization moves from run to run: each id of
// `report` becomes that code's offset in its module (from the interposition file `info`), the same in
// every run of the program.
void stable_region_ids(selfanalysis::Report& report, const std::filesystem::path& info);

// A run in mode=time of a program with one outer parallel region: the preload's report has no region, its
// interposition file `info` the step's period. Adds to `report` the outer region (id: the offset of the
// parallel region) with its iterations and the time iterations x the median step time, for TS; returns
// whether it did (not when the report has a region, or the file no period with a step time).
bool add_timed_outer_region(selfanalysis::Report& report, const std::filesystem::path& info);

// The "kind" of the region the analysis is about (--region, or the longest-running) in the report `text`
// parsed as `report`: "loops" when the field is absent, "" when the report has no such region.
[[nodiscard]] std::string region_kind(const std::string& text, const selfanalysis::Report& report,
                                      const SpeedupOptions& options);

}  // namespace augur::cli
