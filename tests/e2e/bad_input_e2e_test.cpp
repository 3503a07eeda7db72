// Bad input against the real binary: each test is the smallest reproducer of one finding of the attack on
// every command (a value accepted that should not be, a run without end, memory out of proportion to the
// input, a message of megabytes), with the exit status and message the contract asks for (docs/developing.md).
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <string>
#include <tuple>
#include <vector>

#include "e2e_support.hpp"

namespace {

using augur::e2e::Arguments;
using augur::e2e::contains;
using augur::e2e::describe;
using augur::e2e::examples_of;
using augur::e2e::run_command;

// The seconds a command took; a finding "without end" has to end in well under the ten seconds of the rule.
template <typename Run>
double seconds_of(Run run) {
  const auto start = std::chrono::steady_clock::now();
  run();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// CLI11's ranges let nan through (every comparison with nan is false) and print the limits of double for inf:
// every floating-point option refuses both as a usage error naming the option.
TEST(BadInput, FloatingOptionsRefuseNanAndInf) {
  const std::string cache = examples_of("cache");
  const std::string model = examples_of("model") + "fft_t3e.csv";
  const std::vector<std::pair<std::string, Arguments>> commands = {
      {"gen-tasks", {"--use", "VALUE"}},
      {"gen-tasks", {"--demand-min", "VALUE"}},
      {"cache", {"curve", cache + "small.din", "--method", "statstack", "--sample", "VALUE"}},
      {"cache", {"predict", cache + "models/ab_loop.model", "--cache", "l1:size=1K,assoc=2,line=64", "--sample-rate", "VALUE"}},
      {"predict", {model, "--formula", "c[0]/P", "--at", "N=1,P=2", "--confidence", "VALUE"}},
      {"plot", {model, "--formula", "c[0]/P", "--extend", "VALUE", "-o", "never.svg"}},
      {"couple", {"transitions", examples_of("sp") + "sp-16.coupling.jsonl", "--threshold", "VALUE"}},
      {"manager", {"simulate", examples_of("manager") + "thesis.workload", "--quantum", "VALUE"}},
  };
  for (const char* value : {"nan", "inf", "-inf"}) {
    for (auto [command, arguments] : commands) {
      for (std::string& argument : arguments) {
        if (argument == "VALUE") argument = value;
      }
      const auto result = run_command(command, arguments);
      EXPECT_EQ(result.exit_code, 2) << command << " " << value << "\n" << describe(result);
      EXPECT_TRUE(contains(result.standard_error, std::string("expected a finite number, found '") + value + "'"))
          << command << "\n" << describe(result);
      EXPECT_LT(result.standard_error.size(), 400U) << describe(result);
      EXPECT_TRUE(result.standard_output.empty()) << describe(result);
    }
  }
}

// CLI11 2.1 reads integers with strtoull/strtoll, which saturate past 64 bits and (strtoull) take a minus sign:
// `--seed 18446744073709551616` (2^64) and `--seed -1` ran with the seed 2^64 - 1. Every integer option of
// 64 bits refuses them as a usage error naming the option; 2^64 - 1 itself is a seed.
TEST(BadInput, IntegerOptionsRefuseValuesPast64Bits) {
  const std::string workload = examples_of("manager") + "thesis.workload";
  const std::string unsigned_range = "expected an integer from 0 to 18446744073709551615, found '";
  const std::string signed_range = "expected an integer from -9223372036854775808 to 9223372036854775807, found '";
  const std::vector<std::tuple<std::string, Arguments, std::string>> commands = {
      {"manager", {"simulate", workload, "--seed", "18446744073709551616"}, "--seed: " + unsigned_range},
      {"manager", {"simulate", workload, "--seed", "-1"}, "--seed: " + unsigned_range},
      {"sim", {examples_of("tspp") + "figure11.tspp", "--seed", "99999999999999999999999"}, "--seed: " + unsigned_range},
      {"gen-tasks", {"--seed", "-18446744073709551615"}, "--seed: " + unsigned_range},
      {"hierarchy", {"generate", "--seed", "36893488147419103232"}, "--seed: " + unsigned_range},
      {"couple", {"report", "--run", "9223372036854775808"}, "--run: " + signed_range},
      {"couple", {"predict", "--target-run", "-9223372036854775809"}, "--target-run: " + signed_range},
  };
  for (const auto& [command, arguments, message] : commands) {
    const auto result = run_command(command, arguments);
    EXPECT_EQ(result.exit_code, 2) << command << " " << arguments.back() << "\n" << describe(result);
    EXPECT_TRUE(contains(result.standard_error, message + arguments.back() + "'")) << command << "\n" << describe(result);
    EXPECT_TRUE(result.standard_output.empty()) << describe(result);
  }
  const auto largest = run_command("manager", {"simulate", workload, "--seed", "18446744073709551615", "--json"});
  EXPECT_EQ(largest.exit_code, 0) << describe(largest);
}

// `gen-tasks --tasks 1000000 --resources 10000` would have written about 97 GB (to a file, a temporary one
// beside it first): the size is estimated from the options before anything is written, and a system larger
// than --max-size (4G, 4e9 bytes) is refused, naming the options and the size; nothing is written.
TEST(BadInput, GenTasksRefusesASystemLargerThanItsMaximumSize) {
  augur::e2e::TemporaryDirectory directory;
  const std::string output = directory.file("huge.tspp");
  augur::core::ProcessResult result;
  const double took = seconds_of([&] { result = run_command("gen-tasks", {"--tasks", "1000000", "--resources", "10000", "-o", output}); });
  EXPECT_EQ(result.exit_code, 1) << describe(result);
  EXPECT_TRUE(contains(result.standard_error, "--tasks 1000000 --resources 10000 --use 0.7 would write about 97")) << describe(result);
  EXPECT_TRUE(contains(result.standard_error, "GB, more than --max-size (4.0 GB)")) << describe(result);
  EXPECT_FALSE(std::filesystem::exists(output));
  EXPECT_TRUE(std::filesystem::is_empty(directory.path())) << "no temporary file left";
  EXPECT_LT(took, 5.0);
}

// The estimate behind --max-size is within 15% of what is written: a bound 15% below the real size refuses
// the system, one 15% above lets it through (deep and flat structures, few and many demands, long demands).
TEST(BadInput, GenTasksSizeEstimateIsWithinFifteenPercent) {
  const std::vector<Arguments> systems = {{"--tasks", "1000"},
                                          {"--tasks", "1000", "--depth", "1000"},
                                          {"--tasks", "1000", "--depth", "1"},
                                          {"--tasks", "100", "--resources", "100", "--use", "0.1"},
                                          {"--tasks", "200", "--resources", "50", "--demand-max", "1e12"},
                                          {"--tasks", "3000", "--resources", "30", "--use", "1", "--depth", "10"}};
  for (const Arguments& system : systems) {
    const auto written = run_command("gen-tasks", system);
    ASSERT_EQ(written.exit_code, 0) << describe(written);
    const double size = static_cast<double>(written.standard_output.size());
    Arguments below = system;
    below.insert(below.end(), {"--max-size", std::to_string(static_cast<long>(0.85 * size))});
    Arguments above = system;
    above.insert(above.end(), {"--max-size", std::to_string(static_cast<long>(1.15 * size))});
    const auto refused = run_command("gen-tasks", below);
    EXPECT_EQ(refused.exit_code, 1) << size << " bytes\n" << describe(refused);
    EXPECT_TRUE(refused.standard_output.empty());
    const auto accepted = run_command("gen-tasks", above);
    EXPECT_EQ(accepted.exit_code, 0) << size << " bytes\n" << describe(accepted);
    EXPECT_EQ(accepted.standard_output, written.standard_output);
  }
}

// A word of two megabytes in an input: the message names the place and cuts the word (it was echoed whole).
TEST(BadInput, AVeryLongWordIsNotEchoedWhole) {
  augur::e2e::TemporaryDirectory directory;
  const std::string word(2000000, 'a');
  const std::string file = (directory.path() / "long.workload").string();
  augur::e2e::write_text(file, "job x work=1 amdahl=0\n" + word + "\n");
  const auto result = run_command("manager", {"simulate", file});
  EXPECT_EQ(result.exit_code, 1) << describe(result);
  EXPECT_EQ(result.standard_error, file + ":2:1: expected 'job', found '" + std::string(60, 'a') + "...' (2000000 bytes)\n");
  const std::string tasks = (directory.path() / "long.tspp").string();
  augur::e2e::write_text(tasks, word);
  const auto tspp = run_command("tspp", {tasks});
  EXPECT_EQ(tspp.exit_code, 1) << describe(tspp);
  EXPECT_TRUE(contains(tspp.standard_error, tasks + ":1:1: ")) << describe(tspp);
  EXPECT_LT(tspp.standard_error.size(), 400U) << tspp.standard_error.substr(0, 400);
}

// hesrpt-plan and shortest-first with a minimum gain no first processor reaches (S(1) - S(0) = 1) gave
// nobody a processor, for a million quanta (15 s of CPU) before an error. A first processor is given whatever
// the gain: two jobs of S(P) = P on two processors run one processor each, finishing at their work, 10 and 20.
TEST(BadInput, AMinimumGainAboveOneStillRunsEveryJob) {
  augur::e2e::TemporaryDirectory directory;
  const std::string file = (directory.path() / "two.workload").string();
  augur::e2e::write_text(file, "job a work=10 amdahl=0\njob b work=20 amdahl=0\n");
  for (const char* policy : {"hesrpt-plan", "shortest-first"}) {
    augur::core::ProcessResult result;
    const double seconds = seconds_of([&] {
      result = run_command("manager", {"simulate", file, "--cpus", "2", "--policy", policy, "--minimum-gain", "100", "--csv"});
    });
    ASSERT_EQ(result.exit_code, 0) << policy << "\n" << describe(result);
    EXPECT_LT(seconds, 5.0) << policy;
    // job,arrival,start,finish,response_time,work,processor_seconds: one processor each all along.
    EXPECT_TRUE(contains(result.standard_output, "\na,0.000000,0.000000,10.000000,10.000000,10.000000,10.000000,"))
        << policy << "\n" << result.standard_output;
    EXPECT_TRUE(contains(result.standard_output, "\nb,0.000000,0.000000,20.000000,20.000000,20.000000,20.000000,"))
        << policy << "\n" << result.standard_output;
  }
}

// The transient method's work grows with -V (visits x stages x resources phases per task, over the grid):
// -V 1000000, in the option's range, ran for hours on Figure 11. It refuses past 5e7 phase-bins at once; the
// hybrid method answers there by its interpolation in 1/sqrt(V) (the chains of 1 to 3 visits, small, and the
// network limit), before it would fall back on the transient method.
TEST(BadInput, TheTransientMethodRefusesMoreWorkThanItsBudget) {
  const std::string figure11 = examples_of("tspp") + "figure11.tspp";
  augur::core::ProcessResult result;
  double seconds = seconds_of([&] { result = run_command("tspp", {figure11, "--method", "transient", "-V", "1000000"}); });
  EXPECT_EQ(result.exit_code, 1) << describe(result);
  // 6 tasks x 3 resources x 10^6 visits x 1000 bins.
  EXPECT_TRUE(contains(result.standard_error, "at most 5e7 phases x time bins (this system's tasks have 1.8e+10")) << describe(result);
  EXPECT_TRUE(result.standard_output.empty());
  EXPECT_LT(seconds, 5.0);
  seconds = seconds_of([&] { result = run_command("tspp", {figure11, "--method", "hybrid", "-V", "1000000", "--json"}); });
  EXPECT_EQ(result.exit_code, 0) << describe(result);
  EXPECT_TRUE(contains(result.standard_output, "\"interpolation\"")) << result.standard_output;
  EXPECT_LT(seconds, 5.0);
}

// A cache of 2^30 lines allocated some 50 GB for a trace of 19 accesses; at most 2^24 lines now.
TEST(BadInput, ACacheOfMoreLinesThanTheLimitIsRefused) {
  const auto result = run_command("cache", {"sim", examples_of("cache") + "small.din", "--cache", "l1:size=1G,assoc=full,line=1"});
  EXPECT_EQ(result.exit_code, 1) << describe(result);
  EXPECT_EQ(result.standard_error, "--cache: cache 'l1': 1073741824 lines: at most 2^24 (16777216) are simulated (memory)\n");
  const auto largest = run_command("cache", {"sim", examples_of("cache") + "small.din", "--cache", "l1:size=1M,assoc=full,line=1"});
  EXPECT_EQ(largest.exit_code, 0) << describe(largest);
}

}  // namespace

namespace {

// A ring of 65536 sites (then allowed) kept the route of each of its 2^32 pairs: some 20 GB for a program of
// five players; at most 4096 sites now (a ring of 4096: 84 MB, 0.2 s).
TEST(BadInput, AMachineOfMoreSitesThanTheLimitIsRefused) {
  augur::e2e::TemporaryDirectory directory;
  const std::string shift = examples_of("actors") + "shift.actors";
  const std::vector<std::pair<std::string, std::string>> machines = {
      {"topology ring 65536\n", ":1:15: more than 4096 sites (the route of every pair is kept)"},
      {"topology mesh 256 256\n", ":1:15: more than 4096 sites (the route of every pair is kept)"},
      {"topology hypercube 16\n", ":1:20: expected a whole number from 0 to 12, found '16'"},
  };
  for (const auto& [text, message] : machines) {
    const std::string file = (directory.path() / "big.machine").string();
    augur::e2e::write_text(file, text);
    const auto result = run_command("actors", {"simulate", shift, "--machine", file});
    EXPECT_EQ(result.exit_code, 1) << text << describe(result);
    EXPECT_EQ(result.standard_error, file + message + "\n") << text;
  }
}

// Latencies of 1e308 overflowed the clock: "Execution time inf" and exit 0. Now an error, nothing printed.
TEST(BadInput, AnExecutionTimeThatOverflowsIsAnError) {
  augur::e2e::TemporaryDirectory directory;
  const std::string file = (directory.path() / "slow.machine").string();
  augur::e2e::write_text(file, "topology ring 5\nlatency 1e308\nswitching wormhole\n");
  const auto result = run_command("actors", {"simulate", examples_of("actors") + "shift.actors", "--machine", file});
  EXPECT_EQ(result.exit_code, 1) << describe(result);
  EXPECT_TRUE(contains(result.standard_error, "the execution time is not finite")) << describe(result);
  EXPECT_TRUE(result.standard_output.empty()) << result.standard_output;
}

}  // namespace

namespace {

// A measurement of 1e308 overflowed every hypothesis' leave-one-out score to nan; no hypothesis was within
// one standard error of the best, and the search read the first of none: a segmentation fault in fit,
// predict and plot. A score that is not finite ranks nothing now.
TEST(BadInput, AMeasurementNearTheLargestDoubleDoesNotCrashTheSearch) {
  augur::e2e::TemporaryDirectory directory;
  const std::string file = (directory.path() / "huge.csv").string();
  augur::e2e::write_text(file, "P,time\n1,1e308\n2,1\n3,1\n");
  for (const Arguments& arguments : {Arguments{file}, Arguments{file, "--json"}}) {
    const auto result = run_command("fit", arguments);
    EXPECT_EQ(result.signal, 0) << describe(result);
    EXPECT_EQ(result.exit_code, 0) << describe(result);
  }
  const auto predicted = run_command("predict", {file, "--at", "P=4"});
  EXPECT_EQ(predicted.signal, 0) << describe(predicted);
  EXPECT_EQ(predicted.exit_code, 0) << describe(predicted);
}

}  // namespace
