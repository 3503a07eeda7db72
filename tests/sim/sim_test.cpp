// The discrete-event engine and the task-system simulator, on cases with exact answers.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "augur/sim/engine.hpp"
#include "augur/sim/task_system.hpp"

namespace augur::sim {
namespace {

TEST(Engine, RunsEventsInTimeOrderAndTiesInSchedulingOrder) {
  Engine engine;
  std::vector<std::string> order;
  engine.schedule(2.0, [&] { order.push_back("b@2"); });
  engine.schedule(1.0, [&] {
    order.push_back("a@1");
    engine.schedule(1.0, [&] { order.push_back("c@2"); });  // same time as b, scheduled later
    engine.schedule(0.0, [&] { order.push_back("d@1"); });
  });
  EXPECT_EQ(engine.run(), 4u);
  EXPECT_EQ(order, (std::vector<std::string>{"a@1", "d@1", "b@2", "c@2"}));
  EXPECT_DOUBLE_EQ(engine.now(), 2.0);
}

TEST(RandomStream, IsReproducibleAndStreamsDiffer) {
  RandomStream first(42, 0);
  RandomStream again(42, 0);
  RandomStream other(42, 1);
  double sum = 0.0;
  bool differs = false;
  for (int i = 0; i < 200000; ++i) {
    const double value = first.exponential(2.0);
    EXPECT_EQ(value, again.exponential(2.0));
    differs = differs || value != other.exponential(2.0);
    sum += value;
  }
  EXPECT_TRUE(differs);
  EXPECT_NEAR(sum / 200000, 2.0, 0.02);  // fixed seed: the same figure on every run
}

TEST(StudentT, MatchesTheTable) {
  EXPECT_DOUBLE_EQ(student_t_975(1), 12.706);
  EXPECT_NEAR(student_t_975(10), 2.228, 0.005);
  EXPECT_NEAR(student_t_975(30), 2.042, 0.003);
  EXPECT_NEAR(student_t_975(100000), 1.960, 0.001);
}

TaskSystemOptions deterministic(Discipline discipline = Discipline::FirstComeFirstServed, int visits = 1) {
  TaskSystemOptions options;
  options.replications = 3;
  options.service = ServiceDistribution::Deterministic;
  options.discipline = discipline;
  options.visits = visits;
  return options;
}

tspp::TaskSystem system_of(const std::string& text) { return tspp::parse_task_system(text, "test"); }

TEST(TaskSystemSimulation, ATaskAloneTakesItsDemand) {
  const auto system = system_of("resource cpu <- queuing; disk <- delay;\ntask a <- { cpu: 2; disk: 3; }\nstructure { a; }");
  for (int visits : {1, 10}) {
    const auto result = simulate(system, deterministic(Discipline::FirstComeFirstServed, visits));
    EXPECT_NEAR(result.completion.mean, 5.0, 1e-9) << "V = " << visits;
    EXPECT_NEAR(result.completion.deviation, 0.0, 1e-9);
    EXPECT_NEAR(result.resources[0].utilization, 0.4, 1e-9);
    EXPECT_NEAR(result.tasks[0].queue_of_task[0], 0.4, 1e-9);
    EXPECT_NEAR(result.tasks[0].arrival_queue[0], 0.0, 1e-12);
  }
}

TEST(TaskSystemSimulation, SerialTasksFollowEachOther) {
  const auto system = system_of("resource cpu <- queuing;\ntask a <- { cpu: 1; } b <- { cpu: 2; }\nstructure { a; b; }");
  const auto result = simulate(system, deterministic());
  EXPECT_NEAR(result.tasks[1].start.mean, 1.0, 1e-12);
  EXPECT_NEAR(result.completion.mean, 3.0, 1e-12);
  EXPECT_NEAR(result.resources[0].utilization, 1.0, 1e-12);
}

TEST(TaskSystemSimulation, DisciplinesAndServersOnTwoParallelTasks) {
  const std::string tasks = "task a <- { cpu: 1; } b <- { cpu: 1; }\nstructure [ a; b; ]";
  // FCFS, one server: a is served first, b waits for it.
  const auto fcfs = simulate(system_of("resource cpu <- queuing;\n" + tasks), deterministic());
  EXPECT_NEAR(fcfs.tasks[0].residence.mean, 1.0, 1e-12);
  EXPECT_NEAR(fcfs.tasks[1].residence.mean, 2.0, 1e-12);
  EXPECT_NEAR(fcfs.tasks[1].arrival_queue[0], 1.0, 1e-12) << "b finds a there";
  EXPECT_NEAR(fcfs.completion.mean, 2.0, 1e-12);
  EXPECT_NEAR(fcfs.resources[0].queue_length, 1.5, 1e-12);  // 2 customers for 1, then 1 for 1
  // Processor sharing: both at half speed, both done at 2.
  const auto ps = simulate(system_of("resource cpu <- queuing;\n" + tasks), deterministic(Discipline::ProcessorSharing));
  EXPECT_NEAR(ps.tasks[0].residence.mean, 2.0, 1e-12);
  EXPECT_NEAR(ps.tasks[1].residence.mean, 2.0, 1e-12);
  // Two servers, or a delay centre: no waiting.
  const auto two = simulate(system_of("resource cpu <- queuing 2;\n" + tasks), deterministic());
  EXPECT_NEAR(two.completion.mean, 1.0, 1e-12);
  EXPECT_NEAR(two.resources[0].utilization, 1.0, 1e-12);
  const auto delay = simulate(system_of("resource cpu <- delay;\n" + tasks), deterministic());
  EXPECT_NEAR(delay.completion.mean, 1.0, 1e-12);
}

TEST(TaskSystemSimulation, ExponentialServiceHasTheRightMean) {
  // Two parallel tasks of mean demand 1 on one server: the server works until both are done, so the
  // completion time is the sum of two exponential services: mean 2.
  const auto system = system_of("resource cpu <- queuing;\ntask a <- { cpu: 1; } b <- { cpu: 1; }\nstructure [ a; b; ]");
  TaskSystemOptions options;
  options.replications = 20000;
  const auto result = simulate(system, options);
  EXPECT_NEAR(result.completion.mean, 2.0, 3 * result.completion.half_width);
  EXPECT_NEAR(result.completion.deviation, std::sqrt(2.0), 0.05);
  EXPECT_GT(result.completion.half_width, 0.0);
}

TEST(TaskSystemSimulation, SameSeedSameResults) {
  const auto system = system_of(
      "resource cpu <- queuing; disk <- queuing;\ntask a <- { cpu: 1; disk: 2; } b <- { cpu: 2; disk: 1; }\n"
      "structure [ a; b; ]");
  TaskSystemOptions options;
  options.replications = 100;
  const auto first = simulate(system, options);
  const auto second = simulate(system, options);
  EXPECT_EQ(first.completion.mean, second.completion.mean);
  options.seed = 2;
  EXPECT_NE(simulate(system, options).completion.mean, first.completion.mean);
}

TEST(TaskSystemSimulation, LongChainsOfEmptyTasksDoNotRecurse) {
  std::string text = "resource cpu <- queuing;\ntask\n";
  std::string structure = "structure {\n";
  for (int i = 0; i < 20000; ++i) {
    text += "  t" + std::to_string(i) + " <- { }\n";
    structure += "  t" + std::to_string(i) + ";\n";
  }
  text += "  last <- { cpu: 1; }\n";
  const auto result = simulate(system_of(text + structure + "  last;\n}\n"), deterministic());
  EXPECT_NEAR(result.completion.mean, 1.0, 1e-12);
}

TEST(TaskSystemSimulation, RecordsTheFirstReplicationsTimeline) {
  const auto system = system_of("resource cpu <- queuing; disk <- queuing;\ntask a <- { cpu: 1; disk: 2; }\nstructure { a; }");
  const auto result = simulate(system, deterministic(Discipline::FirstComeFirstServed, 3), true);
  ASSERT_EQ(result.trace.size(), 6u);  // 3 cycles x 2 resources
  EXPECT_EQ(result.trace[0].resource, 0);
  EXPECT_NEAR(result.trace[0].end - result.trace[0].start, 1.0 / 3, 1e-12);
  EXPECT_NEAR(result.trace.back().end, 3.0, 1e-12);
}

}  // namespace
}  // namespace augur::sim
