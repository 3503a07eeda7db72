// The transient method (docs/tspp.md, "The transient method") against exact results: the cases where
// it is exact up to the time grid (a task alone, serial tasks, delay centres, tasks forked together on
// one processor-sharing server) and the known direction of its error elsewhere.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "core/files.hpp"
#include "augur/tspp_predictor.hpp"

namespace augur::tspp {
namespace {

Prediction transient(const std::string& text, int visits = 1, int stages = 1) {
  PredictorOptions options;
  options.method = Method::Transient;
  options.visits = visits;
  options.stages = stages;
  return predict(parse_task_system(text, "test.tspp"), options);
}

// Relative tolerance of the time grid's discretization (1000 bins).
constexpr double grid_tolerance = 0.005;

TEST(TsppTransient, ATaskAloneIsItsPhases) {
  const Prediction prediction = transient("resource cpu <- queuing; disk <- delay;\ntask a <- { cpu: 2; disk: 3; }\nstructure { a; }");
  EXPECT_TRUE(prediction.converged);
  EXPECT_NEAR(prediction.completion.mean, 5.0, 5.0 * grid_tolerance);
  // One exponential phase per resource: variance 2^2 + 3^2.
  EXPECT_NEAR(prediction.completion.variance, 13.0, 13.0 * 0.01);
  EXPECT_NEAR(prediction.tasks[0].residence_at[0], 2.0, 2.0 * grid_tolerance);
  EXPECT_NEAR(prediction.tasks[0].residence_at[1], 3.0, 3.0 * grid_tolerance);
  EXPECT_NEAR(prediction.tasks[0].arrival_queue[0], 0.0, 1e-12);
  EXPECT_NEAR(prediction.resources[0].utilization, 0.4, 0.4 * grid_tolerance);
}

TEST(TsppTransient, VisitsAndStagesMakeATaskLessVariable) {
  const std::string text = "resource cpu <- queuing; disk <- delay;\ntask a <- { cpu: 2; disk: 3; }\nstructure { a; }";
  // V cycles of exponential visits of D/V: variance sum D^2 / V.
  const Prediction visits = transient(text, 10, 1);
  EXPECT_NEAR(visits.completion.mean, 5.0, 5.0 * grid_tolerance);
  EXPECT_NEAR(visits.completion.variance, 1.3, 1.3 * 0.02);
  // S Erlang stages per visit: variance sum D^2 / S.
  const Prediction stages = transient(text, 1, 4);
  EXPECT_NEAR(stages.completion.variance, 13.0 / 4.0, 13.0 / 4.0 * 0.02);
}

TEST(TsppTransient, SerialTasksNeverQueueForEachOther) {
  const Prediction prediction = transient("resource cpu <- queuing;\ntask a <- { cpu: 1; } b <- { cpu: 2; }\nstructure { a; b; }");
  EXPECT_NEAR(prediction.completion.mean, 3.0, 3.0 * grid_tolerance);
  EXPECT_NEAR(prediction.completion.variance, 5.0, 5.0 * 0.01);
  EXPECT_NEAR(prediction.tasks[1].start.mean, 1.0, grid_tolerance);
  EXPECT_NEAR(prediction.tasks[1].arrival_queue[0], 0.0, 1e-12);
  EXPECT_NEAR(prediction.tasks[1].residence.mean, 2.0, 2.0 * grid_tolerance);
}

TEST(TsppTransient, TasksForkedTogetherOnOneServerConserveWork) {
  // n exponential tasks of mean 1 on one processor-sharing server: the server works until all are
  // done, so the completion time is n. The method keeps that exactly (docs/tspp.md).
  for (int count : {2, 3, 8}) {
    std::string tasks = "task";
    std::string structure = "structure [";
    for (int i = 0; i < count; ++i) {
      tasks += " t" + std::to_string(i) + " <- { cpu: 1; }";
      structure += " t" + std::to_string(i) + ";";
    }
    const Prediction prediction = transient("resource cpu <- queuing;\n" + tasks + "\n" + structure + " ]");
    EXPECT_NEAR(prediction.completion.mean, count, count * grid_tolerance) << count << " tasks";
    EXPECT_NEAR(prediction.resources[0].utilization, 1.0, grid_tolerance) << count << " tasks";
    for (const TaskPrediction& task : prediction.tasks) {
      EXPECT_GT(task.arrival_queue[0], 0.0);
      EXPECT_NEAR(task.queue_of_task[0], 1.0, 1e-12);
    }
  }
}

TEST(TsppTransient, DelayCentresAndEnoughServersDoNotQueue) {
  // The maximum of n independent exponentials of mean 1: the harmonic number H_n.
  std::string tasks = "task";
  std::string structure = "structure [";
  double harmonic = 0.0;
  for (int i = 1; i <= 50; ++i) {
    tasks += " t" + std::to_string(i) + " <- { io: 1; }";
    structure += " t" + std::to_string(i) + ";";
    harmonic += 1.0 / i;
  }
  const Prediction delay = transient("resource io <- delay;\n" + tasks + "\n" + structure + " ]");
  EXPECT_NEAR(delay.completion.mean, harmonic, harmonic * grid_tolerance);
  const Prediction servers = transient("resource io <- queuing 50;\n" + tasks + "\n" + structure + " ]");
  EXPECT_NEAR(servers.completion.mean, harmonic, harmonic * grid_tolerance);
  EXPECT_NEAR(servers.tasks[0].residence.mean, 1.0, grid_tolerance);
}

TEST(TsppTransient, MultiServerCentres) {
  // Three exponential tasks of mean 1 on two servers: both busy until the first ends (mean 1/2),
  // then the two left each have a server (the maximum of two: 3/2). Exactly 2.
  const std::string tasks = "task a <- { cpu: 1; } b <- { cpu: 1; } c <- { cpu: 1; }\nstructure [ a; b; c; ]";
  const Prediction two = transient("resource cpu <- queuing 2;\n" + tasks);
  EXPECT_NEAR(two.completion.mean, 2.0, 2.0 * 0.03);
  const Prediction one = transient("resource cpu <- queuing;\n" + tasks);
  EXPECT_NEAR(one.completion.mean, 3.0, 3.0 * grid_tolerance);
  EXPECT_LT(two.tasks[0].residence.mean, one.tasks[0].residence.mean);
}

TEST(TsppTransient, FigureElevenAgainstTheSimulation) {
  const std::string path = std::string(AUGUR_EXAMPLES_DIR) + "/tspp/figure11.tspp";
  PredictorOptions options;
  options.method = Method::Transient;
  const TaskSystem system = parse_task_system(core::read_file(path), path);
  const Prediction prediction = predict(system, options);
  EXPECT_TRUE(prediction.converged);
  // augur sim, exponential service, PS, V = 1, 20 000 replications: 5.877 (docs/sim.md). The method
  // takes the tasks' presences as independent and so sees less queueing than there is: it is below.
  EXPECT_LT(prediction.completion.mean, 5.877);
  EXPECT_GT(prediction.completion.mean, 5.877 * 0.88);
  for (const TaskPrediction& task : prediction.tasks) {
    double sum = 0.0;
    for (double share : task.queue_of_task) sum += share;
    EXPECT_NEAR(sum, 1.0, 1e-12);
  }
  for (const ResourcePrediction& resource : prediction.resources) EXPECT_LE(resource.utilization, 1.0);
}

TEST(TsppTransient, RejectsBadOptions) {
  PredictorOptions options;
  options.method = Method::Transient;
  options.visits = 0;
  const TaskSystem system = parse_task_system("resource cpu <- queuing;\ntask a <- { cpu: 1; }\nstructure { a; }", "x");
  EXPECT_THROW((void)predict(system, options), std::invalid_argument);
}

TEST(TsppTransient, ZeroDemandsEndAtOnce) {
  const Prediction prediction = transient("resource cpu <- queuing;\ntask a <- { cpu: 0; } b <- { cpu: 0; }\nstructure [ a; b; ]");
  EXPECT_DOUBLE_EQ(prediction.completion.mean, 0.0);
  EXPECT_EQ(prediction.tasks.size(), 2U);
}

}  // namespace
}  // namespace augur::tspp
