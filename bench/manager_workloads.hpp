// What the manager's benchmarks share (bench/manager_policies.cpp, bench/manager_history.cpp): the random open
// arrivals of the thesis's five applications (docs/manager.md, "Figures").
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "augur/core/diagnostics.hpp"
#include "manager/workload.hpp"

namespace augur::bench {

inline constexpr int random_jobs = 50;
inline constexpr double random_load = 0.9;

// A number as printf formats it.
inline std::string number(const char* format, double value) {
  char text[48];
  std::snprintf(text, sizeof text, format, value);
  return text;
}

// The text of a workload of random open arrivals of the given applications (docs/formats.md, poisson=):
// one Poisson stream of `random_jobs` / n jobs per application, each at the rate that makes the streams
// together offer `random_load` of `cpus` processors in one-processor work; the streams of seed s draw
// with seeds 5 (s - 1) + 1 to 5 s. examples/manager/random.workload is this text for 64 CPUs, seed 1
// (`bench_manager_policies --random-workload 64 1` prints it).
inline std::string random_text(const std::vector<manager::WorkloadJob>& kinds, int cpus, std::uint64_t seed) {
  double mean_work = 0.0;
  for (const manager::WorkloadJob& kind : kinds) mean_work += kind.work / static_cast<double>(kinds.size());
  const double rate = random_load * cpus / (mean_work * static_cast<double>(kinds.size()));
  char line[160];
  std::snprintf(line, sizeof line, "# Random open arrivals: the five applications of thesis.workload, %d each, Poisson streams that\n",
                random_jobs / static_cast<int>(kinds.size()));
  std::string text = line;
  std::snprintf(line, sizeof line, "# together offer %.1f of %d processors in one-processor work (bench/manager_policies.cpp, seed %d).\n",
                random_load, cpus, static_cast<int>(seed));
  text += line;
  for (std::size_t index = 0; index < kinds.size(); ++index) {
    const manager::WorkloadJob& kind = kinds[index];
    text += "job " + kind.name + " work=" + number("%.10g", kind.work) + " table=";
    for (std::size_t point = 1; point < kind.curve.points.size(); ++point) {
      text += (point > 1 ? "," : "") + std::to_string(kind.curve.points[point].first) + ":" +
              number("%.10g", kind.curve.points[point].second);
    }
    std::snprintf(line, sizeof line, " poisson=%d rate=%.6g seed=%d\n", random_jobs / static_cast<int>(kinds.size()), rate,
                  static_cast<int>(5 * (seed - 1) + index + 1));
    text += line;
  }
  return text;
}

inline manager::Workload random_workload(const std::vector<manager::WorkloadJob>& kinds, int cpus, std::uint64_t seed) {
  return manager::parse_workload(random_text(kinds, cpus, seed), "random.workload", [](const std::string& file) -> std::string {
    throw core::InputError({file, 0, 0}, "no file");
  });
}

}  // namespace augur::bench
