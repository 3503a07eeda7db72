// Issue 15: the predictor at the edges of the demands (items 8 and 10) and at the limits of size
// (item 9): never a NaN, a refusal that names the limit before any work.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "augur/tspp_predictor.hpp"

namespace augur::tspp {
namespace {

PredictorOptions with(Method method) {
  PredictorOptions options;
  options.method = method;
  return options;
}

bool finite(const Moments& m) { return std::isfinite(m.mean) && std::isfinite(m.variance); }

void expect_finite(const Prediction& prediction, const std::string& what) {
  EXPECT_TRUE(finite(prediction.completion)) << what;
  for (const TaskPrediction& task : prediction.tasks) {
    EXPECT_TRUE(finite(task.start) && finite(task.residence) && finite(task.end)) << what;
    for (double value : task.residence_at) EXPECT_TRUE(std::isfinite(value)) << what;
    for (double value : task.arrival_queue) EXPECT_TRUE(std::isfinite(value)) << what;
  }
}

// A task with a subnormal demand made the seed's method divide by it (1 / R = inf, then NaN) and
// print "Completion time = - (-)" after 100 iterations.
TEST(TsppLimits, ASubnormalDemandIsReadAsZero) {
  const std::string tasks = "task a <- { cpu: 4.9e-324; disk: 1; } b <- { cpu: 1; } c <- { cpu: 1e-300; }\n";
  const TaskSystem system = parse_task_system("resource cpu <- queuing; disk <- queuing;\n" + tasks + "structure [ a; b; c; ]", "x");
  EXPECT_EQ(system.tasks[0].demands[0], 0.0);
  EXPECT_EQ(system.tasks[2].demands[0], 0.0);
  const TaskSystem zero = parse_task_system("resource cpu <- queuing; disk <- queuing;\ntask a <- { disk: 1; } b <- { cpu: 1; } c <- { }\n"
                                            "structure [ a; b; c; ]",
                                            "x");
  for (Method method : {Method::MakLundstrom, Method::Transient}) {
    const Prediction prediction = predict(system, with(method));
    expect_finite(prediction, "subnormal");
    EXPECT_TRUE(prediction.converged);
    EXPECT_EQ(prediction.completion.mean, predict(zero, with(method)).completion.mean);
  }
  EXPECT_EQ(parse_task_system("resource cpu <- queuing;\ntask a <- { cpu: 1e-100; }\nstructure { a; }", "x").tasks[0].demands[0], 1e-100);
}

// The largest demands, and demands of every scale side by side, give finite figures with both
// methods, or (transient) a refusal for tasks its time grid cannot resolve.
TEST(TsppLimits, HugeAndMixedScaleDemandsGiveFiniteFigures) {
  const std::string resources = "resource cpu <- queuing; disk <- queuing 2; net <- delay;\n";
  const std::string huge = resources + "task a <- { cpu: 1e15; disk: 1e15; } b <- { cpu: 1e15; net: 1e15; } c <- { disk: 1e15; }\n"
                                       "structure [ { a; c; } b; ]";
  for (Method method : {Method::MakLundstrom, Method::Transient}) {
    const Prediction prediction = predict(parse_task_system(huge, "huge"), with(method));
    expect_finite(prediction, "huge");
    EXPECT_GE(prediction.completion.mean, 1.9e15);
  }
  const std::string mixed = resources + "task a <- { cpu: 1e15; disk: 1e-90; } b <- { cpu: 1e-99; net: 1; } c <- { disk: 0.001; }\n"
                                        "d <- { cpu: 1e-50; }\nstructure [ { a; c; } [ b; d; ] ]";
  const Prediction prediction = predict(parse_task_system(mixed, "mixed"), with(Method::MakLundstrom));
  expect_finite(prediction, "mixed");
  EXPECT_TRUE(prediction.converged);
  EXPECT_NEAR(prediction.completion.mean, 1e15, 1e12);
  try {
    expect_finite(predict(parse_task_system(mixed, "mixed"), with(Method::Transient)), "mixed, transient");
  } catch (const std::invalid_argument& error) {
    EXPECT_NE(std::string(error.what()).find("bin"), std::string::npos) << error.what();
  }
}

// Item 10: c (demand 1) after b (demand 1e9) on one server: the time grid's bins are about 10^7 wide,
// and c's presence in each was below the window's threshold, so its residence read 0.
TEST(TsppLimits, ATaskShorterThanABinKeepsItsResidence) {
  const TaskSystem system = parse_task_system("resource cpu <- queuing;\ntask b <- { cpu: 1e9; } c <- { cpu: 1; }\nstructure { b; c; }", "x");
  const Prediction seed = predict(system);
  EXPECT_NEAR(seed.tasks[1].residence.mean, 1.0, 1e-9);
  const Prediction transient = predict(system, with(Method::Transient));
  EXPECT_NEAR(transient.tasks[1].residence.mean, 1.0, 0.01);
  EXPECT_NEAR(transient.tasks[1].residence.deviation(), 1.0, 0.01) << "exponential: the deviation is the mean";
  EXPECT_NEAR(transient.tasks[1].residence_at[0], 1.0, 0.01);
}

TEST(TsppLimits, ConcurrentPairsAreThoseUnderAParallelGroup) {
  const std::string head = "resource cpu <- queuing;\ntask a <- { cpu: 1; } b <- { cpu: 1; } c <- { cpu: 1; } d <- { cpu: 1; } e <- { cpu: 1; }\n";
  // Root: children of 2, 2 and 1 tasks give (25 - 4 - 4 - 1) / 2 = 8 pairs; [ c; d; ] one more.
  EXPECT_EQ(concurrent_pairs(parse_task_system(head + "structure [ { a; b; } [ c; d; ] e; ]", "x")), 9u);
  EXPECT_EQ(concurrent_pairs(parse_task_system(head + "structure { a; b; [ c; d; ] e; }", "x")), 1u);
  EXPECT_EQ(concurrent_pairs(parse_task_system(head + "structure { a; b; c; d; e; }", "x")), 0u);
}

TaskSystem flat(std::size_t tasks, Node::Kind kind) {
  TaskSystem system;
  system.resources.push_back({"cpu", Resource::Kind::Queuing, 1, {}});
  system.structure.kind = kind;
  for (std::size_t i = 0; i < tasks; ++i) {
    system.tasks.push_back({"t" + std::to_string(i), {1.0}, {}});
    system.structure.children.push_back({Node::Kind::Task, static_cast<int>(i), {}});
  }
  return system;
}

// 10^5 tasks in one parallel group: 5 x 10^9 pairs, past the limit; refused at once (the tables of
// every pair once took n^2 memory and ended in bad_alloc).
TEST(TsppLimits, RefusesPastTheLimitNamingIt) {
  const TaskSystem system = flat(100000, Node::Kind::Parallel);
  try {
    (void)predict(system);
    FAIL() << "no refusal";
  } catch (const std::invalid_argument& error) {
    EXPECT_NE(std::string(error.what()).find(std::to_string(max_concurrent_pairs)), std::string::npos) << error.what();
  }
  const TaskSystem many = flat(max_transient_tasks + 1, Node::Kind::Serial);
  try {
    (void)predict(many, with(Method::Transient));
    FAIL() << "no refusal";
  } catch (const std::invalid_argument& error) {
    EXPECT_NE(std::string(error.what()).find(std::to_string(max_transient_tasks)), std::string::npos) << error.what();
  }
}

// A pipeline: 10^5 tasks, a serial chain of parallel groups of 10 (450 000 concurrent pairs).
TEST(TsppLimits, ManyTasksWithFewConcurrentPairs) {
  TaskSystem system = flat(100000, Node::Kind::Serial);
  Node chain;
  chain.kind = Node::Kind::Serial;
  for (int i = 0; i < 100000; ++i) {
    if (i % 10 == 0) chain.children.push_back({Node::Kind::Parallel, -1, {}});
    chain.children.back().children.push_back({Node::Kind::Task, i, {}});
  }
  system.structure = chain;
  const Prediction prediction = predict(system);
  expect_finite(prediction, "pipeline");
  // Each group of 10 unit tasks on one server takes at least 10: the chain at least 10^5.
  EXPECT_GE(prediction.completion.mean, 1e5);
}

}  // namespace
}  // namespace augur::tspp
