// The hybrid method's interpolation in x = 1 / sqrt(V) (docs/tspp.md, "The hybrid method"): its weights
// against a polynomial, cases solved by hand (two tasks on one server, whose completion is their work at
// every V; a fork-join of three on resources of their own, the mean maximum of three Erlangs), and random
// small systems against the exact chain at V = 10 and 5.
#include <gtest/gtest.h>

#include <cmath>
#include <optional>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "augur/tspp.hpp"
#include "augur/tspp_predictor.hpp"
#include "tspp/interpolation.hpp"
#include "tspp/network_limit.hpp"

namespace augur::tspp {
namespace {

// The interpolation as the hybrid takes it (the exact chains of 1 to 3 visits within max_states), without the
// pruned pass the hybrid tries first (since 2026-11-27).
Prediction interpolated(const std::string& text, int visits, std::size_t max_states) {
  PredictorOptions options;
  options.method = Method::Hybrid;
  options.discipline = Discipline::ProcessorSharing;
  options.visits = visits;
  options.max_states = max_states;
  const TaskSystem system = parse_task_system(text, "test.tspp");
  const auto exact_at = [&system, &options](int fewer) -> std::optional<Prediction> {
    PredictorOptions exact = options;
    exact.method = Method::Exact;
    exact.visits = fewer;
    try {
      return predict(system, exact);
    } catch (const std::invalid_argument&) {
      return std::nullopt;  // past the budget of states
    }
  };
  std::optional<Prediction> prediction = predict_interpolated(system, options, exact_at);
  if (!prediction) throw std::logic_error("no chain of 1 to 3 visits fits");
  prediction->part = "interpolation";
  return *prediction;
}

// E max of independent Erlangs of k stages with the given means: the integral of 1 - prod F_i(t).
double mean_maximum_of_erlangs(const std::vector<double>& means, int k) {
  const double step = 1e-4;
  double sum = 0.0;
  for (double t = step / 2; t < 80.0; t += step) {
    double all_done = 1.0;
    for (double mean : means) {
      const double rate = k / mean;
      double term = 1.0;
      double tail = 0.0;
      for (int n = 0; n < k; ++n) {
        tail += term;
        term *= rate * t / (n + 1);
      }
      all_done *= 1.0 - std::exp(-rate * t) * tail;
    }
    sum += (1.0 - all_done) * step;
  }
  return sum;
}

TEST(TsppInterpolation, WeightsReproduceAParabola) {
  // y = 2 - 3x + 5x^2 through x = 0, 1/sqrt(3), 1/sqrt(2), at x = 1/sqrt(10): 2 - 3/sqrt(10) + 1/2.
  const std::vector<double> nodes = {0.0, 1.0 / std::sqrt(3.0), 1.0 / std::sqrt(2.0)};
  const double x = 1.0 / std::sqrt(10.0);
  const std::vector<double> weights = lagrange_weights(nodes, x);
  double value = 0.0;
  for (std::size_t j = 0; j < nodes.size(); ++j) value += weights[j] * (2.0 - 3.0 * nodes[j] + 5.0 * nodes[j] * nodes[j]);
  EXPECT_NEAR(value, 2.5 - 3.0 / std::sqrt(10.0), 1e-12);
  // The weights worked out by hand: (x - a)(x - b) / (ab), x (x - b) / (a (a - b)), x (x - a) / (b (b - a)).
  EXPECT_NEAR(weights[0], 0.2500128, 1e-6);
  EXPECT_NEAR(weights[1], 1.6499615, 1e-6);
  EXPECT_NEAR(weights[2], -0.8999744, 1e-6);
}

TEST(TsppInterpolation, TwoTasksOnOneServerCompleteWithTheirWork) {
  // One processor-sharing server never idles while a task is present: the completion is the work, 1 + 2,
  // at every V and in the limit (there MVA gives R = 2 and 4 together: a ends at 2, b alone does its last 1
  // by 3), so the interpolation gives it exactly. The chain of V = 10 has 121
  // states, of V = 3 16: a budget of 50 takes V = 1 to 3 and not 10.
  const Prediction prediction = interpolated("resource cpu <- queuing;\ntask a <- { cpu: 1; } b <- { cpu: 2; }\nstructure [ a; b; ]", 10, 50);
  EXPECT_EQ(prediction.part, "interpolation");
  EXPECT_NEAR(prediction.completion.mean, 3.0, 1e-6);
}

TEST(TsppInterpolation, ForkJoinOfThreeOnResourcesOfTheirOwn) {
  // Each task alone on its resource: C(V) = E max of Erlangs of V stages with means 1, 2, 3, the limit
  // max = 3. The anchors are V = 2 and 3 (the chain of V = 10 has 1331 states, of V = 3 64).
  const Prediction prediction = interpolated(
      "resource r1 <- queuing; r2 <- queuing; r3 <- queuing;\ntask a <- { r1: 1; } b <- { r2: 2; } c <- { r3: 3; }\n"
      "structure [ a; b; c; ]",
      10, 100);
  ASSERT_EQ(prediction.part, "interpolation");
  const double x = 1.0 / std::sqrt(10.0);
  const double a = 1.0 / std::sqrt(3.0);
  const double b = 1.0 / std::sqrt(2.0);
  const double expected = (x - a) * (x - b) / (a * b) * 3.0 + x * (x - b) / (a * (a - b)) * mean_maximum_of_erlangs({1, 2, 3}, 3) +
                          x * (x - a) / (b * (b - a)) * mean_maximum_of_erlangs({1, 2, 3}, 2);
  EXPECT_NEAR(prediction.completion.mean, expected, 1e-4);
  // Against the truth at V = 10 (3.1072): the interpolation is 1.4% high here.
  const double truth = mean_maximum_of_erlangs({1, 2, 3}, 10);
  EXPECT_NEAR(truth, 3.1072, 1e-3);
  EXPECT_GT(prediction.completion.mean, truth);
  EXPECT_LT(prediction.completion.mean, truth * 1.02);
}

TEST(TsppInterpolation, TwoTasksForkedOnTwoResourcesInStep) {
  // Two equal tasks, each a visit to cpu then disk of 1: the network limit has both in equilibrium, each
  // with R_ik = 1 (1 + 1/2) (MVA: the other is half its time at each), so both end at 3 (the exact chain
  // tends to 3: 3.500, 3.344, 3.272 and 3.139 at V = 1, 2, 3, 10, 3.041 at 100). A deterministic trajectory
  // would keep them in step (both at the cpu, then both at the disk: 4). From V = 2 and 3 at V = 10:
  const std::string pair =
      "resource cpu <- queuing; disk <- queuing;\ntask a <- { cpu: 1; disk: 1; } b <- { cpu: 1; disk: 1; }\nstructure [ a; b; ]";
  EXPECT_NEAR(network_limit(parse_task_system(pair, "test.tspp")).completion.mean, 3.0, 1e-9);
  const Prediction prediction = interpolated(pair, 10, 400);
  ASSERT_EQ(prediction.part, "interpolation");
  PredictorOptions exact;
  exact.method = Method::Exact;
  exact.discipline = Discipline::ProcessorSharing;
  exact.visits = 10;
  const double truth = predict(parse_task_system(pair, "test.tspp"), exact).completion.mean;
  EXPECT_NEAR(truth, 3.139, 1e-3);
  EXPECT_NEAR(prediction.completion.mean, truth, 0.002 * truth);
}

// Random small systems (3 to 7 tasks, 2 or 3 resources), the interpolation with every anchor up to 3 visits
// against the exact chain at V: mean and largest relative error of the completion time.
void against_the_chain(Discipline discipline, int visits, double mean_bound, double max_bound) {
  std::mt19937_64 random(20261126);
  double sum = 0.0;
  double largest = 0.0;
  int count = 0;
  for (int index = 0; index < 12; ++index) {
    GeneratorOptions generator;
    generator.tasks = std::uniform_int_distribution<int>(3, 7)(random);
    generator.resources = std::uniform_int_distribution<int>(2, 3)(random);
    generator.depth = 3;
    generator.seed = random();
    const TaskSystem system = generate_task_system(generator);
    PredictorOptions options;
    options.method = Method::Exact;
    options.discipline = discipline;
    options.visits = visits;
    const double truth = predict(system, options).completion.mean;
    const auto exact = [&system, &options](int fewer) -> std::optional<Prediction> {
      PredictorOptions at = options;
      at.visits = fewer;
      return predict(system, at);
    };
    const std::optional<Prediction> interpolated = predict_interpolated(system, options, exact);
    ASSERT_TRUE(interpolated.has_value());
    const double error = std::fabs(interpolated->completion.mean - truth) / truth;
    sum += error;
    largest = std::max(largest, error);
    count += 1;
  }
  EXPECT_LT(sum / count, mean_bound);
  EXPECT_LT(largest, max_bound);
}

TEST(TsppInterpolation, RandomSmallSystemsAgainstTheExactChain) {
  against_the_chain(Discipline::ProcessorSharing, 10, 0.005, 0.02);
  against_the_chain(Discipline::FirstComeFirstServed, 10, 0.01, 0.04);
  against_the_chain(Discipline::ProcessorSharing, 5, 0.005, 0.02);
  against_the_chain(Discipline::FirstComeFirstServed, 5, 0.01, 0.04);
}

}  // namespace
}  // namespace augur::tspp
