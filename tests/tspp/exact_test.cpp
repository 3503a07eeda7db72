// The exact method (docs/tspp.md, "The exact method") against chains solved by hand: two tasks on one
// resource (FCFS and processor sharing), fork-joins of three, several servers, delay centres, visits and
// stages, tasks without demand, and the limit of states.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "augur/tspp_predictor.hpp"
#include "fork_join_of_three.hpp"

namespace augur::tspp {
namespace {

Prediction exact(const std::string& text, Discipline discipline = Discipline::FirstComeFirstServed, int visits = 1,
                 int stages = 1) {
  PredictorOptions options;
  options.method = Method::Exact;
  options.discipline = discipline;
  options.visits = visits;
  options.stages = stages;
  return predict(parse_task_system(text, "test.tspp"), options);
}

constexpr double tight = 1e-12;
const std::string two_tasks = "resource cpu <- queuing;\ntask a <- { cpu: 1; } b <- { cpu: 2; }\nstructure [ a; b; ]";

TEST(TsppExact, TwoTasksOnOneServerFirstComeFirstServed) {
  // a arrives first (the order of the structure): a ends after Exp(mean 1), b after a and Exp(mean 2).
  const Prediction prediction = exact(two_tasks);
  EXPECT_EQ(prediction.states, 3U);  // both there, b alone, none
  EXPECT_NEAR(prediction.tasks[0].end.mean, 1.0, tight);
  EXPECT_NEAR(prediction.tasks[0].end.variance, 1.0, tight);
  EXPECT_NEAR(prediction.tasks[1].end.mean, 3.0, tight);
  EXPECT_NEAR(prediction.tasks[1].end.variance, 5.0, tight);
  EXPECT_NEAR(prediction.completion.mean, 3.0, tight);
  EXPECT_NEAR(prediction.completion.variance, 5.0, tight);
  EXPECT_NEAR(prediction.tasks[0].arrival_queue[0], 0.0, tight);
  EXPECT_NEAR(prediction.tasks[1].arrival_queue[0], 1.0, tight);
  EXPECT_NEAR(prediction.resources[0].utilization, 1.0, tight);
  EXPECT_NEAR(prediction.resources[0].queue_length, 4.0 / 3.0, tight);  // (1 + 3) / 3
}

TEST(TsppExact, TwoTasksOnOneServerProcessorSharing) {
  // Each served at half speed: a ends at rate 1/2, b at 1/4; the first end after Exp(3/4), a's with
  // probability 2/3. Then the survivor alone: a Exp(mean 1) or b Exp(mean 2).
  const Prediction prediction = exact(two_tasks, Discipline::ProcessorSharing);
  EXPECT_NEAR(prediction.tasks[0].end.mean, 4.0 / 3.0 + 1.0 / 3.0, tight);
  EXPECT_NEAR(prediction.tasks[1].end.mean, 4.0 / 3.0 + 2.0 / 3.0 * 2.0, tight);
  // E[end_a^2] = E[H^2] + 1/3 (2 E[H] + 2) with H ~ Exp(3/4): 32/9 + 14/9.
  EXPECT_NEAR(prediction.tasks[0].end.variance, 46.0 / 9.0 - 25.0 / 9.0, tight);
  // The server works until both are done: the completion is the total work, Exp(1) + Exp(1/2).
  EXPECT_NEAR(prediction.completion.mean, 3.0, tight);
  EXPECT_NEAR(prediction.completion.variance, 5.0, tight);
  EXPECT_NEAR(prediction.tasks[1].residence.mean, 8.0 / 3.0, tight);
}

TEST(TsppExact, AForkJoinOfThreeOnResourcesOfTheirOwn) {
  // E[max of Exp(1), Exp(1/2), Exp(1/3)] by inclusion and exclusion; then d after the join.
  const std::string& text = fixtures::fork_join_of_three;
  const double join = fixtures::fork_join_of_three_join;
  for (Discipline discipline : {Discipline::FirstComeFirstServed, Discipline::ProcessorSharing}) {
    const Prediction prediction = exact(text, discipline);
    EXPECT_EQ(prediction.states, 9U);  // 2^3 subsets of a, b, c still running, d alone, none
    EXPECT_NEAR(prediction.tasks[3].start.mean, join, tight);
    EXPECT_NEAR(prediction.completion.mean, join + 1.0, tight);
    EXPECT_NEAR(prediction.tasks[3].residence.variance, 1.0, tight);
  }
}

TEST(TsppExact, AForkJoinOfThreeOnOneServer) {
  const std::string text = "resource cpu <- queuing;\ntask a <- { cpu: 1; } b <- { cpu: 2; } c <- { cpu: 3; }\nstructure [ a; b; c; ]";
  // FCFS in the order of the structure: ends at 1, 3 and 6 on average, finding 0, 1 and 2 customers.
  const Prediction fcfs = exact(text);
  EXPECT_NEAR(fcfs.tasks[0].end.mean, 1.0, tight);
  EXPECT_NEAR(fcfs.tasks[1].end.mean, 3.0, tight);
  EXPECT_NEAR(fcfs.tasks[2].end.mean, 6.0, tight);
  EXPECT_NEAR(fcfs.tasks[2].end.variance, 1.0 + 4.0 + 9.0, tight);
  EXPECT_NEAR(fcfs.tasks[2].arrival_queue[0], 2.0, tight);
  // Processor sharing, three equal demands of 1: ends at rate 1 in all, each the first with probability
  // 1/3; a task's mean residence is 1 + 2/3 (1 + 1/2 x 1) = 2 and the completion is the work, 3.
  const std::string equal = "resource cpu <- queuing;\ntask a <- { cpu: 1; } b <- { cpu: 1; } c <- { cpu: 1; }\nstructure [ a; b; c; ]";
  const Prediction sharing = exact(equal, Discipline::ProcessorSharing);
  for (const TaskPrediction& task : sharing.tasks) EXPECT_NEAR(task.residence.mean, 2.0, tight);
  EXPECT_NEAR(sharing.completion.mean, 3.0, tight);
  EXPECT_NEAR(sharing.completion.variance, 3.0, tight);
}

TEST(TsppExact, SeveralServersAndDelayCentresServeEveryoneAtOnce) {
  // E[max(Exp(1), Exp(1/2))] = 1 + 2 - 1 / (1 + 1/2).
  for (const std::string resource : {"cpu <- queuing 2;", "cpu <- delay;"}) {
    for (Discipline discipline : {Discipline::FirstComeFirstServed, Discipline::ProcessorSharing}) {
      const Prediction prediction =
          exact("resource " + resource + "\ntask a <- { cpu: 1; } b <- { cpu: 2; }\nstructure [ a; b; ]", discipline);
      EXPECT_NEAR(prediction.completion.mean, 3.0 - 2.0 / 3.0, tight) << resource;
      EXPECT_NEAR(prediction.tasks[1].end.mean, 2.0, tight) << resource;
    }
  }
  // Three tasks of mean 1 on two FCFS servers: two served, the third waits for the first end (Exp(2)),
  // then two run: 1/2 + E[max(Exp(1), Exp(1))] = 1/2 + 3/2.
  const Prediction three = exact(
      "resource cpu <- queuing 2;\ntask a <- { cpu: 1; } b <- { cpu: 1; } c <- { cpu: 1; }\nstructure [ a; b; c; ]");
  EXPECT_NEAR(three.completion.mean, 2.0, tight);
  EXPECT_NEAR(three.tasks[2].start.mean, 0.0, tight);
  EXPECT_NEAR(three.tasks[2].arrival_queue[0], 2.0, tight);
}

TEST(TsppExact, VisitsAndStagesAreExponentialPhases) {
  const std::string alone = "resource cpu <- queuing; disk <- delay;\ntask a <- { cpu: 2; disk: 3; }\nstructure { a; }";
  const Prediction visits = exact(alone, Discipline::FirstComeFirstServed, 10, 1);
  EXPECT_EQ(visits.states, 21U);
  EXPECT_NEAR(visits.completion.mean, 5.0, tight);
  EXPECT_NEAR(visits.completion.variance, (4.0 + 9.0) / 10.0, tight);
  const Prediction stages = exact(alone, Discipline::FirstComeFirstServed, 1, 4);
  EXPECT_NEAR(stages.completion.variance, 13.0 / 4.0, tight);
  EXPECT_NEAR(stages.tasks[0].residence_at[1], 3.0, tight);
  // Two visits to one FCFS server: a's first half, b's, a's second (a rejoins the tail), b's second.
  const Prediction cycles = exact(two_tasks, Discipline::FirstComeFirstServed, 2, 1);
  EXPECT_NEAR(cycles.tasks[0].end.mean, 0.5 + 1.0 + 0.5, tight);
  EXPECT_NEAR(cycles.tasks[0].end.variance, 0.25 + 1.0 + 0.25, tight);
  EXPECT_NEAR(cycles.tasks[0].arrival_queue[0], 0.5, tight);  // 0 then 1 (b in service)
  EXPECT_NEAR(cycles.tasks[1].arrival_queue[0], 1.0, tight);
  EXPECT_NEAR(cycles.completion.mean, 3.0, tight);
}

TEST(TsppExact, ATaskWithoutDemandEndsAsItStarts) {
  const Prediction with = exact("resource cpu <- queuing;\ntask a <- { cpu: 1; } z <- { } b <- { cpu: 2; }\nstructure { a; z; b; }");
  EXPECT_NEAR(with.completion.mean, 3.0, tight);
  EXPECT_NEAR(with.tasks[1].start.mean, 1.0, tight);
  EXPECT_NEAR(with.tasks[1].end.mean, 1.0, tight);
  EXPECT_NEAR(with.tasks[2].start.mean, 1.0, tight);
  const Prediction nothing = exact("resource cpu <- queuing;\ntask z <- { }\nstructure { z; }");
  EXPECT_EQ(nothing.states, 1U);
  EXPECT_EQ(nothing.completion.mean, 0.0);
}

TEST(TsppExact, RefusesPastItsLimitOfStates) {
  PredictorOptions options;
  options.method = Method::Exact;
  options.max_states = 5;
  options.discipline = Discipline::ProcessorSharing;
  const TaskSystem system = parse_task_system(
      "resource cpu <- queuing;\ntask a <- { cpu: 1; } b <- { cpu: 1; } c <- { cpu: 1; }\nstructure [ a; b; c; ]", "t.tspp");
  try {
    (void)predict(system, options);
    FAIL() << "no refusal";
  } catch (const std::invalid_argument& error) {
    EXPECT_NE(std::string(error.what()).find("at most 5 states"), std::string::npos) << error.what();
  }
  options.max_states = 0;  // the default limit
  EXPECT_EQ(predict(system, options).states, 8U);  // any subset of the three may remain
  options.discipline = Discipline::FirstComeFirstServed;
  EXPECT_EQ(predict(system, options).states, 4U);  // they leave in the order a, b, c
}

}  // namespace
}  // namespace augur::tspp
