// The hybrid method and its deterministic limit (docs/tspp.md, "The hybrid method") on cases solved by
// hand: two tasks on one resource and fork-joins of three, deterministic (one trajectory, worked out
// below) and exponential (the exact chain's figures); which method answers at which size.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "augur/tspp_predictor.hpp"

namespace augur::tspp {
namespace {

Prediction hybrid(const std::string& text, Discipline discipline, int stages = 1, int visits = 1, std::size_t max_states = 0) {
  PredictorOptions options;
  options.method = Method::Hybrid;
  options.discipline = discipline;
  options.stages = stages;
  options.visits = visits;
  options.max_states = max_states;
  return predict(parse_task_system(text, "test.tspp"), options);
}

Prediction deterministic(const std::string& text, Discipline discipline, int visits = 1) {
  Prediction prediction = hybrid(text, discipline, hybrid_deterministic_stages, visits);
  EXPECT_EQ(prediction.part, "deterministic limit");
  EXPECT_EQ(prediction.completion.variance, 0.0);
  return prediction;
}

constexpr double tight = 1e-12;
const std::string two_tasks = "resource cpu <- queuing;\ntask a <- { cpu: 1; } b <- { cpu: 2; }\nstructure [ a; b; ]";
const std::string three_on_one = "resource cpu <- queuing;\ntask a <- { cpu: 1; } b <- { cpu: 2; } c <- { cpu: 3; }\nstructure [ a; b; c; ]";
const std::string three_apart =
    "resource r1 <- queuing; r2 <- queuing; r3 <- queuing;\n"
    "task a <- { r1: 1; } b <- { r2: 2; } c <- { r3: 3; } d <- { r1: 1; }\n"
    "structure { [ a; b; c; ] d; }";

TEST(TsppDeterministic, TwoTasksOnOneServer) {
  // FCFS: a (first in the structure) from 0 to 1, b waits and ends at 3, having found a.
  const Prediction fcfs = deterministic(two_tasks, Discipline::FirstComeFirstServed);
  EXPECT_NEAR(fcfs.tasks[0].end.mean, 1.0, tight);
  EXPECT_NEAR(fcfs.tasks[1].end.mean, 3.0, tight);
  EXPECT_NEAR(fcfs.tasks[1].arrival_queue[0], 1.0, tight);
  EXPECT_NEAR(fcfs.tasks[0].arrival_queue[0], 0.0, tight);
  EXPECT_NEAR(fcfs.completion.mean, 3.0, tight);
  EXPECT_NEAR(fcfs.resources[0].utilization, 1.0, tight);
  EXPECT_NEAR(fcfs.resources[0].queue_length, 4.0 / 3.0, tight);
  // Processor sharing: half a server each; a's work of 1 is done at 2, when b has done 1 of its 2; b
  // alone does the rest by 3.
  const Prediction sharing = deterministic(two_tasks, Discipline::ProcessorSharing);
  EXPECT_NEAR(sharing.tasks[0].end.mean, 2.0, tight);
  EXPECT_NEAR(sharing.tasks[1].end.mean, 3.0, tight);
  EXPECT_NEAR(sharing.tasks[1].residence_at[0], 3.0, tight);
}

TEST(TsppDeterministic, ForkJoinsOfThree) {
  // On resources of their own: the join at max(1, 2, 3), then d for 1.
  for (Discipline discipline : {Discipline::FirstComeFirstServed, Discipline::ProcessorSharing}) {
    const Prediction apart = deterministic(three_apart, discipline);
    EXPECT_NEAR(apart.tasks[3].start.mean, 3.0, tight);
    EXPECT_NEAR(apart.completion.mean, 4.0, tight);
  }
  // On one server, FCFS: 1, 3, 6. Processor sharing: a third each until a is done at 3; b and c have 1
  // and 2 left at half a server, b done at 5; c's last 1 alone, done at 6.
  const Prediction fcfs = deterministic(three_on_one, Discipline::FirstComeFirstServed);
  EXPECT_NEAR(fcfs.tasks[1].end.mean, 3.0, tight);
  EXPECT_NEAR(fcfs.tasks[2].end.mean, 6.0, tight);
  EXPECT_NEAR(fcfs.tasks[2].arrival_queue[0], 2.0, tight);
  const Prediction sharing = deterministic(three_on_one, Discipline::ProcessorSharing);
  EXPECT_NEAR(sharing.tasks[0].end.mean, 3.0, tight);
  EXPECT_NEAR(sharing.tasks[1].end.mean, 5.0, tight);
  EXPECT_NEAR(sharing.tasks[2].end.mean, 6.0, tight);
}

TEST(TsppDeterministic, VisitsServersAndDelayCentres) {
  // Two visits over cpu and disk of 0.5 each: alone, 2 in all, 1 at each, each visit finding no one.
  const Prediction visits =
      deterministic("resource cpu <- queuing; disk <- queuing;\ntask a <- { cpu: 1; disk: 1; }\nstructure { a; }",
                    Discipline::FirstComeFirstServed, 2);
  EXPECT_NEAR(visits.completion.mean, 2.0, tight);
  EXPECT_NEAR(visits.tasks[0].residence_at[1], 1.0, tight);
  // A pipeline: a on cpu [0, 1], disk [1, 2.5]; b waits for the cpu, [1, 2], then finds a at the disk and
  // waits until 2.5, done at 4.
  const Prediction pipeline = deterministic(
      "resource cpu <- queuing; disk <- queuing;\ntask a <- { cpu: 1; disk: 1.5; } b <- { cpu: 1; disk: 1.5; }\nstructure [ a; b; ]",
      Discipline::FirstComeFirstServed);
  EXPECT_NEAR(pipeline.tasks[0].end.mean, 2.5, tight);
  EXPECT_NEAR(pipeline.tasks[1].end.mean, 4.0, tight);
  EXPECT_NEAR(pipeline.tasks[1].arrival_queue[1], 1.0, tight);
  EXPECT_NEAR(pipeline.tasks[1].residence_at[0], 2.0, tight);
  // Two servers, three tasks of 1: processor sharing gives each 2/3 of a server (all done at 1.5); FCFS
  // serves a and b at once (done at 1), then c (at 2). A delay centre serves all at once.
  const std::string servers = "resource cpu <- queuing 2;\ntask a <- { cpu: 1; } b <- { cpu: 1; } c <- { cpu: 1; }\nstructure [ a; b; c; ]";
  EXPECT_NEAR(deterministic(servers, Discipline::ProcessorSharing).tasks[2].end.mean, 1.5, tight);
  EXPECT_NEAR(deterministic(servers, Discipline::FirstComeFirstServed).tasks[2].end.mean, 2.0, tight);
  const std::string delay = "resource net <- delay;\ntask a <- { net: 1; } b <- { net: 2; }\nstructure [ a; b; ]";
  EXPECT_NEAR(deterministic(delay, Discipline::FirstComeFirstServed).completion.mean, 2.0, tight);
}

TEST(TsppHybrid, SmallSystemsWithExponentialServiceAreSolvedExactly) {
  // Two tasks on one server under processor sharing: the exact chain (exact_test.cpp works it out).
  const Prediction sharing = hybrid(two_tasks, Discipline::ProcessorSharing);
  EXPECT_EQ(sharing.part, "exact");
  EXPECT_NEAR(sharing.tasks[0].end.mean, 5.0 / 3.0, tight);
  EXPECT_NEAR(sharing.completion.mean, 3.0, tight);
  EXPECT_NEAR(sharing.completion.variance, 5.0, tight);
  // The fork-join of three on resources of their own: E[max] of Exp(1), Exp(1/2), Exp(1/3), then d.
  const double join = 1.0 + 2.0 + 3.0 - 1.0 / 1.5 - 1.0 / (4.0 / 3.0) - 1.0 / (5.0 / 6.0) + 1.0 / (11.0 / 6.0);
  const Prediction apart = hybrid(three_apart, Discipline::FirstComeFirstServed);
  EXPECT_EQ(apart.part, "exact");
  EXPECT_NEAR(apart.completion.mean, join + 1.0, tight);
}

TEST(TsppHybrid, PastItsBudgetOfStatesAnotherMethodAnswers) {
  // The exact chain of two single-resource tasks has 4 states, as has the decomposition's (one phase
  // each): with 4 the chain answers, with 3 neither fits and the transient method does.
  EXPECT_EQ(hybrid(two_tasks, Discipline::ProcessorSharing, 1, 1, 4).part, "exact");
  const Prediction transient = hybrid(two_tasks, Discipline::ProcessorSharing, 1, 1, 3);
  EXPECT_EQ(transient.part, "transient");
  EXPECT_NEAR(transient.completion.mean, 3.0, 0.05);  // the transient method conserves the server's work
  // Ten visits of two resources: the exact chain has 20 phases per task (21^2 states), the decomposition
  // 16 (its cap; 20 wanted): past a budget of 441 the pruned pass answers, with a beam of 400 (its widest
  // level has 21 states: nothing dropped, the exact chain's answer); below a beam of 50 it is not tried, and
  // the interpolation answers from the chains of 1 to 3 visits (9 to 49 states); past 8 none of those fits, and the interpolation takes the decomposition with
  // one visit (one phase each: 4 states; both tasks at rate 1 / 3 together, as MVA gives R_ik = 1.5, then
  // the last alone at 1 / 2: 1.5 + 2 = 3.5; two phases wanted, so interpolated from the network limit, where
  // both end at 3, at sqrt(1/2): 3 + 0.5 sqrt(1/2)) and the network limit: 3 + 0.5 sqrt(1/2) / sqrt(10);
  // past 3 the transient method answers.
  const std::string pair =
      "resource cpu <- queuing; disk <- queuing;\ntask a <- { cpu: 1; disk: 1; } b <- { cpu: 1; disk: 1; }\nstructure [ a; b; ]";
  EXPECT_EQ(hybrid(pair, Discipline::ProcessorSharing, 1, 10, 1000).part, "exact");
  const Prediction exact = hybrid(pair, Discipline::ProcessorSharing, 1, 10, 1000);
  const Prediction pruned = hybrid(pair, Discipline::ProcessorSharing, 1, 10, 400);
  EXPECT_EQ(pruned.part, "pruned");
  EXPECT_EQ(pruned.dropped, 0.0);
  EXPECT_NEAR(pruned.completion.mean, exact.completion.mean, 1e-12);
  EXPECT_EQ(hybrid(pair, Discipline::ProcessorSharing, 1, 10, 49).part, "interpolation");
  const Prediction line = hybrid(pair, Discipline::ProcessorSharing, 1, 10, 8);
  EXPECT_EQ(line.part, "interpolation (decomposition)");
  EXPECT_NEAR(line.completion.mean, 3.0 + 0.5 * std::sqrt(0.5) / std::sqrt(10.0), 1e-9);
  EXPECT_EQ(hybrid(pair, Discipline::ProcessorSharing, 1, 10, 3).part, "transient");
  // One visit: two phases each, 9 states in either chain: 9 fit; with 8 the decomposition answers with one
  // phase each (4 states); with 3 nothing fits.
  EXPECT_EQ(hybrid(pair, Discipline::ProcessorSharing, 1, 1, 9).part, "exact");
  EXPECT_EQ(hybrid(pair, Discipline::ProcessorSharing, 1, 1, 8).part, "decomposition");
  EXPECT_EQ(hybrid(pair, Discipline::ProcessorSharing, 1, 1, 3).part, "transient");
}

TEST(TsppHybrid, PastTheChainThePrunedPassAnswers) {
  // Twelve tasks of Exp(1) forked on resources of their own: 4096 states, past a budget of 1000; the pruned
  // pass keeps up to 1000 states a level, and the widest level has 924 (half the tasks ended): nothing is
  // dropped, the answer is the exact chain's, E[max of 12 Exp(1)] = H_12. Below a budget of 50
  // (hybrid_pruned_min_beam) it is not tried (the decomposition answers).
  std::string text = "resource";
  for (int i = 1; i <= 12; ++i) text += " r" + std::to_string(i) + " <- queuing;";
  text += "\ntask";
  for (int i = 1; i <= 12; ++i) text += " t" + std::to_string(i) + " <- { r" + std::to_string(i) + ": 1; }";
  text += "\nstructure [";
  double harmonic = 0.0;
  for (int i = 1; i <= 12; ++i) {
    text += " t" + std::to_string(i) + ";";
    harmonic += 1.0 / i;
  }
  text += " ]";
  const Prediction pruned = hybrid(text, Discipline::FirstComeFirstServed, 1, 1, 1000);
  EXPECT_EQ(pruned.part, "pruned");
  EXPECT_EQ(pruned.dropped, 0.0);
  EXPECT_NEAR(pruned.completion.mean, harmonic, tight);
  EXPECT_EQ(hybrid(text, Discipline::FirstComeFirstServed, 1, 1, 99).part, "pruned");
  EXPECT_NE(hybrid(text, Discipline::FirstComeFirstServed, 1, 1, 49).part, "pruned");
}

// n tasks in series, task i with demand i / n on a resource of its own, two stages: levels = 2n, the beam
// 10^7 / (2n x n). One state a level, so nothing is dropped: the completion is the sum of the demands,
// (n + 1) / 2, its variance the sum of d^2 / 2 over the tasks (an Erlang-2 of mean d has variance d^2 / 2).
// n = 250: beam 80, taken since 2026-11-27 (the floor was 100: the seed's method answered); n = 400: beam
// 31, below hybrid_pruned_min_beam. A budget of 400 states keeps the exact chain (2n + 1 states) out.
std::string series_of(int n) {
  std::string text = "resource";
  for (int i = 1; i <= n; ++i) text += " r" + std::to_string(i) + " <- queuing;";
  text += "\ntask";
  for (int i = 1; i <= n; ++i) text += " t" + std::to_string(i) + " <- { r" + std::to_string(i) + ": " + std::to_string(i) + "/" + std::to_string(n) + "; }";
  text += "\nstructure {";
  for (int i = 1; i <= n; ++i) text += " t" + std::to_string(i) + ";";
  return text + " }";
}

TEST(TsppHybrid, PrunedPassTakenDownToABeamOfFifty) {
  EXPECT_EQ(hybrid_pruned_min_beam, 50u);
  const int n = 250;
  const Prediction taken = hybrid(series_of(n), Discipline::ProcessorSharing, 2, 1, 400);
  EXPECT_EQ(taken.part, "pruned");
  EXPECT_EQ(taken.dropped, 0.0);
  double variance = 0.0;
  for (int i = 1; i <= n; ++i) variance += (i / 250.0) * (i / 250.0) / 2.0;
  EXPECT_NEAR(taken.completion.mean, (n + 1) / 2.0, 1e-9);
  EXPECT_NEAR(taken.completion.variance, variance, 1e-9);
  EXPECT_NE(hybrid(series_of(400), Discipline::ProcessorSharing, 2, 1, 400).part, "pruned");
}

// n tasks forked together, each a visit to r1 then to r2 (demands d1, d2), under FCFS: a tandem of two
// queues whose n customers all start at r1, in the order of the structure. With i customers past r1 and
// j past r2, T(i, j) = (1 + mu1 [i < n] T(i + 1, j) + mu2 [j < i] T(i, j + 1)) / (mu1 [i < n] + mu2 [j < i]).
double tandem_completion(int n, double d1, double d2) {
  std::vector<std::vector<double>> remaining(static_cast<std::size_t>(n + 1), std::vector<double>(static_cast<std::size_t>(n + 1), 0.0));
  for (int i = n; i >= 0; --i) {
    for (int j = i; j >= 0; --j) {
      const double mu1 = i < n ? 1.0 / d1 : 0.0;
      const double mu2 = j < i ? 1.0 / d2 : 0.0;
      if (mu1 + mu2 == 0.0) continue;
      double sum = 1.0;
      if (mu1 > 0.0) sum += mu1 * remaining[static_cast<std::size_t>(i + 1)][static_cast<std::size_t>(j)];
      if (mu2 > 0.0) sum += mu2 * remaining[static_cast<std::size_t>(i)][static_cast<std::size_t>(j + 1)];
      remaining[static_cast<std::size_t>(i)][static_cast<std::size_t>(j)] = sum / (mu1 + mu2);
    }
  }
  return remaining[0][0];
}

// n tasks forked, each on r1 then r2: under FCFS they queue in one order, a tandem of two queues.
std::string forked_tandem(int tasks) {
  std::string text = "resource r1 <- queuing; r2 <- queuing;\ntask";
  std::string fork = "structure [";
  for (int task = 0; task < tasks; ++task) {
    text += " t" + std::to_string(task) + " <- { r1: 0.5; r2: 1.25; }";
    fork += " t" + std::to_string(task) + ";";
  }
  return text + "\n" + fork + " ]";
}

TEST(TsppHybrid, FcfsChainsFarSmallerThanTheirSharingCountAreSolvedExactly) {
  // Twelve tasks forked on two resources: 3^12 - 1 = 531 440 states counted under processor sharing, but
  // under FCFS the tasks queue in one order and the chain has the (13 x 14) / 2 = 91 states (i, j), j <= i
  // <= 12, the last of them the final one: within a budget of 1000 the chain answers, exactly the tandem's figure; under PS it does not.
  const std::string text = forked_tandem(12);
  const Prediction queued = hybrid(text, Discipline::FirstComeFirstServed, 1, 1, 1000);
  EXPECT_EQ(queued.part, "exact");
  EXPECT_EQ(queued.states, 91U);
  EXPECT_NEAR(queued.completion.mean, tandem_completion(12, 0.5, 1.25), 1e-9);
  EXPECT_NE(hybrid(text, Discipline::ProcessorSharing, 1, 1, 1000).part, "exact");
}

TEST(TsppHybrid, FcfsChainsMillionsOfTimesSmallerThanTheirCountAreTried) {
  // Eighteen such tasks: 3^18 - 1 = 387 420 488 counted, (19 x 20) / 2 = 190 states, within a budget of 200:
  // the count is 1.9 million times the budget (the benchmark's FCFS systems that fit in 10^6 states have
  // counts up to 8.7 million times that), past the former factor of 10^4, which sent it to another method.
  const Prediction queued = hybrid(forked_tandem(18), Discipline::FirstComeFirstServed, 1, 1, 200);
  EXPECT_EQ(queued.part, "exact");
  EXPECT_EQ(queued.states, 190U);
  EXPECT_NEAR(queued.completion.mean, tandem_completion(18, 0.5, 1.25), 1e-9);
}

TEST(TsppHybrid, WhereTheChainFitsTheHybridIsTheExactMethod) {
  // Random small systems under both disciplines: the hybrid's answer is the exact method's to the bit.
  for (std::uint64_t seed = 1; seed <= 8; ++seed) {
    GeneratorOptions generator;
    generator.tasks = 6 + static_cast<int>(seed);
    generator.resources = 3;
    generator.depth = 3;
    generator.seed = seed;
    const TaskSystem system = generate_task_system(generator);
    for (Discipline discipline : {Discipline::FirstComeFirstServed, Discipline::ProcessorSharing}) {
      PredictorOptions options;
      options.discipline = discipline;
      options.method = Method::Exact;
      const Prediction exact = predict(system, options);
      ASSERT_LE(exact.states, max_hybrid_states);
      options.method = Method::Hybrid;
      const Prediction answer = predict(system, options);
      EXPECT_EQ(answer.part, "exact");
      EXPECT_EQ(answer.completion.mean, exact.completion.mean);
      EXPECT_EQ(answer.completion.variance, exact.completion.variance);
    }
  }
}

TEST(TsppHybrid, TooManyVisitsForTheDeterministicLimitAreRefusedBeforeTheyAreKept) {
  // 4 tasks of one demand each, 10^7 visits: 4 x 10^7 visits (640 MB) is past the limit's 2 x 10^7, refused
  // before any is stored; another method answers.
  const Prediction prediction = hybrid(three_apart, Discipline::FirstComeFirstServed, hybrid_deterministic_stages, 10'000'000);
  EXPECT_NE(prediction.part, "deterministic limit");
  EXPECT_GT(prediction.completion.mean, 0.0);
}

TEST(TsppHybrid, LargeSystemsGoToTheSeedsMethod) {
  GeneratorOptions generator;
  generator.tasks = 1000;
  generator.resources = 8;
  generator.depth = 6;
  generator.seed = 11;
  PredictorOptions options;
  options.method = Method::Hybrid;
  const Prediction prediction = predict(generate_task_system(generator), options);
  EXPECT_EQ(prediction.part, "mak-lundstrom");
  EXPECT_GT(prediction.completion.mean, 0.0);
}

}  // namespace
}  // namespace augur::tspp
