// The processor manager's cost to a program, per iteration (docs/manager.md, "The manager at run time"). Goal
// (issue 20): at most 1 µs per iteration. Prints figures; never fails.
//   report_iteration       the heartbeat a program writes at each iteration's end (with its clock read) and the
//                          allocation it reads at the next one's start: the protocol's whole per-iteration cost
//   report_speedup         one speedup with its predicted time (made only when a window closes)
//   libaugur_iteration     libaugur's open + close iteration, connected to a manager (this process makes the
//                          segment): compare with bench_probes' open_close_iteration, unconnected
#include <benchmark/benchmark.h>
#include <unistd.h>

#include <string>

#include "augur/augur.h"
#include "manager/protocol.hpp"

namespace {

std::string manager_name() {
  return "bench-" + std::to_string(::getpid());
}

augur::manager::Connection* connection = nullptr;

void report_iteration(benchmark::State& state) {
  long iteration = 0;
  int allocation = 0;
  for (auto _ : state) {
    connection->report_iteration(augur::manager::monotonic_ns(), ++iteration, 4);
    allocation += connection->allocation();
  }
  benchmark::DoNotOptimize(allocation);
}
BENCHMARK(report_iteration);

void report_speedup(benchmark::State& state) {
  double speedup = 1.0;
  for (auto _ : state) {
    connection->report_speedup(4, speedup, 10.0);
    speedup += 1e-9;
  }
}
BENCHMARK(report_speedup);

void libaugur_iteration(benchmark::State& state) {
  for (auto _ : state) {
    augur_open_iteration();
    augur_close_iteration();
  }
  state.counters["per_call"] = benchmark::Counter(2, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}
BENCHMARK(libaugur_iteration);

}  // namespace

int main(int argc, char** argv) {
  const std::string name = manager_name();
  augur::manager::Segment::Opened manager = augur::manager::Segment::create(name, 2, 100000000, "equipartition");
  if (manager.segment == nullptr) return 1;
  augur::manager::Connection::Result own = augur::manager::Connection::connect(name, ::getpid(), "bench", 2);
  if (own.connection == nullptr) return 1;
  connection = own.connection.get();
  augur_set_option("summary", "0");
  augur_set_option("manager", name.c_str());
  augur_init_parallel_region(1, 1, -1);  // libaugur connects here: a second slot
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  augur_end_parallel_region();
  const bool connected = augur::manager::read_applications(*manager.segment).size() == 2;
  std::printf("libaugur %s connected to the manager\n", connected ? "was" : "was NOT");
  augur::manager::Segment::remove(name);
  return 0;
}
