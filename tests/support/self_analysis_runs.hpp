// What the tests and the benchmarks of augur run share about running a self-analysed program and reading its
// report (docs/formats.md, "Self-analysis report").
#pragma once

#include <cmath>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "core/process.hpp"

namespace augur::test {

// The environment of a measured run: none of the caller's AUGUR_* choices that would change it, threads
// that sleep when idle (the self-tuning' estimate needs them).
inline core::ProcessOptions clean_environment() {
  core::ProcessOptions options;
  options.unset = {"AUGUR_MODE",         "AUGUR_REPORT", "AUGUR_SWEEP",    "AUGUR_BASELINE",
                   "AUGUR_TOOL_OPTIONS", "LD_PRELOAD",   "OMP_NUM_THREADS", "EXAMPLE_PACE"};
  options.environment = {{"OMP_WAIT_POLICY", "passive"}};
  return options;
}

// The region that ran longest in a report.
inline const nlohmann::json& main_region(const nlohmann::json& report) {
  const nlohmann::json* best = nullptr;
  for (const nlohmann::json& region : report.at("regions")) {
    if (best == nullptr || region.at("elapsed_s").get<double>() > best->at("elapsed_s").get<double>()) best = &region;
  }
  if (best == nullptr) throw std::runtime_error("the report has no region");
  return *best;
}

// S(p) of a region (`mean_value`: T(B) over the mean time of every iteration on p), NaN when not computed.
inline double speedup_at(const nlohmann::json& region, int processors) {
  for (const nlohmann::json& point : region.at("speedup")) {
    if (point.at("p").get<int>() == processors && point.at("state") == "PC")
      return point.at("mean_value").get<double>();
  }
  return std::nan("");
}

}  // namespace augur::test
