// libaugur's coupling harness through its C API, on kernels that do known amounts of work: kernel b is
// cheap right after a (their data "stays in cache"), so the pair a→b couples below 1 and summation predicts
// the whole loop too long. How much better the coupling predictor does is an accuracy figure that needs an
// idle machine: bench_coupling_harness (bench/coupling_harness_accuracy.cpp, docs/benchmarks.md).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <string>

#include "core/files.hpp"
#include "augur/coupling.h"
#include "augur/coupling.hpp"
#include "augur/coupling_app.hpp"

namespace {

// Work in proportion to `units` (a dependent chain of floating-point operations): on a loaded machine
// every kernel slows down alike, where a spin on the clock would not.
void spin(double units) {
  volatile double x = 1.0;
  const auto steps = static_cast<long>(units * 1e9);
  for (long i = 0; i < steps; ++i) x = x * 1.0000001 + 1e-9;
}

struct Toy {
  int last = -1;  // the kernel that ran last
  int resets = 0;
  int setups = 0;
};

// Work units: 1e-6 is a thousand dependent multiply-adds, about a microsecond.
constexpr double kA = 200e-6;
constexpr double kB = 400e-6;
constexpr double kBAfterA = 100e-6;
constexpr double kC = 300e-6;

void kernel_a(void* data) {
  spin(kA);
  static_cast<Toy*>(data)->last = 0;
}
void kernel_b(void* data) {
  auto* toy = static_cast<Toy*>(data);
  spin(toy->last == 0 ? kBAfterA : kB);
  toy->last = 1;
}
void kernel_c(void* data) {
  spin(kC);
  static_cast<Toy*>(data)->last = 2;
}
void setup(void* data) { ++static_cast<Toy*>(data)->setups; }
void reset(void* data) {
  auto* toy = static_cast<Toy*>(data);
  toy->last = -1;
  ++toy->resets;
}

class Harness : public ::testing::Test {
protected:
  void SetUp() override {
    for (const char* name : {"AUGUR_COUPLING_OUTPUT", "AUGUR_COUPLING_MIN_TIME", "AUGUR_COUPLING_SAMPLES",
                             "AUGUR_COUPLING_WARMUP", "AUGUR_COUPLING_CHAINS", "AUGUR_COUPLING_APPLICATION_SAMPLES",
                             "AUGUR_COUPLING_PROGRESS", "AUGUR_TOOL_OPTIONS"}) {
      unsetenv(name);
    }
  }
  augur::core::TemporaryFolder folder{"coupling-harness"};
  std::string output = (folder.path() / "toy.jsonl").string();
};

// What the designed interaction must show; empty when it does, else what went wrong.
std::string check_interaction(const augur::coupling::Run& run) {
  const auto values = augur::coupling::couplings(run, 2);
  const auto sum = augur::coupling::summation(run);
  const auto coupled = augur::coupling::predict(run, 2);
  std::string problems;
  if (!(run.alone(0) < run.alone(1) && run.alone(0) < run.alone(2))) problems += " kernel a is not the cheapest alone;";
  if (!(values[0].value < 0.8)) problems += " a→b couples at " + std::to_string(values[0].value) + ", not ~0.5;";
  if (!(values[2].value > values[0].value + 0.2)) problems += " c→a couples as much as a→b;";
  if (!(std::abs(*sum.error) > 0.15)) problems += " summation error " + std::to_string(*sum.error) + ", not ~+50%;";
  if (!coupled.error.has_value()) problems += " no error for the coupling predictor though the loop was measured;";
  return problems;
}

TEST_F(Harness, MeasuresKernelsChainsAndLoopAndTheDesignedCoupling) {
  // Timing-dependent: up to 3 attempts, for a machine busy with other work (each takes ~0.4 s).
  std::string problems;
  for (int attempt = 0; attempt < 3; ++attempt) {
    Toy toy;
    augur_coupling_app* app = augur_coupling_create("toy", 50);
    ASSERT_NE(app, nullptr);
    EXPECT_EQ(augur_coupling_add_kernel(app, "a", kernel_a, &toy, 1), 0);
    EXPECT_EQ(augur_coupling_add_kernel(app, "b", kernel_b, &toy, 1), 1);
    EXPECT_EQ(augur_coupling_add_kernel(app, "c", kernel_c, &toy, 1), 2);
    EXPECT_EQ(augur_coupling_set_hooks(app, setup, reset, &toy), AUGUR_OK);
    EXPECT_EQ(augur_coupling_set_problem(app, "tiny", 64, 4096), AUGUR_OK);
    EXPECT_EQ(augur_coupling_set_option(app, "output", output.c_str()), AUGUR_OK);
    EXPECT_EQ(augur_coupling_set_option(app, "min_time", "0.01"), AUGUR_OK);
    EXPECT_EQ(augur_coupling_set_option(app, "samples", "5"), AUGUR_OK);
    ASSERT_EQ(augur_coupling_measure(app), AUGUR_OK);
    augur_coupling_destroy(app);
    EXPECT_EQ(toy.setups, 1);
    EXPECT_GE(toy.resets, 5 * 6 + 3);  // before every sample of 3 kernels + 3 pairs, and every loop run

    const auto run = augur::coupling::read_run(augur::core::read_file(output), output);
    EXPECT_EQ(run.application, "toy");
    EXPECT_EQ(run.dataset, "tiny");
    EXPECT_EQ(run.iterations, 50);
    EXPECT_DOUBLE_EQ(run.footprint_bytes, 4096);
    EXPECT_GE(run.threads, 1);
    EXPECT_FALSE(run.machine.cpu_model.empty());
    EXPECT_GT(run.machine.cores, 0);
    ASSERT_EQ(run.kernels.size(), 3U);
    EXPECT_EQ(run.chains.size(), 3U + 3U);  // alone, and the 3 chains of length 2 (n − 1 = 2)
    EXPECT_EQ(run.complete_lengths(), (std::vector<int>{2}));
    EXPECT_EQ(run.find({0})->samples.size(), 5U);
    EXPECT_GE(run.find({0})->repetitions, 1);
    ASSERT_TRUE(run.loop.has_value());
    problems = check_interaction(run);
    if (problems.empty()) return;
  }
  ADD_FAILURE() << "in 3 attempts, the last:" << problems;
}

// The rule of every augur option (docs/self-analysis.md, "Options"): default < environment < the
// program's (augur_coupling_set_option) < the tool channel (AUGUR_TOOL_OPTIONS, as augur couple sets it).
TEST_F(Harness, ProgramOutranksTheEnvironmentAndTheToolChannelOutranksBoth) {
  Toy toy;
  augur::CouplingApplication app("toy", 5);
  ASSERT_TRUE(app.valid());
  app.kernel("a", [&] { kernel_a(&toy); });
  app.kernel("b", [&] { kernel_b(&toy); });
  app.kernel("c", [&] { kernel_c(&toy); }, 2);
  app.hooks(nullptr, [&] { toy.last = -1; });
  ASSERT_TRUE(app.problem("", 1, 0));
  ASSERT_TRUE(app.option("output", "/nonexistent/never.jsonl"));  // the tool channel's wins
  ASSERT_TRUE(app.option("chains", "none"));                      // wins over the environment's
  ASSERT_TRUE(app.option("samples", "4"));                        // the tool channel's wins
  setenv("AUGUR_COUPLING_CHAINS", "all", 1);
  setenv("AUGUR_COUPLING_MIN_TIME", "0.002", 1);  // set by nobody else: applies
  setenv("AUGUR_COUPLING_WARMUP", "bad", 1);      // warned, the default kept
  const std::string tool = "coupling.output=" + output + ";coupling.samples=3";  // (no ';' or '\\' in the path)
  setenv("AUGUR_TOOL_OPTIONS", tool.c_str(), 1);
  ASSERT_TRUE(app.measure());
  const auto run = augur::coupling::read_run(augur::core::read_file(output), output);
  EXPECT_EQ(run.chains.size(), 3U);  // kernels alone only: the program's chains=none
  EXPECT_EQ(run.options.at("chains"), "none");
  EXPECT_EQ(run.options.at("samples"), "3");
  EXPECT_EQ(run.find({0})->samples.size(), 3U);
  EXPECT_EQ(run.options.at("min_time"), "0.002");
  EXPECT_EQ(run.options.at("warmup"), "1");  // the default
  EXPECT_EQ(run.invocations(2), 10);
}

TEST_F(Harness, MisuseIsRefusedWithoutAborting) {
  EXPECT_EQ(augur_coupling_create("", 5), nullptr);
  EXPECT_EQ(augur_coupling_create("x", 0), nullptr);
  EXPECT_EQ(augur_coupling_add_kernel(nullptr, "a", kernel_a, nullptr, 1), AUGUR_ERROR);
  EXPECT_EQ(augur_coupling_measure(nullptr), AUGUR_ERROR);
  augur_coupling_app* app = augur_coupling_create("x", 1);
  Toy toy;
  EXPECT_EQ(augur_coupling_add_kernel(app, "a", nullptr, &toy, 1), AUGUR_ERROR);
  EXPECT_EQ(augur_coupling_add_kernel(app, "a", kernel_a, &toy, 0), AUGUR_ERROR);
  EXPECT_EQ(augur_coupling_add_kernel(app, "a", kernel_a, &toy, 1), 0);
  EXPECT_EQ(augur_coupling_add_kernel(app, "a", kernel_a, &toy, 1), AUGUR_ERROR);  // twice
  EXPECT_EQ(augur_coupling_set_option(app, "samples", "0"), AUGUR_ERROR);
  EXPECT_EQ(augur_coupling_set_option(app, "chains", "2-x"), AUGUR_ERROR);
  EXPECT_EQ(augur_coupling_set_option(app, "colour", "red"), AUGUR_ERROR);
  EXPECT_EQ(augur_coupling_set_problem(app, "W", -1, 0), AUGUR_ERROR);
  EXPECT_EQ(augur_coupling_set_option(app, "samples", "1e2"), AUGUR_ERROR);  // no exponents
  EXPECT_EQ(augur_coupling_set_option(app, "samples", "0x10"), AUGUR_ERROR);
  EXPECT_EQ(augur_coupling_set_option(app, "min_time", "1e300"), AUGUR_ERROR);
  // An output that cannot be written: an error, and the measurements kept in $TMPDIR.
  const std::string previous_tmpdir = std::getenv("TMPDIR") != nullptr ? std::getenv("TMPDIR") : "";
  setenv("TMPDIR", folder.path().c_str(), 1);
  EXPECT_EQ(augur_coupling_set_option(app, "output", (output + "/sub/x.jsonl").c_str()), AUGUR_OK);
  EXPECT_EQ(augur_coupling_set_option(app, "min_time", "0.001"), AUGUR_OK);
  EXPECT_EQ(augur_coupling_measure(app), AUGUR_ERROR);
  if (previous_tmpdir.empty()) {
    unsetenv("TMPDIR");
  } else {
    setenv("TMPDIR", previous_tmpdir.c_str(), 1);
  }
  EXPECT_FALSE(std::filesystem::exists(output));
  int kept = 0;
  for (const auto& entry : std::filesystem::directory_iterator(folder.path())) {
    if (entry.path().filename().string().rfind("x-", 0) == 0) ++kept;
  }
  EXPECT_EQ(kept, 1) << "the measurements kept as $TMPDIR/x-PID.coupling.jsonl";
  augur_coupling_destroy(app);
  augur_coupling_destroy(nullptr);
}

}  // namespace

// Issue 15, item 12: a kernel, application or dataset name that is not UTF-8 (here Latin-1 bytes) once made
// the measurement file unwritable after the whole measurement ran (nlohmann's type_error.316), and
// augur_coupling_measure returned AUGUR_ERROR with the work lost. The file is written with U+FFFD in place
// of each invalid byte, and reads back.
TEST_F(Harness, NamesThatAreNotUtf8AreWrittenWithReplacementCharacters) {
  Toy toy;
  augur_coupling_app* app = augur_coupling_create("caf\xe9", 2);
  ASSERT_NE(app, nullptr);
  EXPECT_EQ(augur_coupling_add_kernel(app, "na\xefve", kernel_a, &toy, 1), 0);
  EXPECT_EQ(augur_coupling_add_kernel(app, "b", kernel_b, &toy, 1), 1);
  EXPECT_EQ(augur_coupling_set_problem(app, "gro\xdf", 64, 0), AUGUR_OK);
  EXPECT_EQ(augur_coupling_set_option(app, "output", output.c_str()), AUGUR_OK);
  EXPECT_EQ(augur_coupling_set_option(app, "min_time", "0.001"), AUGUR_OK);
  EXPECT_EQ(augur_coupling_set_option(app, "samples", "3"), AUGUR_OK);
  EXPECT_EQ(augur_coupling_set_option(app, "application_samples", "1"), AUGUR_OK);
  ASSERT_EQ(augur_coupling_measure(app), AUGUR_OK);
  augur_coupling_destroy(app);
  const auto run = augur::coupling::read_run(augur::core::read_file(output), output);
  const std::string replacement = "\xef\xbf\xbd";  // U+FFFD in UTF-8
  EXPECT_EQ(run.application, "caf" + replacement);
  EXPECT_EQ(run.dataset, "gro" + replacement);
  ASSERT_EQ(run.kernels.size(), 2U);
  EXPECT_EQ(run.kernels[0].name, "na" + replacement + "ve");
  EXPECT_TRUE(run.loop.has_value());
}
