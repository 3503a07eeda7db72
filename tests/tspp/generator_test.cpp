#include <gtest/gtest.h>

#include <functional>

#include "augur/tspp.hpp"

namespace augur::tspp {
namespace {

int depth_of(const Node& node) {
  if (node.kind == Node::Kind::Task) return 0;
  int deepest = 0;
  for (const Node& child : node.children) deepest = std::max(deepest, depth_of(child));
  return deepest + 1;
}

TEST(TsppGenerator, WritesFilesThatReadBackUnchanged) {
  for (unsigned long long seed = 1; seed <= 20; ++seed) {
    GeneratorOptions options;
    options.tasks = 5 + static_cast<int>(seed * 3);
    options.resources = 2 + static_cast<int>(seed % 5);
    options.depth = 1 + static_cast<int>(seed % 4);
    options.seed = seed;
    const TaskSystem system = generate_task_system(options);
    EXPECT_EQ(static_cast<int>(system.tasks.size()), options.tasks);
    EXPECT_EQ(static_cast<int>(system.resources.size()), options.resources);
    EXPECT_LE(depth_of(system.structure), options.depth);
    for (const Task& task : system.tasks) {
      double total = 0.0;
      for (double demand : task.demands) total += demand;
      EXPECT_GT(total, 0.0) << task.name << " uses no resource";
    }
    const std::string text = write_task_system(system);
    const TaskSystem again = parse_task_system(text, "generated");  // every task used once, names valid
    EXPECT_EQ(write_task_system(again), text);
    EXPECT_EQ(describe_structure(again), describe_structure(system));
  }
}

TEST(TsppGenerator, TheSameSeedGivesTheSameSystem) {
  GeneratorOptions options;
  options.tasks = 30;
  EXPECT_EQ(write_task_system(generate_task_system(options)), write_task_system(generate_task_system(options)));
  GeneratorOptions other = options;
  other.seed = 2;
  EXPECT_NE(write_task_system(generate_task_system(options)), write_task_system(generate_task_system(other)));
}

TEST(TsppGenerator, RejectsImpossibleOptions) {
  GeneratorOptions options;
  options.tasks = 0;
  EXPECT_THROW((void)generate_task_system(options), std::invalid_argument);
  options.tasks = 3;
  options.demand_min = 2.0;
  options.demand_max = 1.0;
  EXPECT_THROW((void)generate_task_system(options), std::invalid_argument);
}

}  // namespace
}  // namespace augur::tspp
