// Speed of the TSPP predictor (10, 100, 1000 tasks on 8 resources) and of the simulator (events per
// second, on one thread and with its replications over every core). Medians of repeated runs. Prints
// figures; never fails.
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "augur/core/stats.hpp"
#include "core/table.hpp"
#include "augur/sim/task_system.hpp"
#include "augur/tspp_predictor.hpp"
#include "bench_arguments.hpp"

int main(int argc, char** argv) {
  augur::bench::check_arguments(argc, argv,
                                "usage: bench_tspp_speed\n"
                                "The TSPP predictor and simulator: seconds and events per second",
                                {}, 0);
  using clock = std::chrono::steady_clock;
  augur::core::TextTable table({"tasks", "resources", "mak-lundstrom median s", "iterations", "transient median s",
                                "iterations (finest grid)", "simulator events/s, 1 thread",
                                "events/s, all threads"});
  int threads = 1;
  for (int tasks : {10, 100, 1000}) {
    augur::tspp::GeneratorOptions options;
    options.tasks = tasks;
    options.resources = 8;
    options.depth = 6;
    options.seed = 11;
    const auto system = augur::tspp::generate_task_system(options);
    const int repeat = tasks >= 1000 ? 3 : 7;
    auto measure = [&](augur::tspp::Method method, int& iterations) {
      std::vector<double> times;
      augur::tspp::PredictorOptions predictor;
      predictor.method = method;
      for (int run = 0; run < repeat; ++run) {
        const auto start = clock::now();
        const auto prediction = augur::tspp::predict(system, predictor);
        times.push_back(std::chrono::duration<double>(clock::now() - start).count());
        iterations = prediction.iterations;
      }
      return augur::core::median(times);
    };
    int iterations = 0;
    int transient_iterations = 0;
    const double mak_lundstrom = measure(augur::tspp::Method::MakLundstrom, iterations);
    const double transient = measure(augur::tspp::Method::Transient, transient_iterations);
    augur::sim::TaskSystemOptions simulation;
    simulation.replications = std::max(1, 200000 / tasks);
    auto events_per_second = [&](int thread_count) {
      simulation.threads = thread_count;
      const auto start = clock::now();
      const auto result = augur::sim::simulate(system, simulation);
      const double seconds = std::chrono::duration<double>(clock::now() - start).count();
      char rate[32];
      std::snprintf(rate, sizeof rate, "%.3g", static_cast<double>(result.events) / seconds);
      return std::string(rate);
    };
    threads = augur::sim::replication_threads(0, simulation.replications);
    const std::string serial = events_per_second(1);
    const std::string parallel = events_per_second(threads);
    table.add_row({std::to_string(tasks), "8", augur::core::format_number(mak_lundstrom, 4), std::to_string(iterations),
                   augur::core::format_number(transient, 4), std::to_string(transient_iterations), serial, parallel});
  }
  std::printf("bench_tspp_speed: random series-parallel systems (augur gen-tasks, depth 6, seed 11); all threads = %d\n%s",
              threads, table.render().c_str());
  return 0;
}
