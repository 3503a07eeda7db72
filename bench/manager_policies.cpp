// The manager's policies on the example workloads (docs/manager.md, "Figures"): for 16 to 256 processors,
// each policy's mean response time and makespan relative to equipartition's, simulated with
// `augur manager simulate`'s engine. Equipartition runs twice: with no multiprogramming limit and with the
// fixed level of 4 (PDPA and pdpa-lend set their own). Prints a Markdown table; never fails.
#include <cstdio>
#include <string>
#include <vector>

#include "augur/core/diagnostics.hpp"
#include "core/files.hpp"
#include "manager/simulate.hpp"

namespace {

using namespace augur;

struct Row {
  std::string label;
  manager::PolicyKind policy;
  int multiprogramming_level;
};

manager::SimulationResult run(const manager::Workload& workload, int cpus, const Row& row) {
  manager::SimulationOptions options;
  options.policy.policy = row.policy;
  options.policy.cpus = cpus;
  options.policy.multiprogramming_level = row.multiprogramming_level;
  return manager::simulate(workload, options);
}

}  // namespace

int main(int argc, char** argv) {
  const std::string folder = argc > 1 ? argv[1] : AUGUR_SOURCE_DIR "/examples/manager";
  const std::vector<std::string> names{"amdahl", "thesis", "open"};
  const std::vector<Row> rows{{"equipartition", manager::PolicyKind::equipartition, 0},
                              {"equipartition, level 4", manager::PolicyKind::equipartition, 4},
                              {"pdpa", manager::PolicyKind::pdpa, 0},
                              {"pdpa-lend", manager::PolicyKind::pdpa_lend, 0},
                              {"shortest-first", manager::PolicyKind::shortest_first, 0},
                              {"equal-efficiency", manager::PolicyKind::equal_efficiency, 0},
                              {"marginal-gain", manager::PolicyKind::marginal_gain, 0},
                              {"fixed, level 4", manager::PolicyKind::fixed, 4}};
  const std::vector<int> machines{16, 32, 64, 128, 256};
  try {
    for (const std::string& name : names) {
      const std::string path = folder + "/" + name + ".workload";
      const manager::Workload workload = manager::parse_workload(core::read_file(path), path, [&](const std::string& file) {
        return core::read_file(folder + "/" + file);
      });
      std::printf("\n%s.workload (%zu jobs): mean response time / makespan, relative to equipartition (no level)\n\n", name.c_str(),
                  workload.jobs.size());
      std::printf("| policy |");
      for (const int cpus : machines) std::printf(" %d CPUs |", cpus);
      std::printf("\n| --- |");
      for (std::size_t i = 0; i < machines.size(); ++i) std::printf(" --- |");
      std::printf("\n");
      std::vector<manager::SimulationResult> baseline;
      for (const int cpus : machines) baseline.push_back(run(workload, cpus, rows[0]));
      for (const Row& row : rows) {
        std::printf("| %s |", row.label.c_str());
        for (std::size_t m = 0; m < machines.size(); ++m) {
          const manager::SimulationResult result = &row == &rows[0] ? baseline[m] : run(workload, machines[m], row);
          if (&row == &rows[0]) {
            std::printf(" %.0f s / %.0f s |", result.mean_response_time, result.makespan);
          } else {
            std::printf(" %.2f / %.2f |", result.mean_response_time / baseline[m].mean_response_time,
                        result.makespan / baseline[m].makespan);
          }
        }
        std::printf("\n");
      }
    }
  } catch (const std::exception& error) {
    std::fprintf(stderr, "bench_manager_policies: %s\n", error.what());
    return 0;  // a benchmark never fails
  }
  return 0;
}
