#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <string_view>
#include <vector>

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

// Issue 15, item 7: `augur gen-tasks` writes the system as it is drawn (no dense demands, no whole
// text in memory); the text is the one the built system writes, for any options.
TEST(TsppGenerator, TheStreamedTextIsTheBuiltSystemsText) {
  for (unsigned long long seed = 1; seed <= 12; ++seed) {
    GeneratorOptions options;
    options.tasks = 1 + static_cast<int>(seed * 7);
    options.resources = 1 + static_cast<int>(seed % 6);
    options.depth = 1 + static_cast<int>(seed % 5);
    options.use_probability = static_cast<double>(seed % 4) / 3.0;
    options.seed = seed;
    std::string streamed;
    int pieces = 0;
    write_generated_task_system(options, [&](std::string_view piece) {
      streamed += piece;
      ++pieces;
    });
    EXPECT_EQ(streamed, write_task_system(generate_task_system(options))) << "seed " << seed;
    EXPECT_GE(pieces, 1);
  }
}

// Issue 15, item 15: the generator and the parser agree on the range of demands: every demand the
// writer writes reads back to the same number, and a range the parser would reject is refused.
TEST(TsppGenerator, ExtremeDemandsReadBackUnchanged) {
  const std::vector<double> values = {min_demand, 1e-99, 4.9e-100, 0.001, 0.1, 1.0 / 3.0, 2.0 / 3.0, 123456789.123456,
                                      9.999999999999999e14, max_demand};
  TaskSystem system;
  system.resources.push_back({"cpu", Resource::Kind::Queuing, 1, {}});
  system.structure.kind = Node::Kind::Parallel;
  for (std::size_t i = 0; i < values.size(); ++i) {
    system.tasks.push_back({"t" + std::to_string(i), {values[i]}, {}});
    system.structure.children.push_back({Node::Kind::Task, static_cast<int>(i), {}});
  }
  const TaskSystem again = parse_task_system(write_task_system(system), "extreme");
  for (std::size_t i = 0; i < values.size(); ++i) EXPECT_EQ(again.tasks[i].demands[0], values[i]) << values[i];
  for (double huge : {1e300, 1.7976931348623157e308, 1e16}) {
    GeneratorOptions options;
    options.demand_min = 1.0;
    options.demand_max = huge;
    EXPECT_THROW((void)generate_task_system(options), std::invalid_argument) << huge;
    EXPECT_THROW(write_generated_task_system(options, [](std::string_view) {}), std::invalid_argument) << huge;
  }
  GeneratorOptions largest;
  largest.demand_min = max_demand;
  largest.demand_max = max_demand;
  std::string text;
  write_generated_task_system(largest, [&text](std::string_view piece) { text += piece; });
  const TaskSystem read = parse_task_system(text, "largest");
  for (const Task& task : read.tasks) {
    for (double demand : task.demands) EXPECT_TRUE(demand == 0.0 || demand == max_demand) << demand;
  }
}

}  // namespace
}  // namespace augur::tspp
