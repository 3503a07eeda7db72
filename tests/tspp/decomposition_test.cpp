// The decomposition method (docs/tspp.md, "The decomposition method") on cases solved by hand: where it is
// exact (tasks of one resource each under processor sharing, a task alone), its phases, and its limit.
#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <string>

#include "augur/tspp_predictor.hpp"

namespace augur::tspp {
namespace {

Prediction decomposition(const std::string& text, std::size_t max_states = 0, int visits = 1) {
  PredictorOptions options;
  options.method = Method::Decomposition;
  options.max_states = max_states;
  options.visits = visits;
  return predict(parse_task_system(text, "test.tspp"), options);
}

constexpr double tight = 1e-9;

TEST(TsppDecomposition, TasksOfOneResourceEachAreTheExactProcessorSharingChain) {
  // One exponential phase each (a single resource: SCV 1); alone at the server the MVA residence is the
  // demand, together D_i (1 + 1): the processor-sharing chain of the exact method.
  const Prediction prediction =
      decomposition("resource cpu <- queuing;\ntask a <- { cpu: 1; } b <- { cpu: 2; }\nstructure [ a; b; ]");
  EXPECT_NEAR(prediction.completion.mean, 3.0, tight);
  EXPECT_NEAR(prediction.completion.variance, 5.0, tight);
  EXPECT_NEAR(prediction.tasks[0].end.mean, 5.0 / 3.0, tight);
  EXPECT_NEAR(prediction.tasks[1].end.mean, 8.0 / 3.0, tight);
  EXPECT_EQ(prediction.states, 4U);  // both, a alone, b alone, none
  // Queues found: the other task, the whole time both are there (A = R / D - 1 = 1).
  EXPECT_GT(prediction.tasks[0].arrival_queue[0], 0.0);
  EXPECT_LT(prediction.tasks[0].arrival_queue[0], 1.0);
}

TEST(TsppDecomposition, ATaskAloneIsAnErlangOfItsVariation) {
  // Demands 1 and 1: SCV (1 + 1) / 2^2 = 1/2, two phases: mean 2, variance 2 (the exact variance too).
  const Prediction two = decomposition("resource cpu <- queuing; disk <- queuing;\ntask a <- { cpu: 1; disk: 1; }\nstructure { a; }");
  EXPECT_NEAR(two.completion.mean, 2.0, tight);
  EXPECT_NEAR(two.completion.variance, 2.0, tight);
  EXPECT_EQ(two.states, 3U);
  EXPECT_NEAR(two.tasks[0].residence_at[0], 1.0, tight);
  // Ten visits: SCV 1/20, twenty phases but at most 16: variance 4 / 16.
  const Prediction visits =
      decomposition("resource cpu <- queuing; disk <- queuing;\ntask a <- { cpu: 1; disk: 1; }\nstructure { a; }", 0, 10);
  EXPECT_NEAR(visits.completion.mean, 2.0, tight);
  EXPECT_NEAR(visits.completion.variance, 4.0 / 16.0, tight);
}

TEST(TsppDecomposition, FewerPhasesWithinTheLimitThenARefusal) {
  const std::string text =
      "resource cpu <- queuing; disk <- queuing;\ntask a <- { cpu: 1; disk: 1; } b <- { cpu: 1; disk: 1; }\nstructure [ a; b; ]";
  // Two phases each: (2 + 1)^2 - 1 running configurations and the end.
  EXPECT_EQ(decomposition(text).states, 9U);
  // At most 4 states: one phase each, (1 + 1)^2 - 1 + 1.
  const Prediction one = decomposition(text, 4);
  EXPECT_EQ(one.states, 4U);
  EXPECT_THROW((void)decomposition(text, 3), std::invalid_argument);
}

TEST(TsppDecomposition, OnePhaseWhereTwoAreWantedIsInterpolatedFromTheNetworkLimit) {
  // Two tasks forked on resources of their own, each 1/2 at two resources: the decomposition is exact here
  // (no contention; two phases each, an Erlang of rate 2 per phase): E[max] = 2 - int (1 - F)^2 with
  // 1 - F(t) = e^-2t (1 + 2t), int e^-4t (1 + 2t)^2 dt = 1/4 + 1/4 + 1/8, so 1.375 (9 states).
  const std::string text =
      "resource r1 <- queuing; r2 <- queuing; r3 <- queuing; r4 <- queuing;\n"
      "task a <- { r1: 0.5; r2: 0.5; } b <- { r3: 0.5; r4: 0.5; }\nstructure [ a; b; ]";
  const Prediction wanted = decomposition(text);
  EXPECT_EQ(wanted.states, 9U);
  EXPECT_NEAR(wanted.completion.mean, 1.375, tight);
  // Within 4 states, one phase each: the maximum of two Exp(1) is 1.5, the network limit (each task at the
  // steady rate 1 / 1) ends both at 1; the mean 1 / m is 1 in the chain, 1/2 wanted: 1 + 0.5 sqrt(1/2).
  const Prediction one = decomposition(text, 4);
  EXPECT_EQ(one.states, 4U);
  EXPECT_NEAR(one.completion.mean, 1.0 + 0.5 * std::sqrt(0.5), tight);
  EXPECT_NEAR(one.tasks[0].end.mean, 1.0, tight);  // a alone: its mean, at any number of phases
  EXPECT_NEAR(one.tasks[0].start.mean, 0.0, tight);
}

}  // namespace
}  // namespace augur::tspp
