// Speed of the hierarchical simulator (issue 19's goal: one simulation of 10^6 elementary functions on 1024
// processors in under 10 s): a program drawn from a UU20-like model with about 1000 tasks per function graph
// at both levels (N_size uniform 900..1100, so about 10^6 elementary functions), on 2 levels, fan-out 16, 64
// processors under each lowest CS. Times the generation, the hierarchical simulation and the ideal
// execution separately: CPU time of the process (this machine is shared: wall time is printed beside it).
// Median of 3 runs. Prints figures; never fails.
#include <chrono>
#include <cstdio>
#include <ctime>
#include <vector>

#include "augur/core/stats.hpp"
#include "sim/hierarchy/simulate.hpp"
#include "bench_arguments.hpp"

namespace {

const char* const model_text = "nsize uniform 900 1100\nndf 1 + poisson 1.0\ntet uniform 0.5 1.5\npattern random\n";

double cpu_seconds() { return static_cast<double>(std::clock()) / CLOCKS_PER_SEC; }

}  // namespace

int main(int argc, char** argv) {
  augur::bench::check_arguments(argc, argv,
                                "usage: bench_hierarchy_speed\n"
                                "The hierarchical simulator on about 10^6 elementary functions: CPU seconds, median of 3 runs",
                                {}, 0);
  namespace hierarchy = augur::sim::hierarchy;
  const hierarchy::Machine machine = hierarchy::uniform_machine(2, 16, 64);
  const hierarchy::ProgramModel model = hierarchy::parse_model(model_text, "bench.model").for_levels(2);
  std::vector<double> generate_cpu, simulate_cpu, ideal_cpu, simulate_wall;
  hierarchy::Execution result;
  double elementary = 0.0;
  for (int run = 0; run < 3; ++run) {
    double start = cpu_seconds();
    augur::sim::RandomStream random(1, static_cast<std::uint64_t>(run));
    const hierarchy::Program program = hierarchy::generate_program(model, random, "bench.model");
    elementary = program.elementary_executions();
    generate_cpu.push_back(cpu_seconds() - start);
    start = cpu_seconds();
    const auto wall = std::chrono::steady_clock::now();
    result = hierarchy::simulate_hierarchy(program, machine);
    simulate_cpu.push_back(cpu_seconds() - start);
    simulate_wall.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - wall).count());
    start = cpu_seconds();
    result.ideal_time = hierarchy::ideal_time(program, machine.total_processors());
    ideal_cpu.push_back(cpu_seconds() - start);
  }
  using augur::core::median;
  std::printf("hierarchy: %.0f elementary functions on %ld processors (2 levels, fan-out 16, 64 processors per lowest CS), %llu events\n",
              elementary, machine.total_processors(), static_cast<unsigned long long>(result.events));
  std::printf("median of 3 runs, CPU seconds: generation %.3f, simulation %.3f (wall %.3f), ideal execution %.3f\n", median(generate_cpu),
              median(simulate_cpu), median(simulate_wall), median(ideal_cpu));
  std::printf("simulated time %.1f, ideal %.1f, ratio %.4f; %ld packets migrated at level 2\n", result.time, result.ideal_time,
              result.time / result.ideal_time, result.levels[1].migrated);
  return 0;
}
