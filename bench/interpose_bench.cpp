// The cost of libaugur_preload (docs/run.md, "What it costs"): per intercepted parallel region
// (empty_regions with and without LD_PRELOAD; goal <= 1 us) and on a whole program (swim-plain;
// goal <= 2%). Runs interleaved, medians of repetitions; prints figures and never fails on a time.
//
//   bench_interpose [REPETITIONS]
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>
#include <vector>

#include "augur/core/process.hpp"

namespace {

using augur::core::ProcessOptions;
using augur::core::ProcessResult;

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const std::size_t middle = values.size() / 2;
  return values.size() % 2 == 1 ? values[middle] : (values[middle - 1] + values[middle]) / 2.0;
}

// The number after `key=` in the program's output, or -1.
double field(const std::string& output, const std::string& key) {
  const std::size_t at = output.find(key + "=");
  if (at == std::string::npos) return -1.0;
  return std::strtod(output.c_str() + at + key.size() + 1, nullptr);
}

ProcessResult run(const std::vector<std::string>& argv, const std::string& threads, const std::string& wait_policy, bool preload) {
  ProcessOptions options;
  options.unset = {"AUGUR_MODE", "AUGUR_REPORT", "AUGUR_SWEEP", "LD_PRELOAD"};
  options.environment = {{"OMP_NUM_THREADS", threads}, {"OMP_WAIT_POLICY", wait_policy}, {"AUGUR_SUMMARY", "0"}};
  if (preload) options.environment.emplace_back("LD_PRELOAD", AUGUR_PRELOAD_LIBRARY);
  ProcessResult result = augur::core::run_process(argv, options);
  if (!result.succeeded()) std::fprintf(stderr, "bench_interpose: %s %s\n", argv[0].c_str(), result.describe_status().c_str());
  return result;
}

void per_region(int repetitions, const std::string& threads, const std::string& wait_policy) {
  const std::vector<std::string> argv = {std::string(AUGUR_BIN_DIR) + "/empty_regions", "200000"};
  std::vector<double> plain, preloaded;
  for (int repetition = 0; repetition < repetitions; ++repetition) {
    plain.push_back(field(run(argv, threads, wait_policy, false).standard_output, "per_region_us"));
    preloaded.push_back(field(run(argv, threads, wait_policy, true).standard_output, "per_region_us"));
  }
  const double without = median(plain);
  const double with = median(preloaded);
  std::printf("empty parallel region, %s thread(s), OMP_WAIT_POLICY=%s: %.3f us plain, %.3f us with libaugur_preload: "
              "overhead %.3f us per region (goal <= 1 us)\n",
              threads.c_str(), wait_policy.c_str(), without, with, with - without);
}

void whole_program(int repetitions) {
  const std::vector<std::string> argv = {std::string(AUGUR_BIN_DIR) + "/swim-plain", "512", "300"};
  std::vector<double> plain_wall, preloaded_wall, plain_inner, preloaded_inner;
  for (int repetition = 0; repetition < repetitions; ++repetition) {
    ProcessResult plain = run(argv, "2", "passive", false);
    ProcessResult preloaded = run(argv, "2", "passive", true);
    plain_wall.push_back(plain.wall_seconds);
    preloaded_wall.push_back(preloaded.wall_seconds);
    plain_inner.push_back(field(plain.standard_output, "time_s"));
    preloaded_inner.push_back(field(preloaded.standard_output, "time_s"));
  }
  const double wall_without = median(plain_wall), wall_with = median(preloaded_wall);
  const double loop_without = median(plain_inner), loop_with = median(preloaded_inner);
  std::printf("swim-plain 512 300, 2 threads: time loop %.4f s plain, %.4f s with libaugur_preload (%+.2f%%); "
              "program %.4f s plain, %.4f s with (%+.2f%%) (goal <= 2%%)\n",
              loop_without, loop_with, (loop_with / loop_without - 1.0) * 100.0, wall_without, wall_with,
              (wall_with / wall_without - 1.0) * 100.0);
}

}  // namespace

int main(int argc, char** argv) {
  const int repetitions = argc > 1 ? std::max(1, std::atoi(argv[1])) : 7;
  try {
    std::printf("bench_interpose: medians of %d interleaved runs\n", repetitions);
    per_region(repetitions, "1", "active");
    per_region(repetitions, "2", "active");
    whole_program(repetitions);
  } catch (const std::exception& error) {
    std::fprintf(stderr, "bench_interpose: %s\n", error.what());
  }
  return 0;
}
