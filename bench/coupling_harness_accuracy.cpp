// How much better the coupling predictor does than the summation predictor on kernels with a designed
// interaction, measured by libaugur's coupling harness: kernel b does a quarter of its work right after a
// (C_ab = 0.5 by design, C_bc = C_ca = 1), so summation predicts the loop about 50% too long and the
// coupling predictor (chains of 2) should come close to it. Until issue 14 the test
// Harness.MeasuresKernelsChainsAndLoopAndTheDesignedCoupling also asserted "coupling beats summation"; on a
// loaded machine that comparison of two predictions with a measured loop is noise-bound, so it is a
// benchmark that prints figures (docs/benchmarks.md); the test keeps the designed couplings.
//
// Usage: bench_coupling_harness [--rounds R]   (default 5; each round measures the toy application once)
// Prints figures; never fails on a time (exit 1 only when the harness fails).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>
#include <vector>

#include "augur/coupling.h"
#include "augur/coupling.hpp"
#include "core/files.hpp"
#include "bench_arguments.hpp"

namespace {

// Work in proportion to `units` (a dependent chain of floating-point operations): on a loaded machine
// every kernel slows down alike, where a spin on the clock would not. 1e-6 is about a microsecond.
void spin(double units) {
  volatile double x = 1.0;
  const auto steps = static_cast<long>(units * 1e9);
  for (long i = 0; i < steps; ++i) x = x * 1.0000001 + 1e-9;
}

int last_kernel = -1;  // the kernel that ran last: b is cheap right after a
constexpr double kA = 200e-6;
constexpr double kB = 400e-6;
constexpr double kBAfterA = 100e-6;
constexpr double kC = 300e-6;

void kernel_a(void*) {
  spin(kA);
  last_kernel = 0;
}
void kernel_b(void*) {
  spin(last_kernel == 0 ? kBAfterA : kB);
  last_kernel = 1;
}
void kernel_c(void*) {
  spin(kC);
  last_kernel = 2;
}
void reset(void*) { last_kernel = -1; }

double median(std::vector<double> values) {
  if (values.empty()) return std::nan("");
  std::sort(values.begin(), values.end());
  const std::size_t middle = values.size() / 2;
  return values.size() % 2 == 1 ? values[middle] : (values[middle - 1] + values[middle]) / 2.0;
}

}  // namespace

int main(int argc, char** argv) {
  augur::bench::check_arguments(argc, argv,
                                "usage: bench_coupling_harness [--rounds R]\n"
                                "The coupling harness on a toy application (default 5 rounds)",
                                {"--rounds R"}, 0);
  int rounds = 5;
  if (argc == 3 && std::string(argv[1]) == "--rounds") {
    char* end = nullptr;
    const long parsed = std::strtol(argv[2], &end, 10);
    if (*end != '\0' || parsed < 1 || parsed > 1000) {
      std::fprintf(stderr, "bench_coupling_harness: --rounds must be an integer from 1 to 1000, got '%s'\n", argv[2]);
      return 2;
    }
    rounds = static_cast<int>(parsed);
  } else if (argc != 1) {
    std::fprintf(stderr, "usage: bench_coupling_harness [--rounds R]\n");
    return 2;
  }
  try {
    const augur::core::TemporaryFolder scratch("augur-bench-coupling");
    const std::string output = (scratch.path() / "toy.jsonl").string();
    std::vector<double> coupling_ab, coupling_ca, summation_error, coupling_error;
    std::printf("toy loop a b c, 50 iterations, 5 samples; designed: C_ab 0.5, C_ca 1, summation +50%%\n");
    std::printf("%-7s %8s %8s %8s %8s %8s %12s %12s\n", "round", "a ms", "b ms", "c ms", "C_ab", "C_ca",
                "summation", "coupling(2)");
    for (int round = 1; round <= rounds; ++round) {
      augur_coupling_app* app = augur_coupling_create("toy", 50);
      if (app == nullptr || augur_coupling_add_kernel(app, "a", kernel_a, nullptr, 1) < 0 ||
          augur_coupling_add_kernel(app, "b", kernel_b, nullptr, 1) < 0 ||
          augur_coupling_add_kernel(app, "c", kernel_c, nullptr, 1) < 0 ||
          augur_coupling_set_hooks(app, nullptr, reset, nullptr) != AUGUR_OK ||
          augur_coupling_set_problem(app, "tiny", 64, 4096) != AUGUR_OK ||
          augur_coupling_set_option(app, "output", output.c_str()) != AUGUR_OK ||
          augur_coupling_set_option(app, "min_time", "0.01") != AUGUR_OK ||
          augur_coupling_set_option(app, "samples", "5") != AUGUR_OK || augur_coupling_measure(app) != AUGUR_OK) {
        std::fprintf(stderr, "bench_coupling_harness: the harness failed (see its messages above)\n");
        augur_coupling_destroy(app);
        return 1;
      }
      augur_coupling_destroy(app);
      const auto run = augur::coupling::read_run(augur::core::read_file(output), output);
      const auto values = augur::coupling::couplings(run, 2);  // a→b, b→c, c→a
      const auto sum = augur::coupling::summation(run);
      const auto coupled = augur::coupling::predict(run, 2);
      coupling_ab.push_back(values[0].value);
      coupling_ca.push_back(values[2].value);
      summation_error.push_back(sum.error.value_or(std::nan("")));
      coupling_error.push_back(coupled.error.value_or(std::nan("")));
      std::printf("%-7d %8.3f %8.3f %8.3f %8.3f %8.3f %+11.1f%% %+11.1f%%\n", round, 1e3 * run.alone(0),
                  1e3 * run.alone(1), 1e3 * run.alone(2), values[0].value, values[2].value, 100 * summation_error.back(),
                  100 * coupling_error.back());
      std::fflush(stdout);
    }
    std::printf("%-7s %8s %8s %8s %8.3f %8.3f %+11.1f%% %+11.1f%%\n", "median", "", "", "", median(coupling_ab),
                median(coupling_ca), 100 * median(summation_error), 100 * median(coupling_error));
  } catch (const std::exception& error) {
    std::fprintf(stderr, "bench_coupling_harness: %s\n", error.what());
    return 1;
  }
  return 0;
}
