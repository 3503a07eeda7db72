// How close `augur run`'s S(2) on an unmodified swim comes to the statically instrumented swim's S(2) and to
// the traditional speedup T(1)/T(2) of plain runs (issue 6, section 5: "within 20%"), and its fraction of
// sequential code f against the static build's. This was a test until issue 14: on a shared 2-core machine
// it needs an idle machine, so it is a benchmark that prints figures (docs/benchmarks.md).
//
// A set is four runs next to each other of swim SIZE ITERATIONS: `augur run -p 2 --baseline 1
// --baseline-iterations B` on the unmodified binary; the instrumented swim (gcc: libaugur links libgomp) with
// OMP_NUM_THREADS=2 AUGUR_BASELINE=1 AUGUR_BASELINE_ITERATIONS=B; the unmodified binary alone on 1 and on 2
// threads, its own `time_s` (the time loop) giving T(1)/T(2). A round is SETS interleaved sets; each round's
// medians are printed, then the medians over every set. The programs: gcc's swim-plain under
// libaugur_preload and, when it was built, clang's swim-clang under the OMPT tool.
//
// Usage: bench_run_accuracy [--rounds R] [--sets S] [--size N] [--iterations I] [--baseline-iterations B]
// Prints figures; never fails on a time (exit 1 only when a run fails).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "core/files.hpp"
#include "core/process.hpp"
#include "support/self_analysis_runs.hpp"
#include "bench_arguments.hpp"

namespace {

using augur::core::ProcessOptions;
using augur::core::ProcessResult;
using nlohmann::json;

struct Settings {
  int rounds = 3;
  int sets = 5;
  std::string size = "256";
  std::string iterations = "300";  // the detector needs 43 time steps, then 1 warm-up, B baseline, ~200 on 2
  std::string baseline_iterations = "50";
};

// The figures of one set of four runs.
struct Set {
  double dynamic_speedup = 0.0;
  double static_speedup = 0.0;
  double traditional_speedup = 0.0;
  double one_thread = 0.0;
  double two_threads = 0.0;
  double dynamic_f = 0.0;
  double static_f = 0.0;
  int period = 0;
};

void require_success(const ProcessResult& result, const std::string& what) {
  if (!result.succeeded()) {
    throw std::runtime_error(what + " " + result.describe_status() + "\n" + result.standard_output + result.standard_error);
  }
}

using augur::test::clean_environment;
using augur::test::main_region;
using augur::test::speedup_at;

// The time of swim's time loop (its own `time_s=`) in a plain run on `threads` threads.
double loop_time(const std::string& program, const Settings& settings, const char* threads) {
  ProcessOptions options = clean_environment();
  options.environment.emplace_back("OMP_NUM_THREADS", threads);
  const ProcessResult result = augur::core::run_process({program, settings.size, settings.iterations}, options);
  require_success(result, program);
  const std::size_t at = result.standard_output.find("time_s=");
  if (at == std::string::npos) throw std::runtime_error(program + " printed no time_s=");
  return std::strtod(result.standard_output.c_str() + at + 7, nullptr);
}

Set measure_set(const std::string& program, const Settings& settings, const augur::core::TemporaryFolder& scratch) {
  Set set;
  const std::string dynamic_report = (scratch.path() / "dynamic.json").string();
  const ProcessResult dynamic = augur::core::run_process(
      {AUGUR_EXE, "run", "-p", "2", "--baseline", "1", "--baseline-iterations", settings.baseline_iterations, "--json=" + dynamic_report,
        "--", program, settings.size, settings.iterations},
      clean_environment());
  require_success(dynamic, "augur run");
  const json dynamic_region = main_region(json::parse(augur::core::read_file(dynamic_report)));
  set.period = dynamic_region.at("length").get<int>();
  set.dynamic_speedup = speedup_at(dynamic_region, 2);
  set.dynamic_f = dynamic_region.value("f", std::nan(""));

  const std::string static_report = (scratch.path() / "static.json").string();
  ProcessOptions options = clean_environment();
  options.environment.insert(options.environment.end(), {{"OMP_NUM_THREADS", "2"},
                                                         {"AUGUR_BASELINE", "1"},
                                                         {"AUGUR_BASELINE_ITERATIONS", settings.baseline_iterations},
                                                         {"AUGUR_SUMMARY", "0"},
                                                         {"AUGUR_REPORT", static_report}});
  require_success(augur::core::run_process({AUGUR_SWIM_EXE, settings.size, settings.iterations}, options), "swim");
  const json static_region = main_region(json::parse(augur::core::read_file(static_report)));
  set.static_speedup = speedup_at(static_region, 2);
  set.static_f = static_region.value("f", std::nan(""));

  set.one_thread = loop_time(program, settings, "1");
  set.two_threads = loop_time(program, settings, "2");
  set.traditional_speedup = set.two_threads > 0.0 ? set.one_thread / set.two_threads : std::nan("");
  return set;
}

double median(std::vector<double> values) {
  if (values.empty()) return std::nan("");
  std::sort(values.begin(), values.end());
  const std::size_t middle = values.size() / 2;
  return values.size() % 2 == 1 ? values[middle] : (values[middle - 1] + values[middle]) / 2.0;
}

template <class Field>
double median_of(const std::vector<Set>& sets, Field field) {
  std::vector<double> values;
  for (const Set& set : sets) values.push_back(set.*field);
  return median(values);
}

// "+12%": how far `value` lies from `reference`, relative to it.
std::string gap(double value, double reference) {
  char text[32];
  std::snprintf(text, sizeof text, "%+.0f%%", 100.0 * (value / reference - 1.0));
  return text;
}

void print_medians(const char* label, const std::string& what, const std::vector<Set>& sets) {
  const double dynamic = median_of(sets, &Set::dynamic_speedup);
  const double statically = median_of(sets, &Set::static_speedup);
  const double traditional = median_of(sets, &Set::traditional_speedup);
  int periods_of_three = 0;
  for (const Set& set : sets) periods_of_three += set.period == 3 ? 1 : 0;
  std::printf("%-17s %-9s %7.3f %7.3f %11.3f %9s %12s %8.4f %8.4f %8.4f %8.4f %6d/%zu\n", label, what.c_str(), dynamic,
              statically, traditional, gap(dynamic, statically).c_str(), gap(dynamic, traditional).c_str(),
              median_of(sets, &Set::one_thread), median_of(sets, &Set::two_threads), median_of(sets, &Set::dynamic_f),
              median_of(sets, &Set::static_f), periods_of_three, sets.size());
}

void measure(const char* label, const std::string& program, const Settings& settings) {
  const augur::core::TemporaryFolder scratch("augur-bench-run");
  std::vector<Set> every_set;
  for (int round = 1; round <= settings.rounds; ++round) {
    std::vector<Set> sets;
    for (int index = 0; index < settings.sets; ++index) sets.push_back(measure_set(program, settings, scratch));
    print_medians(label, "round " + std::to_string(round), sets);
    std::fflush(stdout);
    every_set.insert(every_set.end(), sets.begin(), sets.end());
  }
  print_medians(label, "all", every_set);
}

int parse(const char* value, const char* name) {
  char* end = nullptr;
  const long parsed = std::strtol(value, &end, 10);
  if (*end != '\0' || parsed < 1 || parsed > 100000) {
    std::fprintf(stderr, "bench_run_accuracy: %s must be a positive integer, got '%s'\n", name, value);
    std::exit(2);
  }
  return static_cast<int>(parsed);
}

}  // namespace

int main(int argc, char** argv) {
  augur::bench::check_arguments(argc, argv,
                                "usage: bench_run_accuracy [--rounds R] [--sets S] [--size N] [--iterations I] [--baseline-iterations B]\n"
                                "The speedups of augur run against runs on P threads",
                                {"--rounds R", "--sets S", "--size N", "--iterations I", "--baseline-iterations B"}, 0);
  Settings settings;
  for (int index = 1; index < argc; ++index) {
    const std::string option = argv[index];
    if (index + 1 >= argc) {
      std::fprintf(stderr, "bench_run_accuracy: %s needs a value (or unknown option)\n", option.c_str());
      return 2;
    }
    const char* value = argv[++index];
    if (option == "--rounds") {
      settings.rounds = parse(value, "--rounds");
    } else if (option == "--sets") {
      settings.sets = parse(value, "--sets");
    } else if (option == "--size") {
      settings.size = std::to_string(parse(value, "--size"));
    } else if (option == "--iterations") {
      settings.iterations = std::to_string(parse(value, "--iterations"));
    } else if (option == "--baseline-iterations") {
      settings.baseline_iterations = std::to_string(parse(value, "--baseline-iterations"));
    } else {
      std::fprintf(stderr, "bench_run_accuracy: unknown option '%s'\n", option.c_str());
      return 2;
    }
  }
  std::printf("swim %s %s, augur run -p 2 --baseline 1 --baseline-iterations %s; medians of %d interleaved sets a round\n",
              settings.size.c_str(), settings.iterations.c_str(), settings.baseline_iterations.c_str(), settings.sets);
  std::printf("%-17s %-9s %7s %7s %11s %9s %12s %8s %8s %8s %8s %8s\n", "program", "", "S(2)run", "static", "T(1)/T(2)",
              "vs static", "vs T(1)/T(2)", "T(1) s", "T(2) s", "f run", "f static", "period 3");
  try {
    measure("gcc swim-plain", AUGUR_SWIM_PLAIN_EXE, settings);
#ifdef AUGUR_SWIM_CLANG_EXE
    measure("clang swim-clang", AUGUR_SWIM_CLANG_EXE, settings);
#else
    std::printf("clang swim-clang: not built (clang -fopenmp with libomp-dev, or libaugur_ompt, not found)\n");
#endif
  } catch (const std::exception& error) {
    std::fprintf(stderr, "bench_run_accuracy: %s\n", error.what());
    return 1;
  }
  return 0;
}
