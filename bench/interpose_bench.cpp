// The cost of libaugur_preload (docs/run.md, "What it costs"): per intercepted parallel region
// (empty_regions with and without LD_PRELOAD; goal <= 1 us) and on a whole program (swim-plain;
// goal <= 2%). The same for the OMPT tool libaugur_ompt, on the programs built by clang
// (empty_regions-clang and swim-clang with and without OMP_TOOL_LIBRARIES), when they are built.
// Runs interleaved, medians of repetitions; prints figures and never fails on a time.
//
//   bench_interpose [REPETITIONS]
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>
#include <vector>

#include "core/process.hpp"
#include "bench_arguments.hpp"

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

// How the program runs: as it is, or under one of the two libraries of augur run.
enum class Tool { none, preload, ompt };

// The library under test for the programs of one compiler: libaugur_preload for gcc's (libgomp),
// libaugur_ompt for clang's (libomp).
struct Subject {
  std::string suffix;  // "" for the gcc builds, "-clang" for clang's
  Tool tool;
  std::string library_name;
};

ProcessResult run(const std::vector<std::string>& argv, const std::string& threads, const std::string& wait_policy, Tool tool) {
  ProcessOptions options;
  options.unset = {"AUGUR_MODE", "AUGUR_REPORT", "AUGUR_SWEEP", "LD_PRELOAD", "OMP_TOOL_LIBRARIES", "OMP_TOOL"};
  options.environment = {{"OMP_NUM_THREADS", threads}, {"OMP_WAIT_POLICY", wait_policy}, {"AUGUR_SUMMARY", "0"}};
  if (tool == Tool::preload) options.environment.emplace_back("LD_PRELOAD", AUGUR_PRELOAD_LIBRARY);
#ifdef AUGUR_OMPT_LIBRARY
  if (tool == Tool::ompt) options.environment.emplace_back("OMP_TOOL_LIBRARIES", AUGUR_OMPT_LIBRARY);
#endif
  ProcessResult result = augur::core::run_process(argv, options);
  if (!result.succeeded()) std::fprintf(stderr, "bench_interpose: %s %s\n", argv[0].c_str(), result.describe_status().c_str());
  return result;
}

void per_region(int repetitions, const Subject& subject, const std::string& threads, const std::string& wait_policy) {
  const std::vector<std::string> argv = {std::string(AUGUR_BIN_DIR) + "/empty_regions" + subject.suffix, "200000"};
  std::vector<double> plain, measured;
  for (int repetition = 0; repetition < repetitions; ++repetition) {
    plain.push_back(field(run(argv, threads, wait_policy, Tool::none).standard_output, "per_region_us"));
    measured.push_back(field(run(argv, threads, wait_policy, subject.tool).standard_output, "per_region_us"));
  }
  const double without = median(plain);
  const double with = median(measured);
  std::printf("empty_regions%s, %s thread(s), OMP_WAIT_POLICY=%s: %.3f us plain, %.3f us with %s: "
              "overhead %.3f us per region (goal <= 1 us)\n",
              subject.suffix.c_str(), threads.c_str(), wait_policy.c_str(), without, with, subject.library_name.c_str(),
              with - without);
}

void whole_program(int repetitions, const Subject& subject) {
  const std::string name = subject.suffix.empty() ? "swim-plain" : "swim" + subject.suffix;
  const std::vector<std::string> argv = {std::string(AUGUR_BIN_DIR) + "/" + name, "512", "300"};
  std::vector<double> plain_wall, measured_wall, plain_inner, measured_inner;
  for (int repetition = 0; repetition < repetitions; ++repetition) {
    ProcessResult plain = run(argv, "2", "passive", Tool::none);
    ProcessResult measured = run(argv, "2", "passive", subject.tool);
    plain_wall.push_back(plain.wall_seconds);
    measured_wall.push_back(measured.wall_seconds);
    plain_inner.push_back(field(plain.standard_output, "time_s"));
    measured_inner.push_back(field(measured.standard_output, "time_s"));
  }
  const double wall_without = median(plain_wall), wall_with = median(measured_wall);
  const double loop_without = median(plain_inner), loop_with = median(measured_inner);
  std::printf("%s 512 300, 2 threads: time loop %.4f s plain, %.4f s with %s (%+.2f%%); "
              "program %.4f s plain, %.4f s with (%+.2f%%) (goal <= 2%%)\n",
              name.c_str(), loop_without, loop_with, subject.library_name.c_str(), (loop_with / loop_without - 1.0) * 100.0,
              wall_without, wall_with, (wall_with / wall_without - 1.0) * 100.0);
}

void measure(int repetitions, const Subject& subject) {
  per_region(repetitions, subject, "1", "active");
  per_region(repetitions, subject, "2", "active");
  whole_program(repetitions, subject);
}

}  // namespace

int main(int argc, char** argv) {
  augur::bench::check_arguments(argc, argv,
                                "usage: bench_interpose [REPETITIONS]\n"
                                "The cost of libaugur_preload and libaugur_ompt per region and on a whole program (default 7 repetitions)",
                                {}, 1);
  const int repetitions = argc > 1 ? std::max(1, std::atoi(argv[1])) : 7;
  try {
    std::printf("bench_interpose: medians of %d interleaved runs\n", repetitions);
    measure(repetitions, Subject{"", Tool::preload, "libaugur_preload"});
#ifdef AUGUR_OMPT_LIBRARY
    measure(repetitions, Subject{"-clang", Tool::ompt, "libaugur_ompt"});
#else
    std::printf("libaugur_ompt: not measured (this build has no OMPT tool, or no clang builds of the examples)\n");
#endif
  } catch (const std::exception& error) {
    std::fprintf(stderr, "bench_interpose: %s\n", error.what());
  }
  return 0;
}
