// What augur couple computes from runs (src/coupling/analysis.hpp), on hand-made runs with known
// coupling values: chain lengths, noise, the analysis of a run, mean errors, isocoupling of a target and
// of every run, and the coupling values along problem size.
#include "coupling/analysis.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>

#include "toy_runs.hpp"

namespace augur::coupling {
namespace {

TEST(CouplingAnalysis, TheDefaultLengthIsTheLongestCompleteOne) {
  MeasuredRun run = four_kernels(1, 1);
  EXPECT_EQ(longest_length(run), 3);
  EXPECT_EQ(chosen_length(run, std::nullopt), 3);
  EXPECT_EQ(chosen_length(run, 2), 2);
  EXPECT_EQ(chosen_length(run, 4), 0);  // asked for, but not measured: none
  run.chains.pop_back();                // one chain of length 3 missing
  EXPECT_EQ(longest_length(run), 2);
  EXPECT_EQ(chosen_length(run, 3), 0);
  run.chains.resize(4);  // kernels alone only
  EXPECT_EQ(longest_length(run), 0);
  EXPECT_EQ(chosen_length(run, std::nullopt), 0);
}

TEST(CouplingAnalysis, TheWidestIntervalIsRelativeToItsMedianAndNamed) {
  MeasuredRun run = four_kernels(1, 1);
  EXPECT_EQ(widest_interval(run).width, 0.0);
  EXPECT_EQ(widest_interval(run).where, "");
  run.chains[3].second.ci_low = 3.75;  // kernel d alone: 4 s, interval 3.75 .. 4.25
  run.chains[3].second.ci_high = 4.25;
  EXPECT_EQ(widest_interval(run).width, 0.125);
  EXPECT_EQ(widest_interval(run).where, "d");
  EXPECT_TRUE(widest_interval(run).noisy());
  run.loop->ci_high = 90 + 22.5;  // the loop: 90 s, interval 90 .. 112.5
  EXPECT_EQ(widest_interval(run).width, 0.25);
  EXPECT_EQ(widest_interval(run).where, "the whole loop");
  run.chains[4].second.seconds = 0;  // a chain timed at 0 is not considered (no median to compare with)
  run.chains[4].second.ci_high = 1;
  EXPECT_EQ(widest_interval(run).where, "the whole loop");
  EXPECT_FALSE((Spread{kNoisyWidth, "x"}.noisy()));
  EXPECT_TRUE((Spread{0.1000001, "x"}.noisy()));
}

TEST(CouplingAnalysis, ARunIsAnalysedAtEveryCompleteLength) {
  const MeasuredRun run = four_kernels(0.9, 0.7);
  const Analysis analysis = analyse(run, std::nullopt);
  EXPECT_EQ(analysis.length, 3);
  EXPECT_DOUBLE_EQ(analysis.summation.seconds, 100.0);
  ASSERT_EQ(analysis.predictions.size(), 2U);
  EXPECT_EQ(analysis.predictions[0].length, 2);
  EXPECT_NEAR(analysis.predictions[0].seconds, 90.0, 1e-9);
  EXPECT_NEAR(analysis.predictions[1].seconds, 70.0, 1e-9);
  ASSERT_NE(analysis.chosen(), nullptr);
  EXPECT_EQ(analysis.chosen()->length, 3);
  ASSERT_EQ(analysis.couplings.size(), 2U);
  ASSERT_NE(analysis.couplings_of(2), nullptr);
  ASSERT_EQ(analysis.couplings_of(2)->size(), 4U);
  EXPECT_NEAR(analysis.couplings_of(2)->at(1).value, 0.9, 1e-12);
  EXPECT_EQ(analysis.couplings_of(3)->at(3).chain, (std::vector<int>{3, 0, 1}));
  EXPECT_EQ(analysis.couplings_of(4), nullptr);
  EXPECT_EQ(analysis.widest.width, 0.0);

  EXPECT_NEAR(analyse(run, 2).chosen()->seconds, 90.0, 1e-9);
  const Analysis unmeasured = analyse(run, 4);
  EXPECT_EQ(unmeasured.length, 0);
  EXPECT_EQ(unmeasured.chosen(), nullptr);
  EXPECT_EQ(unmeasured.predictions.size(), 2U);  // the other lengths are still predicted

  MeasuredRun lacking = run;
  lacking.chains.erase(lacking.chains.begin() + 1);  // b alone
  EXPECT_THROW((void)analyse(lacking, std::nullopt), std::invalid_argument);
}

TEST(CouplingAnalysis, MeanErrorsCountTheRunsWhereBothPredictorsHaveAnError) {
  const MeasuredRun first = four_kernels(0.9, 0.7);  // summation +1/9, k=3 −2/9
  MeasuredRun second = four_kernels(0.9, 0.9);       // summation +1/9, k=3 0
  MeasuredRun unmeasured = four_kernels(0.9, 0.7);
  unmeasured.loop.reset();  // no measured time: no error
  MeasuredRun alone = four_kernels(0.9, 0.7);
  alone.chains.resize(4);  // no coupling prediction
  const MeanErrors means =
      mean_errors(std::vector<Analysis>{analyse(first, std::nullopt), analyse(second, std::nullopt),
                                        analyse(unmeasured, std::nullopt), analyse(alone, std::nullopt)});
  EXPECT_EQ(means.runs, 2);
  EXPECT_NEAR(means.method(), 1.0 / 9, 1e-12);
  EXPECT_NEAR(means.summation(), 1.0 / 9, 1e-12);
  EXPECT_EQ(mean_errors(std::vector<Analysis>{}).runs, 0);
}

TEST(CouplingAnalysis, IsocouplingPredictsATargetFromTheNearestSource) {
  MeasuredRun target = four_kernels(1, 1);
  target.chains.resize(4);  // kernels alone only: no prediction of its own
  MeasuredRun near = four_kernels(0.8, 0.75);
  near.problem_size = 1200;
  MeasuredRun far = four_kernels(0.6, 0.5);
  far.problem_size = 8000;
  MeasuredRun other_application = four_kernels(0.9, 0.9);
  other_application.application = "other";
  other_application.problem_size = 1100;
  const std::vector<MeasuredRun> sources = {far, other_application, near};
  EXPECT_EQ(reuse_length(target, sources), 3);

  const Isocoupling result = isocouple(target, sources, std::nullopt);
  EXPECT_EQ(result.length, 3);
  EXPECT_FALSE(result.own.has_value());
  EXPECT_DOUBLE_EQ(result.summation.seconds, 100.0);
  ASSERT_EQ(result.candidates.size(), 2U);
  EXPECT_EQ(result.candidates[0].index, 2U);  // near
  EXPECT_EQ(result.candidates[1].index, 0U);  // far
  ASSERT_EQ(result.reused.size(), 2U);
  EXPECT_NEAR(result.reused[0].seconds, 75.0, 1e-9);  // C = 0.75 on the target's Σ N_i P_i = 100 s
  EXPECT_NEAR(result.reused[1].seconds, 50.0, 1e-9);
  EXPECT_NEAR(*result.reused[0].error, -15.0 / 90, 1e-12);
  EXPECT_EQ(result.not_reusable, (std::vector<std::size_t>{1}));

  const Isocoupling pairs = isocouple(target, sources, 2);
  EXPECT_NEAR(pairs.reused[0].seconds, 80.0, 1e-9);

  MeasuredRun own = four_kernels(0.9, 0.7);  // with its own chains: its own prediction too
  own.problem_size = 500;
  EXPECT_NEAR(isocouple(own, sources, std::nullopt).own->seconds, 70.0, 1e-9);
}

TEST(CouplingAnalysis, IsocouplingNeedsAProblemSizeAndSourcesWithChains) {
  MeasuredRun target = four_kernels(1, 1);
  target.problem_size = 0;
  const MeasuredRun source = four_kernels(0.8, 0.8);
  EXPECT_THROW((void)isocouple(target, {source}, std::nullopt), std::invalid_argument);
  target.problem_size = 500;
  MeasuredRun alone = four_kernels(0.8, 0.8);
  alone.chains.resize(4);
  MeasuredRun five = four_kernels(0.8, 0.8);
  five.kernels.push_back({"e", 1});  // another loop: its chains are not counted
  EXPECT_EQ(reuse_length(target, {alone, five}), 0);
  try {
    (void)isocouple(target, {alone}, std::nullopt);
    FAIL() << "expected an error";
  } catch (const std::invalid_argument& error) {
    EXPECT_NE(std::string(error.what()).find("no configuration of 'toy'"), std::string::npos) << error.what();
  }
  // A length asked for that no source has: no candidate, the summation still.
  const Isocoupling none = isocouple(target, {alone}, 2);
  EXPECT_TRUE(none.candidates.empty());
  EXPECT_EQ(none.not_reusable, (std::vector<std::size_t>{0}));
}

TEST(CouplingAnalysis, EveryRunIsPredictedFromTheNearestOther) {
  MeasuredRun x = four_kernels(0.9, 0.9);  // 2 threads, 500 per processor; its own: 90 s, error 0
  MeasuredRun y = four_kernels(0.8, 0.8);  // 2 threads, 1000 per processor
  y.problem_size = 2000;
  MeasuredRun z = four_kernels(0.7, 0.7);  // 1 thread, 1000 per processor
  z.threads = 1;
  const std::vector<Reuse> reuses = reuse_each({x, y, z}, std::nullopt);
  ASSERT_EQ(reuses.size(), 3U);
  EXPECT_EQ(reuses[0].length, 3);  // n − 1
  EXPECT_NEAR(*reuses[0].own->error, 0.0, 1e-12);
  EXPECT_NEAR(*reuses[0].summation.error, 1.0 / 9, 1e-12);
  EXPECT_EQ(reuses[0].nearest, 1U);  // y: the same processors come before the size
  EXPECT_NEAR(reuses[0].reused->seconds, 80.0, 1e-9);
  EXPECT_NEAR(*reuses[0].same_processors_error, 1.0 / 9, 1e-12);   // from y: 80 against 90
  EXPECT_NEAR(*reuses[0].other_processors_error, 2.0 / 9, 1e-12);  // from z: 70
  EXPECT_EQ(reuses[1].nearest, 0U);
  EXPECT_EQ(reuses[2].nearest, 1U);  // y: the same size per processor
  EXPECT_FALSE(reuses[2].same_processors_error.has_value());
  EXPECT_NEAR(*reuses[2].other_processors_error, (1.0 / 9 + 0.0) / 2, 1e-12);
  const MeanErrors means = mean_errors(reuses);
  EXPECT_EQ(means.runs, 3);
  EXPECT_NEAR(means.method(), (1.0 / 9 + 0.0 + 1.0 / 9) / 3, 1e-12);
  EXPECT_NEAR(means.summation(), 1.0 / 9, 1e-12);

  const std::vector<Reuse> pairs = reuse_each({x, y}, 2);
  EXPECT_EQ(pairs[0].length, 2);
  EXPECT_NEAR(pairs[0].reused->seconds, 80.0, 1e-9);
  const std::vector<Reuse> alone = reuse_each({x}, std::nullopt);
  EXPECT_FALSE(alone[0].nearest.has_value());
  EXPECT_FALSE(alone[0].reused.has_value());
  EXPECT_EQ(mean_errors(alone).runs, 0);
}

TEST(CouplingAnalysis, CouplingValuesAlongSizeWithTheirTransitionsAndCacheLevels) {
  std::vector<MeasuredRun> runs;
  const double couplings_by_size[] = {0.8, 0.81, 1.1, 1.12};
  const double footprints[] = {200e3, 600e3, 3e6, 9e6};  // per 2 threads: 100 KB .. 4.5 MB; L2 = 1 MiB
  for (int i = 0; i < 4; ++i) {
    MeasuredRun run = four_kernels(couplings_by_size[3 - i], 0.5);
    run.problem_size = 1000.0 * (4 - i);  // given largest first
    run.footprint_bytes = footprints[3 - i];
    runs.push_back(run);
  }
  std::swap(runs[1], runs[2]);
  MeasuredRun alone = four_kernels(1, 1);
  alone.chains.resize(4);
  alone.problem_size = 1500;
  runs.push_back(alone);
  const SizeSeries series = along_size(runs, 2, 0.05);
  EXPECT_EQ(series.length, 2);
  EXPECT_EQ(series.order, (std::vector<std::size_t>{3, 4, 1, 2, 0}));
  ASSERT_EQ(series.mean_coupling.size(), 5U);
  EXPECT_NEAR(series.mean_coupling[3], 0.8, 1e-12);   // size 1000
  EXPECT_NEAR(series.mean_coupling[0], 1.12, 1e-12);  // size 4000
  EXPECT_TRUE(std::isnan(series.mean_coupling[4]));
  ASSERT_EQ(series.transitions.size(), 1U);
  EXPECT_EQ(series.transitions[0].before, 1U);  // sizes 2000 and 3000: 300 KB and 1.5 MB per processor
  EXPECT_EQ(series.transitions[0].after, 2U);
  EXPECT_EQ(series.transitions[0].level, "L2");
  EXPECT_EQ(series.transitions[0].level_bytes, 1 << 20);
  EXPECT_EQ(along_size(runs, std::nullopt, 0.05).length, 3);
  EXPECT_THROW((void)along_size({alone}, std::nullopt, 0.05), std::invalid_argument);
}

}  // namespace
}  // namespace augur::coupling
