// The coupling engine on hand-made runs: equations 1-4 of seed 002, reuse, candidates, transitions and
// the measurement file.
#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>

#include "augur/core/diagnostics.hpp"
#include "augur/coupling.hpp"
#include "toy_runs.hpp"

namespace augur::coupling {
namespace {

TEST(Coupling, CyclicChainsWrapAround) {
  EXPECT_EQ(cyclic_chain(2, 3, 4), (std::vector<int>{2, 3, 0}));
  EXPECT_EQ(cyclic_chain(0, 1, 4), (std::vector<int>{0}));
}

TEST(Coupling, ValuesAreChainTimeOverSumOfKernelsAlone) {
  MeasuredRun run = four_kernels(0.8, 0.9);
  run.chains[4].second.seconds = 2.4;  // chain a→b: 2.4 / (1 + 2)
  const auto values = couplings(run, 2);
  ASSERT_EQ(values.size(), 4U);
  EXPECT_EQ(values[0].chain, (std::vector<int>{0, 1}));
  EXPECT_DOUBLE_EQ(values[0].sum_alone, 3.0);
  EXPECT_DOUBLE_EQ(values[0].value, 0.8);
  EXPECT_DOUBLE_EQ(values[3].value, 0.8);  // d→a
  EXPECT_EQ(run.complete_lengths(), (std::vector<int>{2, 3}));
}

TEST(Coupling, SummationIsSumOfInvocationsTimesKernelTimes) {
  MeasuredRun run = four_kernels(1, 1);
  run.kernels[3].calls = 2;  // d twice per iteration
  const Prediction sum = summation(run);
  EXPECT_DOUBLE_EQ(sum.seconds, 10 * (1 + 2 + 3) + 20 * 4.0);
  ASSERT_TRUE(sum.error.has_value());
  EXPECT_NEAR(*sum.error, (140.0 - 90.0) / 90.0, 1e-12);
}

TEST(Coupling, UniformCouplingScalesThePrediction) {
  // Every chain of length 2 has C = 0.9: every α_i = 0.9, T = 0.9 · Σ N_i P_i.
  const MeasuredRun run = four_kernels(0.9, 0.7);
  const Prediction two = predict(run, 2);
  for (const double alpha : two.alpha) EXPECT_NEAR(alpha, 0.9, 1e-12);
  EXPECT_NEAR(two.seconds, 0.9 * 100.0, 1e-9);
  EXPECT_NEAR(*two.error, 0.0, 1e-12);
  EXPECT_NEAR(predict(run, 3).seconds, 70.0, 1e-9);
}

TEST(Coupling, AlphaIsTheTimeWeightedMeanOfTheChainsThroughAKernel) {
  MeasuredRun run = four_kernels(1, 1);
  // Chain a→b (P_W = 3) gets C = 0.5 (P_W = 1.5); the others stay at 1.
  for (auto& [chain, t] : run.chains) {
    if (chain == std::vector<int>{0, 1}) t.seconds = 1.5;
  }
  const Prediction p = predict(run, 2);
  // Q_a = {d→a (P=5, C=1), a→b (P=1.5, C=0.5)}: α_a = (5 + 0.75) / 6.5.
  EXPECT_NEAR(p.alpha[0], 5.75 / 6.5, 1e-12);
  // Q_b = {a→b, b→c (P=5, C=1)}: α_b = (0.75 + 5) / 6.5.
  EXPECT_NEAR(p.alpha[1], 5.75 / 6.5, 1e-12);
  EXPECT_NEAR(p.alpha[2], 1.0, 1e-12);
  EXPECT_NEAR(p.seconds, 10 * (5.75 / 6.5 * 1 + 5.75 / 6.5 * 2 + 3 + 4), 1e-9);
}

TEST(Coupling, MissingChainsAndBadLengthsAreErrors) {
  MeasuredRun run = four_kernels(1, 1);
  EXPECT_THROW((void)couplings(run, 4), std::invalid_argument);
  EXPECT_THROW((void)couplings(run, 1), std::invalid_argument);
  run.chains.pop_back();  // drop one chain of length 3
  EXPECT_EQ(run.complete_lengths(), (std::vector<int>{2}));
  try {
    (void)couplings(run, 3);
    FAIL() << "expected an error";
  } catch (const std::invalid_argument& error) {
    EXPECT_NE(std::string(error.what()).find("d→a→b"), std::string::npos) << error.what();
  }
}

TEST(Isocoupling, ReusingOwnValuesGivesTheOwnPrediction) {
  const MeasuredRun run = four_kernels(0.85, 0.95);
  const Prediction own = predict(run, 3);
  const Prediction reused = predict_reusing(run, couplings(run, 3), 3);
  EXPECT_NEAR(reused.seconds, own.seconds, 1e-9);
  EXPECT_EQ(reused.method, "reuse");
}

TEST(Isocoupling, ReusedValuesApplyToTheTargetsKernelTimes) {
  const MeasuredRun source = four_kernels(0.8, 0.8);
  MeasuredRun target = four_kernels(1.0, 1.0);
  for (int i = 0; i < 4; ++i) target.chains[static_cast<std::size_t>(i)].second.seconds = 2.0 * (i + 1);  // P doubles
  const Prediction reused = predict_reusing(target, couplings(source, 2), 2);
  EXPECT_NEAR(reused.seconds, 0.8 * 10 * 2 * (1 + 2 + 3 + 4), 1e-9);
}

TEST(Isocoupling, NearestSameClassThenProcessorsThenSizePerProcessor) {
  MeasuredRun target = four_kernels(1, 1);
  target.problem_size = 1000;
  target.threads = 2;
  std::vector<MeasuredRun> runs;
  MeasuredRun far = four_kernels(1, 1);
  far.problem_size = 8000;
  far.started = "far";
  MeasuredRun near = four_kernels(1, 1);
  near.problem_size = 1200;
  near.started = "near";
  MeasuredRun other_machine = four_kernels(1, 1);
  other_machine.problem_size = 1000;
  other_machine.machine.cpu_model = "other CPU";
  other_machine.started = "other";
  MeasuredRun per_processor = four_kernels(1, 1);  // 500 points on 1 thread = the target's 1000 on 2
  per_processor.problem_size = 500;
  per_processor.threads = 1;
  per_processor.started = "per processor";
  MeasuredRun no_chains = four_kernels(1, 1);
  no_chains.chains.resize(4);
  no_chains.started = "alone only";
  runs = {far, near, other_machine, per_processor, no_chains, target};
  const auto candidates = reusable_runs(target, runs, 3);
  ASSERT_EQ(candidates.size(), 4U);  // not the target itself, not the one without chains
  // Same class first; then the same processor count; then the closest size per processor.
  EXPECT_EQ(runs[candidates[0].index].started, "near");
  EXPECT_EQ(runs[candidates[1].index].started, "far");
  EXPECT_EQ(runs[candidates[2].index].started, "per processor");
  EXPECT_EQ(runs[candidates[3].index].started, "other");
  EXPECT_FALSE(candidates[3].same_class);
}

TEST(Isocoupling, TransitionsAreFoundWhereValuesJumpAndNamedByCacheLevel) {
  std::vector<MeasuredRun> runs;
  const double couplings_by_size[] = {0.8, 0.81, 1.1, 1.12};
  const double footprints[] = {200e3, 600e3, 3e6, 9e6};  // per 2 threads: 100 KB .. 4.5 MB; L2 = 1 MiB
  for (int i = 0; i < 4; ++i) {
    MeasuredRun run = four_kernels(couplings_by_size[i], couplings_by_size[i]);
    run.problem_size = 1000.0 * (i + 1);
    run.footprint_bytes = footprints[i];
    run.started = std::to_string(i);
    runs.push_back(run);
  }
  std::swap(runs[0], runs[3]);  // order must not matter
  const auto found = transitions(runs, 2, 0.05);
  ASSERT_EQ(found.size(), 1U);
  EXPECT_EQ(runs[found[0].before].started, "1");
  EXPECT_EQ(runs[found[0].after].started, "2");
  EXPECT_NEAR(found[0].mean_change, 0.29, 1e-9);
  EXPECT_EQ(found[0].level, "L2");
}

TEST(Isocoupling, ARunWithoutChainsBetweenTwoSizesDoesNotHideTheirTransition) {
  std::vector<MeasuredRun> runs;
  for (int i = 0; i < 3; ++i) {
    MeasuredRun run = four_kernels(i == 2 ? 1.2 : 0.8, 1.0);
    run.problem_size = 1000.0 * (i + 1);
    run.started = std::to_string(i);
    if (i == 1) run.chains.resize(4);  // kernels alone only
    runs.push_back(run);
  }
  const auto found = transitions(runs, 2, 0.05);
  ASSERT_EQ(found.size(), 1U);
  EXPECT_EQ(found[0].before, 0U);
  EXPECT_EQ(found[0].after, 2U);
}

TEST(Isocoupling, ARepeatOfTheTargetsConfigurationIsNotAReuse) {
  MeasuredRun target = four_kernels(1, 1);
  MeasuredRun repeat = four_kernels(0.9, 0.9);
  repeat.started = "later";
  MeasuredRun other = four_kernels(0.9, 0.9);
  other.problem_size = 2000;
  const std::vector<MeasuredRun> runs = {repeat, other};
  const auto candidates = reusable_runs(target, runs, 2);
  ASSERT_EQ(candidates.size(), 1U);
  EXPECT_EQ(candidates[0].index, 1U);
}

TEST(Coupling, LengthsNeedEveryKernelAloneInSomeTime) {
  MeasuredRun run = four_kernels(1, 1);
  run.chains[2].second.seconds = 0;
  EXPECT_TRUE(run.complete_lengths().empty());
  run.chains.erase(run.chains.begin() + 2);
  EXPECT_TRUE(run.complete_lengths().empty());
}

TEST(MeasurementFile, RoundTrips) {
  MeasuredRun run = four_kernels(0.9, 0.95);
  run.footprint_bytes = 12345;
  run.options["samples"] = "5";
  run.machine.hostname = "host";
  run.started = "2026-11-23T00:00:00Z";
  run.chains[0].second.repetitions = 77;
  const MeasuredRun back = read_run(write_run(run), "x.jsonl");
  EXPECT_EQ(write_run(back), write_run(run));
  EXPECT_EQ(back.chains[0].second.repetitions, 77);
  EXPECT_EQ(back.options.at("samples"), "5");
}

void expect_error(const std::string& text, const std::string& where, const std::string& what) {
  try {
    (void)read_run(text, "m.jsonl");
    FAIL() << "expected an error for " << text;
  } catch (const core::InputError& error) {
    EXPECT_NE(std::string(error.what()).find(where), std::string::npos) << error.what();
    EXPECT_NE(std::string(error.what()).find(what), std::string::npos) << error.what();
  }
}

TEST(MeasurementFile, BadInputIsReportedAtItsPlace) {
  const std::string header =
      R"({"record":"run","format":"augur-coupling","version":1,"application":"t","problem_size":1,"iterations":2,"threads":1})"
      "\n";
  const std::string kernel = R"({"record":"kernel","index":0,"name":"a"})" "\n";
  expect_error("", "m.jsonl", "empty file");
  expect_error(kernel, "m.jsonl:1:", "first record must be the \"run\" record");
  expect_error(R"({"record":"run","format":"other"})" "\n", "m.jsonl:1:", "not an augur coupling measurement file");
  expect_error(header + R"({"record":"kernel","index":1,"name":"a"})", "m.jsonl:2:", "out of order");
  expect_error(header + kernel + R"({"record":"chain","chain":[0,3],"seconds":1})", "m.jsonl:3:", "not declared");
  expect_error(header + kernel + R"({"record":"chain","chain":[0],"seconds":-1})", "m.jsonl:3:", "must not be negative");
  expect_error(header + kernel + R"({"record":"chain","chain":[0],"seconds":1}
{"record":"chain","chain":[0],"seconds":1})",
               "m.jsonl:4:", "measured twice");
  expect_error(header + kernel + R"({"record":"chain","chain":[0],"seconds":1,"ci_low":2})", "m.jsonl:3:",
               "must contain 'seconds'");
  expect_error(header + kernel + R"({"record":"chain","chain":[0],"secs":1})", "m.jsonl:3:", "unknown key 'secs'");
  expect_error(header + kernel + "{\"record\":\"chain\",", "m.jsonl:3:", "invalid JSON");
  expect_error(header + R"({"record":"what"})", "m.jsonl:2:", "unknown record 'what'");
  expect_error(header, "m.jsonl", "no kernel records");
}

}  // namespace
}  // namespace augur::coupling
