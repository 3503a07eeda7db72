// Whole-program overhead of the self-analyzer on the swim example: the instrumented program
// (libaugur in analyze mode) against the same program built without augur, run alternately, with
// medians over repetitions in a rotating order. Goal (issue 2): at most 1% with iterations of at
// least 1 ms.
// Usage: bench_overhead [--size N] [--iterations I] [--repeat R] [--threads P] [--instructions]
// With --instructions it also counts instructions under valgrind's callgrind (repeatable, unlike
// time on a shared machine): the probes' cost per iteration and the fixed cost per run.
// Prints figures; never fails on a time.
#include <algorithm>
#include <cstdio>
#include <exception>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "core/process.hpp"
#include "augur/core/stats.hpp"
#include "core/table.hpp"
#include "bench_arguments.hpp"

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

// Instructions executed by `argv` under callgrind, or 0 when valgrind is missing or fails.
double count_instructions(const std::vector<std::string>& argv, const augur::core::ProcessOptions& options) {
  std::vector<std::string> command = {"valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null"};
  command.insert(command.end(), argv.begin(), argv.end());
  try {
    const auto result = augur::core::run_process(command, options);
    const auto position = result.standard_error.find("Collected : ");
    if (!result.succeeded() || position == std::string::npos) return 0.0;
    return std::atof(result.standard_error.c_str() + position + 12);
  } catch (const std::exception&) {
    return 0.0;
  }
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
  augur::bench::check_arguments(argc, argv,
                                "usage: bench_overhead [--size N] [--iterations I] [--repeat R] [--threads P] [--instructions]\n"
                                "The cost of libaugur on swim",
                                {"--size N", "--iterations I", "--repeat R", "--threads P", "--instructions"}, 0);
  int size = 512;
  int iterations = 400;
  int repeat = 7;
  int threads = 2;
  bool instructions = false;
  for (int index = 1; index < argc; ++index) {
    const std::string argument = argv[index];
    if (argument == "--instructions") {
      instructions = true;
      continue;
    }
    if (index + 1 >= argc) {
      std::fprintf(stderr, "usage: bench_overhead [--size N] [--iterations I] [--repeat R] [--threads P] [--instructions]\n");
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
    // The order rotates with each repetition, so that no variant always runs first.
    for (std::size_t turn = 0; turn < variants.size(); ++turn) {
      Variant& variant = variants[(turn + static_cast<std::size_t>(repetition)) % variants.size()];
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
  if (!instructions) return 0;

  // Instructions: each variant with I and 2I iterations (I = iterations / 10, at least 10); the
  // difference gives the instructions per iteration, the rest is the fixed cost of a run.
  const int short_run = std::max(10, iterations / 10);
  std::printf("\ninstructions under callgrind, swim %d with %d and %d iterations:\n", size, short_run, 2 * short_run);
  augur::core::TextTable counts({"variant", "per iteration", "fixed per run", "extra per iteration", "extra fixed"});
  double plain_per_iteration = 0.0;
  double plain_fixed = 0.0;
  for (std::size_t index = 0; index < variants.size(); ++index) {
    const Variant& variant = variants[index];
    augur::core::ProcessOptions options;
    options.environment = common;
    options.environment.insert(options.environment.end(), variant.environment.begin(), variant.environment.end());
    options.unset = {"AUGUR_REPORT", "AUGUR_SWEEP", "AUGUR_BASELINE_ITERATIONS", "AUGUR_MEASURE_ITERATIONS"};
    const double once = count_instructions({variant.program, std::to_string(size), std::to_string(short_run)}, options);
    const double twice = count_instructions({variant.program, std::to_string(size), std::to_string(2 * short_run)}, options);
    if (once <= 0.0 || twice <= 0.0) {
      std::printf("valgrind is not available or failed: no instruction counts\n");
      return 0;
    }
    const double per_iteration = (twice - once) / short_run;
    const double fixed = once - per_iteration * short_run;
    if (index == 0) {
      plain_per_iteration = per_iteration;
      plain_fixed = fixed;
    }
    counts.add_row({variant.name, augur::core::format_number(per_iteration, 0), augur::core::format_number(fixed, 0),
                    augur::core::format_number(per_iteration - plain_per_iteration, 0),
                    augur::core::format_number(fixed - plain_fixed, 0)});
  }
  std::printf("%s", counts.render().c_str());
  std::printf("extra = the variant minus swim-plain; extra per iteration / per iteration of swim-plain is the probes' share\n");
  return 0;
}
