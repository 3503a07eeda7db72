// Whole-program overhead of the self-analyzer on the swim example: the instrumented program
// (libaugur in analyze mode) against the same program built without augur, run alternately, with
// medians over repetitions. Goal (issue 2): at most 1% with iterations of at least 1 ms.
// Usage: bench_overhead [--size N] [--iterations I] [--repeat R] [--threads P]
// Prints figures; never fails on a time.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "augur/core/process.hpp"
#include "augur/core/stats.hpp"
#include "augur/core/table.hpp"

namespace {

struct Variant {
  std::string name;
  std::string program;
  std::vector<std::pair<std::string, std::string>> environment;
  std::vector<double> wall;
  std::vector<double> loop;
};

double loop_time(const std::string& output) {
  const auto position = output.find("swim: time_s=");
  return position == std::string::npos ? 0.0 : std::atof(output.c_str() + position + 13);
}

int parse(const char* value, const char* name) {
  char* end = nullptr;
  const long parsed = std::strtol(value, &end, 10);
  if (*end != '\0' || parsed < 1 || parsed > 100000) {
    std::fprintf(stderr, "bench_overhead: %s must be a positive integer, got '%s'\n", name, value);
    std::exit(2);
  }
  return static_cast<int>(parsed);
}

}  // namespace

int main(int argc, char** argv) {
  int size = 512;
  int iterations = 400;
  int repeat = 7;
  int threads = 2;
  for (int index = 1; index < argc; ++index) {
    const std::string argument = argv[index];
    if (index + 1 >= argc) {
      std::fprintf(stderr, "usage: bench_overhead [--size N] [--iterations I] [--repeat R] [--threads P]\n");
      return 2;
    }
    const char* value = argv[++index];
    if (argument == "--size") size = parse(value, "--size");
    else if (argument == "--iterations") iterations = parse(value, "--iterations");
    else if (argument == "--repeat") repeat = parse(value, "--repeat");
    else if (argument == "--threads") threads = parse(value, "--threads");
    else {
      std::fprintf(stderr, "bench_overhead: unknown option '%s'\n", argument.c_str());
      return 2;
    }
  }
  const std::string bin = AUGUR_BIN_DIR;
  const std::vector<std::pair<std::string, std::string>> common = {{"OMP_NUM_THREADS", std::to_string(threads)},
                                                                   {"OMP_WAIT_POLICY", "passive"}};
  std::vector<Variant> variants = {
      {"swim-plain (no augur)", bin + "/swim-plain", {}, {}, {}},
      {"swim, AUGUR_MODE=time", bin + "/swim", {{"AUGUR_MODE", "time"}, {"AUGUR_SUMMARY", "0"}}, {}, {}},
      {"swim, analyze, baseline 4 (default)", bin + "/swim", {{"AUGUR_SUMMARY", "0"}}, {}, {}},
      {"swim, analyze, baseline 1", bin + "/swim", {{"AUGUR_BASELINE", "1"}, {"AUGUR_SUMMARY", "0"}}, {}, {}},
  };
  std::printf("bench_overhead: swim %d %d on %d threads, %d alternating repetitions, medians\n", size, iterations, threads,
              repeat);
  for (int repetition = 0; repetition < repeat; ++repetition) {
    for (Variant& variant : variants) {
      augur::core::ProcessOptions options;
      options.environment = common;
      options.environment.insert(options.environment.end(), variant.environment.begin(), variant.environment.end());
      options.unset = {"AUGUR_REPORT", "AUGUR_SWEEP", "AUGUR_BASELINE_ITERATIONS", "AUGUR_MEASURE_ITERATIONS"};
      const auto result = augur::core::run_process({variant.program, std::to_string(size), std::to_string(iterations)}, options);
      if (!result.succeeded()) {
        std::fprintf(stderr, "bench_overhead: %s %s\n", variant.program.c_str(), result.describe_status().c_str());
        return 1;
      }
      variant.wall.push_back(result.wall_seconds);
      variant.loop.push_back(loop_time(result.standard_output));
    }
  }
  const double plain_wall = augur::core::median(variants[0].wall);
  const double plain_loop = augur::core::median(variants[0].loop);
  augur::core::TextTable table({"variant", "wall_s", "loop_s", "ms/iteration", "wall ratio", "loop ratio"});
  for (const Variant& variant : variants) {
    const double wall = augur::core::median(variant.wall);
    const double loop = augur::core::median(variant.loop);
    table.add_row({variant.name, augur::core::format_number(wall, 4), augur::core::format_number(loop, 4),
                   augur::core::format_number(loop / iterations * 1e3, 3), augur::core::format_number(wall / plain_wall, 4),
                   augur::core::format_number(loop / plain_loop, 4)});
  }
  std::printf("%s", table.render().c_str());
  std::printf("ratio = median time of the variant / median time of swim-plain; loop = the time loop only (swim's time_s)\n");
  return 0;
}
